"""``PredictQuiz``: show a position and the played cards, ask what happens, then play it out.

    quiz = PredictQuiz("scenarios/p1_blocked_rider.json",
                       question="Where does red-R end after the movement phase?", rider="red-R")
    quiz = PredictQuiz(scenario_dict, question="Who takes an exhaustion card?", ask="exhausted",
                       explain="An empty lane beside you does not count.")

``ask="square"``: the learner picks a square (``square_input``, a Dropdown;
with ``with_lane=True`` also a lane in ``lane_input``). ``ask="exhausted"``:
the learner ticks riders (``rider_checks``: rider -> Checkbox). "Reveal"
(``reveal_button``) animates the round on the canvas and writes ``feedback``:
right or wrong, the correct answer, the rules that decided it (the engine
events' reasons) and ``explain``. "Try again" (``retry_button``) resets.
The answer is checked against ``scenario.resolve_round``; ``after`` says which
position counts ("movement", default with cards, or "slipstream").
Other attributes: ``race``, ``scene``, ``status``, ``narration``,
``correct_answer``, ``is_right`` (None before Reveal), ``answer``.
"""

from __future__ import annotations

import html
from dataclasses import replace

import ipywidgets as widgets

from tutor.flamme_rouge import Phase
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.events import (Blocked, Event, ExhaustionTaken, NoSlipstream, PacksFound, RiderMoved,
                                       RoundStarted, Slipstreamed)
from tutor.flamme_rouge.render import CardPanel, Highlights, Mark, Scene, highlights_for
from tutor.flamme_rouge.render.style import SLIPSTREAM, WARNING, lane_name

from .common import CSS, StatusLine, button
from .narration import Line, narrate, to_html

ASKS = ("square", "exhausted")
AFTER = {"movement": (Phase.MOVEMENT,),
         "slipstream": (Phase.MOVEMENT, Phase.END_CARDS, Phase.END_SLIPSTREAM)}
"""Phases resolved on Reveal before the position is judged."""
WHEN = {"movement": "after the movement phase", "slipstream": "after slipstream"}
SQUARES_OFFERED = 12
"""The dropdown offers the rider's square and this many squares ahead."""


