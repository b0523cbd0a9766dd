"""The Flamme Rouge controls a prompt names: a rider's hand (``HandControls``: "Draw 4 for red-S" and the four
card buttons, in the energy phase and the breakaway bids) and the setup's placing (``PlaceControls``, and
``SetupPlacing``, the part ``RaceTutor.placing`` that owns them and handles their clicks and the board's).

The controls hold no race: their owner (``RaceTutor``, ``BreakawayBid``) asks the engine what is legal and passes it in,
and each click goes through the owner's click rule (``tutor.ui.shell.LessonShell.guard``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol, Sequence

import ipywidgets as widgets

from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.events import Event
from tutor.flamme_rouge.race import Phase, Place, Race
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.style import lane_name
from tutor.i18n import _, ngettext
from tutor.ui.controls import button, label

Guard = Callable[[str, Callable[[], None]], None]
"""The owner's click rule: ``guard(control_name, handler)``."""


class HandControls:
    """One draw button per rider (``draw_buttons``) and ``card_buttons`` for the cards a rider drew; ``row``
    holds them. ``bidding`` words them for the breakaway bids ("Bid 5 for red-S")."""

    def __init__(
        self,
        guard: Guard,
        *,
        cards: int,
        on_draw: Callable[[str], None],
        on_card: Callable[[int], None],
        bidding: bool = False,
    ) -> None:
        self._guard, self._on_draw, self._bidding = guard, on_draw, bidding
        self.draw_buttons: dict[str, widgets.Button] = {}
        self.draws = widgets.HBox([], layout=widgets.Layout(margin="0 12px 0 0", flex_flow="row wrap"))
        self.card_buttons = [self._card_button(k, on_card) for k in range(cards)]
        self.hand = widgets.HBox(
            [label(_("Cards drawn:")), *self.card_buttons],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap"),
        )
        self.row = widgets.HBox([self.draws, self.hand], layout=widgets.Layout(flex_flow="row wrap"))

    def set_riders(self, riders: Iterable[str]) -> None:
        """A draw button for each of ``riders`` (the learner's)."""
        self.draw_buttons = {rid: self._draw_button(rid) for rid in riders}
        self.draws.children = list(self.draw_buttons.values())

    @property
    def free(self) -> list[str]:
        """The riders whose draw button is enabled, in order."""
        return [rid for rid, b in self.draw_buttons.items() if not b.disabled]

    def show_draws(self, drawable: set[str], why_not: Callable[[str], str] | None = None) -> None:
        """Enable the draw buttons of ``drawable``; a disabled one's tooltip says ``why_not(rider)``."""
        for rid, b in self.draw_buttons.items():
            with b.hold_sync():
                b.disabled = rid not in drawable
                b.tooltip = self._draw_tooltip(rid) if not b.disabled or why_not is None else why_not(rid)

    def show_hand(self, rider: str | None, hand: Sequence[Card], why_none: str) -> None:
        """The card buttons name ``rider``'s ``hand`` (an exhaustion card in red); the others are off and say
        ``why_none``."""
        for k, b in enumerate(self.card_buttons):
            with b.hold_sync():  # one message per button
                held = k < len(hand)
                b.description = str(hand[k]) if held else "·"
                b.tooltip = self._card_tooltip(hand[k], rider or "") if held else why_none
                b.button_style = (
                    ("danger" if hand[k].is_exhaustion and not self._bidding else "warning") if held else ""
                )
                b.disabled = not held

    def _draw_tooltip(self, rider: str) -> str:
        hand = len(self.card_buttons)  # the engine's hand size, which the owner passed as ``cards``
        if self._bidding:
            return ngettext(
                "Breakaway bid: draw {hand} card for {rider}", "Breakaway bid: draw {hand} cards for {rider}", hand
            ).format(hand=hand, rider=rider)
        return ngettext(
            "Energy phase: draw {hand} card for {rider}", "Energy phase: draw {hand} cards for {rider}", hand
        ).format(hand=hand, rider=rider)

    def _card_tooltip(self, card: Card, rider: str) -> str:
        if self._bidding:
            return _("Bid {card} for {rider}").format(card=card, rider=rider)
        return _("Play {card} for {rider}").format(card=card, rider=rider)

    def _draw_button(self, rider: str) -> widgets.Button:
        b = button(
            _("Draw {hand} for {rider}").format(hand=len(self.card_buttons), rider=rider),
            self._draw_tooltip(rider),
            style="info",
        )
        b.on_click(lambda _b: self._guard(f"draw-{rider}", lambda: self._on_draw(rider)))
        return b

    def _card_button(self, index: int, on_card: Callable[[int], None]) -> widgets.Button:
        tip = _("Bid card {n}") if self._bidding else _("Play card {n}")
        b = button("·", tip.format(n=index + 1), width="56px")
        b.add_class("tutor-card-button")
        b.on_click(lambda _b: self._guard(f"card{index}", lambda: on_card(index)))
        return b


