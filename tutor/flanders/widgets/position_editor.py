"""``PositionEditor``: the inputs of an In Flanders Field position, for the teacher's workbench.

One input per key of the scenario format (docs/flanders_scenarios.md): the number of players, each player's pawn
(0 = the starting line), troops and "May Retain" cards kept, whose turn it is, the card on each space, the cards
taken this turn (the hand), the second pawn on 9, the phase and the shuffle number. ``value()`` is the position
as a scenario; ``show(data)`` fills the inputs without calling back. The pawns' last space (the Objective line)
and the cards a player may keep come from the engine's data (``scenario.cards_and_battlefield``: the data files a
teacher may replace, or a scenario's own battlefield, which ``value()`` keeps). Any change calls ``on_change(data)``;
when that raises a ``ValueError`` (the rules refuse the position), the inputs go back to the last position
taken and the error is returned to the caller through ``on_refused``.
"""

from __future__ import annotations

import html
from functools import reduce
from typing import Any, Callable

import ipywidgets as widgets

from tutor.flanders import scenario as scenarios
from tutor.flanders.battlefield import Battlefield
from tutor.flanders.cards import CardSet
from tutor.flanders.game import CARD_SPACES
from tutor.flanders.position_code import CARD_NAMES, DEFAULT_TROOPS
from tutor.i18n import N_, _, ngettext
from tutor.ui.controls import label

MAX_PLAYERS = 4
MAX_RETAINED = 3
"""Most cards a player keeps with May Retain on the workbench (the set has six such cards)."""
MAX_HAND = 8
"""Most cards taken in one turn on the workbench (each roll takes one)."""
MAX_SEED = 99_999
AUTO = "auto"
PHASE_CHOICES: list[tuple[str, str]] = [
    (N_("as the hand says"), AUTO),
    (N_("before the first roll"), "roll"),
    (N_("may roll again"), "again"),
    (N_("stopped: carry out the cards"), "resolve"),
]
"""Where the turn is: (label, the scenario's ``phase``); the labels are translated where the list is shown."""
"""The phase input: the format's default (roll, or again once a card is taken), or a phase given."""
EMPTY = ""


def bold(text: str) -> widgets.HTML:
    return widgets.HTML(f"<b class='tutor-label'>{html.escape(text)}</b>")


def _number(description: str, maximum: int, tooltip: str, value: int = 0) -> widgets.BoundedIntText:
    return widgets.BoundedIntText(
        value=value,
        min=0,
        max=maximum,
        description=description,
        tooltip=tooltip,
        style={"description_width": "initial"},
        layout=widgets.Layout(width="130px"),
    )


class PlayerRow(widgets.HBox):
    """One player's pawn, troops and kept cards; ``use`` sets what the engine's data allow (``PositionEditor``)."""

    def __init__(self, player_id: str):
        self.player_id = player_id
        self.pawn = _number(_("pawn on space"), 0, "")
        self.troops = _number(
            _("troops"), DEFAULT_TROOPS, _("The troop pieces of {player}").format(player=player_id), DEFAULT_TROOPS
        )
        self.retained = widgets.TagsInput(
            allowed_tags=[], allow_duplicates=True, placeholder=_("“May Retain” cards kept")
        )
        self.pawn.layout.width = "170px"
        super().__init__(
            [bold(player_id), self.pawn, self.troops, label(_("kept:")), self.retained],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )

    def use(self, objective: int, retainable: tuple[str, ...]) -> None:
        """The pawn's last space (the battlefield's Objective line) and the cards that may be kept."""
        self.pawn.max = objective
        self.pawn.tooltip = _("The pawn of {player}: 0 is the starting line, {objective} the Objective line").format(
            player=self.player_id, objective=objective
        )
        self.retained.allowed_tags = list(retainable)
        self.retained.tooltip = (
            reduce(lambda first, second: _("{first} or {second}").format(first=first, second=second), retainable)
            if retainable
            else ""
        )

    def value(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.player_id, "pawn": self.pawn.value, "troops": self.troops.value}
        if self.retained.value:
            entry["retained"] = list(self.retained.value)
        return entry

    def show(self, entry: dict[str, Any]) -> None:
        self.pawn.value = entry.get("pawn", 0)
        self.troops.value = entry.get("troops", DEFAULT_TROOPS)
        self.retained.value = list(entry.get("retained", []))


