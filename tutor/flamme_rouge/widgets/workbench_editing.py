"""``BoardEditor``: the Flamme Rouge workbench's board as an editor (the part ``Workbench.editing``).

A click on the board picks the rider there, or adds a rider of the chosen team and kind on a free lane (at most
``MAX_RIDERS``), or moves the picked rider there; the rider, team, kind and card inputs follow the position
(``BoardEditor.sync``). Every edit goes through the ``edit`` callable the workbench gives, which refuses what the
scenario format refuses and then changes nothing.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

import ipywidgets as widgets

from tutor.flamme_rouge.cards import RIDER_KINDS
from tutor.flamme_rouge.race import TEAM_COLOURS
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.style import kind_name, lane_name, team_name
from tutor.i18n import N_, _, and_list, ngettext
from tutor.ui.controller import UndoController
from tutor.ui.controls import StatusLine, button, label

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
CARD_CHOICES: list[tuple[str, Any]] = [
    (N_("no card"), NO_CARD),
    *((str(v), v) for v in (2, 3, 4, 5, 6, 7, 9)),
    (N_("Attack!"), "attack"),
]
"""A rider's card choices: (label, value); a label in words is translated where the list is shown."""


def card_choices() -> list[tuple[str, Any]]:
    return [(label if label.isdigit() else _(label), value) for label, value in CARD_CHOICES]


def team_choices() -> list[tuple[str, str]]:
    """The teams a new rider can ride for, by their colour's name in the learner's language."""
    return [(kind_name(team) if team in BOT_TEAMS else team_name(team), team) for team in TEAMS]


"""Cards a rider can be given (docs/scenario_format.md: an energy card's value, or the Peloton team's Attack!)."""


class EditorView(Protocol):
    """What the editor reads of the workbench: its public state (``Workbench`` is one)."""

    @property
    def scene(self) -> Scene: ...

    @property
    def riders(self) -> list[dict[str, Any]]: ...

    @property
    def cards(self) -> dict[str, Any]: ...

    @property
    def restart_button(self) -> widgets.Button: ...

    @property
    def keep_button(self) -> widgets.Button: ...

    def missing_cards(self) -> list[str]: ...

    def warn(self, text: str) -> None: ...


Edit = Callable[..., bool]
"""The workbench's one way to change the position: ``edit(riders=..., cards=...)``, False (and nothing changed)
when the scenario format refuses it."""


