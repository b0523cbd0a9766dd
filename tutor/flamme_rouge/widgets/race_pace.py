"""The pace of a race (``RacePace``, a mixin of ``RaceTutor``): a short "Finish round", and "Finish the race".

"Finish round" plays the rest of a round in about ``tutor.ui.pace.ROUND_MS`` at normal speed (``round_budget``:
the riders' slides shrink, each held picture stays visible); "Next step" keeps its own pace. While an animation
planned longer than ``pace.LONG_MS`` plays, the prompt ends with the sentence about Skip.

"Finish the race" (``finish_race_button``): in a full race (``RaceTutor.new_race``) from round
``FINISH_FROM_ROUND``, when the learner is to play cards or a round has just ended, the heuristic bot plays the
learner's riders too and every round is resolved to the finish; the board shows the end at once, the log keeps
every round, the results table shows, Back undoes it.
"""

from __future__ import annotations

from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge.bots import autoplay, get_bot, play_energy_phase
from tutor.flamme_rouge.events import Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.scene import StepRecord
from tutor.i18n import _
from tutor.ui import pace
from tutor.ui.controller import UndoController
from tutor.ui.controls import StatusLine, button

from .narration import Line

FINISH_FROM_ROUND = 3
"""A full race offers "Finish the race" from this round on."""
FINISHING_BOT = "heuristic"
"""The bot that rides the learner's team when the learner asks to finish the race."""


def round_budget(steps: Sequence[StepRecord], speed: float) -> float | None:
    """How long the steps of "Finish round" may play (ms), at ``speed``; None for one step (its own pace)."""
    return pace.ROUND_MS * speed if len(steps) > 1 else None


def finish_race(race: Race, learners: Sequence[str]) -> list[Event]:
    """Every round to the finish, the learner's riders played by ``FINISHING_BOT``; the events."""
    events: list[Event] = []
    bot = get_bot(FINISHING_BOT)
    while not race.is_over:
        events += autoplay(race)
        if race.is_over or not race.phase.choosing:
            break
        played = play_energy_phase(race, bot, teams=learners)
        if not played:
            break
        events += played
    return events


class RacePace:
    """"Finish the race" and the Skip sentence, on the state ``RaceTutor`` declares here."""

    race: Race
    scene: Scene
    status: StatusLine
    control: UndoController
    human_teams: tuple[str, ...]
    _round_end: list[Event] | None
    _events: list[Event]
    _narrate: Callable[[Sequence[Event]], None]
    _show: Callable[..., None]
    _hint: Callable[[], str]

    def warn(self, text: str) -> None:
        raise NotImplementedError

    def on_click(self, button: widgets.Button, control: str, handler: Callable[[], None]) -> None:
        raise NotImplementedError

    @property
    def done(self) -> bool:
        raise NotImplementedError

    @property
    def paused(self) -> bool:
        raise NotImplementedError

    def _pace_setup(self) -> None:
        """The controls of this mixin (called once by ``RaceTutor.__init__``)."""
        self.finish_from_round: int | None = None
        """Round from which "Finish the race" is offered (None: never; ``new_race`` sets it)."""
        self.finish_race_button = button(_("Finish the race ▸▸"),
                                         _("Bots ride every team, yours too, to the finish"))
        self.on_click(self.finish_race_button, "finish-race", self._on_finish_race)
        self.finish_race_button.layout.display = "none"
        self.scene.on_playing(self._animation_playing)

    @property
    def offers_finish(self) -> bool:
        """"Finish the race" is offered now: a full race, late enough, the learner to play or a round just over."""
        race = self.race
        return (self.finish_from_round is not None and race.round >= self.finish_from_round and not self.done
                and race.phase is not Phase.FINISHED and (self.paused or race.phase is Phase.ENERGY))

    def _show_finish_offer(self) -> None:
        self.finish_race_button.layout.display = None if self.offers_finish else "none"

    def _on_finish_race(self) -> None:
        if not self.offers_finish:
            self.warn(_("The bots finish the race only when you are to play your cards, or between rounds."))
            return

        def to_the_end() -> list[Event]:
            self._round_end, self._events = None, []
            return finish_race(self.race, self.human_teams)

        events = self.control.act(to_the_end) or []
        self._narrate(events)
        self._show([Line(_("The bots rode every team to the finish: the log has each round."))])

    def _with_skip(self, text: str, planned_ms: float) -> str:
        """``text``, and the sentence about Skip when the animation just started runs long."""
        hint = pace.skip_hint(planned_ms) if self.scene.playing else ""
        return f"{text} {hint}" if hint else text

    def _animation_playing(self, playing: bool) -> None:
        """An animation ended (or was skipped): the prompt no longer names Skip."""
        ending = " " + pace.SKIP_WORDS
        if not playing and self.status.text.endswith(ending):
            self.status.show(self.status.text.removesuffix(ending), self.status.kind)