class PositionEditor(widgets.VBox):
    """See the module docstring. Attributes for tests: ``count_input``, ``player_rows``, ``current_input``,
    ``space_inputs`` (space -> dropdown), ``hand_input``, ``on_nine_input``, ``phase_input``, ``seed_input``."""

    def __init__(self, on_change: Callable[[dict[str, Any]], None], on_refused: Callable[[ValueError], None]):
        self._on_change, self._on_refused = on_change, on_refused
        self._syncing = False
        self._last: dict[str, Any] = {}
        self.count_input = widgets.ToggleButtons(
            options=[2, 3, 4],
            value=3,
            description=_("Players"),
            style={"button_width": "42px"},
            tooltips=[ngettext("{n} player", "{n} players", n).format(n=n) for n in (2, 3, 4)],
        )
        self.player_rows = [PlayerRow(f"p{n}") for n in range(1, MAX_PLAYERS + 1)]
        self.current_input = widgets.Dropdown(
            description=_("Whose turn"), style={"description_width": "initial"}, layout=widgets.Layout(width="180px")
        )
        self.space_inputs = {
            space: widgets.Dropdown(
                options=[(_("empty"), EMPTY), *((n, n) for n in CARD_NAMES)],
                value=EMPTY,
                description=_("space {space}").format(space=space),
                style={"description_width": "initial"},
                layout=widgets.Layout(width="230px"),
            )
            for space in CARD_SPACES
        }
        self.hand_input = widgets.TagsInput(
            allowed_tags=list(CARD_NAMES),
            allow_duplicates=True,
            placeholder=_("type a card name"),
            tooltip=_("The cards taken this turn"),
        )
        self.on_nine_input = widgets.Checkbox(
            description=_("second pawn on space 9"), indent=False, layout=widgets.Layout(width="auto")
        )
        self.phase_input = widgets.Dropdown(
            options=[(_(said), phase) for said, phase in PHASE_CHOICES],
            value=AUTO,
            description=_("Phase"),
            layout=widgets.Layout(width="320px"),
        )
        self.seed_input = _number(_("Shuffle number"), MAX_SEED, _("The shuffle number deals the draw pile"))
        self.seed_input.layout.width = "200px"
        inputs: list[widgets.Widget] = [
            self.count_input,
            self.current_input,
            self.hand_input,
            self.on_nine_input,
            self.phase_input,
            self.seed_input,
            *self.space_inputs.values(),
        ]
        for row in self.player_rows:
            inputs += [row.pawn, row.troops, row.retained]
        for widget in inputs:
            widget.observe(lambda _: self._changed(), "value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        super().__init__(
            [
                widgets.HBox([self.count_input, self.current_input], layout=wrap),
                widgets.VBox(self.player_rows),
                bold(_("The cards on the spaces")),
                widgets.HBox(list(self.space_inputs.values()), layout=wrap),
                widgets.HBox([bold(_("Cards taken this turn (the hand):")), self.hand_input], layout=wrap),
                widgets.HBox([self.on_nine_input, self.phase_input, self.seed_input], layout=wrap),
            ]
        )
        self.add_class("iff-position-editor")
        self._battlefield: dict[str, Any] | None = None
        """A shown scenario's own battlefield (kept in ``value()``); None: the tutor's data file."""
        self._use_rules({})

    def _use_rules(self, data: dict[str, Any]) -> None:
        """Take what the inputs allow from the engine's data for ``data`` (``scenario.cards_and_battlefield``: the
        data files a teacher may replace, or the scenario's own battlefield)."""
        cards, battlefield = scenarios.cards_and_battlefield(data)
        self.cards: CardSet = cards
        """The card set the position is played with."""
        self.battlefield: Battlefield = battlefield
        """The battlefield the position is played on (its ``objective`` is the pawns' last space)."""
        for row in self.player_rows:
            row.use(battlefield.objective, cards.retainable)

    def value(self) -> dict[str, Any]:
        """The inputs as a scenario (the format's defaults left out)."""
        count = self.count_input.value
        players = [row.value() for row in self.player_rows[:count]]
        ids = [p["id"] for p in players]
        data: dict[str, Any] = {
            "game": "flanders",
            "players": players,
            "current": self.current_input.value if self.current_input.value in ids else ids[0],
            "spaces": {str(s): box.value for s, box in self.space_inputs.items() if box.value},
        }
        if self.hand_input.value:
            data["taken"] = list(self.hand_input.value)
        if self.on_nine_input.value:
            data["on_nine"] = True
        if self.phase_input.value != AUTO:
            data["phase"] = self.phase_input.value
        data["seed"] = self.seed_input.value
        if self._battlefield is not None:
            data["battlefield"] = self._battlefield
        return data

    def show(self, data: dict[str, Any]) -> None:
        """Fill the inputs with a valid position (no call back)."""
        self._syncing = True
        try:
            self._battlefield = data.get("battlefield")
            self._use_rules(data)
            players = data["players"]
            self.count_input.value = len(players)
            for row, entry in zip(self.player_rows, players):
                row.show(entry)
            for row in self.player_rows[len(players) :]:
                row.show({})
            self._show_rows(len(players))
            self.current_input.value = data.get("current", players[0]["id"])
            spaces = data.get("spaces", {})
            for space, box in self.space_inputs.items():
                box.value = spaces.get(str(space)) or EMPTY
            self.hand_input.value = list(data.get("taken", []))
            self.on_nine_input.value = bool(data.get("on_nine", False))
            self.phase_input.value = data.get("phase", AUTO)
            self.seed_input.value = min(max(int(data.get("seed", 0)), 0), MAX_SEED)
        finally:
            self._syncing = False
        self._last = self.value()

    def _show_rows(self, count: int) -> None:
        ids = [f"p{n}" for n in range(1, count + 1)]
        self.current_input.options = ids
        for k, row in enumerate(self.player_rows):
            row.layout.display = "" if k < count else "none"

    def _changed(self) -> None:
        if self._syncing:
            return
        data = self.value()
        try:
            too_many = self._too_many(data)
            if too_many:
                raise ValueError(too_many)
            self._on_change(data)
        except ValueError as err:
            self.show(self._last)
            self._on_refused(err)
            return
        self._last = data
        self._syncing = True
        try:
            self._show_rows(len(data["players"]))
            self.current_input.value = data["current"]
        finally:
            self._syncing = False

    @staticmethod
    def _too_many(data: dict[str, Any]) -> str | None:
        if len(data.get("taken", [])) > MAX_HAND:
            return f"a hand has at most {MAX_HAND} cards here (one card for each roll)"
        for player in data["players"]:
            if len(player.get("retained", [])) > MAX_RETAINED:
                return f"{player['id']} keeps at most {MAX_RETAINED} May Retain cards here"
        return None
