"""``PredictQuiz``: show a Flamme Rouge position and the played cards, ask what happens, then play it out.

    quiz = PredictQuiz("scenarios/p1_blocked_rider.json",
                       question="Where does red-R end after the movement phase?", rider="red-R")
    quiz = PredictQuiz(scenario_dict, question="Who takes an exhaustion card?", ask="exhausted",
                       explain="An empty lane beside you does not count.")

``ask="square"``: the learner picks a square (``square_input``, a Dropdown;
with ``with_lane=True`` also a lane in ``lane_input``). ``ask="exhausted"``:
the learner ticks riders (``rider_checks``: rider -> Checkbox). "Reveal"
(``reveal_button``) animates the round on the canvas and writes ``feedback``:
right or wrong, the correct answer, the rules that decided it (from the engine
events' rules) and ``explain``. "Try again" (``retry_button``) resets.
The answer is checked against ``scenario.resolve_round``; ``after`` says which
position counts ("movement", default with cards, or "slipstream").
Other attributes: ``race``, ``scene``, ``status``, ``narration``,
``correct_answer``, ``is_right`` (None before Reveal), ``answer``.
The shell (question, Reveal, Try again, feedback) is ``tutor.ui.RevealQuiz``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import ipywidgets as widgets

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.events import (Blocked, Event, ExhaustionChecked, ExhaustionTaken, NoSlipstream, PacksFound,
                                       RiderMoved, Slipstreamed)
from tutor.flamme_rouge.race import Phase
from tutor.flamme_rouge.render import CardPanel, Highlights, Mark, Scene, highlights_for, legend_html
from tutor.flamme_rouge.render.style import SLIPSTREAM, WARNING, lane_name
from tutor.ui.controls import label
from tutor.ui.quiz import RevealQuiz, Verdict

from .narration import Line, narrate

ASKS = ("square", "exhausted")
AFTER = {"movement": Phase.MOVEMENT, "slipstream": Phase.END_SLIPSTREAM}
"""The phase resolved on Reveal (``Race.resolve``) before the position is judged."""
WHEN = {"movement": "after the movement phase", "slipstream": "after slipstream"}
SQUARES_OFFERED = 12
"""The dropdown offers the rider's square and this many squares ahead."""


