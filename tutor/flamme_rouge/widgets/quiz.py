"""``PredictQuiz``: show a Flamme Rouge position and the played cards, ask what happens, then play it out.

    quiz = PredictQuiz(["scenarios/blocked_a.json", "scenarios/blocked_b.json"],
                       question="Where does red-R end? Click its square on the board.", rider="red-R")
    quiz = PredictQuiz("scenarios/who.json", question="Who takes an exhaustion card?", ask="exhausted")

Kinds of question (``ask``):

- ``"square"``: where the ``rider`` ends. The learner clicks the square on the board
  (or picks it in ``square_input``, a Dropdown; with ``with_lane=True`` also a lane in
  ``lane_input``); the guess is outlined on the board.
- ``"first"``: which rider moves first (``choice_input``, one button per rider, or a click on
  the rider on the board; likewise for "winner", and a click ticks a rider for "exhausted").
- ``"card"``: which of the ``choices`` (the rider's drawn cards) takes the ``rider`` to the
  ``target`` square, outlined on the board; every card that does is right.
- ``"winner"``: which rider wins (the position has a finish line).
- ``"exhausted"``: which riders take an exhaustion card (``rider_checks``); the feedback
  goes rider by rider.

Before Reveal the board shows the position only: no "moves next" ring, the played
cards by rider name (not in movement order), and each chip the card played (not what
the rules make of it). ``question`` may be one question per position.

"Reveal" (``reveal_button``) plays the position out on the canvas and writes
``feedback``: right or wrong, the correct answer, the rules that decided it (from the
engine's events) and ``explain``. "Try again" (``retry_button``) moves on to the next
of the quiz's positions (a list of scenarios), so a second try is a new position, not
the one just revealed. ``after`` says which position counts ("movement", default with
cards, or "slipstream"). The shell (question, Reveal, Try again, feedback) is
``tutor.ui.RevealQuiz``, whose reveal leaves the hidden ``tutor-quiz-result`` mark that
the lesson page records (``tutor.ui.lessons``).

Other attributes: ``race``, ``scene``, ``status``, ``narration``, ``correct_answer``,
``is_right`` (None before Reveal), ``answer``, ``position`` (index of the position shown).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.events import Blocked, Event, ExhaustionTaken, PacksFound, RiderMoved, Slipstreamed
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import (
    CardPanel,
    Chip,
    Highlights,
    Mark,
    Scene,
    highlights_for,
    legend_html,
    revealed_cards,
)
from tutor.flamme_rouge.render.climb import climb_marks
from tutor.flamme_rouge.render.describe import describe_race
from tutor.flamme_rouge.render.style import ANSWER, GUESS, lane_name
from tutor.i18n import N_, _
from tutor.ui.controls import label
from tutor.ui.quiz import RevealQuiz, Verdict
from tutor.ui.screen import Disclosure, board_frame

from .narration import narrate
from .quiz_words import Asked, QuizOutcome, card_value, told, why

ASKS = ("square", "exhausted", "first", "card", "winner")
AFTER = {"movement": Phase.MOVEMENT, "slipstream": Phase.END_SLIPSTREAM}
"""The phase resolved on Reveal (``Race.resolve``) before the position is judged."""
SQUARES_OFFERED = 12
"""The dropdown offers the rider's square and this many squares ahead."""
PROMPTS = {
    "square": N_("choose the square where you think it ends (in the list, or click it on the board)"),
    "exhausted": N_("tick the riders you think take an exhaustion card"),
    "first": N_("choose the rider you think moves first"),
    "card": N_("choose the card you would play"),
    "winner": N_("choose the rider you think wins"),
}


