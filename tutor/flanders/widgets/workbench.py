"""``Workbench``: a teacher sets up an In Flanders Field position, sees it played, shares it and checks a file.

    Workbench()                               # the board of lesson 1 (three players on the starting line)
    Workbench("scenarios/lines_a.json")       # or a scenario dict

``editor`` (``PositionEditor``) holds one input per key of the position: players, pawns, troops, the May
Retain cards kept, whose turn, the card on each space, the hand (the cards taken this turn), the second pawn
on 9, the phase and the shuffle number. Every change the rules accept shows the position at once in
``play`` (a ``GameTutor`` where the teacher plays every player: roll, take, stop, carry out the cards); a
change they refuse (a fourth Tank, a pawn on 9 before any roll) says why in ``status`` and changes nothing.

The position is shared as a code (``code_output``, ``position_code.to_code``: ``IF1-``, at most 80
characters) with a Copy button, and as a scenario file (``download``). "Open a position" (``open_box``) and
"Load a scenario file" (``upload``) open them again; "Check a file" (``check_box``) runs the check of
``rules-tutor check`` on a file chosen in the page. A loaded file's ``actions`` and ``expect`` stay in the
download until an edit changes the position.

Attributes for tests: ``editor``, ``play``, ``status``, ``open_box``, ``upload``, ``name_input``,
``code_output``, ``copy_button``, ``download``, ``check_box``, ``position()``.
"""

from __future__ import annotations

import html
import re
from typing import Any, Mapping

import ipywidgets as widgets

from tutor.core.schema import MAX_FILE_BYTES, parse_json
from tutor.flanders import position_code
from tutor.flanders import scenario as scenarios
from tutor.flanders.errors import ScenarioError
from tutor.i18n import _
from tutor.ui.controls import CSS, StatusLine
from tutor.ui.share import CheckFileBox, PositionBox, copy_button_html, download_html

from .game_tutor import GameTutor, load_scenario
from .position_editor import PositionEditor

START: dict[str, Any] = {
    "game": "flanders",
    "players": [{"id": "p1"}, {"id": "p2"}, {"id": "p3"}],
    "spaces": {
        "3": "Infantry",
        "4": "Machine Gun",
        "5": "Reserves",
        "6": "Tank",
        "7": "Machine Gun",
        "8": "Artillery Barrage",
        "10": "Infantry",
        "11": "Gas Attack",
    },
}
"""The position the workbench opens with: three players on the starting line, lesson 1's cards."""
_KEPT_WHILE_UNCHANGED = ("actions", "expect")
_WHERE = re.compile(
    r"^(?:spaces\['(?P<space>\d+)'\]|taken\[(?P<taken>\d+)\]|"
    r"players\[(?P<player>\d+)\]\.retained(?:\[(?P<kept>\d+)\])?): "
)


def without_where(reason: str) -> str:
    """A refusal of the scenario format without where the format found it ("no copy of Tank is left ...")."""
    found = _WHERE.match(reason)
    return re.sub(r"'([^']+)'", r"\1", reason[found.end() :] if found else reason)


def where_in_words(reason: str) -> str:
    """A refusal of the scenario format said for the teacher who changed an input: "Space 6: no copy of Tank is
    left ..." for "spaces['6']: no copy of 'Tank' is left ...", the hand's and the kept cards likewise."""
    found = _WHERE.match(reason)
    if found is None:
        return reason
    rest = without_where(reason)
    if found["space"]:
        return _("Space {space}: {reason}").format(space=found["space"], reason=rest)
    if found["taken"]:
        return _("Card {number} of the hand: {reason}").format(number=int(found["taken"]) + 1, reason=rest)
    player = f"p{int(found['player']) + 1}"
    if found["kept"]:
        return _("{player}'s kept card {number}: {reason}").format(
            player=player, number=int(found["kept"]) + 1, reason=rest
        )
    return _("{player}'s kept cards: {reason}").format(player=player, reason=rest)


