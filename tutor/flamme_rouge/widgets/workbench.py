"""``Workbench``: a teacher sets up a position on the board, resolves it step by step, and shares it.

    Workbench()                                   # an empty track ("sprint-20"); any stage or teaching track
    Workbench("scenarios/p1_blocked_rider.json")  # or a scenario dict
    PositionBox(on_open=show)                     # "Open a position": show(scenario) gets the pasted code's scenario

The board is the editor. Pick a rider in ``rider_input`` (or "+ new rider", with
the team and kind beside it), then click a lane: a new rider is added there, a
picked rider moves there. A click on a rider picks it. ``card_inputs`` chooses
each rider's card (every rider a card, or none: the round then starts at the
end phase, as in docs/scenario_format.md). Next step / Finish round resolve the round with
``Race.step()``, animated and told in the log; Restart goes back to the position
(with the seed shown beside it), "Edit from here" makes the board the new
position. The position is exported live as a scenario file (``download``: a
data: link) and as a position code (``code_output``, ``scenario.to_code``; none for a position with riders or
teams named otherwise) that a class pastes into any lesson's "Open a position" box. "Check a file" (``check_box``) runs
``rules-tutor check`` on a file the teacher chooses in the page and says the result in words.

A malformed file or code, or an edit the scenario format refuses (a rider past
the finish with a card, an Attack! card for a rider alone), shows why in
``status`` and changes nothing.

Attributes for tests: ``race``, ``position()`` (the scenario being edited), ``riders``, ``cards``, ``selected``,
``editing`` (the board's editor, ``workbench_editing.BoardEditor``: ``on_board(x, y)`` is a click), ``scene``,
``status``, ``track_input``, ``new_button``, ``upload``, ``open_box``, ``rider_input``, ``team_input``,
``kind_input``, ``remove_button``, ``card_inputs``, ``name_input``, ``stepper`` (``next_button``,
``finish_button``, ``back_button``, ``restart_button``, ``seed``), ``keep_button``, ``code_output``,
``download``, ``check_box``, ``story``.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tutor.core.schema import MAX_FILE_BYTES, parse_json
from tutor.flamme_rouge import position_code
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.errors import ScenarioError
from tutor.flamme_rouge.events import Event
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.render import Highlights, Scene, highlights_for
from tutor.flamme_rouge.render.scene import StepRecord
from tutor.flamme_rouge.track import STAGES, TEACHING_TRACKS, Track, stage
from tutor.flamme_rouge.track import title as track_title
from tutor.i18n import _, and_list, ngettext
from tutor.ui.controls import CSS, button
from tutor.ui.narration import NarrationLog
from tutor.ui.share import CheckFileBox, copy_button_html, download_html
from tutor.ui.share import PositionBox as SharedPositionBox
from tutor.ui.shell import LessonShell

from .narration import Line, narrate
from .workbench_editing import BoardEditor

TRACK_NAMES: list[str] = [*TEACHING_TRACKS, *STAGES]
"""The tracks a position can start from: names for ``track.stage``."""


def track_choices() -> list[tuple[str, str]]:
    """The tracks a position can start from, as the chooser shows them: (label, name for ``track.stage``)."""
    return [(_(title), key) for key, (title, *_rest) in TEACHING_TRACKS.items()] + [
        (_("Stage: {name}").format(name=title), key) for key, (title, _tiles) in STAGES.items()
    ]


OWN_TRACK = ""
"""The track chooser's value for the track of an opened position that is no stage or teaching track."""


class PositionBox(SharedPositionBox):
    """ "Open a position" for Flamme Rouge codes (``scenario.from_code``): see ``tutor.ui.share.PositionBox``."""

    def __init__(self, on_open: Callable[[dict[str, Any]], object], *, description: str = ""):
        super().__init__(
            on_open,
            decode=scenarios.from_code,
            prefix=position_code.PREFIX,
            max_chars=scenarios.MAX_CODE_CHARS,
            description=description,
        )