class BoardEditor:
    """The board as an editor (the part ``Workbench.editing``; see the module docstring). Its state is the picked
    rider (``selected``) and its inputs: ``rider_input``, ``team_input``, ``kind_input``, ``remove_button``,
    ``card_inputs`` (in ``cards_row``), which it makes and handles. It reads the workbench's public state
    (``EditorView``) and changes the position only through the callables it is built with."""

    def __init__(
        self, bench: EditorView, *, control: UndoController, status: StatusLine, edit: Edit, show: Callable[[str], None]
    ) -> None:
        """``edit(riders=None, cards=None)`` changes the position (False: refused, nothing changed); ``show(message)``
        shows the position and says ``message``. The workbench places the inputs and sends the board's clicks to
        ``on_board``."""
        self.bench, self.control, self.status = bench, control, status
        self._edit, self._show = edit, show
        self.selected: str | None = None
        """The picked rider (None: a click on a free lane adds a new rider)."""
        self._syncing = False
        self.rider_input = widgets.Dropdown(description=_("Rider"), layout=widgets.Layout(width="200px"))
        self.team_input = widgets.Dropdown(
            options=team_choices(), value="red", description=_("team"), layout=widgets.Layout(width="170px")
        )
        self.kind_input = widgets.ToggleButtons(
            options=list(RIDER_KINDS),
            value="rouleur",
            style={"button_width": "84px"},
            tooltips=[_("R: the steady rider"), _("S: the sprinter")],
        )
        self.remove_button = button(_("Remove"), _("Take the picked rider off the board"))
        self.rider_input.observe(lambda change: self.pick(change["new"]), "value")
        self.team_input.observe(lambda _change: self._on_team_or_kind(), "value")
        self.kind_input.observe(lambda _change: self._on_team_or_kind(), "value")
        self.remove_button.on_click(lambda _b: self.remove())
        self.card_inputs: dict[str, widgets.Dropdown] = {}
        self.cards_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))

    # ----- what the editor reads of the workbench --------------------------------------------------------

    @property
    def riders(self) -> list[dict[str, Any]]:
        return self.bench.riders

    def warn(self, text: str) -> None:
        self.bench.warn(text)

    # ----- editing ---------------------------------------------------------------------------------------

    def rider_at(self, square: int, lane: int) -> str | None:
        return next((r["id"] for r in self.riders if (r["square"], r["lane"]) == (square, lane)), None)

    def on_board(self, x: float, y: float) -> None:
        """A click on the board (CSS pixels): pick the rider there, or add / move a rider to the free lane."""
        spot = self.bench.scene.view.cell_at(x, y)
        if spot is None:
            self.warn(_("Click on a lane of the road: on a rider to pick it, on a free lane to put a rider there."))
            return
        if self.control.can_back:
            self.warn(
                _(
                    "The board shows the round being resolved: choose '{restart}' to edit the position again, "
                    "or '{keep}' to edit the board as it is now."
                ).format(restart=self.bench.restart_button.description, keep=self.bench.keep_button.description)
            )
            return
        square, lane = spot
        where = _("square {square}, {lane}").format(square=square, lane=lane_name(lane))
        occupant = self.rider_at(square, lane)
        if occupant is not None:
            self.pick(occupant)
            return
        if self.selected is None:
            if len(self.riders) >= MAX_RIDERS:
                self.warn(
                    _("The board has {n} riders, the most a race has: remove one to add another.").format(n=MAX_RIDERS)
                )
                return
            team, kind = self.team_input.value, self.kind_input.value
            rider: dict[str, Any] = {
                "id": self.new_id(team, kind),
                "square": square,
                "lane": lane,
                "team": team,
                "kind": kind,
            }
            rider.update(BOT_TEAMS.get(team, {}))
            if self._edit(riders=[*self.riders, rider]):
                self.sync()
                self._show(
                    _(
                        "{rider} added: {where}. Click another lane to add one more, or click a rider to pick it."
                    ).format(rider=rider["id"], where=where)
                )
            return
        moved = [dict(r, square=square, lane=lane) if r["id"] == self.selected else r for r in self.riders]
        if self._edit(riders=moved):
            self._show(_("{rider} moved: {where}.").format(rider=self.selected, where=where))

    def new_id(self, team: str, kind: str) -> str:
        """A new rider's id: ``red-R``, else ``red-R2``, ``red-R3`` ..."""
        base = f"{team}-{kind[0].upper()}"
        taken = {r["id"] for r in self.riders}
        return next(rid for rid in (base, *(f"{base}{n}" for n in range(2, 100))) if rid not in taken)

    def pick(self, rider_id: str | None) -> None:
        """Pick a rider (None or ``NEW``: the next click on a free lane adds a rider)."""
        if self._syncing:
            return
        self.selected = rider_id or None
        self.sync()
        if self.selected is None:
            self._show(_("New rider: choose its team and kind, then click a free lane."))
        else:
            self._show(
                _("{rider} picked: click a free lane to move it, choose its card below, or '{remove}'.").format(
                    rider=self.selected, remove=self.remove_button.description
                )
            )

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
            said = (
                _("{rider} rides for the {team} team, a rouleur.")
                if kind == "rouleur"
                else _("{rider} rides for the {team} team, a sprinteur.")
            )
            self._show(
                said.format(rider=self.selected, team=team_name(team) if team not in BOT_TEAMS else kind_name(team))
            )
        else:
            self.sync()

    def remove(self) -> None:
        """Take the picked rider off the board."""
        if self.selected is None:
            self.warn(_("Pick a rider first: click it on the board."))
            return
        if self.control.can_back:
            self.warn(
                _("Choose '{restart}' first: the board shows the round being resolved.").format(
                    restart=self.bench.restart_button.description
                )
            )
            return
        gone = self.selected
        if self._edit(riders=[r for r in self.riders if r["id"] != gone]):
            self.selected = None
            self.sync()
            self._show(_("{rider} removed.").format(rider=gone))

    def _on_card(self, rider_id: str, card: Any) -> None:
        if self._syncing:
            return
        card = None if card == NO_CARD else card
        if self._edit(cards={**self.bench.cards, rider_id: card}):
            missing = self.bench.missing_cards()
            shown = _("Attack!") if card == "attack" else card
            self._show(
                _("{rider} plays {card}.").format(rider=rider_id, card=shown)
                if card is not None
                else _("{rider} has no card.").format(rider=rider_id)
            )
            if missing:
                self.status.show(
                    ngettext(
                        "{rider}: {card}. Now a card for {riders} too: every rider plays a card (or none, and the "
                        "round starts at the end phase).",
                        "{rider}: {card}. Now a card for {riders} too: every rider plays a card (or none, and the "
                        "round starts at the end phase).",
                        len(missing),
                    ).format(rider=rider_id, card=_("no card") if card is None else shown, riders=and_list(missing))
                )
        else:
            self.sync()

    def start_over(self) -> None:
        """A new position: no rider picked, the inputs show it."""
        self.selected = None
        self.sync()

    def sync(self) -> None:
        """Show the position in the inputs (without running their handlers); a picked rider no longer on the board
        is dropped."""
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
            cards = self.bench.cards
            for rid, box in self.card_inputs.items():
                value = cards.get(rid, NO_CARD)
                if value not in [v for _, v in box.options]:
                    box.options = [*box.options, (str(value), value)]
                box.value = value
        finally:
            self._syncing = False

    def _card_input(self, rider_id: str) -> widgets.Dropdown:
        box = widgets.Dropdown(
            options=card_choices(),
            value=NO_CARD,
            description=rider_id,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )
        box.observe(lambda change: self._on_card(rider_id, change["new"]), "value")
        return box
