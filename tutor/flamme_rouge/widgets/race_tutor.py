"""``RaceTutor``: play a race round by round, with every step drawn and told in plain words.

    tutor = RaceTutor.new_race("avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"},
                               seed=0, human_teams=("red",))
    tutor = RaceTutor.from_scenario("scenarios/p1_blocked_rider.json")    # starts at the movement phase
    tutor = RaceTutor.from_scenario(["scenarios/a.json", "scenarios/b.json"], stop_after="slipstream")
    display(tutor)                                   # a VBox

The screen is the lesson shell (``tutor.ui.shell.LessonShell``); this module says what Flamme Rouge does on it.
The learner draws for each of its riders ("Draw 4 for red-S"), clicks one of the four card buttons (or the card
drawn on the board's card panel) to play it (the other three are recycled under the deck), then resolves the round
with "Next step" (one rider's move, or
one part of the end phase) or "Finish round", which animates the rest of the round step by step at the chosen
``speed``, fitted to a few seconds (``race_pace``; "Skip animation" shows its end at once; a new click never
waits for an animation). A full race offers "Finish the race" from round 3 (``race_pace``). When a round (or
the breakaway) is over, the board keeps its result (the slipstream "+1" chips, the exhaustion cards, the
breakaway riders) and the race pauses until "Start round N" (``next_round_button``). Bot teams play their
energy phase at once. A click at the wrong time shows a warning in ``status`` and changes nothing; a second
click on the same control within ``debounce_s`` (a double click) is ignored. Disabled buttons say why in their
tooltip.

A prepared position (``from_scenario``) stops where its lesson stops (``stop_after``: "movement", "slipstream"
or "round") and offers "Try another position" (the next of its scenarios) and "Continue as a race" (the other
teams become bots). A finished race shows its results table (``results``).

The tutor is the lesson shell and a VBox; it keeps the race, the learner's teams, the marks on the board and the
controls, and owns four parts, each a plain object with a small state of its own that meets the tutor through
public names only (the tutor's public properties, or callables the tutor passes in; ``tests/test_layers.py``
checks that no module here reads another object's private name): ``words`` (``race_words.RaceWords``: the
prompt, the tooltips, the header, the opening lines), ``pace`` (``race_pace.RacePace``: "Finish the race" and
the Skip sentence), ``placing`` (``race_controls.SetupPlacing``: the setup's controls and clicks on the board)
and ``positions`` (``race_positions.PreparedPositions``: where a position stops, the next position, Restart's
race). The tutor asks the parts and sets what they return; its public properties (``done``, ``placing_rider``,
``finishing``, ``offers_finish`` ...) read them.

Attributes for lessons and tests: ``race`` (restored in place by Back, through the race's own undo history;
replaced by Restart and a new position), ``scene`` (``scene.canvas`` is the MultiCanvas), ``header``,
``status`` (with ``status.kind`` and ``status.text``), ``story`` (a ``tutor.ui.narration.NarrationLog``: the
whole story, round by round), ``narration`` (its HTML widget), ``narration_lines`` (the newest lines),
``card_buttons`` (4), ``draw_buttons`` (rider -> Button), ``place_input``, ``place_button``, ``next_button``,
``finish_button``, ``skip_button``, ``next_round_button``, ``back_button``, ``restart_button``, ``seed``,
``speed``, ``another_button``, ``continue_button``, ``finish_race_button``, ``results``, the parts (``words``,
``pace``, ``placing``, ``positions``); ``redraw()`` repaints everything.

On screen: ``secondary`` above the board (Back, Restart, Speed, Skip, "No animation", the board in words, the
log, the ``key``, "Open a position code", "For teachers": the shuffle number), the board, then ``prompt`` (the status
beside the controls it names). After each action focus goes to ``next_control()`` (``focused``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Self, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.errors import RuleError
from tutor.flamme_rouge.events import BreakawayCost, Event, ExhaustionTaken, PacksFound, Slipstreamed
from tutor.flamme_rouge.race import Draw, Phase, Race
from tutor.flamme_rouge.render import CardPanel, Highlights, Scene, highlights_for, legend_html
from tutor.flamme_rouge.render.describe import describe_race
from tutor.flamme_rouge.render.scene import StepRecord
from tutor.flamme_rouge.render.style import team_name
from tutor.i18n import N_, _, ngettext
from tutor.ui import pace
from tutor.ui.controls import CSS, button, label
from tutor.ui.narration import NarrationLog
from tutor.ui.screen import Disclosure, board_frame, changed_words, prompt_row
from tutor.ui.shell import LessonShell

from .narration import Line, computer_plays
from .race_controls import HandControls, SetupPlacing
from .race_log import RoundLog, section_title
from .race_pace import RacePace, round_budget
from .race_positions import STOPS, PreparedPositions, ScenarioSource, full_race, phase_order, scenario_race
from .race_words import RaceWords, learner_teams, results_html, taught_marks
from .workbench import PositionBox

END_MARKS = (PacksFound, Slipstreamed, ExhaustionTaken, BreakawayCost)
"""Events whose marks stay on the board at the end of a round (or the breakaway): packs, "+1" chips, exhaustion
cards."""
SPEEDS = {N_("Slow"): 1.8, N_("Normal"): 1.0, N_("Fast"): 0.45}
"""Animation speeds by name (the English name is the value; the button shows it translated)."""
"""Animation speed: how long each frame is held, relative to normal."""


class RaceTutor(LessonShell, widgets.VBox):
    """A race on a canvas with the controls of a learner who plays ``human_teams``."""

    @classmethod
    def new_race(
        cls,
        stage: str = "avenue-corso-paseo",
        teams: Sequence[str] = ("red", "blue"),
        bots: Mapping[str, str] = MappingProxyType({"blue": "heuristic"}),
        seed: int = 0,
        human_teams: Iterable[str] | None = ("red",),
        place: str = "auto",
        peloton: bool = False,
        muscle: int = 0,
        breakaway: bool = False,
        single_riders: bool = False,
        **kwargs: Any,
    ) -> Self:
        """A new race on a stage or teaching track (``tutor.flamme_rouge.track.stage``).

        Teams in neither ``bots`` nor ``human_teams`` are played by the heuristic bot.
        ``place="auto"`` places the riders at random; with ``place="manual"`` the teams
        place their riders in turn, in the order of ``teams`` (the learner on the board).
        ``peloton``, ``muscle``, ``breakaway`` and ``single_riders`` go to ``Race.new`` (Peloton
        expansion): bot teams flip on "Next step", bids use the draw and card buttons.
        """
        rebuild = full_race(
            stage,
            teams,
            bots,
            human_teams,
            place=place,
            peloton=peloton,
            muscle=muscle,
            breakaway=breakaway,
            single_riders=single_riders,
        )
        tutor = cls(rebuild(seed), human_teams=human_teams, rebuild=rebuild, seed=seed, **kwargs)
        tutor.finish_from_round = pace.FINISH_FROM_ROUND  # a full race: "Finish the race" from round 3
        return tutor

    @classmethod
    def from_scenario(
        cls,
        scenario: ScenarioSource | list[ScenarioSource] | tuple[ScenarioSource, ...],
        *,
        stop_after: str = "round",
        **kwargs: Any,
    ) -> Self:
        """A tutor at the movement phase (or end phase) of a scenario: a file path, a dict, or a list of them
        ("Try another position" goes through the list). It stops after ``stop_after`` (``STOPS``)."""
        datas, rebuild = scenario_race(scenario)
        kwargs.setdefault("title", datas[0].get("name", ""))
        kwargs.setdefault("cards", "cards" in datas[0])
        seed = kwargs.pop("seed", 0)
        return cls(
            rebuild(seed),
            rebuild=rebuild,
            seed=seed,
            stop_after=stop_after,
            positions=datas,
            seed_enabled=False,
            **kwargs,
        )

    def __init__(
        self,
        race: Race,
        *,
        human_teams: Iterable[str] | None = None,
        focus: Iterable[str] | None = None,
        title: str = "",
        rebuild: Callable[[int], Race] | None = None,
        seed: int = 0,
        stop_after: str | None = None,
        positions: Sequence[dict[str, Any]] = (),
        cards: bool = True,
        seed_enabled: bool | None = None,
        taught: Iterable[str] | None = None,
    ):
        """``rebuild(seed)`` makes the race again for Restart; without it Restart restores ``race`` as given.
        ``stop_after`` (``STOPS``) and ``positions`` (the scenarios "Try another position" cycles through) are for
        prepared positions; ``cards=False`` hides the card panel (a lesson without cards); ``taught`` names the
        end-of-round marks the prompt may name (``race_words.TAUGHT``; None: all)."""
        super().__init__()
        self.taught = taught_marks(taught)
        self.words = RaceWords(self)
        """What the tutor says: the prompt, the tooltips, the header (``race_words``)."""
        if stop_after is not None and stop_after not in STOPS:
            raise ValueError(f"stop_after must be one of {tuple(STOPS)}, not {stop_after!r}")
        self._keep_state(race, human_teams, focus, title, rebuild, stop_after, positions)
        self.scene = Scene(race.track, cards=cards)
        self.open_box = PositionBox(self._open_position)  # a class pastes a teacher's position code (issue 11)
        self.build_shell(
            lambda: self.race,
            [self.scene],
            on_next=self._on_next,
            on_finish=self._on_finish,
            on_back=self._on_back,
            on_restart=self._on_restart,
            seed=seed,
            seed_enabled=rebuild is not None if seed_enabled is None else seed_enabled,
            next_tooltip=_("Resolve the next step: one rider's move or one part of the end phase"),
            finish_tooltip=_("Resolve the rest of the round, rider by rider"),
            position_box=self.open_box,
        )
        self._make_controls(hand_size=max((race.teams[t].hand_size for t in self.human_teams), default=4))
        self.pace = RacePace(
            self,
            scene=self.scene,
            status=self.status,
            control=self.control,
            start_next_round=self._on_next_round,
            show=self._show,
            narrate=self._narrate,
            forget_marks=self._forget_marks,
        )
        """"Finish the race" and the Skip sentence (``race_pace``)."""
        self.finish_race_button = self.pace.finish.button
        self.on_click(self.finish_race_button, "finish-race", self.pace.finish_race)
        self.children = self._layout()
        self._set_draw_buttons()
        self.add_class("tutor-race")
        self.add_class("tutor-lesson")  # the template's rules for every lesson widget (a11y.css)
        self.scene.on_client_ready(lambda: self.redraw(redraw_track=True))
        self._show(self.words.intro() + self._opening_bots())

    def _keep_state(
        self,
        race: Race,
        human_teams: Iterable[str] | None,
        focus: Iterable[str] | None,
        title: str,
        rebuild: Callable[[int], Race] | None,
        stop_after: str | None,
        positions: Sequence[dict[str, Any]],
    ) -> None:
        """What the tutor remembers besides the race: whose it is, where a position stops, the pause."""
        self.race = race
        self.human_teams = learner_teams(race, human_teams)
        self._focus = tuple(focus) if focus is not None else None
        self.title = title
        self._active: str | None = None
        self._events: list[Event] = []
        self._round_events: list[Event] = []
        """This round's events with marks that stay at its end (``END_MARKS``)."""
        self._round_end: list[Event] | None = None
        """Set when a step ended a round or the breakaway: its marks stay on the board, and the next round's
        lines wait (``RoundLog``), until the learner moves on."""
        self.positions = PreparedPositions(
            race,
            stop_after=stop_after,
            scenarios=positions,
            rebuild=rebuild,
            shown=(self.human_teams, self._focus),
            asked=(tuple(human_teams) if human_teams is not None else None, self._focus),
        )
        """Where the position stops and which comes next (``race_positions``)."""
        self.narration_lines: list[Line] = []

    def _make_controls(self, hand_size: int) -> None:
        """The game's own controls: the log, the results, placing, the hand, the speed, the end of a position."""
        self.header = widgets.HTML()
        self.story = NarrationLog(_("Log"), open_=False)  # collapsed: the prompt says what each step changed
        self.narration = self.story.html
        self.round_log = RoundLog(self.story, self.race.round)
        self.results = widgets.HTML()
        self.hand = HandControls(self.guard, cards=hand_size, on_draw=self._on_draw, on_card=self._on_card)
        self.card_buttons = self.hand.card_buttons
        self.placing = SetupPlacing(self, scene=self.scene, act=self._act, on_panel_click=self._on_panel_click)
        """The setup: placing the learner's riders, with its controls or on the board (``race_controls``)."""
        self.place_input, self.place_button = self.placing.place_input, self.placing.place_button
        self.scene.on_click(self.placing.on_canvas_click)
        self.speed = widgets.ToggleButtons(
            options=[(_(name), name) for name in SPEEDS],
            value="Normal",
            tooltips=[_("Slower animations"), _("Normal speed"), _("Faster animations")],
            style={"button_width": "auto"},
        )
        self.next_round_button = self.stepper.continue_button  # "Start round N" at the end of a round
        self.restart_button.tooltip = _("Start again (a new deal: the shuffle number under For teachers)")
        if self.positions.stop is not None:
            self.seed.layout.display = "none"  # a prepared position: nothing is shuffled
            self.teachers.add(
                label(
                    _(
                        "Every learner gets this same position and the same cards, so a class can "
                        "talk about one board. Restart shows it again."
                    )
                )
            )
        self.another_button = button(
            _("Try another position ▸"), _("A new position to practise the same rule"), style="primary"
        )
        self.continue_button = button(
            _("Continue as a race"), _("Play on from here: you ride the first team, the others become bots")
        )
        self.on_click(self.another_button, "another", self._on_another)
        self.on_click(self.continue_button, "continue", self._on_continue)
        self.done_row = widgets.HBox([self.another_button, self.continue_button])

    @property
    def draw_buttons(self) -> dict[str, widgets.Button]:
        """The learner's riders' draw buttons (rider -> Button)."""
        return self.hand.draw_buttons

    @property
    def last_events(self) -> Sequence[Event]:
        """The events of the learner's last step (its marks are on the board)."""
        return self._events

    @property
    def round_ended(self) -> bool:
        """The board shows the end of a round (or the breakaway): its marks stay until the learner moves on."""
        return self._round_end is not None

    @property
    def finish_from_round(self) -> int | None:
        """Round from which "Finish the race" is offered (None: never; ``new_race`` sets it)."""
        return self.pace.finish.from_round

    @finish_from_round.setter
    def finish_from_round(self, round_: int | None) -> None:
        self.pace.finish.from_round = round_

    @property
    def finishing(self) -> bool:
        """ "Finish the race" was chosen: each round resolves at once after the learner's cards."""
        return self.pace.finish.finishing

    @finishing.setter
    def finishing(self, finishing: bool) -> None:
        self.pace.finish.finishing = finishing

    @property
    def offers_finish(self) -> bool:
        """ "Finish the race" is offered now (``RacePace.offers_finish``)."""
        return self.pace.offers_finish

    @property
    def placing_rider(self) -> str | None:
        """The learner's next rider to place (setup phase, the learner's turn)."""
        return self.placing.rider

    @property
    def done(self) -> bool:
        """A prepared position has reached the end of its lesson."""
        return self.positions.done(self.race)

    @property
    def more_positions(self) -> bool:
        """A prepared position with another to try ("Try another position")."""
        return self.positions.more_positions

    @property
    def stops_after_setup(self) -> bool:
        """The lesson stops once the riders are placed (lesson 1): the race itself is for the next lessons."""
        return self.positions.stops_after_setup

    @property
    def focus(self) -> tuple[str, ...]:
        """Riders whose cards the panel shows: the learner's (or those given)."""
        if self._focus is not None:
            return self._focus
        return tuple(rid for team in self.human_teams for rid in self.race.teams[team].riders)

    # ----- layout ----------------------------------------------------------------------------------------

    def _layout(self) -> list[widgets.Widget]:
        """The secondary row above the board (after the prompt's last control, Tab goes on to the lesson's quiz);
        the board; the prompt beside the controls it names (place, draw and cards, next step, start round, the
        end of a position); what the secondary row opens, closed at first."""
        self.energy_row, self.setup_row = self.hand.row, self.placing.row
        self.done_row.layout.flex_flow = "row wrap"
        self.legend = widgets.HTML(legend_html(self.race, folding=False))
        self.key = Disclosure(_("Key"), [self.legend], tooltip=_("What the colours and marks on the board mean"))
        self.prompt = prompt_row(
            self.status,
            self.setup_row,
            self.energy_row,
            self.next_round_button,
            self.next_button,
            self.finish_button,
            self.finish_race_button,
            self.done_row,
        )
        self.secondary = self.secondary_row(
            pace=[label(_("Speed:")), self.speed, self.skip_button], disclosures=[self.story.toggle, self.key.button]
        )
        return [
            widgets.HTML(CSS),
            self.header,
            self.secondary,
            board_frame(self.scene),
            self.prompt,
            self.results,
            self.text_view.html,
            self.story.html,
            self.key.body,
            *self.code_body(),
            self.teachers.body,
        ]

    def _new_key(self) -> None:
        """The key of the race shown (another position may have other marks)."""
        self.legend.value = legend_html(self.race, folding=False)

    def _set_draw_buttons(self) -> None:
        self.hand.set_riders(rid for team in self.human_teams for rid in self.race.teams[team].riders)

    # ----- handlers --------------------------------------------------------------------------------------

    def _on_draw(self, rider_id: str) -> None:
        self._act(lambda: self.race.draw(rider_id), active=rider_id)

    def _on_card(self, index: int) -> None:
        rider = self.active_rider
        if rider is None:
            self.warn(self.words.why_no_cards())
            return
        hand = self.race.riders[rider].hand
        if index >= len(hand):
            self.warn(
                ngettext(
                    "{rider} has only {n} card in hand: pick one of {cards}.",
                    "{rider} has only {n} cards in hand: pick one of {cards}.",
                    len(hand),
                ).format(rider=rider, n=len(hand), cards=", ".join(map(str, hand)))
            )
            return
        card = hand[index]
        self._act(lambda: self.race.play(rider, card))

    def _on_panel_click(self, x: float, y: float) -> None:
        """A click on the card panel (CSS pixels): a card the learner's rider drew is played, as its button plays
        it; anywhere else the board is not a control."""
        spot = self._panel().card_at(self.race, self.scene.view, x, y)
        rider = self.active_rider
        if spot is not None and spot[0] == rider and rider is not None and spot[1] < len(self.race.riders[rider].hand):
            slot = spot[1]
            self.guard(f"card{slot}", lambda: self._on_card(slot))

    def _on_next(self) -> None:
        if not self.words.refuse_steps():
            self._resolve(one=True)

    def _on_finish(self) -> None:
        if not self.words.refuse_steps():
            self._resolve(one=False)

    def _on_back(self) -> None:
        if not self.back_step():
            return
        self._events = []
        self._active = None
        self._end_pause()
        if self.race.phase.automatic:  # a position from before "Finish the race": step by step again
            self.finishing = False
        self._show([Line(_("Back: the position before your last action is restored."))])

    def _on_restart(self) -> None:
        seed = self.seed.value
        self.race = self.positions.restart(seed)
        self.human_teams, self._focus = self.positions.initial[:2]
        self._set_draw_buttons()
        self._reset()
        start = (
            _("Back to the starting position.")
            if self.seed.disabled
            else _("A new race (shuffle number {seed}).").format(seed=seed)
        )
        self._show([Line(start), *self.words.intro(), *self._opening_bots()])

    def _on_continue(self) -> None:
        """Play on as a race: the learner keeps the first team, the other teams become bots."""
        race = self.race
        learner = next((t for t in ("red", *race.teams) if t in race.teams and not race.teams[t].bot), None)
        race.hand_to_bots(keep=(learner,) if learner else (), bot="heuristic")
        self.human_teams = (learner,) if learner else ()
        self._focus = None
        self.positions.race_on()
        self._set_draw_buttons()
        self._events = []
        self._round_end = None
        goes_on = (
            _("The race goes on: you ride {team}; the other teams are played by the computer.").format(
                team=team_name(learner)
            )
            if learner
            else _("The race goes on: the computer plays every team.")
        )
        self._show([Line(goes_on)] + self.words.intro() + self._opening_bots())

    def _on_another(self, opened: str = "") -> None:
        """The next prepared position (the same one again when there is only one); ``opened`` starts the log.
        Its race comes with its own riders, teams, draw buttons, track and title; Restart comes back to it."""
        race, name = self.positions.next_position()
        self._enter(race)
        if name:
            self.title = name
        again = _("A new position.") if self.positions.more_positions else _("The same position again.")
        self._show([Line(opened or again), *self.words.intro(), *self._opening_bots()])

    def _enter(self, race: Race) -> None:
        """Show ``race``, a new position (``PreparedPositions.enter``: its teams, focus and stop); its track, draw
        buttons and key; Back starts here."""
        self.human_teams, self._focus = self.positions.enter(race)
        self.race = race
        self.scene.set_track(race.track)  # the track may differ: the board repaints it
        self._set_draw_buttons()
        self._new_key()
        self._reset()

    def _open_position(self, scenario: dict[str, Any]) -> None:
        """A pasted position code: its scenario becomes the position shown, as ``from_scenario`` shows one (an
        invalid one raises ``ScenarioError``, which the box shows; nothing changes)."""
        race = scenarios.build(scenario, history=True)
        self.positions.open(scenario)  # _on_another steps to it; Restart comes back to it
        self.title = scenario.get("name") or _("A shared position")
        self._on_another(opened=_("Opened {name}: {n} riders.").format(name=self.title, n=len(race.riders)))

    def _on_next_round(self) -> None:
        """The learner has looked at the end of the round (or the breakaway): the next round starts."""
        if not self.paused:
            self.warn(_("Nothing to continue: the race is not paused."))
            return
        self._round_end = None
        self._events = []
        self._show(self.words.intro() + self._play_bots())

    def _forget_marks(self) -> None:
        """No marks stay on the board: neither the last step's nor a round's end (the pace resolved on at once)."""
        self._round_end, self._round_events, self._events = None, [], []

    def _end_pause(self) -> None:
        """Forget a pause and the marks kept for it (Back, Restart, a new position)."""
        self._round_end, self._round_events = None, []
        self.round_log.drop_held()

    @property
    def paused(self) -> bool:
        """A round (or the breakaway) is over and its result stays on the board until 'Start round N'."""
        return self._round_end is not None and not self.done

    def _reset(self) -> None:
        self.control.start_here()
        self.finishing = False
        self._events = []
        self._active = None
        self._end_pause()
        self.round_log.clear()

    def _act(self, action: Callable[[], list[Event]], *, active: str | None = None) -> None:
        """Run an engine action and the bots' replies as one undo step; a refused action shows why and changes
        nothing."""
        if self.paused:
            self.warn(self.words.hint())
            return
        self.control.act(action, then=lambda events: self._acted(events, active))

    def _acted(self, events: list[Event], active: str | None) -> None:
        if active:
            self._active = active
        self._events = events
        self._narrate(events)
        self._show(self.pace.resolve_rest() or self._play_bots())  # finishing: the round resolves at once

    def _resolve(self, one: bool) -> None:
        """Next step (``one``) or the rest of the round, one step at a time, each animated after the other: one
        undo step."""
        self.control.act(lambda: self._resolve_steps(one))

    def _resolve_steps(self, one: bool) -> None:
        race = self.race
        limit = self.positions.limit(race)
        records: list[StepRecord] = []
        round_ = race.round
        try:
            for record in race.resolve_steps(one, stop=lambda race: phase_order(race.phase) > limit):
                records.append(record)
                self._narrate(list(record.events))
        except RuleError as err:
            self.warn(f"Not allowed: {err}.")
        self._events = list(records[-1].events) if records else []
        self._round_events += [e for record in records for e in record.events if isinstance(e, END_MARKS)]
        if race.round != round_ and race.phase is not Phase.FINISHED:
            self._round_end, self._round_events = self._round_events, []
        self._show([] if self._round_end is not None else self._play_bots(), steps=records)

    def _narrate(self, events: Sequence[Event]) -> None:
        """Keep the events to word in the log, each in the section of its round; ``_show`` logs them."""
        self.round_log.note(events)

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
        self.scene.draw(
            self.race, self.highlights(), self._panel(), priority=self._priority(), redraw_track=redraw_track
        )

    def _show(self, lines: list[Line], steps: Sequence[StepRecord] = ()) -> None:
        """Log ``lines`` (those ``_narrate`` held back go first, in the same section), update the controls and
        the status, and paint (or animate ``steps``)."""
        ended = section_title(self.race.round - 1) if self._round_end is not None else None
        tagged = self.round_log.take(lines, section_title(self.race.round), ended)
        self.narration_lines = [line for _section, line in tagged]
        # The board first: it is what the learner watches (the buttons and the log follow in a few ms).
        planned = 0.0
        if not steps:
            self.redraw()
        else:
            speed = SPEEDS[self.speed.value]
            planned = self.scene.animate_steps(
                self.race,
                steps,
                self.highlights(),
                self._panel(),
                speed=speed,
                priority=self._priority(),
                budget_ms=round_budget(steps, speed),
            )
        self.round_log.write(tagged)
        self._refresh_controls()  # the hint reads the buttons' new state
        if self.done and self.race.phase is not Phase.FINISHED:
            self.status.show(self.words.done_words(), "success", changed=changed_words(self.narration_lines))
        else:
            self.status.show(
                self.pace.with_skip(self.pace.prompt(self.words.hint()), planned),
                changed=changed_words(self.narration_lines),
            )
        self.text_view.show(
            describe_race(self.race, secret=self._panel().secret, hands=[self.active_rider or ""]), self.narration_lines
        )
        if self.acting:
            self.focus_next()

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
            free = self.hand.free
            return self.draw_buttons[free[0]] if free else None
        return self.next_button if not self.next_button.disabled else None

    def highlights(self) -> Highlights:
        """The marks on the board: the end of a round's (while it is shown), else the last step's."""
        if self._round_end is not None:
            return highlights_for(self.race, self._round_end)
        return highlights_for(self.race, self._events, active=self.active_rider)

    def _panel(self) -> CardPanel:
        race = self.race
        secret = frozenset(
            rid for rid, r in race.riders.items() if race.phase.choosing and r.team not in self.human_teams
        )
        active = self.active_rider or (race.to_move[0] if race.phase is Phase.MOVEMENT and race.to_move else None)
        return CardPanel(self.focus, secret=secret, active=active)

    def _priority(self) -> list[int]:
        squares = (self.race.riders[r].square for r in (*self.focus[:2], *self.race.to_move[:1]))
        return [s for s in squares if s is not None]

    def _refresh_controls(self) -> None:
        """Show the controls the prompt may name now, each enabled as the engine's legal actions allow."""
        race, done, paused = self.race, self.done, self.paused
        legal = race.legal_actions() if race.phase.choosing and not done else []
        self.hand.show_draws({a.rider for a in legal if isinstance(a, Draw)}, self.words.why_no_draw)
        rider = self.active_rider
        self.hand.show_hand(rider, race.riders[rider].hand if rider else [], self.words.why_no_cards())
        self.placing.show()
        # The draw and card buttons only show while the learner has cards to play.
        self.energy_row.layout.display = (
            None if race.phase.choosing and self.draw_buttons and not done and not paused else "none"
        )
        resolving = race.phase.automatic and not done and not paused
        self.stepper.update(can_step=resolving, can_undo=self.control.can_back)
        for b in (self.next_button, self.finish_button):  # one next step named at a time: shown when it is next
            b.layout.display = None if resolving else "none"
        self.stepper.show_continue(
            _("Start round {n} ▸").format(n=race.round) if paused else None,
            lambda: self.guard("next-round", self._on_next_round),
        )
        why = "" if resolving else self.words.why_no_step()
        self.next_button.tooltip = why or _("Resolve the next step: one rider's move or one part of the end phase")
        self.finish_button.tooltip = why or _("Resolve the rest of the round, rider by rider")
        self.back_button.tooltip = _("Undo the last action") if self.control.can_back else _("Nothing to undo yet")
        self.done_row.layout.display = None if done else "none"
        self.continue_button.layout.display = "none" if self.stops_after_setup else None  # lesson 2 goes on
        self.another_button.description = f"{self.words.another_words} ▸"
        self.header.value = self.words.header_html()
        self.pace.show_offer()
        self.results.value = results_html(race, self.human_teams) if race.phase is Phase.FINISHED else ""