class PredictQuiz(widgets.VBox):
    def __init__(self, scenario, *, question: str, rider: str | None = None, ask: str = "square",
                 explain: str = "", after: str | None = None, with_lane: bool = False):
        super().__init__()
        self.scenario = scenario if isinstance(scenario, dict) else scenarios.load(scenario)
        if ask not in ASKS:
            raise ValueError(f"ask must be one of {ASKS}, not {ask!r}")
        self.ask, self.question, self.explain = ask, question, explain
        self.after = after or ("movement" if "cards" in self.scenario else "slipstream")
        if self.after not in AFTER:
            raise ValueError(f"after must be one of {tuple(AFTER)}, not {self.after!r}")
        self.race = scenarios.build(self.scenario)
        self.rider = rider or (self.race.to_move[-1] if self.race.to_move else next(iter(self.race.riders)))
        if self.rider not in self.race.riders:
            raise ValueError(f"rider {self.rider!r} is not in the scenario (riders: {', '.join(self.race.riders)})")
        self.with_lane = with_lane
        self.correct_answer = self._correct_answer()
        self.is_right: bool | None = None
        self._events: list[Event] = []

        self.scene = Scene(self.race.track)
        self.status = StatusLine()
        self.feedback = widgets.HTML()
        self.narration = widgets.HTML()
        self.square_input = self.lane_input = None
        self.rider_checks: dict[str, widgets.Checkbox] = {}
        inputs = self._make_inputs()
        self.reveal_button = button("Reveal", "Play the round and check your answer", style="primary")
        self.retry_button = button("Try again", "Reset the position and answer again")
        self.reveal_button.on_click(lambda _: self._on_reveal())
        self.retry_button.on_click(lambda _: self._on_retry())
        title = html.escape(self.scenario.get("name", ""))
        self.children = [
            widgets.HTML(CSS),
            widgets.HTML(f"<div class='tutor-header'>{f'<b>{title}</b>' if title else ''}</div>"),
            self.scene.canvas,
            widgets.HTML(f"<div class='tutor-header'>Question: <b>{html.escape(question)}</b></div>"),
            inputs,
            widgets.HBox([self.reveal_button, self.retry_button]),
            self.status, self.feedback, self.narration,
        ]
        self.add_class("tutor-quiz")
        self.scene.canvas.on_client_ready(lambda: self.redraw(redraw_track=True))
        self._reset()

    # ----- inputs ----------------------------------------------------------------------------------------

    def _make_inputs(self) -> widgets.Widget:
        if self.ask == "exhausted":
            self.rider_checks = {rid: widgets.Checkbox(description=rid, value=False, indent=False,
                                                       layout=widgets.Layout(width="auto"))
                                 for rid in self.race.riders}
            return widgets.HBox([widgets.HTML("<span class='tutor-label'>Exhausted riders:</span>"),
                                 *self.rider_checks.values()], layout=widgets.Layout(flex_flow="row wrap"))
        start = self.race.riders[self.rider].square
        last = min(len(self.race.track) - 1, start + SQUARES_OFFERED)
        self.square_input = widgets.Dropdown(options=[("choose…", None)] + [(f"square {s}", s)
                                                                             for s in range(start, last + 1)],
                                             value=None, description=f"{self.rider} ends on",
                                             style={"description_width": "initial"})
        row = [self.square_input]
        if self.with_lane:
            lanes = max(self.race.track.lanes)
            self.lane_input = widgets.ToggleButtons(options=[(lane_name(lane), lane) for lane in range(lanes)],
                                                    value=None, description="lane")
            row.append(self.lane_input)
        return widgets.HBox(row)

    @property
    def answer(self):
        """The learner's answer: a square (or (square, lane) with ``with_lane``), or a set of rider ids."""
        if self.ask == "exhausted":
            return {rid for rid, box in self.rider_checks.items() if box.value}
        if self.with_lane:
            return (self.square_input.value, self.lane_input.value)
        return self.square_input.value

    def _correct_answer(self):
        result = scenarios.resolve_round(self.scenario)
        if self.ask == "exhausted":
            return set(result["exhausted"])
        square, lane = result[f"after_{self.after}"][self.rider]
        return (square, lane) if self.with_lane else square

    # ----- handlers --------------------------------------------------------------------------------------

    def _on_reveal(self) -> None:
        if self.is_right is not None:
            self.status.show("Already revealed: click 'Try again' to answer again.", "warning")
            return
        answer = self.answer
        missing = answer is None or (self.with_lane and None in answer)
        if self.ask == "square" and missing:
            self.status.show(f"Choose a square{' and a lane' if self.with_lane else ''} first.", "warning")
            return
        before = self.race.positions()
        events = self._resolve()
        self.is_right = answer == self.correct_answer
        self._events = events
        self.feedback.value = self._feedback_html(answer, events)
        self.narration.value = "<b>What happened, step by step:</b>" + to_html(narrate(events, self.race))
        self.status.show("Click 'Try again' to answer again.")
        self._set_inputs_disabled(True)
        moves = sum(isinstance(e, RiderMoved) for e in events)
        self.scene.animate(self.race, events, before, self._highlights(), self._panel(), steps=max(2, moves))

    def _on_retry(self) -> None:
        self.race = scenarios.build(self.scenario)
        for box in self.rider_checks.values():
            box.value = False
        if self.square_input is not None:
            self.square_input.value = None
        if self.lane_input is not None:
            self.lane_input.value = None
        self._reset()

    def _reset(self) -> None:
        self.is_right = None
        self._events = []
        self.feedback.value = self.narration.value = ""
        self._set_inputs_disabled(False)
        what = "choose a square" if self.ask == "square" else "tick the riders you think take an exhaustion card"
        self.status.show(f"Look at the positions and the played cards, {what}, then click Reveal.")
        self.redraw()

    def _resolve(self) -> list[Event]:
        """Step the round as far as the question asks (the whole round for exhaustion)."""
        phases = AFTER[self.after] if self.ask == "square" else tuple(
            p for p in Phase if p not in (Phase.ENERGY, Phase.FINISHED, Phase.SETUP))
        events: list[Event] = []
        while self.race.phase in phases:
            events += self.race.step()
        return events

    def _set_inputs_disabled(self, disabled: bool) -> None:
        for w in (self.square_input, self.lane_input, *self.rider_checks.values()):
            if w is not None:
                w.disabled = disabled
        self.reveal_button.disabled = disabled

    # ----- drawing and feedback --------------------------------------------------------------------------

    def redraw(self, *, redraw_track: bool = False) -> None:
        self.scene.draw(self.race, self._highlights(), self._panel(), redraw_track=redraw_track)

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

    def _feedback_html(self, answer, events: list[Event]) -> str:
        verdict = "✓ Right!" if self.is_right else "✗ Not quite."
        kind = "success" if self.is_right else "warning"
        explain = f"<p>{html.escape(self.explain)}</p>" if self.explain else ""
        return (f"<div class='tutor-status tutor-status-{kind}'><b>{verdict}</b> {html.escape(self._told(answer))}"
                f"</div><p><b>The rule that decided it:</b></p>{to_html(self._why(events))}{explain}")

    def _told(self, answer) -> str:
        if self.ask == "exhausted":
            right = _names(self.correct_answer)
            return f"Exhausted: {right}." + ("" if self.is_right else f" You chose: {_names(answer)}.")
        square, lane = self.correct_answer if self.with_lane else (self.correct_answer, None)
        where = f"square {square}" + (f", {lane_name(lane)}" if lane is not None else "")
        told = f"{self.rider} ends on {where} {WHEN[self.after]}."
        if self.is_right:
            return told
        guess = f"square {answer[0]}, {lane_name(answer[1])}" if self.with_lane else f"square {answer}"
        return f"{told} You said {guess}."

    def _why(self, events: list[Event]) -> list[Line]:
        """The narrated events that decided the answer."""
        if self.ask == "exhausted":
            picked = [e for e in events if isinstance(e, (ExhaustionTaken, RoundStarted))]
            return [line for line in narrate(picked, self.race, Phase.END_EXHAUSTION)
                    if not line.text.startswith("Round ")]
        mine = []
        for e in events:
            if isinstance(e, (RiderMoved, Blocked)) and e.rider == self.rider:
                mine.append(e)
            elif isinstance(e, Slipstreamed) and self.rider in e.riders:
                mine.append(e)
            elif isinstance(e, (PacksFound, NoSlipstream)) and self.after == "slipstream":
                mine.append(e)
        return narrate(mine, self.race)


def _names(riders) -> str:
    return ", ".join(sorted(riders)) if riders else "nobody"