class Workbench(LessonShell, widgets.VBox):
    """The teacher's workbench: see the module docstring. The board's editing is a part it owns (``editing``,
    ``workbench_editing.BoardEditor``), which reads the position through public names and changes it through
    ``_edit``."""

    def __init__(self, scenario: dict[str, Any] | str | None = None, *, track: str = "sprint-20", seed: int = 0):
        super().__init__()
        self._data: dict[str, Any] = {}
        """The position without its cards: name, description, track, finish, riders (docs/scenario_format.md's keys)."""
        self._cards: dict[str, Any] = {}
        self._expect: dict[str, Any] | None = None
        self._events: list[Event] = []
        self._syncing = False
        self.race: Race | None = None
        self._track_title = ""
        self.build_shell(
            lambda: self.race,
            [],
            on_next=lambda: self._resolve(one=True),
            on_finish=lambda: self._resolve(one=False),
            on_back=self._on_back,
            on_restart=self._on_restart,
            seed=seed,
            next_tooltip=_("Resolve the next step: one rider's move or one part of the end phase"),
            finish_tooltip=_("Resolve the rest of the round, rider by rider"),
        )
        self._make_loading(track)
        self._make_editing()
        self._make_stepping()
        self._make_sharing()
        self.children = self._layout()
        self.add_class("tutor-workbench")
        if scenario is None:
            self.start_empty(track)
        else:
            self.open_scenario(scenario if isinstance(scenario, dict) else scenarios.load(scenario))

    def _make_loading(self, track: str) -> None:
        """Where a position comes from: a track, a scenario file, a position code; and the board it is set on."""
        self.header = widgets.HTML()
        self.track_input = widgets.Dropdown(
            options=track_choices(), value=track, description=_("Track"), layout=widgets.Layout(width="380px")
        )
        self.track_input.observe(lambda _change: self._on_track_chosen(), "value")
        self.new_button = button(_("Start from the empty track"), _("An empty position on the chosen track"))
        self.new_button.on_click(lambda _b: self.start_empty(self.track_input.value))
        self.upload = widgets.FileUpload(
            accept=".json", multiple=False, description=_("Load a scenario file"), layout=widgets.Layout(width="auto")
        )
        self.upload.add_class(f"tutor-max-bytes-{MAX_FILE_BYTES}")  # the page refuses a larger file unsent
        self.upload.observe(self._on_upload, "value")
        self.open_box = PositionBox(self.open_scenario)
        self.board = widgets.Box()
        self.scene = self._new_scene(Track.parse("2"))

    def _make_editing(self) -> None:
        """The picked rider (or a new one: its team and kind), Remove, and each rider's card: the editor's."""
        self.editing = BoardEditor(self, control=self.control, status=self.status, edit=self._edit, show=self._show)
        """The board as an editor: the picked rider and the inputs (``workbench_editing``)."""
        self.rider_input, self.team_input, self.kind_input = (
            self.editing.rider_input,
            self.editing.team_input,
            self.editing.kind_input,
        )
        self.remove_button, self.cards_row = self.editing.remove_button, self.editing.cards_row

    def _make_stepping(self) -> None:
        """The shell's stepper (Next step, Finish round, Back, Restart, the shuffle number) and "Edit from here"."""
        self.restart_button.tooltip = _(
            "Back to the position (its decks shuffled with the shuffle number on the right)"
        )
        self.seed.tooltip = _("The same shuffle number deals the same cards to the whole class")
        self.keep_button = button(_("Edit from here"), _("Make the board as it is now the position to edit"))
        self.on_click(self.keep_button, "keep", self._keep)
        self.stepper.children = (*self.stepper.children, self.keep_button)
        self.stepper.layout.flex_flow = "row wrap"

    def _make_sharing(self) -> None:
        """The position's name, its code (with Copy) and its file; "Check a file"; the log of the steps."""
        self.name_input = widgets.Text(
            description=_("Name"), placeholder=_("what the position shows"), layout=widgets.Layout(width="420px")
        )
        self.name_input.observe(lambda _change: self._on_name(), "value")
        self.code_output = widgets.Text(
            description=_("Code"),
            layout=widgets.Layout(width="95%", max_width="760px"),
            tooltip=_("Copy this code: a class pastes it into a lesson's Open a position box"),
        )
        self.code_output.add_class("tutor-position-code")
        self.copy_button = widgets.HTML()
        """Copy: the code to the clipboard, in the browser (the kernel cannot reach the learner's clipboard)."""
        self.download = widgets.HTML()
        self.story = NarrationLog(_("What happened"))
        self.check_box = CheckFileBox()

    def _layout(self) -> list[widgets.Widget]:
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        return [
            widgets.HTML(CSS),
            self.header,
            widgets.HBox([self.track_input, self.new_button, self.upload], layout=row),
            self.open_box,
            self.board,
            self.status,
            widgets.HBox(
                [self.rider_input, self.team_input, self.kind_input, self.remove_button],
                layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
            ),
            self.cards_row,
            self.stepper,
            widgets.HTML("<b>" + html.escape(_("Share this position")) + "</b>"),
            self.name_input,
            widgets.HBox([self.code_output, self.copy_button], layout=widgets.Layout(align_items="center")),
            self.download,
            widgets.HTML("<b>" + html.escape(_("Check a puzzle file")) + "</b>"),
            self.check_box,
            self.story,
        ]

    # ----- the position ----------------------------------------------------------------------------------

    @property
    def riders(self) -> list[dict[str, Any]]:
        """The position's riders (docs/scenario_format.md), in order."""
        riders: list[dict[str, Any]] = self._data.get("riders", [])
        return riders

    @property
    def cards(self) -> dict[str, Any]:
        """The cards chosen so far, by rider (a copy)."""
        return dict(self._cards)

    @property
    def selected(self) -> str | None:
        """The picked rider (None: a click on a free lane adds a new rider)."""
        return self.editing.selected

    @property
    def card_inputs(self) -> dict[str, widgets.Dropdown]:
        """Each rider's card input, by rider."""
        return self.editing.card_inputs

    def position(self) -> dict[str, Any]:
        """The position as a scenario (docs/scenario_format.md): cards when every rider has one, ``expect`` when
        it still holds (a loaded file's expected result, dropped once an edit changes the result)."""
        data = {key: value for key, value in self._data.items() if value not in (None, "")}
        data["riders"] = [dict(r) for r in self.riders]
        cards = {r["id"]: self._cards[r["id"]] for r in self.riders if self._cards.get(r["id"]) is not None}
        if cards and len(cards) == len(self.riders):
            data["cards"] = cards
        if self._expect is not None and self.riders:
            try:
                if scenarios.check({**data, "expect": self._expect}) is None:
                    data["expect"] = self._expect
            except ValueError:
                pass
        return data

    def missing_cards(self) -> list[str]:
        """Riders without a card while others have one (an incomplete choice: the round cannot start)."""
        missing = [r["id"] for r in self.riders if self._cards.get(r["id"]) is None]
        return missing if len(missing) < len(self.riders) else []

    def _build(self, data: dict[str, Any], seed: int) -> Race:
        """The race of a position; raises ``ScenarioError`` when the format refuses it."""
        if data.get("riders"):
            return scenarios.build(data, seed=seed, history=True)
        track = Track.parse(data["track"], finish=data.get("finish"), name=data.get("name", ""))
        return Race.from_positions(track, [], seed=seed, history=True)

    def _show_track_in_chooser(self, data: dict[str, Any]) -> None:
        """The track chooser names the track on the board: a stage or teaching track, or else the position's own
        track (first in the list while it is on the board)."""
        named = next(
            (
                key
                for key in TRACK_NAMES
                if stage(key).spec == data["track"] and data.get("finish") in (None, stage(key).finish)
            ),
            None,
        )
        own = (
            []
            if named
            else [(_("This position's track ({count} squares)").format(count=len(data["track"].split())), OWN_TRACK)]
        )
        self._syncing = True
        try:
            self.track_input.options = [*own, *track_choices()]
            self.track_input.value = named or OWN_TRACK
        finally:
            self._syncing = False

    def _on_track_chosen(self) -> None:
        """A track chosen: on the board at once while it has no rider; else the teacher starts it (the riders
        go)."""
        name = self.track_input.value
        if self._syncing or name == OWN_TRACK or self.race is None:
            return
        if not self.riders:
            self.start_empty(name)
        else:
            self.status.show(
                _("Choose '{start}' to put {track} on the board: its riders are removed.").format(
                    start=self.new_button.description, track=track_title(stage(name))
                )
            )

    def start_empty(self, name: str) -> None:
        """An empty position on a stage or teaching track (``track.stage`` names), or on the position's own track
        (``OWN_TRACK``)."""
        if name == OWN_TRACK and self._data:
            track = Track.parse(self._data["track"], finish=self._data.get("finish"))
            said = _(
                "The position's track, empty ({track}): pick a team and kind, then click a lane to add a rider."
            ).format(track=self._track_title)
        else:
            track = stage(name or "sprint-20")
            self._track_title = track_title(track)
            said = _("{track}, empty: pick a team and kind, then click a lane to add a rider.").format(
                track=self._track_title
            )
        self._set(
            {"name": "", "description": "", "track": track.spec, "finish": track.finish, "riders": []}, {}, None, said
        )

    def open_scenario(self, data: dict[str, Any]) -> None:
        """Show a scenario's position (a loaded file or an opened code); a malformed one raises ``ScenarioError``
        and changes nothing."""
        if not isinstance(data, dict):
            raise ScenarioError(_("a scenario is a JSON object, not {kind}").format(kind=type(data).__name__))
        scenarios.build(data)  # validate first: nothing changes when it raises
        if "expect" in data:
            scenarios.check(data)  # a malformed expect block raises too
        riders = [dict(r) for r in data["riders"]]
        base = {
            "name": data.get("name", ""),
            "description": data.get("description", ""),
            "track": data["track"],
            "finish": data.get("finish"),
            "riders": riders,
        }
        squares = len(data["track"].split())
        self._track_title = ngettext("{n} square", "{n} squares", squares).format(n=squares)
        opened = (
            ngettext(
                "Opened “{name}”: {n} rider. Click a rider to pick it, then a free lane to move it.",
                "Opened “{name}”: {n} riders. Click a rider to pick it, then a free lane to move it.",
                len(riders),
            )
            if data.get("name")
            else ngettext(
                "Position opened: {n} rider. Click a rider to pick it, then a free lane to move it.",
                "Position opened: {n} riders. Click a rider to pick it, then a free lane to move it.",
                len(riders),
            )
        )
        self._set(
            base,
            dict(data.get("cards", {})),
            data.get("expect"),
            opened.format(name=data.get("name", ""), n=len(riders)),
        )

    def _set(self, data: dict[str, Any], cards: dict[str, Any], expect: dict[str, Any] | None, message: str) -> None:
        race = self._build({**data, **({"cards": cards} if cards else {})}, self.seed.value)
        new_track = data["track"] != self._data.get("track") or data.get("finish") != self._data.get("finish")
        self._data, self._cards, self._expect = data, cards, expect
        self._show_track_in_chooser(data)
        if new_track:
            self.scene = self._new_scene(race.track)
        self._start(race)
        self.editing.start_over()
        self._sync_name()
        self._show(message)

    def _edit(self, riders: list[dict[str, Any]] | None = None, cards: dict[str, Any] | None = None) -> bool:
        """Change the position; when the format refuses it, warn and change nothing (False)."""
        data = {**self._data, "riders": riders if riders is not None else self.riders}
        cards = dict(self._cards if cards is None else cards)
        ids = {r["id"] for r in data["riders"]}
        cards = {rid: card for rid, card in cards.items() if rid in ids and card is not None}
        complete = cards and len(cards) == len(ids)
        try:
            race = self._build({**data, **({"cards": cards} if complete else {})}, self.seed.value)
        except ScenarioError as err:
            self.warn(_("Not changed: {problem}.").format(problem=err))
            return False
        self._data, self._cards = data, cards
        self._start(race)
        return True

    def _start(self, race: Race) -> None:
        self.race = race
        self.control.start_here()
        self._events = []
        self.story.clear()

    def _new_scene(self, track: Track) -> Scene:
        scene = Scene(track, cards=False)
        scene.on_click(lambda x, y: self.editing.on_board(x, y))
        scene.on_client_ready(lambda: self.redraw(redraw_track=True))
        self.board.children = [scene.canvas]
        return scene

    # ----- resolving the round -----------------------------------------------------------------------------

    def _resolve(self, one: bool) -> None:
        """Next step (``one``) or the rest of the round, each step animated after the other."""
        race = self.race
        assert race is not None
        missing = self.missing_cards()
        if missing:
            self.warn(
                ngettext(
                    "Choose a card for {riders} first: every rider plays a card, or none (the round then "
                    "starts at the end phase).",
                    "Choose a card for {riders} first: every rider plays a card, or none (the round then "
                    "starts at the end phase).",
                    len(missing),
                ).format(riders=and_list(missing))
            )
            return
        if not race.riders:
            self.warn(_("Put riders on the board first: click a lane."))
            return
        if not race.phase.automatic:
            self.warn(
                _("The race is over: {rider} won. Choose '{restart}' to see it again.").format(
                    rider=race.winner, restart=self.restart_button.description
                )
                if race.phase is Phase.FINISHED
                else _(
                    "The round is resolved. Choose '{restart}' to see it again, or '{keep}' to make the board the new "
                    "position."
                ).format(restart=self.restart_button.description, keep=self.keep_button.description)
            )
            return
        start_round = race.round
        records: list[StepRecord] = []
        lines: list[Line] = []

        def resolve() -> None:
            for record in race.resolve_steps(one):
                records.append(record)
                lines.extend(narrate(list(record.events)))

        self.control.act(resolve)  # one undo step; a refused step is told and the steps before it stay
        self._events = list(records[-1].events) if records else []
        self.story.add(lines, _("Round {n}").format(n=start_round))
        self._refresh()
        self.status.show(self._hint())
        self.scene.animate_steps(race, records, self._highlights(), speed=1.0)

    def _on_back(self) -> None:
        if not self.back_step(_("Nothing to undo: the board shows the position.")):
            return
        self._events = []
        self._show(_("Back one step."))

    def _on_restart(self) -> None:
        self._edit()
        self._show(_("Back to the position (shuffle number {number}).").format(number=self.seed.value))

    def _keep(self) -> None:
        """The board as it is now becomes the position (the cards are played: none is kept)."""
        race = self.race
        assert race is not None
        if not self.control.can_back:
            self.warn(_("The board already shows the position: resolve a step first."))
            return
        positions = race.positions()
        riders = [dict(r, square=positions[r["id"]][0], lane=positions[r["id"]][1]) for r in self.riders]
        self._expect = None
        if self._edit(riders=riders, cards={}):
            self.editing.sync()
            self._show(_("The board is the new position: choose the cards for the next round."))

    # ----- loading -----------------------------------------------------------------------------------------

    def _on_name(self) -> None:
        if self._syncing:
            return
        self._data["name"] = self.name_input.value
        self._refresh()

    def _sync_name(self) -> None:
        """The name input shows the position's name (without running its handler)."""
        self._syncing = True
        try:
            self.name_input.value = self._data.get("name") or ""
        finally:
            self._syncing = False

    def _on_upload(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        name = upload.get("name") or _("the file")
        try:
            data = parse_json(bytes(upload["content"]), name, ScenarioError)  # size first, then JSON
        except ScenarioError as err:
            self.warn(_("{problem}. Nothing changed.").format(problem=err))
        else:
            self.load_data(data, source=name)
        self.upload.value = ()  # the same file can be loaded again

    def load_data(self, data: object, *, source: str = "") -> bool:
        """Show a scenario read from ``source`` (a file's name); a malformed one shows why and changes nothing
        (False)."""
        try:
            if not isinstance(data, dict):
                raise ScenarioError(_("a scenario is a JSON object, not {kind}").format(kind=type(data).__name__))
            self.open_scenario(data)
        except ValueError as err:
            said = (
                _("{file} is not a valid scenario: {problem}. Nothing changed.")
                if source
                else _("This is not a valid scenario: {problem}. Nothing changed.")
            )
            self.warn(said.format(file=source, problem=err))
            return False
        return True

    # ----- what the teacher sees ---------------------------------------------------------------------------

    def redraw(self, *, redraw_track: bool = False) -> None:
        if self.race is not None:
            self.scene.draw(self.race, self._highlights(), redraw_track=redraw_track)

    def _highlights(self) -> Highlights:
        assert self.race is not None
        active = self.selected if not self.control.can_back else None
        return highlights_for(self.race, self._events, active=active)

    def _show(self, message: str) -> None:
        self._refresh()
        self.status.show(message)
        self.redraw()

    def _hint(self) -> str:
        race = self.race
        assert race is not None
        if race.phase is Phase.MOVEMENT and race.to_move:
            return _("Next step: {rider} moves {n}.").format(rider=race.to_move[0], n=race.move_values[race.to_move[0]])
        if race.phase is Phase.FINISHED:
            return _("{rider} wins. Choose '{restart}' to see it again.").format(
                rider=race.winner, restart=self.restart_button.description
            )
        if race.phase.automatic:
            return _("Next step: {phase}.").format(phase=race.phase.title)
        return _("The round is resolved. Choose '{restart}' to see it again, or '{keep}'.").format(
            restart=self.restart_button.description, keep=self.keep_button.description
        )

    def _refresh(self) -> None:
        """The header, the stepper's buttons and the export, for the position and the race as they are."""
        race = self.race
        assert race is not None
        stepping = race.phase.automatic and bool(race.riders) and not self.missing_cards()
        self.stepper.update(can_step=stepping, can_undo=self.control.can_back)
        self.keep_button.disabled = not self.control.can_back
        track = self._track_title
        phase = race.phase.title if race.riders else _("no riders yet")
        number = _("shuffle number {number}").format(number=self.seed.value)
        title = _("Teacher's workbench")
        self.header.value = (
            f"<div class='tutor-header'><b>{html.escape(title)}</b> · "
            f"{html.escape(track)} · <span class='tutor-phase'>{html.escape(phase)}</span> · "
            f"{html.escape(number)}</div>"
        )
        self._refresh_export()

    def _refresh_export(self) -> None:
        if not self.riders:
            self.code_output.value = self.copy_button.value = ""
            said = _("Put a rider on the board to export the position.")
            self.download.value = f"<span class='tutor-why'>{html.escape(said)}</span>"
            return
        data = self.position()
        try:
            code = scenarios.to_code(data)
        except ScenarioError as err:
            self.code_output.value = self.copy_button.value = ""
            said = _("Cannot export: {problem}").format(problem=err)
            self.download.value = f"<span class='tutor-why'>{html.escape(said)}</span>"
            return
        self.code_output.value = code or ""
        self.copy_button.value = copy_button_html(code) if code else ""
        missing = self.missing_cards()
        note = (
            " "
            + html.escape(
                ngettext(
                    "(the cards are left out: {riders} has none yet)",
                    "(the cards are left out: {riders} have none yet)",
                    len(missing),
                ).format(riders=and_list(missing))
            )
            if missing
            else ""
        )
        if code is None:
            said = _("(this position has no code: a rider or team has a name of its own; share the file)")
            note += f" <span class='tutor-why'>{html.escape(said)}</span>"
        number = _("shuffle number {number}").format(number=self.seed.value)
        self.download.value = f"{download_html(data)}{note} · {html.escape(number)}"
