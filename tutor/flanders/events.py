"""Events: what an action did, as data (``tutor.core.events``).

Every event carries the ``rules`` it applied and whether it was ``automatic``
(the rules made it happen; the player did not choose it). Events are immutable
values: frozen dataclasses whose fields are numbers, strings and tuples. Cards appear as their
id (``card``, an index into ``Game.cards.deck``; ``FIXED`` is the card on space
9) and their ``name``; spaces are card spaces 3 to 11, positions are battlefield
spaces (0 = starting line). The narration and the canvas read these fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.core.events import Event

__all__ = [
    "Event",
    "SpaceFilled",
    "RowRedrawn",
    "Reshuffled",
    "TurnStarted",
    "TurnSkipped",
    "DiceRolled",
    "CardTaken",
    "PawnPlacedOnNine",
    "Busted",
    "Stopped",
    "TroopsLost",
    "PawnMoved",
    "PawnRemovedFromNine",
    "CardsDiscarded",
    "CardsRetained",
    "TurnEnded",
    "ObjectiveReached",
    "GameOver",
]


@dataclass(frozen=True, slots=True)
class SpaceFilled(Event):
    """A card dealt onto an empty card space (setup, refill, or after an all-German row)."""

    space: int
    card: int
    name: str
    german: bool


@dataclass(frozen=True, slots=True)
class RowRedrawn(Event):
    """A row of three German cards went to the discard pile; ``SpaceFilled`` events follow."""

    row: tuple[int, int, int]
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The draw pile ran out: the discard pile was shuffled into a new draw pile of ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    player: str
    round: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A player with no troop pieces left (three or four players) takes no turn."""

    player: str


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    player: str
    dice: tuple[int, int, int]
    sums: tuple[int, ...]
    """The sums of the three pairs of dice, sorted, without repeats."""
    available: tuple[int, ...]
    """The sums that name a space with a card still on it this turn (empty: a bust)."""
    loaded: bool = False
    """The dice were given (a lesson or scenario), not rolled with the game's generator."""


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    player: str
    space: int
    pair: tuple[int, int]
    """The values of the two dice chosen (their sum is ``space``)."""
    chosen: tuple[int, int]
    """Which two dice of the roll were chosen (indices 0 to 2, as ``odds.PAIRS``)."""
    card: int
    name: str
    german: bool
    forced: bool
    """True when this was the only space the roll allowed (you must take a card if you can)."""


@dataclass(frozen=True, slots=True)
class PawnPlacedOnNine(Event):
    """The player's second pawn on space 9: it stands for the fixed card (acts as Infantry)."""

    player: str
    pair: tuple[int, int]
    """The values of the two dice chosen (their sum is 9)."""
    chosen: tuple[int, int]
    """Which two dice of the roll were chosen (indices 0 to 2, as ``odds.PAIRS``)."""
    forced: bool


@dataclass(frozen=True, slots=True)
class Busted(Event):
    player: str
    dice: tuple[int, int, int]
    risk: int
    """Grey symbols on the British cards held."""


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    player: str
    cards: tuple[int, ...]
    """The cards to carry out: retained from earlier turns, then taken this turn, in order."""
    on_nine: bool


@dataclass(frozen=True, slots=True)
class TroopsLost(Event):
    player: str
    count: int
    """Troop pieces actually lost (never more than the player had)."""
    owed: int
    """Troop pieces the cause called for: the grey symbols at a bust, the card's black symbols, 1 for a
    sacrifice (``count`` is less when the player had fewer left)."""
    cause: str
    """``"bust"`` (grey symbols), ``"german"`` (black symbols of ``card``) or ``"sacrifice"``."""
    card: int | None
    troops: int
    """Troop pieces left."""


@dataclass(frozen=True, slots=True)
class PawnMoved(Event):
    player: str
    card: int
    name: str
    frm: int
    to: int
    allowed: int
    """Spaces the card allows (``move``, plus one with a sacrifice)."""
    sacrifice: bool
    tank: bool
    mines: tuple[int, ...]
    """Mines cards used to continue past defensive lines."""
    crossed: tuple[int, ...]
    """Defensive lines the pawn left or passed during this move."""
    cleared: tuple[int, ...]
    """Defensive lines the Tank, or the Mines cards (one each), got the pawn past: the line it was halted on
    and those it passed."""
    halted: bool
    """True when the pawn ended on a defensive line that stops it for the rest of the turn."""


@dataclass(frozen=True, slots=True)
class PawnRemovedFromNine(Event):
    player: str


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsRetained(Event):
    player: str
    cards: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    player: str
    bust: bool


@dataclass(frozen=True, slots=True)
class ObjectiveReached(Event):
    """The pawn reached the Objective line; the round is finished before the game ends."""

    player: str
    troops: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winners: tuple[str, ...]
    ending: str
    """How the game ended: ``"objective"``, ``"everyone-lost"`` or ``"two-players"``."""
    troops: tuple[tuple[str, int], ...]
    """(player, troop pieces left), in seating order."""
    pawns: tuple[tuple[str, int], ...]
    """(player, battlefield space of the pawn), in seating order."""
