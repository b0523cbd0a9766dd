"""Events: what an action did, with the data a renderer needs and the rule that applied.

Every event has ``reason``: one plain sentence that cites the rule. The canvas
animates events and the narration reads their reasons; nothing is scraped from logs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import Card

Position = tuple[int, int]
"""(square, lane): squares count from 0, lane 0 is the right-hand lane."""


@dataclass(frozen=True, slots=True)
class Event:
    reason: str

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict:
        data = {"kind": self.kind}
        for f in fields(self):
            data[f.name] = _plain(getattr(self, f.name))
        return data


def _plain(value):
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RiderPlaced(Event):
    rider: str
    to: Position


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    rider: str
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
class CardsRecycled(Event):
    rider: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsRevealed(Event):
    cards: dict[str, Card]
    order: tuple[str, ...]
    """Movement order, frontmost rider first."""


@dataclass(frozen=True, slots=True)
class RiderMoved(Event):
    rider: str
    card: Card
    distance: int
    """Squares the card allows after terrain limits (before any blocking)."""
    frm: Position
    to: Position


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
    cards: dict[str, Card]


@dataclass(frozen=True, slots=True)
class PacksFound(Event):
    packs: tuple[tuple[int, int], ...]
    """(rearmost square, frontmost square) of every pack, rearmost pack first."""


@dataclass(frozen=True, slots=True)
class Slipstreamed(Event):
    riders: tuple[str, ...]
    frm: tuple[int, int]
    """The pack's squares (rearmost, frontmost) before the move."""


@dataclass(frozen=True, slots=True)
class NoSlipstream(Event):
    pack: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ExhaustionTaken(Event):
    rider: str
    square: int


@dataclass(frozen=True, slots=True)
class Finished(Event):
    winner: str
    crossed: tuple[str, ...]
    """Riders past the line, best first."""
