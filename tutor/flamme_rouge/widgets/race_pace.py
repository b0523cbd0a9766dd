"""The pace of a race (``RacePace``, a mixin of ``RaceTutor``): a short "Finish round", and "Finish the race".

"Finish round" plays the rest of a round in about ``tutor.ui.pace.ROUND_MS`` at normal speed (``round_budget``:
the riders' slides shrink, each held picture stays visible); "Next step" keeps its own pace. While an animation
planned longer than ``pace.LONG_MS`` plays, the prompt ends with the sentence about Skip.

"Finish the race" (``finish_race_button``): in a full race (``RaceTutor.new_race``) from round
``FINISH_FROM_ROUND``, the race plays on quickly (``finishing``) and the learner still chooses every card of
their riders: what no person decides (``bots.autoplay``: the bots' cards, the moves, the end phase) is resolved
at once, up to the learner's next choice, where it stops and the prompt names that choice ("Draw 4 for red-S").
After the learner's last card of a round the round resolves at once, with no pause, until the finish; the log
keeps every round, Back undoes each step (Back to a position before "Finish the race" plays step by step again).
"""

from __future__ import annotations

from typing import Callable, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge.bots import autoplay
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


def round_budget(steps: Sequence[StepRecord], speed: float) -> float | None:
    """How long the steps of "Finish round" may play (ms), at ``speed``; None for one step (its own pace)."""
    return pace.ROUND_MS * speed if len(steps) > 1 else None


def play_on(race: Race) -> list[Event]:
    """Everything no person decides, at once, until a person must choose or the race is over; the events."""
    return autoplay(race)


class RacePace:
    """"Finish the race" and the Skip sentence, on the state ``RaceTutor`` declares here."""

    race: Race
    scene: Scene
    status: StatusLine
    control: UndoController
    human_teams: tuple[str, ...]
    _round_end: list[Event] | None
    _round_events: list[Event]
    _events: list[Event]
    _narrate: Callable[[Sequence[Event]], None]
    _show: Callable[..., None]

    def warn(self, text: str) -> None:
        raise NotImplementedError

    def _on_next_round(self) -> None:
        raise NotImplementedError

    def on_click(self, button: widgets.Button, control: str, handler: Callable[[], None]) -> None:
        raise NotImplementedError

    @property
    def done(self) -> bool:
        raise NotImplementedError

    @property
    def paused(self) -> bool:
        raise NotImplementedError

    @property
    def draw_buttons(self) -> dict[str, widgets.Button]:
        raise NotImplementedError

    def _pace_setup(self) -> None:
        """The controls of this mixin (called once by ``RaceTutor.__init__``)."""
        self.finish_from_round: int | None = None
        """Round from which "Finish the race" is offered (None: never; ``new_race`` sets it)."""
        self.finishing = False
        """"Finish the race" was chosen: each round resolves at once after the learner's cards."""
        self._pace_note = ""
        """What the computer just did at once, said before the prompt (once)."""
        self.finish_race_button = button(_("Finish the race ▸▸"),
                                         _("Play on quickly: you still choose your riders' cards, the computer "
                                           "does the rest at once"))
        self.on_click(self.finish_race_button, "finish-race", self._on_finish_race)
        self.finish_race_button.layout.display = "none"
        self.scene.on_playing(self._animation_playing)

    @property
    def offers_finish(self) -> bool:
        """"Finish the race" is offered now: a full race, late enough, the learner riding, not finishing yet."""
        race = self.race
        return (self.finish_from_round is not None and race.round >= self.finish_from_round and not self.done
                and not self.finishing and bool(self.draw_buttons) and race.phase is not Phase.FINISHED
                and (self.paused or race.phase is Phase.ENERGY or race.phase.automatic))

    def _show_finish_offer(self) -> None:
        self.finish_race_button.layout.display = None if self.offers_finish else "none"

    def _on_finish_race(self) -> None:
        if not self.offers_finish:
            self.warn(_("Each round is already resolved at once: you choose your riders' cards.") if self.finishing
                      else _("'Finish the race' is offered from round {n} of a race, while you ride.").format(
                          n=self.finish_from_round or FINISH_FROM_ROUND))
            return
        self.finishing = True
        note = _("From now on each round is resolved at once, after your cards.")
        if self.paused:  # the round's end was on the board: the next round starts, the bots play their cards
            self._pace_note = note
            self._on_next_round()
            return
        if self.race.phase is Phase.ENERGY:
            self._pace_note = note
            self._show([Line(note)])
            return
        round_ = self.race.round

        def play() -> list[Event]:
            self._round_end, self._round_events, self._events = None, [], []
            return play_on(self.race)

        events = self.control.act(play) or []
        self._narrate(events)
        over = self.race.phase is Phase.FINISHED
        self._pace_note = self._quick_words(round_) if over else f"{self._quick_words(round_)} {note}"
        self._show([Line(self._pace_note)])

    def _play_on(self) -> list[Line]:
        """While finishing: the rest of the round once the learner's cards are played (inside the learner's undo
        step); what it did, in a line (none when the learner still has to choose)."""
        race = self.race
        if not self.finishing or self.done or not race.phase.automatic:
            return []
        round_ = race.round
        events = play_on(race)
        self._narrate(events)
        self._events, self._round_events = [], []
        self._pace_note = self._quick_words(round_)
        return [Line(self._pace_note)]

    def _quick_words(self, round_: int) -> str:
        if self.race.phase is Phase.FINISHED:
            return _("Round {n} was resolved at once: the race is over.").format(n=round_)
        return _("Round {n} was resolved at once: the log has each move.").format(n=round_)

    def _prompt(self, hint: str) -> str:
        """The prompt: what was just resolved at once (said once), then ``hint``."""
        note, self._pace_note = self._pace_note, ""
        return f"{note} {hint}" if note else hint

    def _with_skip(self, text: str, planned_ms: float) -> str:
        """``text``, and the sentence about Skip when the animation just started runs long."""
        hint = pace.skip_hint(planned_ms) if self.scene.playing else ""
        return f"{text} {hint}" if hint else text

    def _animation_playing(self, playing: bool) -> None:
        """An animation ended (or was skipped): the prompt no longer names Skip."""
        ending = " " + _(pace.SKIP_WORDS)
        if not playing and self.status.text.endswith(ending):
            self.status.show(self.status.text.removesuffix(ending), self.status.kind)