class Workbench(widgets.VBox):
    """The teacher's workbench for In Flanders Field: see the module docstring."""

    def __init__(self, scenario: dict[str, Any] | str | None = None):
        super().__init__()
        self._data: dict[str, Any] = {}
        self._attempt: dict[str, Any] | None = None
        self._extra: dict[str, Any] = {}
        """A loaded file's ``actions`` and ``expect``, kept until an edit."""
        self.header = widgets.HTML(
            "<div class='tutor-header'><b>" + html.escape(_("Teacher's workbench")) + "</b> · In Flanders Field</div>"
        )
        self.status = StatusLine()
        self._make_loading()
        self._make_sharing()
        self.children = self._layout()
        self.add_class("tutor-workbench")
        self.open_scenario(START if scenario is None else load_scenario(scenario))

    def _make_loading(self) -> None:
        """Where a position comes from (a file, a code), its editor, and the lesson shell that plays it."""
        self.upload = widgets.FileUpload(
            accept=".json", multiple=False, description=_("Load a scenario file"), layout=widgets.Layout(width="auto")
        )
        self.upload.add_class(f"tutor-max-bytes-{MAX_FILE_BYTES}")
        self.upload.observe(self._on_upload, "value")
        self.open_box = PositionBox(
            self.open_scenario,
            decode=position_code.from_code,
            prefix=position_code.PREFIX,
            max_chars=position_code.MAX_CODE_CHARS,
        )
        self.editor = PositionEditor(self._on_edit, self._on_refused)
        self.play = widgets.Box()  # holds a ``GameTutor`` (the lesson shell) on the position
        self.play.add_class("iff-workbench-play")

    def _make_sharing(self) -> None:
        """The position's name, its code (with Copy) and its file; "Check a file"."""
        self.name_input = widgets.Text(
            description=_("Name"),
            placeholder=_("what the position shows"),
            layout=widgets.Layout(width="420px", max_width="100%"),
        )
        self.name_input.observe(lambda _change: self._on_name(), "value")
        self.code_output = widgets.Text(
            description=_("Code"),
            layout=widgets.Layout(width="420px", max_width="100%"),
            tooltip=_("Copy this code: a class pastes it into Open a position"),
        )
        self.code_output.add_class("tutor-position-code")
        self.copy_button = widgets.HTML()
        self.download = widgets.HTML()
        self.check_box = CheckFileBox()

    def _layout(self) -> list[widgets.Widget]:
        def title(text: str, note: str = "") -> widgets.HTML:
            aside = f" <span class='tutor-why'>{html.escape(note)}</span>" if note else ""
            return widgets.HTML(f"<b>{html.escape(text)}</b>{aside}")

        return [
            widgets.HTML(CSS),
            self.header,
            widgets.HBox([self.upload], layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.open_box,
            title(_("Set up the position")),
            self.editor,
            self.status,
            title(_("See it played"), _("(you play every player)")),
            self.play,
            title(_("Share this position")),
            self.name_input,
            widgets.HBox([self.code_output, self.copy_button], layout=widgets.Layout(align_items="center")),
            self.download,
            title(_("Check a puzzle file")),
            self.check_box,
        ]

    # ----- the position ------------------------------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        """The position as a scenario, with its name and description, and a loaded file's actions and expect
        while no edit changed it."""
        data = {key: value for key, value in self._data.items() if value not in (None, "")}
        return {**data, **self._extra}

    def open_scenario(self, data: dict[str, Any]) -> None:
        """Show a scenario's position (a loaded file or an opened code); a malformed one raises ``ScenarioError``
        and changes nothing."""
        if not isinstance(data, dict):
            raise ScenarioError(_("a scenario is a JSON object, not {kind}").format(kind=type(data).__name__))
        scenarios.build(data)
        if "expect" in data:
            scenarios.check(data)  # a malformed expect block (or actions the rules refuse) raises too
        extra = {key: data[key] for key in _KEPT_WHILE_UNCHANGED if key in data}
        base = {key: value for key, value in data.items() if key not in _KEPT_WHILE_UNCHANGED}
        self._show_position(base)
        self._extra = extra
        self.editor.show(base)
        self.name_input.value = base.get("name", "")
        self._refresh_export()
        name = data.get("name") or _("the position")
        self.status.show(_("Opened {name}: change it above, and play it below.").format(name=name), "success")

    def _show_position(self, data: dict[str, Any]) -> None:
        """Make ``data`` the position and show it played (raises ``ValueError`` when the rules refuse it)."""
        tutor = GameTutor.from_scenario(
            data, title=data.get("name") or _("The position"), intro=data.get("description", ""), open_codes=False
        )  # the page has its own
        self._data = data
        self.play.children = [tutor]

    @property
    def tutor(self) -> GameTutor:
        tutor = self.play.children[0]
        assert isinstance(tutor, GameTutor)
        return tutor

    def _on_edit(self, edited: dict[str, Any]) -> None:
        named: dict[str, Any] = {k: self._data[k] for k in ("name", "description") if k in self._data}
        data = {**named, **edited}
        self._attempt = data  # what ``_on_refused`` names when the rules refuse it
        space = self._changed_space(data)
        self._show_position(data)
        self._attempt = None
        self._extra = {}
        self._refresh_export()
        if space is not None:
            card = data.get("spaces", {}).get(str(space))
            self.status.show(
                _("Space {space}: {card}. The board below shows the new position.").format(
                    space=space, card=card if card else _("empty")
                )
            )
        else:
            self.status.show(_("Changed: the board below shows the new position."))

    def _changed_space(self, data: dict[str, Any]) -> int | None:
        """The card space ``data`` changes, when it changes one space of the position (and nothing else there)."""
        before, after = self._data.get("spaces", {}), data.get("spaces", {})
        changed = [space for space in {*before, *after} if before.get(space) != after.get(space)]
        return int(changed[0]) if len(changed) == 1 else None

    def _on_refused(self, err: ValueError) -> None:
        """Why the rules refuse the teacher's change, naming the space the teacher changed ("Space 11: no copy of
        Tank is left ..."), not where the format found the problem."""
        attempt, self._attempt = self._attempt, None
        space = self._changed_space(attempt) if attempt is not None else None
        reason = where_in_words(str(err))
        if space is not None:
            reason = _("Space {space}: {reason}").format(space=space, reason=without_where(str(err)))
        self.status.show(_("The rules refuse that: {reason}. Nothing changed.").format(reason=reason), "warning")

    def _on_name(self) -> None:
        if self.name_input.value != self._data.get("name", ""):
            self._data["name"] = self.name_input.value
            self._refresh_export()

    # ----- loading -----------------------------------------------------------------------------------------

    def _on_upload(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        name = str(upload.get("name") or _("the file"))[:80]
        try:
            data = parse_json(bytes(upload["content"]), name, ScenarioError)
            if not isinstance(data, dict) or data.get("game") != "flanders":
                raise ScenarioError(_("it is not an In Flanders Field scenario (its “game” is not “flanders”)"))
            self.open_scenario(data)
        except ValueError as err:
            self.status.show(
                _("{file} does not open: {reason}. Nothing changed.").format(
                    file=name, reason=str(err).removeprefix(name + ": ")
                ),
                "warning",
            )
        self.upload.value = ()

    # ----- sharing -----------------------------------------------------------------------------------------

    def _refresh_export(self) -> None:
        data = self.position()
        code = position_code.to_code(data)
        self.code_output.value = code or ""
        self.copy_button.value = copy_button_html(code) if code else ""
        said = _(
            "(this position has no code: its players have other names, or it gives its own draw pile; share the file)"
        )
        note = "" if code else f" <span class='tutor-why'>{html.escape(said)}</span>"
        seed = html.escape(str(data.get("seed", 0)))
        number = _("shuffle number {number}").format(number=seed)
        self.download.value = f"{download_html(data)}{note} · {html.escape(number)}"
