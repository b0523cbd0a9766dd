"""``RaceTutor``: play a race round by round, with every step drawn and told in plain words.

    tutor = RaceTutor.new_race("avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"},
                               seed=0, human_teams=("red",))
    tutor = RaceTutor.from_scenario("scenarios/p1_blocked_rider.json")    # starts at the movement phase
    tutor = RaceTutor.from_scenario(["scenarios/a.json", "scenarios/b.json"], stop_after="slipstream")
    display(tutor)                                   # a VBox

The learner draws for each of its riders ("Draw 4 for red-S"), clicks one of
the four card buttons to play it (the other three are recycled under the deck),
then resolves the round with "Next step" (one rider's move, or one part of the
end phase) or "Finish round", which animates the rest of the round step by step
at the chosen ``speed``, fitted to a few seconds (``race_pace``; "Skip animation" shows its end at once; a new
click never waits for an animation). A full race offers "Finish the race" from round 3 (``race_pace``). When a round (or the breakaway) is over, the board keeps
its result (the slipstream "+1" chips, the exhaustion cards, the breakaway riders)
and the race pauses until "Start round N" (``next_round_button``). Bot teams play their energy phase at once. A click at
the wrong time shows a warning in ``status`` and changes nothing; a second click
on the same control within ``debounce_s`` (a double click) is ignored. Disabled
buttons say why in their tooltip.

A prepared position (``from_scenario``) stops where its lesson stops
(``stop_after``: "movement", "slipstream" or "round") and offers "Try another
position" (the next of its scenarios) and "Continue as a race" (the other teams
become bots). A finished race shows its results table (``results``).

Attributes for lessons and tests: ``race`` (replaced by Back and Restart),
``scene`` (``scene.canvas`` is the MultiCanvas), ``header``, ``status`` (with
``status.kind`` and ``status.text``), ``story`` (a ``tutor.ui.NarrationLog``: the
whole story, round by round), ``narration`` (its HTML widget), ``narration_lines``
(the newest lines), ``card_buttons`` (4), ``draw_buttons`` (rider -> Button),
``next_button``, ``finish_button``, ``skip_button``, ``next_round_button``, ``back_button``,
``restart_button``, ``seed``,
``speed``, ``another_button``, ``continue_button``, ``results``; ``redraw()``
repaints everything.

On screen (``tutor.ui.screen``): ``secondary`` above the board (Back, Restart, Speed, Skip, ``motion`` "No
animation", and the toggles of the board in words, the log, the ``key`` and ``teachers``: shuffle number and
position code, those closed at first: from the prompt's last control Tab reaches the next quiz at once); the
board; ``prompt`` (the status line beside the controls it names: place, draw and cards, Next step and Finish
round while they are next, Start round N, the end of a position). After each
action focus goes to ``next_control()`` (recorded in ``focused``); ``status`` says what the step changed.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.errors import RuleError
from tutor.flamme_rouge.events import Event, ExhaustionTaken, PacksFound, RoundStarted, Slipstreamed
from tutor.flamme_rouge.race import ROUND_ORDER, Draw, Phase, Place, Race
from tutor.flamme_rouge.render import CardPanel, Highlights, Scene, highlights_for, legend_html
from tutor.flamme_rouge.render.describe import describe_race
from tutor.flamme_rouge.render.geometry import make_view
from tutor.flamme_rouge.render.scene import StepRecord, resolve_steps
from tutor.flamme_rouge.render.style import lane_name
from tutor.ui.controls import CSS, StatusLine, button, label
from tutor.ui.narration import NarrationLog, and_list
from tutor.ui.controller import UndoController
from tutor.ui.screen import (Disclosure, Focusing, MotionSetting, SecondaryRow, board_frame, changed_words,
                             prompt_row, teacher_section)
from tutor.ui.stepper import PhaseStepper
from tutor.ui.text_view import TextView

from .narration import Line, computer_plays, narrate
from .race_pace import FINISH_FROM_ROUND, RacePace, round_budget
from .race_words import RaceTutorWords, learner_teams, results_html
from .workbench import PositionBox

END_MARKS = (PacksFound, Slipstreamed, ExhaustionTaken)
"""Events whose marks stay on the board at the end of a round: packs, "+1" chips, exhaustion cards."""
STOPS = {"movement": Phase.MOVEMENT, "slipstream": Phase.END_SLIPSTREAM, "round": Phase.END_EXHAUSTION}
"""Where a prepared position stops: after the movement phase, after slipstream, or at the end of the round."""
SPEEDS = {"Slow": 1.8, "Normal": 1.0, "Fast": 0.45}
"""Animation speed: how long each frame is held, relative to normal."""
ScenarioSource = str | Path | dict[str, Any]
"""A scenario file's path, or the scenario itself."""


