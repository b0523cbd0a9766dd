"""The game's log, one section per turn, on the shared ``tutor.ui.narration.NarrationLog``: ``log_events``
words events into it (``narration.narrate``, from their fields), and ``bust_end`` says where a bust's pause goes
in a run of events.
"""

from __future__ import annotations

from typing import Sequence

from tutor.core.events import Event
from tutor.flanders.cards import CardSet
from tutor.flanders.events import Busted, TurnEnded, TurnStarted
from tutor.i18n import _
from tutor.ui.narration import Line, NarrationLog

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


def log_lines(log: NarrationLog, lines: Sequence[Line], heading: str) -> None:
    """Add ``lines`` to the newest turn (a first one named ``heading`` when there is none), shown at the next
    ``log.refresh()``."""
    log.add(lines, None if log.sections else heading, show=False)


def log_events(log: NarrationLog, events: Sequence[Event], cards: CardSet, heading: str) -> None:
    """Word ``events`` into the log, a new section at each ``TurnStarted``."""
    chunk: list[Event] = []
    for e in events:
        if isinstance(e, TurnStarted):
            if chunk:
                log_lines(log, narrate(chunk, cards), heading)
                chunk = []
            log.start(turn_heading(e.round, e.player), show=False)
        chunk.append(e)
    if chunk:
        log_lines(log, narrate(chunk, cards), heading)
