"""``BoardEditing``: the Flamme Rouge workbench's board as an editor (a mixin of ``Workbench``).

A click on the board picks the rider there, or adds a rider of the chosen team and kind on a free lane (at most
``MAX_RIDERS``), or moves the picked rider there; the rider, team, kind and card inputs follow the position
(``_sync_inputs``). Every edit goes through the workbench's ``_edit``, which refuses what the scenario format
refuses and then changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from tutor.flamme_rouge.race import TEAM_COLOURS
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.style import kind_name, lane_name, team_name
from tutor.i18n import N_, _, and_list, ngettext
from tutor.ui.controller import UndoController
from tutor.ui.controls import StatusLine, label

MAX_RIDERS = 12
"""Most riders a position on the workbench has (twelve single riders, the largest race of the rules): any such
position has a share code of at most 80 characters."""
NEW = ""
"""``rider_input``'s value for "+ new rider"."""
NO_CARD = ""
"""A card input's value for "no card"."""
TEAMS = (*TEAM_COLOURS, "peloton")
"""Teams a new rider can ride for."""
BOT_TEAMS = {"peloton": {"team_kind": "peloton", "exhaustion": False}}
"""The scenario keys a rider of a bot team gets (the team input's choice names the team; its kind is data): the
Peloton team's riders take no exhaustion cards."""
CARD_CHOICES: list[tuple[str, Any]] = [(N_("no card"), NO_CARD), *((str(v), v) for v in (2, 3, 4, 5, 6, 7, 9)),
                                       (N_("Attack!"), "attack")]
"""A rider's card choices: (label, value); a label in words is translated where the list is shown."""


def card_choices() -> list[tuple[str, Any]]:
    return [(label if label.isdigit() else _(label), value) for label, value in CARD_CHOICES]


def team_choices() -> list[tuple[str, str]]:
    """The teams a new rider can ride for, by their colour's name in the learner's language."""
    return [(kind_name(team) if team in BOT_TEAMS else team_name(team), team) for team in TEAMS]
"""Cards a rider can be given (docs/scenario_format.md: an energy card's value, or the Peloton team's Attack!)."""


