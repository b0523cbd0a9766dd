"""What to emphasise on the riders layer, computed from the race and the events of the last action."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.race import Phase, Race
from tutor.i18n import _
from tutor.flamme_rouge.events import (
    Blocked,
    BreakawayCost,
    Event,
    ExhaustionTaken,
    PacksFound,
    Position,
    RiderMoved,
    Slipstreamed,
)


@dataclass(frozen=True)
class Mark:
    """An outlined cell with a label above the road (e.g. a learner's guess in a quiz)."""

    square: int
    lane: int | None
    """None outlines every lane of the square."""
    label: str
    colour: str
    below: bool = False
    """Put the label under the road instead of above it (two marks on neighbouring squares)."""


@dataclass(frozen=True, slots=True)
class Chip:
    """A small card by a rider's token: the cards it stands for and, in the movement phase, the squares they move
    the rider. The renderer colours it from its cards (an exhaustion card), never from its label."""

    cards: tuple[Card, ...] = ()
    """The card (or a breakaway bidder's revealed bid cards); empty for a bid still face down."""
    value: int | None = None
    """Squares the card moves its rider (Attack! gives 2 or 9); None shows the cards themselves."""

    @property
    def exhaustion(self) -> bool:
        return any(card.is_exhaustion for card in self.cards)

    @property
    def label(self) -> str:
        if len(self.cards) == 1 and self.exhaustion:
            return str(self.cards[0])  # "E2": the card itself, whatever it moves
        if self.value is not None:
            return str(self.value)
        return "+".join(str(card) for card in self.cards) or _("bid")


@dataclass(frozen=True)
class Highlights:
    next_mover: str | None = None
    """The rider about to move (a gold ring)."""
    active: str | None = None
    """The rider whose drawn cards are shown (a dashed gold ring)."""
    cards: Mapping[str, Chip] = field(default_factory=dict)
    """Rider -> its revealed card, drawn as a chip by riders still to move."""
    trails: Mapping[str, tuple[Position, Position]] = field(default_factory=dict)
    """Rider -> (from, to) positions of the move just made (a dashed line from a ghost ring)."""
    blocked: tuple[int, ...] = ()
    """Full squares the last mover fell back over (outlined and crossed)."""
    packs: tuple[tuple[float, float], ...] = ()
    """(rearmost, frontmost) squares of each pack, outlined at slipstream time (fractional while sliding)."""
    slipstreamed: Mapping[str, int] = field(default_factory=dict)
    """Rider -> squares gained by slipstream just now (a green "+1" chip by the token)."""
    exhausted: tuple[str, ...] = ()
    """Riders that just took an exhaustion card (an "E2" card icon by the token)."""
    marks: tuple[Mark, ...] = ()
    places: Mapping[str, int] = field(default_factory=dict)
    """Rider -> finishing place (1 the winner), drawn as a gold "1st" tag above the token at the finish."""


def highlights_for(
    race: Race, events: Iterable[Event] = (), *, active: str | None = None, helpers: bool = True
) -> Highlights:
    """Highlights for ``race`` as it is now, after the step that produced ``events``.

    Pass the events of the LAST step only (one move, or one part of the end phase): a mark belongs to its
    step and is gone once the next step is done (a crossed full square may be empty after slipstream).
    ``helpers=False`` leaves out the marks that work a rule out for the learner, for a quiz's question: the
    "moves next" ring and the chips of the squares each card moves (they tell the order and the answer).
    """
    trails: dict[str, tuple[Position, Position]] = {}
    blocked: tuple[int, ...] = ()
    packs: tuple[tuple[int, int], ...] = ()
    gained: dict[str, int] = {}
    exhausted: list[str] = []
    for event in events:
        if isinstance(event, RiderMoved):
            trails = {event.rider: (event.frm, event.to)}  # the last move only: a whole round would clutter
        elif isinstance(event, Blocked):
            blocked = event.full
        elif isinstance(event, PacksFound):
            packs = event.after  # as they are after slipstream
        elif isinstance(event, Slipstreamed):
            for rid in event.riders:
                gained[rid] = gained.get(rid, 0) + 1
        elif isinstance(event, (ExhaustionTaken, BreakawayCost)):
            exhausted.append(event.rider)
    return Highlights(
        next_mover=race.to_move[0] if helpers and race.phase is Phase.MOVEMENT and race.to_move else None,
        active=active,
        cards=revealed_cards(race) if helpers else {},
        trails=trails,
        blocked=blocked,
        packs=packs,
        slipstreamed=gained,
        exhausted=tuple(exhausted),
        places={rid: i + 1 for i, rid in enumerate(race.ranking)} if race.phase is Phase.FINISHED else {},
    )


def revealed_cards(race: Race) -> dict[str, Chip]:
    """Card chips for the riders still to move in the movement phase (the squares their card moves them)."""
    return chips_for(race.revealed_moves())


def chips_for(moves: Mapping[str, tuple[Card, int]]) -> dict[str, Chip]:
    """A card chip for each rider of ``moves`` (``Race.revealed_moves``: its card and the squares it moves)."""
    return {rid: Chip((card,), value) for rid, (card, value) in moves.items()}
