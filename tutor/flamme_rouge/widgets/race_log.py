"""``RoundLog``: the race's log, round by round (a ``tutor.ui.narration.NarrationLog``), and what the last step
said.

``note(events)`` keeps a step's events with the round each belongs to (a ``RoundStarted`` event starts the next
round's section); ``take(lines, section, ended)`` words them (``narration.narrate``), adds the widget's own
``lines`` in ``section``, and returns what the step said. While the board shows the end of a round (``ended``:
that round's section), the next round's lines wait until the learner moves on; ``write`` logs what was taken.
"""

from __future__ import annotations

import itertools
from typing import Sequence

from tutor.flamme_rouge.events import Event, RoundStarted
from tutor.i18n import _
from tutor.ui.narration import NarrationLog

from .narration import Line, narrate

Tagged = list[tuple[str, Line]]
"""Lines with the log section each goes in."""


def section_title(round_: int) -> str:
    """A log section's title: "Round 2", or "Setup" before the first round."""
    return _("Round {n}").format(n=round_) if round_ else _("Setup")


class RoundLog:
    """The log of a race (``story``) and the events and lines waiting to be logged."""

    def __init__(self, story: NarrationLog, round_: int) -> None:
        self.story = story
        self._pending: list[tuple[str, Event]] = []
        self._held: Tagged = []
        self._section = section_title(round_)

    def note(self, events: Sequence[Event]) -> None:
        """Keep ``events`` to word, each in the section of its round."""
        section = self._section
        for event in events:
            if isinstance(event, RoundStarted):
                section = section_title(event.round)
            self._pending.append((section, event))
        self._section = section

    def take(self, lines: Sequence[Line], section: str, ended: str | None) -> Tagged:
        """The noted events' lines and ``lines`` (in ``section``, the race's section now), the lines held back
        first; with ``ended`` (the section of a round whose end the board shows) only that section's lines, the
        others held until a call without it."""
        tagged = [
            (sec, line)
            for sec, group in itertools.groupby(self._pending, key=lambda p: p[0])
            for line in narrate([event for _sec, event in group])
        ]
        tagged += [(section, line) for line in lines]
        self._pending, self._section = [], section
        if ended is not None:  # the round that ended stays the newest (open) section of the log
            self._held += [(sec, line) for sec, line in tagged if sec != ended]
            return [(sec, line) for sec, line in tagged if sec == ended]
        tagged, self._held = self._held + tagged, []
        return tagged

    def write(self, tagged: Tagged) -> None:
        """Log ``tagged``, section by section."""
        for section, group in itertools.groupby(tagged, key=lambda t: t[0]):
            self.story.add([line for _sec, line in group], section)

    def drop_held(self) -> None:
        """Forget the lines held for the next round (Back, Restart, a new position)."""
        self._held = []

    def clear(self) -> None:
        self.drop_held()
        self.story.clear()