class BoardEditing:
    """The editing half of ``Workbench`` (see the module docstring); the workbench owns the attributes below."""

    _data: dict[str, Any]
    _cards: dict[str, Any]
    _syncing: bool
    selected: str | None
    scene: Scene
    control: UndoController
    status: StatusLine
    rider_input: widgets.Dropdown
    team_input: widgets.Dropdown
    kind_input: widgets.ToggleButtons
    remove_button: widgets.Button
    restart_button: widgets.Button
    keep_button: widgets.Button
    card_inputs: dict[str, widgets.Dropdown]
    cards_row: widgets.HBox
    name_input: widgets.Text

    def _edit(self, riders: list[dict[str, Any]] | None = None, cards: dict[str, Any] | None = None) -> bool:
        raise NotImplementedError

    def _show(self, message: str) -> None:
        raise NotImplementedError

    if TYPE_CHECKING:  # the workbench's (``tutor.ui.shell.LessonShell``), declared for the type checker only
        def warn(self, text: str) -> None:
            ...

    def _refresh(self) -> None:
        raise NotImplementedError

    def _missing_cards(self) -> list[str]:
        raise NotImplementedError

    @property
    def riders(self) -> list[dict[str, Any]]:
        riders: list[dict[str, Any]] = self._data.get("riders", [])
        return riders

    def _rider_at(self, square: int, lane: int) -> str | None:
        return next((r["id"] for r in self.riders if (r["square"], r["lane"]) == (square, lane)), None)

    def _on_board(self, x: float, y: float) -> None:
        """A click on the board (CSS pixels): pick the rider there, or add / move a rider to the free lane."""
        spot = self.scene.view.cell_at(x, y)
        if spot is None:
            self.warn(_("Click on a lane of the road: on a rider to pick it, on a free lane to put a rider there."))
            return
        if self.control.can_back:
            self.warn(_("The board shows the round being resolved: choose '{restart}' to edit the position again, "
                        "or '{keep}' to edit the board as it is now.").format(
                restart=self.restart_button.description, keep=self.keep_button.description))
            return
        square, lane = spot
        where = _("square {square}, {lane}").format(square=square, lane=lane_name(lane))
        occupant = self._rider_at(square, lane)
        if occupant is not None:
            self._pick(occupant)
            return
        if self.selected is None:
            if len(self.riders) >= MAX_RIDERS:
                self.warn(_("The board has {n} riders, the most a race has: remove one to add another.").format(
                    n=MAX_RIDERS))
                return
            team, kind = self.team_input.value, self.kind_input.value
            rider: dict[str, Any] = {"id": self._new_id(team, kind), "square": square, "lane": lane, "team": team,
                                     "kind": kind}
            rider.update(BOT_TEAMS.get(team, {}))
            if self._edit(riders=[*self.riders, rider]):
                self._sync_inputs()
                self._show(_("{rider} added: {where}. Click another lane to add one more, or click a rider to "
                             "pick it.").format(rider=rider["id"], where=where))
            return
        moved = [dict(r, square=square, lane=lane) if r["id"] == self.selected else r for r in self.riders]
        if self._edit(riders=moved):
            self._show(_("{rider} moved: {where}.").format(rider=self.selected, where=where))

    def _new_id(self, team: str, kind: str) -> str:
        base = f"{team}-{kind[0].upper()}"
        taken = {r["id"] for r in self.riders}
        return next(rid for rid in (base, *(f"{base}{n}" for n in range(2, 100))) if rid not in taken)

    def _pick(self, rider_id: str | None) -> None:
        """Pick a rider (None or ``NEW``: the next click on a free lane adds a rider)."""
        if self._syncing:
            return
        self.selected = rider_id or None
        self._sync_inputs()
        if self.selected is None:
            self._show(_("New rider: choose its team and kind, then click a free lane."))
        else:
            self._show(_("{rider} picked: click a free lane to move it, choose its card below, or '{remove}'.").format(
                rider=self.selected, remove=self.remove_button.description))

    def _on_team_or_kind(self) -> None:
        """The team and kind inputs: for the next new rider, or the picked rider's own."""
        if self._syncing or self.selected is None:
            return
        team, kind = self.team_input.value, self.kind_input.value
        changed = [dict(r, team=team, kind=kind) if r["id"] == self.selected else r for r in self.riders]
        for rider in changed:
            if rider["id"] == self.selected:
                rider.pop("team_kind", None)
                rider.pop("exhaustion", None)
                rider.update(BOT_TEAMS.get(team, {}))
        if self._edit(riders=changed):
            said = (_("{rider} rides for the {team} team, a rouleur.") if kind == "rouleur" else
                    _("{rider} rides for the {team} team, a sprinteur."))
            self._show(said.format(rider=self.selected, team=team_name(team) if team not in BOT_TEAMS
                                   else kind_name(team)))
        else:
            self._sync_inputs()

    def _remove(self) -> None:
        if self.selected is None:
            self.warn(_("Pick a rider first: click it on the board."))
            return
        if self.control.can_back:
            self.warn(_("Choose '{restart}' first: the board shows the round being resolved.").format(
                restart=self.restart_button.description))
            return
        gone = self.selected
        if self._edit(riders=[r for r in self.riders if r["id"] != gone]):
            self.selected = None
            self._sync_inputs()
            self._show(_("{rider} removed.").format(rider=gone))

    def _on_card(self, rider_id: str, card: Any) -> None:
        if self._syncing:
            return
        card = None if card == NO_CARD else card
        if self._edit(cards={**self._cards, rider_id: card}):
            missing = self._missing_cards()
            shown = _("Attack!") if card == "attack" else card
            self._show(_("{rider} plays {card}.").format(rider=rider_id, card=shown) if card is not None else
                       _("{rider} has no card.").format(rider=rider_id))
            if missing:
                self.status.show(ngettext(
                    "{rider}: {card}. Now a card for {riders} too: every rider plays a card (or none, and the round "
                    "starts at the end phase).",
                    "{rider}: {card}. Now a card for {riders} too: every rider plays a card (or none, and the round "
                    "starts at the end phase).", len(missing)).format(
                    rider=rider_id, card=_("no card") if card is None else shown, riders=and_list(missing)))
        else:
            self._sync_inputs()

    def _on_name(self) -> None:
        if self._syncing:
            return
        self._data["name"] = self.name_input.value
        self._refresh()

    def _sync_inputs(self) -> None:
        """Show the position in the inputs (without running their handlers)."""
        self._syncing = True
        try:
            ids = [r["id"] for r in self.riders]
            if self.selected not in ids:
                self.selected = None
            self.rider_input.options = [(_("+ new rider"), NEW), *((rid, rid) for rid in ids)]
            self.rider_input.value = self.selected or NEW
            picked = next((r for r in self.riders if r["id"] == self.selected), None)
            if picked is not None:
                self.team_input.value = picked.get("team") if picked.get("team") in TEAMS else self.team_input.value
                self.kind_input.value = picked.get("kind", "rouleur")
            self.remove_button.disabled = picked is None
            if list(self.card_inputs) != ids:
                self.card_inputs = {rid: self._card_input(rid) for rid in ids}
                self.cards_row.children = [label(_("Cards:")), *self.card_inputs.values()] if ids else []
            for rid, box in self.card_inputs.items():
                value = self._cards.get(rid, NO_CARD)
                if value not in [v for _, v in box.options]:
                    box.options = [*box.options, (str(value), value)]
                box.value = value
            self.name_input.value = self._data.get("name") or ""
        finally:
            self._syncing = False

    def _card_input(self, rider_id: str) -> widgets.Dropdown:
        box = widgets.Dropdown(options=card_choices(), value=NO_CARD, description=rider_id,
                               style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
        box.observe(lambda change: self._on_card(rider_id, change["new"]), "value")
        return box
