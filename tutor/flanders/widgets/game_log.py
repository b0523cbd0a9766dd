"""``TurnLog``: the game's log, one section per turn (``turns``: heading and lines), and ``bust_end``, where a
bust's pause goes in a run of events.

The log's HTML is ``narration.log_html(log.turns)``; each event is worded by ``narration.narrate`` from its
fields.
"""

from __future__ import annotations

from typing import Sequence

from tutor.core.events import Event
from tutor.flanders.cards import CardSet
from tutor.flanders.events import Busted, TurnEnded, TurnStarted
from tutor.i18n import _
from tutor.ui.narration import Line

from .narration import narrate


def turn_heading(round_: int, player: str) -> str:
    """A turn's section title: "Round 2 · p3"."""
    return _("Round {n} · {player}").format(n=round_, player=player)


def bust_end(events: Sequence[Event]) -> int | None:
    """The index of the end of the turn that follows a bust, when more follows it (a pause goes there)."""
    busted = False
    for k, event in enumerate(events):
        busted = busted or isinstance(event, Busted)
        if busted and isinstance(event, TurnEnded):
            return k if k + 1 < len(events) else None
    return None


class TurnLog:
    """Every turn's lines, in ``turns`` (heading, lines), the newest last."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, list[Line]]] = []

    @property
    def lines(self) -> list[Line]:
        """Every line logged, in order."""
        return [line for _heading, lines in self.turns for line in lines]

    def start(self, heading: str, lines: Sequence[Line] = ()) -> None:
        """A new section."""
        self.turns.append((heading, list(lines)))

    def add(self, lines: Sequence[Line], heading: str) -> None:
        """Add ``lines`` to the newest section (a first one named ``heading`` when there is none)."""
        if not self.turns:
            self.start(heading)
        self.turns[-1][1].extend(lines)

    def group(self, events: Sequence[Event], cards: CardSet, heading: str) -> None:
        """Word ``events`` into the log, a new section at each ``TurnStarted``."""
        chunk: list[Event] = []
        for e in events:
            if isinstance(e, TurnStarted):
                if chunk:
                    self.add(narrate(chunk, cards), heading)
                    chunk = []
                self.start(turn_heading(e.round, e.player))
            chunk.append(e)
        if chunk:
            self.add(narrate(chunk, cards), heading)

    def clear(self) -> None:
        self.turns = []
