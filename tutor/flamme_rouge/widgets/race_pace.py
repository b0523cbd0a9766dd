"""The pace of a race (``RacePace``, the part ``RaceTutor.pace``): a short "Finish round", and "Finish the race".

"Finish round" plays the rest of a round in about ``tutor.ui.pace.ROUND_MS`` at normal speed (``round_budget``:
the riders' slides shrink, each held picture stays visible); "Next step" keeps its own pace. While an animation
planned longer than ``pace.LONG_MS`` plays, the prompt ends with the sentence about Skip.

"Finish the race" (``finish``, the games' one ``tutor.ui.pace.FinishOffer``): in a full race
(``RaceTutor.new_race``) from round ``pace.FINISH_FROM_ROUND``, the race plays on quickly (``finish.finishing``)
and the learner still chooses every card of their riders: what no person decides (``bots.autoplay``: the bots'
cards, the moves, the end phase) is resolved at once, up to the learner's next choice, where it stops and the
prompt names that choice ("Draw 4 for red-S"). After the learner's last card of a round the round resolves at
once, with no pause, until the finish; the log keeps every round, Back undoes each step (Back to a position before
"Finish the race" plays step by step again).
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.events import Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.scene import StepRecord
from tutor.i18n import _
from tutor.ui import pace
from tutor.ui.controller import UndoController
from tutor.ui.controls import StatusLine

from .narration import Line


def round_budget(steps: Sequence[StepRecord], speed: float) -> float | None:
    """How long the steps of "Finish round" may play (ms), at ``speed``; None for one step (its own pace)."""
    return pace.ROUND_MS * speed if len(steps) > 1 else None


def play_on(race: Race) -> list[Event]:
    """Everything no person decides, at once, until a person must choose or the race is over; the events."""
    return autoplay(race)


class PaceView(Protocol):
    """What the pace reads of the tutor: its public state (``RaceTutor`` is one)."""

    @property
    def race(self) -> Race: ...

    @property
    def done(self) -> bool: ...

    @property
    def paused(self) -> bool: ...

    @property
    def draw_buttons(self) -> dict[str, widgets.Button]: ...

    def warn(self, text: str) -> None: ...


class RacePace:
    """ "Finish the race" and the Skip sentence (the part ``RaceTutor.pace``): its state is ``finish`` (the round it
    is offered from, whether it was chosen, the note said once before the prompt); it reads the tutor's public
    state (``PaceView``) and changes the tutor's only through the callables it is built with."""

    def __init__(
        self,
        tutor: PaceView,
        *,
        scene: Scene,
        status: StatusLine,
        control: UndoController,
        start_next_round: Callable[[], None],
        show: Callable[[list[Line]], None],
        narrate: Callable[[Sequence[Event]], None],
        forget_marks: Callable[[], None],
    ) -> None:
        """``start_next_round()`` is "Start round N"; ``show(lines)`` logs the lines and repaints; ``narrate(events)``
        keeps events for the log; ``forget_marks()`` drops the marks of the last step and of the round's end. The
        tutor places ``finish.button`` and sends its clicks to ``finish_race``."""
        self.tutor, self.scene, self.status, self.control = tutor, scene, status, control
        self._start_next_round, self._show, self._narrate = start_next_round, show, narrate
        self._forget_marks = forget_marks
        self.finish = pace.FinishOffer(
            _("Finish the race ▸▸"),
            _("Play on quickly: you still choose your riders' cards, the computer does the rest at once"),
        )
        """Once chosen (``finish.finishing``), each round resolves at once after the learner's cards."""
        self.scene.on_playing(self._animation_playing)

    # ----- "Finish the race" -----------------------------------------------------------------------------

    @property
    def offers_finish(self) -> bool:
        """ "Finish the race" is offered now: a full race, late enough, the learner riding, not finishing yet."""
        race = self.tutor.race
        return (
            self.finish.reached(race.round)
            and not self.tutor.done
            and bool(self.tutor.draw_buttons)
            and race.phase is not Phase.FINISHED
            and (self.tutor.paused or race.phase is Phase.ENERGY or race.phase.automatic)
        )

    def show_offer(self) -> None:
        """Show "Finish the race" while it is offered."""
        self.finish.show(self.offers_finish)

    def finish_race(self) -> None:
        """The learner chose "Finish the race"."""
        if not self.offers_finish:
            self.tutor.warn(
                _("Each round is already resolved at once: you choose your riders' cards.")
                if self.finish.finishing
                else _("'Finish the race' is offered from round {n} of a race, while you ride.").format(
                    n=self.finish.first_round
                )
            )
            return
        self.finish.choose()
        note = _("From now on each round is resolved at once, after your cards.")
        if self.tutor.paused:  # the round's end was on the board: the next round starts, the bots play their cards
            self.finish.note = note
            self._start_next_round()
            return
        if self.tutor.race.phase is Phase.ENERGY:
            self.finish.note = note
            self._show([Line(note)])
            return
        round_ = self.tutor.race.round

        def play() -> list[Event]:
            self._forget_marks()
            return play_on(self.tutor.race)

        events = self.control.act(play) or []
        self._narrate(events)
        over = self.tutor.race.phase is Phase.FINISHED
        self.finish.note = self._quick_words(round_) if over else f"{self._quick_words(round_)} {note}"
        self._show([Line(self.finish.note)])

    def resolve_rest(self) -> list[Line]:
        """While finishing: the rest of the round once the learner's cards are played (inside the learner's undo
        step); what it did, in a line (none when the learner still has to choose)."""
        race = self.tutor.race
        if not self.finish.finishing or self.tutor.done or not race.phase.automatic:
            return []
        round_ = race.round
        events = play_on(race)
        self._narrate(events)
        self._forget_marks()  # no round's end is kept: the learner acted, so the race was not paused
        self.finish.note = self._quick_words(round_)
        return [Line(self.finish.note)]

    def _quick_words(self, round_: int) -> str:
        if self.tutor.race.phase is Phase.FINISHED:
            return _("Round {n} was resolved at once: the race is over.").format(n=round_)
        return _("Round {n} was resolved at once: the log has each move.").format(n=round_)

    def prompt(self, hint: str) -> str:
        """The prompt: what was just resolved at once (said once), then ``hint``."""
        note = self.finish.take_note()
        return f"{note} {hint}" if note else hint

    def with_skip(self, text: str, planned_ms: float) -> str:
        """``text``, and the sentence about Skip when the animation just started runs long."""
        hint = pace.skip_hint(planned_ms) if self.scene.playing else ""
        return f"{text} {hint}" if hint else text

    def _animation_playing(self, playing: bool) -> None:
        """An animation ended (or was skipped): the prompt no longer names Skip."""
        ending = " " + _(pace.SKIP_WORDS)
        if not playing and self.status.text.endswith(ending):
            self.status.show(self.status.text.removesuffix(ending), self.status.kind)