class PredictQuiz(RevealQuiz):
    def __init__(self, scenario: str | dict[str, Any], *, question: str, rider: str | None = None,
                 ask: str = "square", explain: str = "", after: str | None = None, with_lane: bool = False):
        self.scenario = scenario if isinstance(scenario, dict) else scenarios.load(scenario)
        if ask not in ASKS:
            raise ValueError(f"ask must be one of {ASKS}, not {ask!r}")
        self.ask = ask
        self.after = after or ("movement" if "cards" in self.scenario else "slipstream")
        if self.after not in AFTER:
            raise ValueError(f"after must be one of {tuple(AFTER)}, not {self.after!r}")
        self.race = scenarios.build(self.scenario)
        self.rider = rider or (self.race.to_move[-1] if self.race.to_move else next(iter(self.race.riders)))
        if self.rider not in self.race.riders:
            raise ValueError(f"rider {self.rider!r} is not in the scenario (riders: {', '.join(self.race.riders)})")
        self.with_lane = with_lane
        self.correct_answer = self._correct_answer()
        self._events: list[Event] = []
        self._before: dict[str, tuple[int, int]] = {}

        self.scene = Scene(self.race.track)
        self.square_input: widgets.Dropdown | None = None
        self.lane_input: widgets.ToggleButtons | None = None
        self.rider_checks: dict[str, widgets.Checkbox] = {}
        self.prompt = (f"Look at the positions and the played cards, "
                       f"{'choose a square' if ask == 'square' else 'tick the riders you think take an exhaustion card'}"
                       ", then click Reveal.")
        self.legend = widgets.HTML(legend_html(self.race))
        board = widgets.VBox([self.scene.canvas, self.legend])
        super().__init__(question=question, board=board, inputs=self._make_inputs(),
                         title=self.scenario.get("name", ""), explain=explain)
        self.scene.on_client_ready(lambda: self.redraw(static=True))
        self.reset()

    # ----- inputs ----------------------------------------------------------------------------------------

    def _make_inputs(self) -> list[widgets.Widget]:
        if self.ask == "exhausted":
            self.rider_checks = {rid: widgets.Checkbox(description=rid, value=False, indent=False,
                                                       layout=widgets.Layout(width="auto"))
                                 for rid in self.race.riders}
            return [label("Exhausted riders:"), *self.rider_checks.values()]
        start = self.race.riders[self.rider].square
        assert start is not None
        last = min(len(self.race.track) - 1, start + SQUARES_OFFERED)
        self.square_input = widgets.Dropdown(options=[("choose…", None)] + [(f"square {s}", s)
                                                                             for s in range(start, last + 1)],
                                             value=None, description=f"{self.rider} ends on",
                                             style={"description_width": "initial"})
        row: list[widgets.Widget] = [self.square_input]
        if self.with_lane:
            lanes = max(self.race.track.lanes)
            self.lane_input = widgets.ToggleButtons(options=[(lane_name(lane), lane) for lane in range(lanes)],
                                                    value=None, description="lane")
            row.append(self.lane_input)
        return row

    def answer_widgets(self) -> list[widgets.Widget]:
        return [w for w in (self.square_input, self.lane_input, *self.rider_checks.values()) if w is not None]

    @property
    def answer(self) -> Any:
        """The learner's answer: a square (or (square, lane) with ``with_lane``), or a set of rider ids."""
        if self.ask == "exhausted":
            return {rid for rid, box in self.rider_checks.items() if box.value}
        assert self.square_input is not None
        if self.with_lane:
            assert self.lane_input is not None
            return (self.square_input.value, self.lane_input.value)
        return self.square_input.value

    def missing_answer(self) -> str | None:
        if self.ask != "square":
            return None
        answer = self.answer
        if answer is None or (self.with_lane and None in answer):
            return f"Choose a square{' and a lane' if self.with_lane else ''} first."
        return None

    def _correct_answer(self) -> Any:
        result = scenarios.resolve_round(self.scenario)
        if self.ask == "exhausted":
            return set(result["exhausted"])
        square, lane = result[f"after_{self.after}"][self.rider]
        return (square, lane) if self.with_lane else square

    # ----- Reveal and Try again --------------------------------------------------------------------------

    def play_out(self, answer: Any) -> Verdict:
        self._before = self.race.positions()
        # The square asked about, or the whole round (exhaustion is its last step).
        through = AFTER[self.after] if self.ask == "square" else Phase.END_EXHAUSTION
        self._events = self.race.resolve(through)
        right = answer == self.correct_answer
        return Verdict(right, self._told(answer, right), self._why(self._events), narrate(self._events))

    def restart(self) -> None:
        self.race = scenarios.build(self.scenario)
        self._events = []
        for box in self.rider_checks.values():
            box.value = False
        if self.square_input is not None:
            self.square_input.value = None
        if self.lane_input is not None:
            self.lane_input.value = None

    # ----- drawing and feedback --------------------------------------------------------------------------

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        if animate:
            moves = sum(isinstance(e, RiderMoved) for e in self._events)
            self.scene.animate(self.race, self._events, self._before, self._highlights(), self._panel(),
                               steps=max(2, moves))
        else:
            self.scene.draw(self.race, self._highlights(), self._panel(), redraw_track=static)

    def _panel(self) -> CardPanel:
        return CardPanel(compact=True)

    def _highlights(self) -> Highlights:
        if self.is_right is None:
            return highlights_for(self.race, active=self.rider if self.ask == "square" else None)
        base = highlights_for(self.race, self._events)
        if self.ask != "square":
            return base
        square, lane = self.correct_answer if self.with_lane else (self.correct_answer, None)
        marks = [Mark(square, lane, "answer", SLIPSTREAM)]
        guess = self.answer if not self.with_lane else self.answer[0]
        if not self.is_right and guess is not None and guess != square:
            marks.append(Mark(guess, None, "your guess", WARNING, below=True))
        trails = {e.rider: (e.frm, e.to) for e in self._events if isinstance(e, RiderMoved) and e.rider == self.rider}
        return replace(base, marks=tuple(marks), trails=trails)

    def _told(self, answer: Any, right: bool) -> str:
        if self.ask == "exhausted":
            told = f"Exhausted: {_names(self.correct_answer)}."
            return told if right else f"{told} You chose: {_names(answer)}."
        square, lane = self.correct_answer if self.with_lane else (self.correct_answer, None)
        where = f"square {square}" + (f", {lane_name(lane)}" if lane is not None else "")
        told = f"{self.rider} ends on {where} {WHEN[self.after]}."
        if right:
            return told
        guess = f"square {answer[0]}, {lane_name(answer[1])}" if self.with_lane else f"square {answer}"
        return f"{told} You said {guess}."

    def _why(self, events: list[Event]) -> list[Line]:
        """The narrated events that decided the answer."""
        if self.ask == "exhausted":
            return narrate([e for e in events if isinstance(e, (ExhaustionChecked, ExhaustionTaken))])
        mine: list[Event] = []
        for e in events:
            if isinstance(e, (RiderMoved, Blocked)) and e.rider == self.rider:
                mine.append(e)
            elif isinstance(e, Slipstreamed) and self.rider in e.riders:
                mine.append(e)
            elif isinstance(e, (PacksFound, NoSlipstream)) and self.after == "slipstream":
                mine.append(e)
        return narrate(mine)


def _names(riders: set[str]) -> str:
    return ", ".join(sorted(riders)) if riders else "nobody"