class PlaceControls:
    """Setup: ``place_input`` (the free squares and lanes of the learner's next rider) and ``place_button``, in
    ``row`` (shown only while the learner places a rider)."""

    def __init__(self, guard: Guard, on_place: Callable[[tuple[int, int] | None], None]) -> None:
        self.place_input = widgets.Dropdown(description=_("Place on"), style={"description_width": "initial"})
        self.place_button = button(_("Place"), _("Setup: put the rider on the chosen square and lane"), style="info")
        self.place_button.on_click(lambda _b: guard("place", lambda: on_place(self.place_input.value)))
        self.row = widgets.HBox(
            [self.place_input, self.place_button], layout=widgets.Layout(align_items="center", flex_flow="row wrap")
        )

    def show(self, rider: str | None, spots: Sequence[tuple[int, int]]) -> None:
        """Offer ``spots`` (the engine's legal places) for ``rider``; None hides the row."""
        self.row.layout.display = None if rider else "none"
        if rider:
            self.place_input.options = [
                (_("square {square}, {lane}").format(square=square, lane=lane_name(lane)), (square, lane))
                for square, lane in spots
            ]
            self.place_input.value = spots[-1] if spots else None
            self.place_button.description = _("Place {rider}").format(rider=rider)


class PlacingView(Protocol):
    """What the setup's placing reads of the tutor: its public state (``RaceTutor`` is one)."""

    @property
    def race(self) -> Race: ...

    @property
    def human_teams(self) -> tuple[str, ...]: ...

    def warn(self, text: str) -> None: ...

    def guard(self, control: str, handler: Callable[[], None]) -> None: ...


class SetupPlacing:
    """Setup (the part ``RaceTutor.placing``): the learner places its riders in turn, with its ``PlaceControls``
    (``controls``; ``row``, ``place_input``, ``place_button``) or a click on a lane of the board; the engine says
    where a rider may start (``Race.placement_problem``). It keeps no state: it reads the tutor's public state
    (``PlacingView``) and places a rider through ``act`` (the tutor's one way to run a learner's action)."""

    def __init__(
        self,
        tutor: PlacingView,
        *,
        scene: Scene,
        act: Callable[[Callable[[], list[Event]]], None],
        on_panel_click: Callable[[float, float], None],
    ) -> None:
        """``act(action)`` runs an engine action as the learner's step; ``on_panel_click(x, y)`` is a click on the
        board after the setup (on the card panel)."""
        self.tutor, self.scene = tutor, scene
        self._act, self._on_panel_click = act, on_panel_click
        self.controls = PlaceControls(tutor.guard, self.place)
        self.row, self.place_input, self.place_button = (
            self.controls.row,
            self.controls.place_input,
            self.controls.place_button,
        )

    # ----- placing ---------------------------------------------------------------------------------------

    @property
    def rider(self) -> str | None:
        """The learner's next rider to place (setup phase, the learner's turn)."""
        team = self.tutor.race.placing_team if self.tutor.race.phase is Phase.SETUP else None
        if team is None or team.name not in self.tutor.human_teams:
            return None
        return next(r for r in team.riders if self.tutor.race.riders[r].square is None)

    def show(self) -> None:
        """The controls offer the engine's legal places for ``rider`` (hidden when the learner has none to place)."""
        placing = self.rider
        self.controls.show(
            placing,
            [(a.square, a.lane) for a in self.tutor.race.legal_actions() if isinstance(a, Place) and a.rider == placing]
            if placing
            else [],
        )

    def place(self, spot: tuple[int, int] | None) -> None:
        """Place the learner's next rider on ``spot`` (square, lane); a wrong spot or turn warns why."""
        rider = self.rider
        if rider is None:
            placing = self.tutor.race.placing_team if self.tutor.race.phase is Phase.SETUP else None
            self.tutor.warn(
                _("Not your turn: {team} is placing its riders.").format(team=placing.name)
                if placing
                else _("Riders are placed during the setup; now it is the {phase}.").format(
                    phase=self.tutor.race.phase.name_in_words
                )
            )
            return
        if spot is None:
            self.tutor.warn(_("Choose a square and lane for {rider} first.").format(rider=rider))
            return
        if not any(
            isinstance(a, Place) and (a.rider, a.square, a.lane) == (rider, *spot)
            for a in self.tutor.race.legal_actions()
        ):
            problem = self.tutor.race.placement_problem(*spot) or _("that lane is not free")
            self.tutor.warn(
                _("{rider} cannot start on square {square}, {lane}: {problem}.").format(
                    rider=rider, square=spot[0], lane=lane_name(spot[1]), problem=problem
                )
            )
            return
        self._act(lambda: self.tutor.race.place(rider, *spot))

    def on_canvas_click(self, x: float, y: float) -> None:
        """Setup: a click on a lane of the board (CSS pixels) places the learner's next rider there; later, a click
        on a drawn card of the card panel plays it (``on_panel_click``)."""
        if self.tutor.race.phase is not Phase.SETUP:
            self._on_panel_click(x, y)
            return
        spot = self.scene.view.cell_at(x, y)
        if spot is None:
            self.tutor.warn(_("Click on a lane of the road, behind the start line."))
            return
        self.tutor.guard("board", lambda: self.place(spot))
