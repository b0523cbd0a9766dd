"""``RaceTutor``: play a race round by round, with every step drawn and told in plain words.

    tutor = RaceTutor.new_race("avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"},
                               seed=0, human_teams=("red",))
    tutor = RaceTutor.from_scenario("scenarios/p1_blocked_rider.json")    # starts at the movement phase
    display(tutor)                                   # a VBox

The learner draws for each of its riders ("Draw 4 for red-S"), clicks one of
the four card buttons to play it (the other three are recycled under the deck),
then resolves the round with "Next step" (one rider's move, or one part of the
end phase) or "Finish round". Bot teams play their energy phase at once.
A click at the wrong time shows a warning in ``status`` and changes nothing.

Attributes for lessons and tests: ``race`` (replaced by Back and Restart),
``scene`` (``scene.canvas`` is the MultiCanvas), ``header``, ``status`` (with
``status.kind`` and ``status.text``), ``narration`` (HTML; ``narration_lines``
holds the ``Line`` objects), ``card_buttons`` (4), ``draw_buttons`` (rider ->
Button), ``next_button``, ``finish_button``, ``back_button``,
``restart_button``, ``seed``; ``redraw()`` repaints everything.
"""

from __future__ import annotations

import html
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge import rules
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.errors import RuleError
from tutor.flamme_rouge.events import Event, RiderMoved
from tutor.flamme_rouge.race import Draw, Phase, Place, Race
from tutor.flamme_rouge.render import CardPanel, Highlights, Scene, highlights_for, legend_html
from tutor.flamme_rouge.render.style import lane_name
from tutor.ui.controls import CSS, StatusLine, button, label
from tutor.ui.narration import and_list
from tutor.ui.stepper import PhaseStepper

from .narration import Line, computer_plays, narrate, rider_cards, to_html


