"""Flamme Rouge events: what an action did, as data (see ``tutor.core.events``).

Each event carries the rules it applied (``rules``: constants of ``rules``), whether the
step was ``automatic``, and the riders, squares, lanes, cards and packs involved. The
narration words them and the canvas animates them from these fields alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, NamedTuple

from tutor.core.events import Event, Rule

from .cards import Card

Position = tuple[int, int]
"""(square, lane): squares count from 0, lane 0 is the right-hand lane."""
Pack = tuple[int, int]
"""(rearmost square, frontmost square) of a pack."""

__all__ = [
    "Event",
    "Rule",
    "Position",
    "Pack",
    "RiderPlaced",
    "RoundStarted",
    "BidsStarted",
    "BotTeamsFlip",
    "Reshuffled",
    "CardsDrawn",
    "CardPlayed",
    "CardsRecycled",
    "CardsRevealed",
    "RiderMoved",
    "Blocked",
    "CardsRemoved",
    "PacksFound",
    "Slipstreamed",
    "NoSlipstream",
    "ExhaustionChecked",
    "ExhaustionTaken",
    "Finished",
    "BidsRevealed",
    "BreakawayDecided",
    "BreakawayCost",
    "BreakawayStart",
    "CardBid",
    "BotDeckRefilled",
    "DecksReshuffled",
    "Flip",
    "CardsFlipped",
    "TeamsHandedToBots",
]


@dataclass(frozen=True, slots=True)
class RiderPlaced(Event):
    rider: str
    to: Position


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round: its energy phase begins."""

    round: int


@dataclass(frozen=True, slots=True)
class BidsStarted(Event):
    """Peloton expansion, breakaway variant: after the setup, the two breakaway bids begin."""


@dataclass(frozen=True, slots=True)
class BotTeamsFlip(Event):
    """Every player's card is face down; the bot teams flip theirs next (a step of its own)."""

    round: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    owner: str
    """The deck's owner: a rider id, or a bot team's name."""
    count: int


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    rider: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    rider: str
    card: Card


@dataclass(frozen=True, slots=True)
class CardBid(Event):
    """Breakaway: a bidding rider's card goes face down as a bid (the energy phase's play is ``CardPlayed``)."""

    rider: str
    card: Card


@dataclass(frozen=True, slots=True)
class CardsRecycled(Event):
    rider: str
    cards: tuple[Card, ...]
    pile: int
    """Recycled cards of the rider's deck afterwards."""


@dataclass(frozen=True, slots=True)
class CardsRevealed(Event):
    cards: Mapping[str, Card]
    order: tuple[str, ...]
    """Movement order, frontmost rider first."""
    values: Mapping[str, int]
    """Squares each card moves its rider before terrain (Attack! gives 2 and 9)."""


@dataclass(frozen=True, slots=True)
class RiderMoved(Event):
    rider: str
    card: Card
    value: int
    """The card's value for this rider (Attack! gives 2 or 9)."""
    distance: int
    """Squares the card allows after terrain limits (before any blocking)."""
    frm: Position
    to: Position
    terrain: Rule | None = None
    """The terrain rule that made ``distance`` differ from ``value`` (ascent, descent, supply zone), if any."""


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    rider: str
    target: int
    """The square the rider would have reached."""
    full: tuple[int, ...]
    """Full squares it fell back over, frontmost first."""
    to: Position


@dataclass(frozen=True, slots=True)
class CardsRemoved(Event):
    cards: Mapping[str, Card]


@dataclass(frozen=True, slots=True)
class PacksFound(Event):
    packs: tuple[Pack, ...]
    """Every pack before slipstream, rearmost first."""
    after: tuple[Pack, ...]
    """Every pack after slipstream, rearmost first."""
    behind: tuple[Pack, ...] = ()
    """The packs exactly one empty square behind the next, in the order they were checked (a merged pack is
    checked again); each is then ``Slipstreamed`` or ``NoSlipstream``. Empty: nobody moves."""


@dataclass(frozen=True, slots=True)
class Slipstreamed(Event):
    riders: tuple[str, ...]
    frm: Pack
    """The pack's squares before the move."""
    to: Pack
    """The pack's squares after moving up one square."""
    packs: tuple[Pack, ...] = ()
    """Every pack once this one has moved and merged with the pack ahead, rearmost first."""


@dataclass(frozen=True, slots=True)
class NoSlipstream(Event):
    pack: Pack
    """A pack one empty square behind the next that does not move (``rules`` says why)."""


@dataclass(frozen=True, slots=True)
class ExhaustionChecked(Event):
    riders: tuple[str, ...]
    """Riders with an empty square in front of them."""
    exempt: tuple[str, ...]
    """Those of them that take no exhaustion (bot teams)."""


@dataclass(frozen=True, slots=True)
class ExhaustionTaken(Event):
    rider: str
    square: int


@dataclass(frozen=True, slots=True)
class Finished(Event):
    winner: str
    crossed: tuple[str, ...]
    """Riders past the line, best first."""


@dataclass(frozen=True, slots=True)
class BidsRevealed(Event):
    bid: int
    """1 or 2."""
    cards: Mapping[str, Card]
    """Each bidding rider's card in this bid."""


@dataclass(frozen=True, slots=True)
class BreakawayDecided(Event):
    totals: Mapping[str, int]
    """Each bidder's two cards added up."""
    ranking: tuple[str, ...]
    """Every bidder, best first."""
    grid: tuple[str, ...]
    """The bidders from the front of the start area to the back (ties go to the one further back)."""
    winners: tuple[str, ...]
    """The breakaway riders, best first."""
    tied: tuple[str, ...] = ()
    """The bidders whose equal totals straddle the cut, best first (empty: no tie decided who joined)."""
    tie_won: tuple[str, ...] = ()
    """Those of ``tied`` who join the breakaway: the ones further back on the ``grid`` (``rules.BREAKAWAY_TIE``)."""


@dataclass(frozen=True, slots=True)
class BreakawayCost(Event):
    """A breakaway rider pays for its head start: its bid cards leave the game, it takes 2 exhaustion cards."""

    rider: str
    exhaustion: int
    """Exhaustion cards it takes (2)."""


@dataclass(frozen=True, slots=True)
class BreakawayStart(Event):
    """A breakaway rider starts past the start line."""

    rider: str
    to: Position


@dataclass(frozen=True, slots=True)
class DecksReshuffled(Event):
    owners: tuple[str, ...]


class Flip(NamedTuple):
    """One flipped card and the riders it moves."""

    card: Card
    riders: tuple[str, ...]
    """Both riders of the Peloton (its one card moves both), or one rider of a Muscle team."""


@dataclass(frozen=True, slots=True)
class BotDeckRefilled(Event):
    """A bot team's deck ran out: its played cards are shuffled into a new deck (a player's deck is
    ``Reshuffled`` from its recycled cards)."""

    team: str
    count: int


@dataclass(frozen=True, slots=True)
class CardsFlipped(Event):
    team: str
    flips: tuple[Flip, ...]
    """Every card the team flipped, in order: one for the Peloton, one for each rider of a Muscle team."""

    @property
    def cards(self) -> dict[str, Card]:
        """The card that moves each of the team's riders."""
        return {rid: flip.card for flip in self.flips for rid in flip.riders}


@dataclass(frozen=True, slots=True)
class TeamsHandedToBots(Event):
    """Teams that people played are played by a bot from now on (``Race.hand_to_bots``)."""

    teams: tuple[str, ...]
    """The teams handed over, in the race's order."""
    bot: str
    """The bot's name (``bots.BOTS``)."""