def _order(phase: Phase) -> int:
    """A phase's place in a round (the setup and the breakaway come before the round: -1)."""
    return ROUND_ORDER.index(phase) if phase in ROUND_ORDER else -1


class RaceTutor(Focusing, RacePace, RaceTutorWords, widgets.VBox):
    """A race on a canvas with the controls of a learner who plays ``human_teams``."""

    debounce_s = 0.3
    """A click on the same control this soon after the last one ended is ignored (a double click)."""

    def __init__(self, race: Race, *, human_teams: Iterable[str] | None = None, focus: Iterable[str] | None = None,
                 title: str = "", rebuild: Callable[[int], Race] | None = None, seed: int = 0,
                 stop_after: str | None = None, positions: Sequence[dict[str, Any]] = (), cards: bool = True,
                 seed_enabled: bool | None = None):
        """``rebuild(seed)`` makes the race again for Restart; without it Restart restores ``race`` as given.

        ``stop_after`` (``STOPS``) and ``positions`` (the scenarios "Try another position" cycles through)
        are for prepared positions; ``cards=False`` hides the card panel (a lesson without cards).
        """
        super().__init__()
        if stop_after is not None and stop_after not in STOPS:
            raise ValueError(f"stop_after must be one of {tuple(STOPS)}, not {stop_after!r}")
        self.race = race
        self.human_teams = learner_teams(race, human_teams)
        self._focus = tuple(focus) if focus is not None else None
        self.title = title
        self._rebuild = rebuild
        self._start = race.to_dict()
        self.control = UndoController(lambda: self.race, self._warn)
        self._active: str | None = None
        self._events: list[Event] = []
        self._round_events: list[Event] = []
        """This round's events with marks that stay at its end (``END_MARKS``)."""
        self._round_end: list[Event] | None = None
        """Set when a step ended a round or the breakaway: its marks stay on the board, and the next round's
        lines wait (``_held``), until the learner moves on."""
        self._held: list[tuple[str, Line]] = []
        self._stop = STOPS[stop_after] if stop_after else None
        self._stop_round = race.round
        self._positions = list(positions)
        self._position = 0
        self._initial = (self.human_teams, self._focus, self._stop)
        self._last_click: tuple[str, float] = ("", -1e9)
        self.narration_lines: list[Line] = []
        self._pending: list[tuple[str, Event]] = []
        self._logged_section = f"Round {race.round}" if race.round else "Setup"

        self.scene = Scene(race.track, cards=cards)
        self.header = widgets.HTML()
        self.status = StatusLine()
        self.text_view = TextView()  # the board in words, on demand (the status says what each step changed)
        self.story = NarrationLog("Log", open_=False)  # collapsed: the prompt says what each step changed
        self.narration = self.story.html
        self.results = widgets.HTML()
        hand_size = max((race.teams[team].hand_size for team in self.human_teams), default=4)
        self.card_buttons = [self._card_button(i) for i in range(hand_size)]
        self.draw_buttons: dict[str, widgets.Button] = {}
        self.place_input = widgets.Dropdown(description="Place on", style={"description_width": "initial"})
        self.place_button = button("Place", "Setup: put the rider on the chosen square and lane", style="info")
        self.place_button.on_click(lambda _: self._guard("place", lambda: self._on_place(self.place_input.value)))
        self.scene.on_click(self._on_canvas_click)
        self.stepper = PhaseStepper(
            on_next=lambda: self._guard("next", self._on_next), on_finish=lambda: self._guard("finish", self._on_finish),
            on_back=lambda: self._guard("back", self._on_back),
            on_restart=lambda: self._guard("restart", self._on_restart),
            seed=seed, seed_enabled=rebuild is not None if seed_enabled is None else seed_enabled,
            next_tooltip="Resolve the next step: one rider's move or one part of the end phase",
            finish_tooltip="Resolve the rest of the round, rider by rider")
        self.speed = widgets.ToggleButtons(options=list(SPEEDS), value="Normal",
                                           tooltips=["Slower animations", "Normal speed", "Faster animations"],
                                           style={"button_width": "auto"})
        self.motion = MotionSetting([self.scene])
        self.next_button, self.finish_button = self.stepper.next_button, self.stepper.finish_button
        self.back_button, self.restart_button, self.seed = (self.stepper.back_button, self.stepper.restart_button,
                                                            self.stepper.seed)
        self.skip_button, self.next_round_button = self.stepper.skip_button, self.stepper.continue_button
        self.restart_button.tooltip = "Start again (a new deal: the shuffle number under For teachers)"
        self.stepper.follow(self.scene)
        if self._stop is not None:
            self.seed.layout.display = "none"  # a prepared position: nothing is shuffled
        self.another_button = button("Try another position ▸", "A new position to practise the same rule",
                                     style="primary")
        self.continue_button = button("Continue as a race", "Play on from here: you ride the first team, the "
                                      "others become bots")
        self.another_button.on_click(lambda _: self._guard("another", self._on_another))
        self.continue_button.on_click(lambda _: self._guard("continue", self._on_continue))
        self.done_row = widgets.HBox([self.another_button, self.continue_button])
        self.open_box = PositionBox(self._open_position)  # a class pastes a teacher's position code (issue 11)
        self._pace_setup()
        self.children = self._layout()
        self._set_draw_buttons()
        self.add_class("tutor-race")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.scene.on_client_ready(lambda: self.redraw(redraw_track=True))

        bots = self._opening_bots()
        self._show(self._intro() + bots)

    @property
    def focus(self) -> tuple[str, ...]:
        """Riders whose cards the panel shows: the learner's (or those given)."""
        if self._focus is not None:
            return self._focus
        return tuple(rid for team in self.human_teams for rid in self.race.teams[team].riders)

    # ----- constructors ----------------------------------------------------------------------------------

    @classmethod
    def new_race(cls, stage: str = "avenue-corso-paseo", teams: Sequence[str] = ("red", "blue"),
                 bots: Mapping[str, str] = MappingProxyType({"blue": "heuristic"}), seed: int = 0,
                 human_teams: Iterable[str] | None = ("red",), place: str = "auto", peloton: bool = False,
                 muscle: int = 0, breakaway: bool = False, single_riders: bool = False, **kwargs: Any) -> RaceTutor:
        """A new race on a stage or teaching track (``tutor.flamme_rouge.track.stage``).

        Teams in neither ``bots`` nor ``human_teams`` are played by the heuristic bot.
        ``place="auto"`` places the riders at random; with ``place="manual"`` the teams
        place their riders in turn, in the order of ``teams`` (the learner on the board).
        ``peloton``, ``muscle``, ``breakaway`` and ``single_riders`` go to ``Race.new`` (Peloton
        expansion): bot teams flip on "Next step", bids use the draw and card buttons.
        """
        humans = set(human_teams) if human_teams is not None else {t for t in teams if t not in bots}
        all_bots = {team: bots.get(team, "heuristic") for team in teams if team not in humans or team in bots}

        def rebuild(new_seed: int) -> Race:
            return Race.new(stage, list(teams), bots=all_bots, seed=new_seed, place=place, peloton=peloton,
                            muscle=muscle, breakaway=breakaway, single_riders=single_riders)

        tutor = cls(rebuild(seed), human_teams=human_teams, rebuild=rebuild, seed=seed, **kwargs)
        tutor.finish_from_round = FINISH_FROM_ROUND  # a full race: "Finish the race" from round 3
        return tutor

    @classmethod
    def from_scenario(cls, scenario: ScenarioSource | list[ScenarioSource] | tuple[ScenarioSource, ...], *,
                      stop_after: str = "round", **kwargs: Any) -> RaceTutor:
        """A tutor at the movement phase (or end phase) of a scenario: a file path, a dict, or a list of them
        ("Try another position" goes through the list). It stops after ``stop_after`` (``STOPS``)."""
        many = scenario if isinstance(scenario, (list, tuple)) else [scenario]
        datas = [s if isinstance(s, dict) else scenarios.load(s) for s in many]
        data = datas[0]

        def rebuild(new_seed: int) -> Race:
            return scenarios.build(data, seed=new_seed, history=True)

        kwargs.setdefault("title", data.get("name", ""))
        kwargs.setdefault("cards", "cards" in data)
        seed = kwargs.pop("seed", 0)
        return cls(rebuild(seed), rebuild=rebuild, seed=seed, stop_after=stop_after, positions=datas,
                   seed_enabled=False, **kwargs)

    # ----- layout ----------------------------------------------------------------------------------------

    def _layout(self) -> list[widgets.Widget]:
        """The board; the prompt beside the controls it names (place, draw and cards, next step, start round,
        the end of a position); one compact row of secondary controls; what they open, closed at first."""
        hand = widgets.HBox([label("Cards drawn:"), *self.card_buttons],
                            layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.draws = widgets.HBox([], layout=widgets.Layout(margin="0 12px 0 0", flex_flow="row wrap"))
        self.energy_row = widgets.HBox([self.draws, hand], layout=widgets.Layout(flex_flow="row wrap"))
        self.setup_row = widgets.HBox([self.place_input, self.place_button],
                                      layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        self.done_row.layout.flex_flow = "row wrap"
        self.legend = widgets.HTML(legend_html(self.race, folding=False))
        self.key = Disclosure("Key", [self.legend], tooltip="What the colours and marks on the board mean")
        self.teachers = teacher_section(self.seed, self.open_box)
        self.story.html.add_class("tutor-log")  # the log shown apart from its toggle (in the secondary row)
        self.prompt = prompt_row(self.status, self.setup_row, self.energy_row, self.next_round_button,
                                 self.next_button, self.finish_button, self.finish_race_button, self.done_row)
        self.secondary = SecondaryRow([self.back_button, self.restart_button, label("Speed:"), self.speed,
                                       self.skip_button, self.motion, self.text_view.toggle, self.story.toggle,
                                       self.key.button, self.teachers.button])
        # The secondary row above the board: after the prompt's last control, Tab goes on to the lesson's quiz.
        return [widgets.HTML(CSS), self.header, self.secondary, board_frame(self.scene), self.prompt,
                self.results, self.text_view.html, self.story.html, self.key.body, self.teachers.body]

    def _set_draw_buttons(self) -> None:
        self.draw_buttons = {rid: self._draw_button(rid) for team in self.human_teams
                             for rid in self.race.teams[team].riders}
        self.draws.children = list(self.draw_buttons.values())

    def _card_button(self, index: int) -> widgets.Button:
        b = button("·", f"Play card {index + 1}", width="56px")
        b.add_class("tutor-card-button")
        b.on_click(lambda _: self._guard(f"card{index}", lambda: self._on_card(index)))
        return b

    def _draw_button(self, rider_id: str) -> widgets.Button:
        b = button(f"Draw 4 for {rider_id}", f"Energy phase: draw 4 cards for {rider_id}", style="info")
        b.on_click(lambda _: self._guard(f"draw-{rider_id}", lambda: self._on_draw(rider_id)))
        return b

    def _guard(self, control: str, handler: Callable[[], None]) -> None:
        """Run ``handler`` unless the last click was on the same control a moment ago (a double click runs
        once; a click on another control in between makes the next one count)."""
        last, ended = self._last_click
        if control == last and time.monotonic() - ended < self.debounce_s:
            return
        try:
            self.learner_action(handler)
        finally:
            self._last_click = (control, time.monotonic())  # from the end: queued clicks of a double click drop

    # ----- handlers --------------------------------------------------------------------------------------

    def _on_place(self, spot: tuple[int, int] | None) -> None:
        rider = self.placing_rider
        if rider is None:
            placing = self.race.placing_team if self.race.phase is Phase.SETUP else None
            self._warn(f"Not your turn: {placing.name} is placing its riders." if placing else
                       f"Riders are placed during the setup; now it is the {self.race.phase.name_in_words}.")
            return
        if spot is None:
            self._warn(f"Choose a square and lane for {rider} first.")
            return
        problem = self._placement_problem(rider, *spot)
        if problem:
            self._warn(f"{rider} cannot start on square {spot[0]}, {lane_name(spot[1])}: {problem}.")
            return
        self._act(lambda: self.race.place(rider, *spot))

    def _placement_problem(self, rider: str, square: int, lane: int) -> str | None:
        """Why a learner's rider may not start there, in the lesson's words (None: it may)."""
        race = self.race
        if any(isinstance(a, Place) and (a.rider, a.square, a.lane) == (rider, square, lane)
               for a in race.legal_actions()):
            return None
        if square >= race.track.start:
            return f"riders start behind the start line, on squares 0 to {race.track.start - 1}"
        taken = [r.lane for r in race.riders.values() if r.square == square]
        if lane in taken:
            return "that lane is taken"
        if lane > 0 and 0 not in taken:
            return "a rider alone on a square takes the right-hand lane"
        return "that lane is not free"

    def _on_canvas_click(self, x: float, y: float) -> None:
        """Setup: a click on a lane of the board (CSS pixels) places the learner's next rider there."""
        if self.race.phase is not Phase.SETUP:
            return  # the board is not a control outside the setup
        spot = self.scene.view.cell_at(x, y)
        if spot is None:
            self._warn("Click on a lane of the road, behind the start line.")
            return
        self._guard("board", lambda: self._on_place(spot))

    def _on_draw(self, rider_id: str) -> None:
        self._act(lambda: self.race.draw(rider_id), active=rider_id)

    def _on_card(self, index: int) -> None:
        rider = self.active_rider
        if rider is None:
            self._warn(self._why_no_cards())
            return
        hand = self.race.riders[rider].hand
        if index >= len(hand):
            self._warn(f"{rider} has only {len(hand)} card{'s' if len(hand) != 1 else ''} in hand: "
                       f"pick one of {', '.join(map(str, hand))}.")
            return
        card = hand[index]
        self._act(lambda: self.race.play(rider, card))

    def _on_next(self) -> None:
        if self._refuse_steps():
            return
        self._resolve(one=True)

    def _on_finish(self) -> None:
        if self._refuse_steps():
            return
        self._resolve(one=False)

    def _on_back(self) -> None:
        if not self.control.back("Nothing to undo: this is the starting position."):
            return
        self._events = []
        self._active = None
        self._end_pause()
        self._show([Line("Back: the position before your last action is restored.")])

    def _on_restart(self) -> None:
        seed = self.seed.value
        if self._positions:
            self.race = scenarios.build(self._positions[self._position], history=True)
        else:
            self.race = self._rebuild(seed) if self._rebuild else Race.from_dict(self._start)
        self.human_teams, self._focus, self._stop = self._initial
        self._set_draw_buttons()
        self._reset()
        start = ("Back to the starting position." if self.seed.disabled else f"A new race (shuffle number {seed}).")
        self._show([Line(start), *self._intro(), *self._opening_bots()])

    def _on_another(self, opened: str = "") -> None:
        """The next prepared position (the same one again when there is only one); ``opened`` starts the log."""
        self._position = (self._position + 1) % max(1, len(self._positions))
        data = self._positions[self._position] if self._positions else None
        self.race = scenarios.build(data, history=True) if data else Race.from_dict(self._start)
        self._start = self.race.to_dict()
        self._stop_round = self.race.round
        if data and data.get("name"):
            self.title = data["name"]
        self._reset()
        self._show([Line(opened or ("A new position." if len(self._positions) > 1 else "The same position again.")),
                    *self._intro()])

    def _open_position(self, scenario: dict[str, Any]) -> None:
        """A pasted position code: its scenario becomes the position shown, as ``from_scenario`` shows one (an
        invalid one raises ``ScenarioError``, which the box shows; nothing changes)."""
        race = scenarios.build(scenario, history=True)
        self.scene.view = make_view(race.track, cards=self.scene.view.cards)
        self.scene.set_height(self.scene.view.height)
        self._positions, self._position = [scenario], -1  # _on_another steps to it; Restart comes back to it
        self.race, self.human_teams, self._focus = race, learner_teams(race, None), None
        self._initial = (self.human_teams, None, self._stop)
        self._set_draw_buttons()
        self.title = scenario.get("name") or "A shared position"
        self._on_another(opened=f"Opened {self.title}: {len(race.riders)} riders.")
        self.redraw(redraw_track=True)

    def _on_continue(self) -> None:
        """Play on as a race: the learner keeps the first team, the other teams become bots."""
        race = self.race
        learner = next((t for t in ("red", *race.teams) if t in race.teams and not race.teams[t].bot), None)
        for name, team in list(race.teams.items()):
            if name != learner and team.bot is None:
                race.teams[name] = dataclasses.replace(team, controller="heuristic")
        self.human_teams = (learner,) if learner else ()
        self._focus = None
        self._stop = None
        self._set_draw_buttons()
        self._events = []
        self._round_end = None
        self._show([Line(f"The race goes on: you ride {learner or 'no team'}; the other teams are played by "
                         "the computer.")] + self._intro() + self._opening_bots())

    def _on_next_round(self) -> None:
        """The learner has looked at the end of the round (or the breakaway): the next round starts."""
        if not self.paused:
            self._warn("Nothing to continue: the race is not paused.")
            return
        self._round_end = None
        self._events = []
        self._show(self._intro() + self._play_bots())

    def _end_pause(self) -> None:
        """Forget a pause and the marks kept for it (Back, Restart, a new position)."""
        self._round_end, self._round_events, self._held = None, [], []

    @property
    def paused(self) -> bool:
        """A round (or the breakaway) is over and its result stays on the board until 'Start round N'."""
        return self._round_end is not None and not self.done

    def _reset(self) -> None:
        self.control.start_here()
        self._events = []
        self._active = None
        self._end_pause()
        self.story.clear()

    def _act(self, action: Callable[[], list[Event]], *, active: str | None = None) -> None:
        """Run an engine action and the bots' replies as one undo step; a refused action shows why and changes
        nothing."""
        if self.paused:
            self._warn(self._hint())
            return
        self.control.act(action, then=lambda events: self._acted(events, active))

    def _acted(self, events: list[Event], active: str | None) -> None:
        if active:
            self._active = active
        self._events = events
        self._narrate(events)
        self._show(self._play_bots())

    def _resolve(self, one: bool) -> None:
        """Next step (``one``) or the rest of the round, one step at a time, each animated after the other: one
        undo step."""
        self.control.act(lambda: self._resolve_steps(one))

    def _resolve_steps(self, one: bool) -> None:
        race = self.race
        limit = self._limit()
        records: list[StepRecord] = []
        round_ = race.round
        try:
            for record in resolve_steps(race, one, stop=lambda race: _order(race.phase) > limit):
                records.append(record)
                self._narrate(list(record.events))
        except RuleError as err:
            self._warn(f"Not allowed: {err}.")
        self._events = list(records[-1].events) if records else []
        self._round_events += [e for record in records for e in record.events if isinstance(e, END_MARKS)]
        if race.round != round_ and race.phase is not Phase.FINISHED:
            self._round_end, self._round_events = self._round_events, []
        self._show([] if self._round_end is not None else self._play_bots(), steps=records)

    def _limit(self) -> int:
        """The last phase Finish round resolves: the end of the round, or where a prepared position stops."""
        if self._stop is not None and self.race.round == self._stop_round:
            return _order(self._stop)
        return _order(Phase.END_EXHAUSTION)

    @property
    def done(self) -> bool:
        """A prepared position has reached the end of its lesson."""
        race = self.race
        if self._stop is None:
            return False
        return (race.phase is Phase.FINISHED or race.round > self._stop_round
                or (race.phase.automatic and _order(race.phase) > _order(self._stop)))

    def _narrate(self, events: Sequence[Event]) -> None:
        """Word the events for the log, each line in the section of its round (a new round starts a new
        section); ``_show`` logs them."""
        section = self._logged_section
        for event in events:
            if isinstance(event, RoundStarted):
                section = f"Round {event.round}"
            self._pending.append((section, event))
        self._logged_section = section

    def _opening_bots(self) -> list[Line]:
        """The bots' first moves of a new position: Back stops after them."""
        lines = self._play_bots()
        self.control.start_here()
        return lines

    def _play_bots(self) -> list[Line]:
        """Bot teams place their riders when it is their turn, and play their whole energy phase at once."""
        if self.done:
            return []
        return computer_plays(autoplay(self.race, steps=False))

    # ----- what the learner sees -------------------------------------------------------------------------

    @property
    def placing_rider(self) -> str | None:
        """The learner's next rider to place (setup phase, the learner's turn)."""
        team = self.race.placing_team if self.race.phase is Phase.SETUP else None
        if team is None or team.name not in self.human_teams:
            return None
        return next(r for r in team.riders if self.race.riders[r].square is None)

    @property
    def active_rider(self) -> str | None:
        """The learner's rider holding drawn cards (the one the card buttons play for)."""
        riders = self.race.riders
        if self._active in riders and riders[self._active].hand and riders[self._active].team in self.human_teams:
            return self._active
        for rid in self.draw_buttons:
            if riders[rid].hand:
                return rid
        return None

    def redraw(self, *, redraw_track: bool = False) -> None:
        """Repaint the canvas (the Voila page calls this when it connects)."""
        self.scene.draw(self.race, self._highlights(), self._panel(), priority=self._priority(),
                        redraw_track=redraw_track)

    def _section(self) -> str:
        return f"Round {self.race.round}" if self.race.round else "Setup"

    def _show(self, lines: list[Line], steps: Sequence[StepRecord] = ()) -> None:
        """Log ``lines`` (those ``_narrate`` held back go first, in the same section), update the controls and
        the status, and paint (or animate ``steps``)."""
        tagged = [(section, line) for section, group in itertools.groupby(self._pending, key=lambda p: p[0])
                  for line in narrate([event for _, event in group])]
        tagged += [(self._section(), line) for line in lines]
        self._pending = []
        self._logged_section = self._section()
        if self._round_end is not None:  # the round that ended stays the newest (open) section of the log
            ended = f"Round {self.race.round - 1}" if self.race.round > 1 else "Setup"
            self._held += [(section, line) for section, line in tagged if section != ended]
            tagged = [(section, line) for section, line in tagged if section == ended]
        else:
            tagged, self._held = self._held + tagged, []
        self.narration_lines = [line for _, line in tagged]
        # The board first: it is what the learner watches (the buttons and the log follow in a few ms).
        planned = 0.0
        if not steps:
            self.redraw()
        else:
            speed = SPEEDS[self.speed.value]
            planned = self.scene.animate_steps(self.race, steps, self._highlights(), self._panel(), speed=speed,
                                               priority=self._priority(), budget_ms=round_budget(steps, speed))
        for section, group in itertools.groupby(tagged, key=lambda t: t[0]):
            self.story.add([line for _, line in group], section)
        self._refresh_controls()  # the hint reads the buttons' new state
        if self.done and self.race.phase is not Phase.FINISHED:
            self.status.show(f"This position is done: that is the rule of this lesson. Choose "
                             f"'{self._another_words}', or continue as a race.", "success",
                             changed=changed_words(self.narration_lines))
        else:
            self.status.show(self._with_skip(self._hint(), planned), changed=changed_words(self.narration_lines))
        self.text_view.show(describe_race(self.race, secret=self._panel().secret, hands=[self.active_rider or ""]),
                            self.narration_lines)
        if self.acting:
            self.move_focus(self.next_control())

    def next_control(self) -> widgets.Widget | None:
        """The control the prompt names next (focus goes there after each action)."""
        race = self.race
        if self.placing_rider:
            return self.place_button
        if self.done:
            return self.another_button
        if self.paused:
            return self.next_round_button
        if race.phase is Phase.FINISHED:
            return self.restart_button
        if race.phase.choosing:
            if self.active_rider:
                return self.card_buttons[0]
            free = [b for b in self.draw_buttons.values() if not b.disabled]
            return free[0] if free else None
        return self.next_button if not self.next_button.disabled else None

    def _warn(self, text: str) -> None:
        self.status.show(text, "warning")

    def _highlights(self) -> Highlights:
        if self._round_end is not None:
            return highlights_for(self.race, self._round_end)
        return highlights_for(self.race, self._events, active=self.active_rider)

    def _panel(self) -> CardPanel:
        race = self.race
        secret = frozenset(rid for rid, r in race.riders.items()
                           if race.phase.choosing and r.team not in self.human_teams)
        active = self.active_rider or (race.to_move[0] if race.phase is Phase.MOVEMENT and race.to_move else None)
        return CardPanel(self.focus, secret=secret, active=active)

    def _priority(self) -> list[int]:
        squares = (self.race.riders[r].square for r in (*self.focus[:2], *self.race.to_move[:1]))
        return [s for s in squares if s is not None]

    def _refresh_controls(self) -> None:
        race = self.race
        done = self.done
        legal = race.legal_actions() if race.phase.choosing and not done else []
        drawable = {a.rider for a in legal if isinstance(a, Draw)}
        for rid, b in self.draw_buttons.items():
            with b.hold_sync():
                b.disabled = rid not in drawable
                b.tooltip = (f"Energy phase: draw 4 cards for {rid}" if not b.disabled else self._why_no_draw(rid))
        rider = self.active_rider
        hand = race.riders[rider].hand if rider else []
        for i, b in enumerate(self.card_buttons):
            with b.hold_sync():  # one message per button
                b.description = str(hand[i]) if i < len(hand) else "·"
                b.tooltip = f"Play {hand[i]} for {rider}" if i < len(hand) else self._why_no_cards()
                b.button_style = ("danger" if hand[i].is_exhaustion else "warning") if i < len(hand) else ""
                b.disabled = i >= len(hand)
        rider = self.placing_rider
        self.setup_row.layout.display = None if rider else "none"
        if rider:
            spots = [(a.square, a.lane) for a in race.legal_actions() if isinstance(a, Place) and a.rider == rider]
            self.place_input.options = [(f"square {sq}, {lane_name(lane)}", (sq, lane)) for sq, lane in spots]
            self.place_input.value = spots[-1] if spots else None
            self.place_button.description = f"Place {rider}"
        # The draw and card buttons only show while the learner has cards to play.
        paused = self.paused
        self.energy_row.layout.display = (None if race.phase.choosing and self.draw_buttons and not done
                                          and not paused else "none")
        resolving = race.phase.automatic and not done and not paused
        self.stepper.update(can_step=resolving, can_undo=self.control.can_back)
        for b in (self.next_button, self.finish_button):  # one next step named at a time: shown when it is next
            b.layout.display = None if resolving else "none"
        self.stepper.show_continue(f"Start round {race.round} ▸" if paused else None,
                                   lambda: self._guard("next-round", self._on_next_round))
        why = "" if resolving else self._why_no_step()
        self.next_button.tooltip = why or "Resolve the next step: one rider's move or one part of the end phase"
        self.finish_button.tooltip = why or "Resolve the rest of the round, rider by rider"
        self.back_button.tooltip = "Undo the last action" if self.control.can_back else "Nothing to undo yet"
        self.done_row.layout.display = None if done else "none"
        self.another_button.description = f"{self._another_words} ▸"
        self.header.value = self._header_html()
        self._show_finish_offer()
        self.results.value = results_html(race) if race.phase is Phase.FINISHED else ""