class RaceTutor(widgets.VBox):
    """A race on a canvas with the controls of a learner who plays ``human_teams``."""

    def __init__(self, race: Race, *, human_teams: Iterable[str] | None = None, focus: Iterable[str] | None = None,
                 title: str = "", rebuild: Callable[[int], Race] | None = None, seed: int = 0):
        """``rebuild(seed)`` makes the race again for Restart; without it Restart restores ``race`` as given."""
        super().__init__()
        self.race = race
        self.human_teams = _human_teams(race, human_teams)
        self.focus = tuple(focus) if focus is not None else tuple(
            rid for team in self.human_teams for rid in race.teams[team].riders)
        self.title = title
        self._rebuild = rebuild
        self._start = race.to_dict()
        self._undo: list[dict[str, Any]] = []
        self._active: str | None = None
        self._events: list[Event] = []
        self.narration_lines: list[Line] = []

        self.scene = Scene(race.track)
        self.header = widgets.HTML()
        self.status = StatusLine()
        self.narration = widgets.HTML()
        hand_size = max((race.teams[team].hand_size for team in self.human_teams), default=4)
        self.card_buttons = [self._card_button(i) for i in range(hand_size)]
        self.draw_buttons = {rid: self._draw_button(rid) for team in self.human_teams
                             for rid in race.teams[team].riders}
        self.place_input = widgets.Dropdown(description="Place on", style={"description_width": "initial"})
        self.place_button = button("Place", "Setup: put the rider on the chosen square and lane", style="info")
        self.place_button.on_click(lambda _: self._on_place(self.place_input.value))
        self.scene.on_click(self._on_canvas_click)
        self.stepper = PhaseStepper(
            on_next=self._on_next, on_finish=self._on_finish, on_back=self._on_back, on_restart=self._on_restart,
            seed=seed, seed_enabled=rebuild is not None,
            next_tooltip="Resolve the next step: one rider's move or one part of the end phase")
        self.next_button, self.finish_button = self.stepper.next_button, self.stepper.finish_button
        self.back_button, self.restart_button, self.seed = (self.stepper.back_button, self.stepper.restart_button,
                                                            self.stepper.seed)
        self.children = self._layout()
        self.add_class("tutor-race")
        self.scene.on_client_ready(lambda: self.redraw(redraw_track=True))

        bots = self._play_bots()
        self._show(self._intro() + bots)

    # ----- constructors ----------------------------------------------------------------------------------

    @classmethod
    def new_race(cls, stage: str = "avenue-corso-paseo", teams: Sequence[str] = ("red", "blue"),
                 bots: Mapping[str, str] = MappingProxyType({"blue": "heuristic"}), seed: int = 0,
                 human_teams: Iterable[str] | None = ("red",), place: str = "auto", peloton: bool = False,
                 muscle: int = 0, breakaway: bool = False, single_riders: bool = False, **kwargs) -> RaceTutor:
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

        return cls(rebuild(seed), human_teams=human_teams, rebuild=rebuild, seed=seed, **kwargs)

    @classmethod
    def from_scenario(cls, scenario, **kwargs) -> RaceTutor:
        """A tutor at the movement phase of a scenario (a file path or a dict; SCENARIOS.md)."""
        data = scenario if isinstance(scenario, dict) else scenarios.load(scenario)

        def rebuild(new_seed: int) -> Race:
            return scenarios.build(data, seed=new_seed, history=True)

        kwargs.setdefault("title", data.get("name", ""))
        seed = kwargs.pop("seed", 0)
        return cls(rebuild(seed), rebuild=rebuild, seed=seed, **kwargs)

    # ----- layout ----------------------------------------------------------------------------------------

    def _layout(self) -> list[widgets.Widget]:
        hand = widgets.HBox([label("Cards drawn:"), *self.card_buttons],
                            layout=widgets.Layout(align_items="center"))
        draws = widgets.HBox(list(self.draw_buttons.values()), layout=widgets.Layout(margin="0 24px 0 0"))
        self.energy_row = widgets.HBox([draws, hand], layout=widgets.Layout(flex_flow="row wrap"))
        self.setup_row = widgets.HBox([self.place_input, self.place_button],
                                      layout=widgets.Layout(align_items="center"))
        self.legend = widgets.HTML(legend_html(self.race))
        return [widgets.HTML(CSS), self.header, self.scene.canvas, self.status, self.setup_row, self.energy_row,
                self.stepper, self.narration, self.legend]

    def _card_button(self, index: int) -> widgets.Button:
        b = button("·", f"Play card {index + 1}", width="64px")
        b.add_class("tutor-card-button")
        b.on_click(lambda _: self._on_card(index))
        return b

    def _draw_button(self, rider_id: str) -> widgets.Button:
        b = button(f"Draw 4 for {rider_id}", f"Energy phase: draw 4 cards for {rider_id}", style="info")
        b.on_click(lambda _: self._on_draw(rider_id))
        return b

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
        self._act(lambda: self.race.place(rider, *spot))

    def _on_canvas_click(self, x: float, y: float) -> None:
        """Setup: a click on a lane of the board places the learner's next rider there."""
        if self.race.phase is not Phase.SETUP:
            return  # the board is not a control outside the setup
        spot = self.scene.view.cell_at(x, y)
        if spot is None:
            self._warn("Click on a lane of the road, behind the start line.")
            return
        self._on_place(spot)

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
        self._act(self.race.step, animate=True)

    def _on_finish(self) -> None:
        if self._refuse_steps():
            return
        self._act(self.race.finish_round, animate=True)

    def _on_back(self) -> None:
        if not self._undo:
            self._warn("Nothing to undo: this is the starting position.")
            return
        self.race = Race.from_dict(self._undo.pop())
        self._events = []
        self._active = None
        self._show([Line("Back: the position before your last action is restored.")])

    def _on_restart(self) -> None:
        seed = self.seed.value
        self.race = self._rebuild(seed) if self._rebuild else Race.from_dict(self._start)
        self._undo.clear()
        self._events = []
        self._active = None
        bots = self._play_bots()
        start = f"A new race with seed {seed}." if self._rebuild else "Back to the starting position."
        self._show([Line(start), *self._intro(), *bots])

    def _act(self, action: Callable[[], list[Event]], *, active: str | None = None, animate: bool = False) -> None:
        """Run an engine action; a refused action shows why and changes nothing."""
        snapshot, before = self.race.to_dict(), self.race.positions()
        try:
            events = list(action())
        except RuleError as err:
            self._warn(f"Not allowed: {err}.")
            return
        self._undo.append(snapshot)
        if active:
            self._active = active
        lines = narrate(events) + self._play_bots()
        self._events = events
        self._show(lines, animate_from=before if animate else None)

    def _refuse_steps(self) -> bool:
        """Warn (and return True) when there is nothing to resolve: energy phase not over, or race over."""
        if self.race.phase.choosing:
            waiting = self.race.waiting_riders()
            self._warn(f"Not yet: the {self.race.phase.name_in_words} is not over. {and_list(waiting)} still "
                       f"{'has' if len(waiting) == 1 else 'have'} to play a card (draw 4, then click one).")
            return True
        if self.race.phase is Phase.FINISHED:
            self._warn(f"The race is over: {self.race.winner} won. Click Back or Restart.")
            return True
        return False

    def _play_bots(self) -> list[Line]:
        """Bot teams place their riders when it is their turn, and play their whole energy phase at once."""
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

    def _show(self, lines: list[Line], animate_from: Mapping[str, tuple[int, int]] | None = None) -> None:
        self.narration_lines = lines
        self.narration.value = to_html(lines)
        self._refresh_controls()  # the hint reads the buttons' new state
        self.status.show(self._hint())
        if animate_from is None:
            self.redraw()
        else:
            moves = sum(isinstance(e, RiderMoved) for e in self._events)
            self.scene.animate(self.race, self._events, animate_from, self._highlights(), self._panel(),
                               steps=min(3, max(1, moves)))  # a whole round: about 2.7 s

    def _warn(self, text: str) -> None:
        self.status.show(text, "warning")

    def _highlights(self) -> Highlights:
        return highlights_for(self.race, self._events, active=self.active_rider)

    def _panel(self) -> CardPanel:
        secret = frozenset(rid for rid, r in self.race.riders.items()
                           if self.race.phase.choosing and r.team not in self.human_teams)
        return CardPanel(self.focus, secret=secret)

    def _priority(self) -> list[int]:
        squares = (self.race.riders[r].square for r in (*self.focus, *self.race.to_move[:1]))
        return [s for s in squares if s is not None]

    def _refresh_controls(self) -> None:
        race = self.race
        legal = race.legal_actions() if race.phase.choosing else []
        drawable = {a.rider for a in legal if isinstance(a, Draw)}
        for rid, b in self.draw_buttons.items():
            b.disabled = rid not in drawable
        rider = self.active_rider
        hand = race.riders[rider].hand if rider else []
        for i, b in enumerate(self.card_buttons):
            b.description = str(hand[i]) if i < len(hand) else "·"
            b.tooltip = f"Play {hand[i]} for {rider}" if i < len(hand) else "No card here"
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
        self.energy_row.layout.display = None if race.phase.choosing and self.draw_buttons else "none"
        resolving = not race.phase.choosing and race.phase not in (Phase.SETUP, Phase.FINISHED)
        self.stepper.update(can_step=resolving, can_undo=bool(self._undo))
        self.header.value = self._header_html()

    def _header_html(self) -> str:
        race = self.race
        title = f"<b>{html.escape(self.title)}</b> · " if self.title else ""
        track = race.track.name if race.track.name != self.title else ""
        track = f"{html.escape(track)} · " if track else ""
        waiting = [r for r in race.waiting_riders() if race.riders[r].team in self.human_teams]
        todo = f" · to play: {html.escape(', '.join(waiting))}" if waiting else ""
        round_ = f"Round {race.round} · " if race.round else ""  # no round yet during the setup
        return (f"<div class='tutor-header'>{title}{track}{round_}"
                f"<span class='tutor-phase'>{html.escape(race.phase.title)}</span>{todo}</div>")

    def _hint(self) -> str:
        race = self.race
        if race.phase.choosing:
            rider = self.active_rider
            verb = "plays" if race.phase is Phase.ENERGY else "bids"
            if rider:
                return f"Pick the card {rider} {verb}: click one of its {len(race.riders[rider].hand)} drawn cards."
            free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
            if free:
                return f"{race.phase.name_in_words.capitalize()}: click 'Draw 4 for {free[0]}'" + (
                    f" (or for {and_list(free[1:])})" if len(free) > 1 else "") + "."
            return "Energy phase: waiting for the other players."
        if race.phase is Phase.MOVEMENT:
            rid = race.to_move[0]
            return (f"Click 'Next step': {rid} moves next ({race.move_values[rid]} squares), frontmost rider first. "
                    "'Finish round' resolves the rest of the round.")
        if race.phase is Phase.FINISHED:
            return f"{race.winner} wins the race! Click Back to look again, or Restart."
        if race.phase is Phase.SETUP:
            rider = self.placing_rider
            if rider:
                return (f"Place {rider}: click a free lane behind the start line on the board, or choose one "
                        "below and click 'Place'.")
            placing = race.placing_team
            return f"Setup: waiting for {placing.name if placing else 'the other teams'} to place their riders."
        return f"Click 'Next step': {race.phase.title}."

    def _intro(self) -> list[Line]:
        race = self.race
        if race.phase is Phase.MOVEMENT:
            cards = rider_cards({r.id: r.played for r in race.riders.values()})
            return [Line(f"The cards are on the table: {cards}. Movement order: {', '.join(race.to_move)}.",
                         (rules.ORDER,))]
        if race.phase is Phase.SETUP:
            return [Line("Setup: the players place their riders in turn, both riders each, in free lanes behind "
                         "the start line.", (rules.SETUP_PLACE,))]
        if race.phase is Phase.ENERGY:
            return [Line(f"Round {race.round}. Each of your riders draws 4 cards, plays 1 and recycles the other 3.",
                         (rules.DRAW, rules.PLAY, rules.RECYCLE))]
        if race.phase is Phase.BID_1:
            return [Line("The breakaway bids: draw 4 for the rider you pick, bid 1 card face down, recycle 3; then "
                         "a second bid with the same rider.", (rules.BID,))]
        return []

    def _why_no_cards(self) -> str:
        race = self.race
        if not race.phase.choosing:
            return (f"Cards are played in the energy phase; now it is the {race.phase.name_in_words}. "
                    "Click 'Next step'." if race.phase is not Phase.FINISHED else "The race is over: no more cards.")
        free = [rid for rid, b in self.draw_buttons.items() if not b.disabled]
        if free:
            return f"Draw first: click 'Draw 4 for {free[0]}' to see its cards."
        return "All your riders have played this round: click 'Next step' when the energy phase is over."


def _human_teams(race: Race, teams: Iterable[str] | None) -> tuple[str, ...]:
    """The learner's teams: every team without a bot by default; each team needs a bot or a human."""
    if teams is None:
        return tuple(name for name, team in race.teams.items() if team.bot is None)
    teams = tuple(teams)
    for name in teams:
        if name not in race.teams:
            raise ValueError(f"human_teams: no team {name!r} in this race (teams: {', '.join(race.teams)})")
        if race.teams[name].bot:
            raise ValueError(f"human_teams: team {name!r} is played by the {race.teams[name].bot!r} bot")
    nobody = [name for name, team in race.teams.items() if team.bot is None and name not in teams]
    if nobody:
        raise ValueError(f"team {nobody[0]!r} has no bot and is not in human_teams: nobody would play it")
    return teams