class PredictQuiz(RevealQuiz):
    def __init__(
        self,
        scenario: str | dict[str, Any] | Sequence[str | dict[str, Any]],
        *,
        question: str | Sequence[str],
        rider: str | None = None,
        ask: str = "square",
        explain: str = "",
        after: str | None = None,
        with_lane: bool = False,
        choices: Sequence[int | str] = (),
        target: int | None = None,
        title: str = "",
    ):
        many: list[Any] = list(scenario) if isinstance(scenario, (list, tuple)) else [scenario]
        self.positions: list[dict[str, Any]] = [s if isinstance(s, dict) else scenarios.load(s) for s in many]
        if not self.positions:
            raise ValueError("a quiz needs at least one scenario")
        self.questions = [question] if isinstance(question, str) else list(question)
        if len(self.questions) not in (1, len(self.positions)):
            raise ValueError(
                f"give one question, or one per position ({len(self.positions)}), not {len(self.questions)}"
            )
        if ask not in ASKS:
            raise ValueError(f"ask must be one of {ASKS}, not {ask!r}")
        if ask == "card" and (not choices or target is None):
            raise ValueError("ask='card' needs the rider's drawn cards (choices) and the target square")
        self.ask, self.with_lane, self.target = ask, with_lane, target
        self.choices = [str(c) for c in choices]
        self.rider = rider or ""
        self._restarting = False
        self.position = 0
        self.scenario = self.positions[0]
        self.after = after or ("movement" if "cards" in self.scenario else "slipstream")
        if self.after not in AFTER:
            raise ValueError(f"after must be one of {tuple(AFTER)}, not {self.after!r}")
        self.race = self._build()
        self.rider = rider or (self.race.to_move[-1] if self.race.to_move else next(iter(self.race.riders)))
        for data in self.positions:
            ids = [r["id"] for r in data.get("riders", [])]
            if ask in ("square", "card") and self.rider not in ids:
                raise ValueError(f"rider {self.rider!r} is not in the scenario (riders: {', '.join(ids)})")
        self._events: list[Event] = []
        self._before: dict[str, tuple[int, int]] = {}
        self._played: tuple[tuple[str, str], ...] = ()
        self.correct_answer = self._correct_answer()

        self.scene = Scene(self.race.track, cards=ask != "exhausted" or "cards" in self.scenario)
        self.square_input: widgets.Dropdown | None = None
        self.lane_input: widgets.ToggleButtons | None = None
        self.choice_input: widgets.ToggleButtons | None = None
        self.rider_checks: dict[str, widgets.Checkbox] = {}

        self.legend = widgets.HTML(legend_html(self.race, folding=False))
        self.key = Disclosure(_("Key"), [self.legend], tooltip=_("What the colours and marks on the board mean"))
        self.inputs_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        super().__init__(
            question=self.questions[0],
            board=board_frame(self.scene),
            inputs=[self.inputs_box],
            title=title,
            explain=explain,
            scenes=[self.scene],
            in_words=True,
            disclosures=[self.key],
        )
        self.retry_button.description = _("Try again ▸")
        self.retry_button.tooltip = (
            _("A new position to answer") if len(self.positions) > 1 else _("Reset the position and answer again")
        )
        self.scene.on_click(self._on_board_click)
        self.scene.on_client_ready(lambda: self.redraw(static=True))
        self._new_inputs()
        self.reset()

    # ----- positions ------------------------------------------------------------------------------------

    def _build(self, card: str | None = None) -> Race:
        data = self.scenario
        if self.ask == "card":
            # The learner's card for the rider: the chosen one on Reveal, else the first choice (hidden).
            data = dict(data, cards={**data.get("cards", {}), self.rider: card_value(card or self.choices[0])})
        return scenarios.build(data)

    def _new_inputs(self) -> None:
        self._played = tuple(
            (rid, str(self.race.riders[rid].played))
            for rid in self.race.to_move
            if self.race.riders[rid].played is not None
        )
        if self.ask == "card":
            self._played = tuple((rid, "" if rid == self.rider else card) for rid, card in self._played)
        self.inputs_box.children = self._make_inputs()

    # ----- inputs ----------------------------------------------------------------------------------------

    def _make_inputs(self) -> list[widgets.Widget]:
        """The answer controls for the position shown (reused from the last position where they fit)."""
        race = self.race
        if self.ask == "exhausted" and list(self.rider_checks) == list(race.riders):
            for box in self.rider_checks.values():
                box.value = False
            return list(self.inputs_box.children)
        if self.ask in ("first", "winner") and self.choice_input is not None:
            self.choice_input.options = [(r, r) for r in sorted(race.riders)]  # by name: no hint of the order
            self.choice_input.value = None
            return list(self.inputs_box.children)
        if self.ask == "card" and self.choice_input is not None:
            self.choice_input.value = None
            return list(self.inputs_box.children)
        if self.ask == "square" and self.square_input is not None:
            start = race.riders[self.rider].square
            assert start is not None
            last = min(len(race.track) - 1, start + SQUARES_OFFERED)
            with self.square_input.hold_sync():
                self.square_input.options = self._square_options(start, last)
                self.square_input.value = None
            if self.lane_input is not None:
                self.lane_input.value = None
            return list(self.inputs_box.children)
        if self.ask == "exhausted":
            self.rider_checks = {
                rid: widgets.Checkbox(description=rid, value=False, indent=False, layout=widgets.Layout(width="auto"))
                for rid in race.riders
            }
            return [label(_("Exhausted riders:")), *self.rider_checks.values()]
        if self.ask in ("first", "winner", "card"):
            options = [(c, c) for c in self.choices] if self.ask == "card" else [(r, r) for r in sorted(race.riders)]
            what = {
                "first": _("Moves first:"),
                "winner": _("Wins:"),
                "card": _("{rider} plays:").format(rider=self.rider),
            }[self.ask]
            self.choice_input = widgets.ToggleButtons(options=options, value=None, style={"button_width": "auto"})
            self.choice_input.observe(lambda _: self.redraw(), "value")
            return [label(what), self.choice_input]
        start = race.riders[self.rider].square
        assert start is not None
        last = min(len(race.track) - 1, start + SQUARES_OFFERED)
        self.square_input = widgets.Dropdown(
            options=self._square_options(start, last),
            value=None,
            description=_("{rider} ends on:").format(rider=self.rider),
            style={"description_width": "initial"},
        )
        self.square_input.observe(lambda _: self._on_square_chosen(), "value")
        row: list[widgets.Widget] = [self.square_input]
        if self.with_lane:
            lanes = max(race.track.lanes)
            self.lane_input = widgets.ToggleButtons(
                options=[(lane_name(lane), lane) for lane in range(lanes)], value=None, description=_("Lane:")
            )
            self.lane_input.observe(lambda _: self.redraw(), "value")
            row.append(self.lane_input)
        return row

    def prompt_text(self) -> str:
        return _("Look at the positions and the played cards, {what}, then choose Reveal.").format(
            what=_(PROMPTS[self.ask])
        )

    @staticmethod
    def _square_options(start: int, last: int) -> list[tuple[str, int | None]]:
        return [(_("choose…"), None)] + [(_("square {square}").format(square=s), s) for s in range(start, last + 1)]

    def _on_square_chosen(self) -> None:
        """A square chosen in the list (by keyboard, say) is confirmed in the status line, as a click is."""
        self.redraw()
        if self.is_right is None and self.square_input is not None and self.square_input.value is not None:
            self.status.show(
                _("Your answer: square {square}. Choose '{reveal}' to check it.").format(
                    square=self.square_input.value, reveal=_("Reveal")
                )
            )

    def answer_widgets(self) -> list[widgets.Widget]:
        return [
            w
            for w in (self.square_input, self.lane_input, self.choice_input, *self.rider_checks.values())
            if w is not None
        ]

    def _on_board_click(self, x: float, y: float) -> None:
        """A click on the road answers a "square" question (its square; with lanes, its lane too); a click on a
        rider answers "first" and "winner" and ticks (or unticks) it for "exhausted"."""
        if self.is_right is not None:
            return
        if self.ask in ("first", "winner", "exhausted"):
            self._pick_rider(x, y)
            return
        if self.ask != "square" or self.square_input is None:
            return
        view = self.scene.view
        column = int((x - view.road_left) // view.cell_w)
        square = view.first + column
        if not (
            0 <= column < view.visible
            and square <= view.last_visible
            and view.road_top - 20 <= y <= view.road_bottom + 20
        ):
            self.status.show(_("Click a square of the road."), "warning")
            return
        offered = [value for _, value in self.square_input.options if value is not None]
        if square not in offered:
            self.status.show(
                _("{rider} never moves backwards: click square {square} or a square after it.").format(
                    rider=self.rider, square=offered[0]
                ),
                "warning",
            )
            return
        self.square_input.value = square
        if self.with_lane and self.lane_input is not None:
            cell = view.cell_at(x, y)
            if cell is not None:
                self.lane_input.value = cell[1]
        self.status.show(
            _("Your answer: square {square}. Choose '{reveal}' to check it (or click another square).").format(
                square=square, reveal=_("Reveal")
            )
        )

    def _pick_rider(self, x: float, y: float) -> None:
        cell = self.scene.view.cell_at(x, y)
        at = {position: rid for rid, position in self.race.positions().items()}
        rider = at.get(cell) if cell is not None else None
        if rider is None:
            self.status.show(_("Click a rider on the board (or its name under the board)."), "warning")
        elif self.ask == "exhausted":
            box = self.rider_checks[rider]
            box.value = not box.value
            said = (
                _("{rider} ticked. Choose '{reveal}' when you are done.")
                if box.value
                else _("{rider} unticked. Choose '{reveal}' when you are done.")
            )
            self.status.show(said.format(rider=rider, reveal=_("Reveal")))
        else:
            assert self.choice_input is not None
            self.choice_input.value = rider
            self.status.show(
                _("Your answer: {rider}. Choose '{reveal}' to check it (or click another rider).").format(
                    rider=rider, reveal=_("Reveal")
                )
            )

    @property
    def answer(self) -> Any:
        """The learner's answer: a square (or (square, lane) with ``with_lane``), a set of rider ids, a rider or a
        card."""
        if self.ask == "exhausted":
            return {rid for rid, box in self.rider_checks.items() if box.value}
        if self.choice_input is not None:
            return self.choice_input.value
        assert self.square_input is not None
        if self.with_lane:
            assert self.lane_input is not None
            return (self.square_input.value, self.lane_input.value)
        return self.square_input.value

    def missing_answer(self) -> str | None:
        if self.ask == "exhausted":
            return None
        answer = self.answer
        if answer is None or (self.with_lane and None in answer):
            if self.ask == "square":
                return (
                    _("Choose a square and a lane first (in the list, or click it on the board).")
                    if self.with_lane
                    else _("Choose a square first (in the list, or click it on the board).")
                )
            return _("Choose your answer first.")
        return None

    def _correct_answer(self) -> Any:
        if self.ask == "first":
            return self.race.to_move[0]
        if self.ask == "card":
            reaching = set()
            for card in self.choices:
                race = self._build(card)
                race.resolve(AFTER[self.after])
                if race.riders[self.rider].square == self.target:
                    reaching.add(card)
            if not reaching:
                raise ValueError(f"no card of {self.choices} takes {self.rider} to square {self.target}")
            return reaching
        result = scenarios.resolve_round(self.scenario)
        if self.ask == "exhausted":
            return set(result["exhausted"])
        if self.ask == "winner":
            if result["winner"] is None:
                raise ValueError("ask='winner' needs a position in which a rider crosses the finish line")
            return result["winner"]
        square, lane = result[f"after_{self.after}"][self.rider]
        return (square, lane) if self.with_lane else square

    # ----- Reveal and Try again --------------------------------------------------------------------------

    def play_out(self, answer: Any) -> Verdict:
        if self.ask == "card":
            self.race = self._build(answer)
        self._before = self.race.positions()
        through = {
            "exhausted": Phase.END_EXHAUSTION,
            "first": Phase.MOVEMENT,
            "winner": Phase.MOVEMENT,
            "card": AFTER[self.after],
        }.get(self.ask, AFTER[self.after])
        self._events = self.race.resolve(through)
        right = answer in self.correct_answer if self.ask == "card" else answer == self.correct_answer
        asked = Asked(self.ask, self.rider, self.target, self.after, self.with_lane)
        said = QuizOutcome(self.race, self._events, self._before, self.correct_answer)
        return Verdict(right, told(asked, said, answer, right), why(asked, said, answer), narrate(self._events))

    def restart(self) -> None:
        """The next position (the same one when the quiz has only one), its question, inputs cleared."""
        self.position = (self.position + 1) % len(self.positions)
        self.scenario = self.positions[self.position]
        self.race = self._build()
        self._events = []
        self.correct_answer = self._correct_answer()
        self._restarting = True  # clearing the inputs must not draw the old panel on the new position
        try:
            self._new_inputs()
        finally:
            self._restarting = False
        self.show_question(self.questions[self.position % len(self.questions)])

    # ----- drawing and feedback --------------------------------------------------------------------------

    def redraw(self, *, static: bool = False, animate: bool = False) -> None:
        if self._restarting:
            return
        if animate:
            moves = sum(isinstance(e, RiderMoved) for e in self._events)
            self.scene.animate(
                self.race, self._events, self._before, self._highlights(), self._panel(), steps=max(2, moves)
            )
        else:
            self.scene.draw(self.race, self._highlights(), self._panel(), redraw_track=static)
        revealed = self.is_right is not None
        self.text_view.show(
            describe_race(self.race, played=self._panel().played, judged=revealed),
            narrate(self._events) if revealed else (),
        )

    def _panel(self) -> CardPanel:
        moved = frozenset(e.rider for e in self._events if isinstance(e, RiderMoved))
        played = self._played
        if self.is_right is None:  # before Reveal the order would tell who moves first
            return CardPanel(compact=True, played=tuple(sorted(played)), in_order=False)
        if self.ask == "card":
            answer = "" if self.answer is None else str(self.answer)  # "": not chosen (Try again clears it)
            played = tuple((rid, answer if rid == self.rider else card) for rid, card in played)
        return CardPanel(compact=True, played=played, moved=moved)

    def _highlights(self) -> Highlights:
        if self.is_right is None:
            # The position only: no "moves next" ring, and each chip is the card played, not what it moves.
            base = highlights_for(
                self.race, active=self.rider if self.ask in ("square", "card") else None, helpers=False
            )
            shown = revealed_cards(self.race)
            cards = {rid: Chip(shown[rid].cards) for rid, label in self._played if label and rid in shown}
            return replace(base, cards=cards, marks=tuple(self._guess_marks()))
        # The rider asked about, and after slipstream the packs and "+1" chips of every rider, as the main board.
        shared = (ExhaustionTaken, PacksFound, Slipstreamed) if self.after == "slipstream" else (ExhaustionTaken,)
        mine = (
            self._events
            if self.ask not in ("square", "card")
            else [e for e in self._events if getattr(e, "rider", None) == self.rider or isinstance(e, shared)]
        )
        base = highlights_for(self.race, [e for e in mine if not isinstance(e, (Blocked, RiderMoved))])
        if self.ask == "exhausted":
            return replace(base, exhausted=tuple(e.rider for e in self._events if isinstance(e, ExhaustionTaken)))
        if self.ask in ("first", "winner"):
            return base
        marks: list[Mark] = []
        if self.ask == "square":
            square, lane = self.correct_answer if self.with_lane else (self.correct_answer, None)
            marks.append(Mark(square, lane, _("answer: {square}").format(square=square), ANSWER))
            guess = self.answer[0] if self.with_lane else self.answer
            if not self.is_right and guess is not None and guess != square:
                marks.append(Mark(guess, None, _("guess: {square}").format(square=guess), GUESS, below=True))
        else:
            assert self.target is not None
            marks.append(Mark(self.target, None, _("target: {square}").format(square=self.target), ANSWER))
        moves = [e for e in self._events if isinstance(e, RiderMoved) and e.rider == self.rider]
        trails = {self.rider: (moves[-1].frm, moves[-1].to)} if moves and self.after == "movement" else {}
        # The full squares the rider fell back over, only while the position shown is the one after its move
        blocked = [e for e in self._events if isinstance(e, Blocked) and e.rider == self.rider]
        crosses = blocked[-1].full if blocked and self.after == "movement" else ()
        marks += climb_marks(self.race, self._events, self.rider)  # the squares the climb rule counts (FR 06)
        return replace(base, marks=tuple(marks), trails=trails, blocked=crosses)

    def _guess_marks(self) -> list[Mark]:
        marks = []
        if self.ask == "card" and self.target is not None:
            marks.append(Mark(self.target, None, _("target: {square}").format(square=self.target), ANSWER))
        if self.ask == "square" and self.square_input is not None and self.square_input.value is not None:
            lane = self.lane_input.value if self.with_lane and self.lane_input is not None else None
            guess = self.square_input.value
            marks.append(Mark(guess, lane, _("your answer: {square}").format(square=guess), GUESS))
        return marks
