"""What both workbenches share: opening a position code, copying one, downloading a scenario file, and checking a
teacher's file in the page.

    PositionBox(on_open, decode=scenario.from_code, prefix="FR3-")  # "Open a position": a code box and a button
    copy_button_html(code)                                         # a Copy button (the browser's clipboard)
    download_html(data)                                            # a link that downloads ``data`` as a file
    CheckFileBox()                                                 # "Check a file": ``rules-tutor check`` in the page
"""

from __future__ import annotations

import base64
import html
import json
import re
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tutor.core.check import check_upload
from tutor.core.schema import MAX_FILE_BYTES, size_error
from tutor.i18n import _

from .controls import StatusLine, button


class PositionBox(widgets.VBox):
    """ "Open a position": a text box for a position code and a button; ``on_open(scenario)`` gets the scenario.

    A code that does not open (or a scenario ``on_open`` refuses with a ``ValueError``) shows why in
    ``status`` and calls nothing.
    """

    def __init__(
        self,
        on_open: Callable[[dict[str, Any]], object],
        *,
        decode: Callable[[str], dict[str, Any]],
        prefix: str,
        max_chars: int,
        description: str = "",
    ):
        self._on_open, self._decode = on_open, decode
        self.text = widgets.Text(
            placeholder=_("Paste a position code ({prefix}…)").format(prefix=prefix),
            description=_("Position code"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="420px", max_width="100%"),
        )
        self.text.add_class(f"tutor-max-chars-{max_chars}")  # the page refuses a longer paste
        self.button = button(
            description or _("Open a position"), _("Show the position of this code on the board"), style="info"
        )
        self.status = StatusLine()
        self._own_status = True
        self.button.on_click(lambda _: self.open_code(self.text.value))
        self.row = widgets.HBox(
            [self.text, self.button], layout=widgets.Layout(align_items="center", flex_flow="row wrap")
        )
        super().__init__([self.row, self.status])
        self.add_class("tutor-position-box")

    def use_status(self, status: StatusLine) -> None:
        """Say a refused code in ``status`` (a lesson's one live region) instead of a line of its own; the lesson
        says what an opened code shows."""
        self.status, self._own_status = status, False
        self.children = [self.row]

    def open_code(self, code: str) -> bool:
        """Open ``code``: True when ``on_open`` took its scenario."""
        try:
            data = self._decode(code)
            self._on_open(data)
        except ValueError as err:  # the game's ScenarioError, or the board refusing the position
            self.status.show(_("That code does not open: {reason}. Nothing changed.").format(reason=err), "warning")
            return False
        name = data.get("name")
        if self._own_status:
            self.status.show(_("Opened “{name}”.").format(name=name) if name else _("Opened the position."), "success")
        return True


def copy_button_html(code: str) -> str:
    """A Copy button that puts ``code`` on the clipboard (the older copy command where the clipboard API is
    missing) and says so."""
    safe = html.escape(code, quote=True)
    title, copied = html.escape(_("Copy the code"), quote=True), html.escape(_("Copied ✓"), quote=True)
    return (
        f"<button class='tutor-copy jupyter-button' data-code='{safe}' data-copied='{copied}' title='{title}' "
        'onclick="const b = this, code = b.dataset.code; const done = () => { b.textContent = b.dataset.copied; };'
        "const old = () => { const t = document.createElement('textarea'); t.value = code;"
        " document.body.appendChild(t); t.select(); document.execCommand('copy'); t.remove(); done(); };"
        'if (navigator.clipboard) navigator.clipboard.writeText(code).then(done, old); else old();">'
        + html.escape(_("Copy"))
        + "</button>"
    )


def file_name(name: str) -> str:
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:40]
    return f"{stem or 'position'}.json"


def download_html(data: Mapping[str, Any]) -> str:
    """A link that downloads ``data`` as a scenario file named after its ``name``."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    href = "data:application/json;charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode()
    filename = file_name(str(data.get("name", "")))
    said = html.escape(_("⬇ Download the scenario file ({file})").format(file=filename))
    return f"<a class='tutor-download' download='{filename}' href='{href}' target='_blank'>{said}</a>"


class CheckFileBox(widgets.VBox):
    """ "Check a file": the teacher chooses a scenario file (any game) and reads whether the rules give the answer
    in its ``expect`` block: the same check as ``rules-tutor check FILE.json``, bounded by ``MAX_FILE_BYTES`` and
    the limits of ``tutor.core.schema``. ``verdict`` is the last result ("pass", "fail", "no expect",
    "malformed"), ``status`` says it in words."""

    def __init__(self) -> None:
        self.upload = widgets.FileUpload(
            accept=".json",
            multiple=False,
            description=_("Check a file"),
            tooltip=_("Choose a scenario file: the rules check its expected answer"),
            layout=widgets.Layout(width="auto"),
        )
        self.upload.add_class(f"tutor-max-bytes-{MAX_FILE_BYTES}")  # the page refuses a larger file unsent
        self.upload.add_class("tutor-check-file")
        self.status = StatusLine()
        self.verdict = ""
        self.upload.observe(self._on_upload, "value")
        said = _(
            "Check a puzzle file you wrote: choose it, and the rules say whether they give the answer in its "
            "{expect} block."
        ).format(expect="<code>expect</code>")
        intro = widgets.HTML(f"<span class='tutor-why'>{said}</span>")
        super().__init__([intro, widgets.HBox([self.upload]), self.status])
        self.add_class("tutor-check-box")

    def _on_upload(self, change: Mapping[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        self.check(bytes(upload["content"]), str(upload.get("name") or _("the file"))[:80])
        self.upload.value = ()  # the same file can be checked again after an edit

    def check(self, content: bytes, name: str) -> str:
        too_big = size_error(len(content))
        if too_big:
            self.verdict = "malformed"
            self.status.show(
                _("{file} is {problem}: choose the scenario file itself.").format(file=name, problem=too_big), "warning"
            )
            return self.verdict
        result = check_upload(content, name)
        self.verdict = result.verdict
        self.status.show(
            result.sentence,
            "success" if result.verdict == "pass" else "info" if result.verdict == "no expect" else "warning",
        )
        return self.verdict
