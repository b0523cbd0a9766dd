"""Controls every tutor widget shares: the style sheet, the status line, buttons and labels."""

from __future__ import annotations

import html

import ipywidgets as widgets

from .screen import LiveRegion, sr_only

BUTTON_COLOURS: dict[str, tuple[str, str]] = {
    "": ("#e8eaed", "#1f1f1f"),
    "primary": ("#0b57d0", "#ffffff"),
    "info": ("#00677f", "#ffffff"),
    "success": ("#1e7b34", "#ffffff"),
    "warning": ("#f6c26b", "#000000"),
    "danger": ("#b3261e", "#ffffff"),
}
"""Background and text colour of each ipywidgets button style: every pair has a contrast of at least 4.5:1
(ipywidgets' own light blue, cyan and orange buttons with white text do not)."""
DISABLED_COLOURS = ("#f1f3f4", "#5f6368")
"""A disabled button: pale, grey text (still 5.4:1, readable), a dashed border and a "not allowed" cursor."""


FOCUS_CSS = (
    ":is(.jupyter-button, .widget-toggle-button, .widget-dropdown select, .widget-text input, "
    ".widget-checkbox input, summary, a, canvas):focus-visible "
    "{ outline: 3px solid #b35900 !important; outline-offset: 2px; box-shadow: 0 0 0 5px #ffffff; }"
)
"""A thick dark-orange ring (4.9:1 on white, 3.3:1 on the blue buttons) around whatever has the keyboard focus."""
TEXT_VIEW_CSS = """
.tutor-sr-only { position: absolute !important; width: 1px !important; height: 1px !important; overflow: hidden
  !important; clip: rect(0 0 0 0) !important; clip-path: inset(50%) !important; white-space: nowrap !important;
  margin: -1px !important; padding: 0 !important; border: 0 !important; }
.tutor-text-view { font-size: 14px; line-height: 1.4; background: #f7f7f2; border: 1px solid #d0d0c8;
  border-radius: 4px; padding: 2px 10px; max-width: 900px; color: #1f1f1f; }
.tutor-text-view p { margin: 4px 0 2px; }
.tutor-text-view ul { margin: 0 0 4px; padding-left: 20px; }
"""
"""The board in words (``tutor.ui.text_view``): visually hidden (still read by screen readers) until shown."""


def _button_css() -> str:
    rules = []
    for style, (background, ink) in BUTTON_COLOURS.items():
        selector = "button.jupyter-button" + (f".mod-{style}" if style else ":not([class*='mod-'])")
        rules.append(f"{selector} {{ background-color: {background}; color: {ink}; }}")
    background, ink = DISABLED_COLOURS
    rules.append("button.jupyter-button:hover:enabled { filter: brightness(0.92); }")
    rules.append(
        "button.jupyter-button:disabled, button.jupyter-button.mod-disabled { "
        f"background-color: {background} !important; color: {ink} !important; opacity: 1 !important; "
        "border: 1px dashed #9aa0a6 !important; box-shadow: none !important; "
        "cursor: not-allowed !important; }"
    )
    rules.append(FOCUS_CSS)
    return "\n".join(rules)


CSS = (
    """
<style>
.tutor-header { font-size: 15px; line-height: 1.4; margin: 2px 0 4px; }
.tutor-header .tutor-phase { background: #eef3fb; border-radius: 4px; padding: 1px 6px; }
.tutor-status { padding: 5px 10px; border-radius: 4px; font-size: 14px; line-height: 1.35; }
.tutor-status-info { background: #f3f6f9; border-left: 4px solid #90a4ae; }
.tutor-status-warning { background: #fff4e5; border-left: 4px solid #ed6c02; color: #663c00; }
.tutor-status-success { background: #edf7ed; border-left: 4px solid #2e7d32; color: #1e4620; }
.tutor-narration { margin: 4px 0; padding-left: 20px; font-size: 14px; line-height: 1.4; }
.tutor-narration li { margin-bottom: 4px; }
.tutor-rule { color: #5f6368; font-size: 12.5px; }
.tutor-label { font-size: 13px; color: #444; padding-top: 5px; }
.tutor-card-button button, button.tutor-card-button { font-size: 16px; font-weight: bold; }
.jupyter-button { font-size: 14px; }
"""
    + _button_css()
    + """
.tutor-log-section { margin: 2px 0; }
.tutor-log-section > summary { cursor: pointer; font-weight: bold; font-size: 14px; }
.tutor-narration li.tutor-new { background: #fff8e1; border-radius: 3px; }
.tutor-why { font-size: 13px; color: #5f6368; }
tr.tutor-you td { background: #fff8e1; }
.tutor-you-did { font-weight: bold; margin: 4px 0; }
"""
    + TEXT_VIEW_CSS
    + """
</style>
"""
)
"""The tutor's style sheet: put ``widgets.HTML(CSS)`` first in a widget's children."""

STATUS_KINDS = ("info", "warning", "success")


class StatusLine(LiveRegion):
    """One line telling the learner what to do next, or why a choice did nothing (a warning): the widget's
    live region (``tutor.ui.screen``), which stays in the page while its text changes, so each message is read
    once. ``changed`` (what the last step changed) is read before the message, ``aside`` after it; neither is
    shown (the board and the feedback show them)."""

    def __init__(self) -> None:
        super().__init__("status")
        self.kind = "info"
        self.text = ""
        self.changed = ""

    def show(self, text: str, kind: str = "info", *, changed: str = "", aside: str = "") -> None:
        if kind not in STATUS_KINDS:
            raise ValueError(f"status kind must be one of {STATUS_KINDS}, not {kind!r}")
        self.kind, self.text, self.changed = kind, text, changed
        icon = {"info": "", "warning": "⚠ ", "success": "✓ "}[kind]
        self.value = (
            f"<div class='tutor-status tutor-status-{kind}'>{sr_only(changed)}"
            f"{icon}{html.escape(text)}{sr_only(' ' + aside if aside else '')}</div>"
        )


def button(description: str, tooltip: str = "", *, style: str = "", width: str | None = None) -> widgets.Button:
    """A button sized to its text (or ``width``); ``style`` is an ipywidgets button style ("primary", ...)."""
    layout = widgets.Layout(width=width) if width else widgets.Layout(width="auto")
    return widgets.Button(description=description, tooltip=tooltip or description, button_style=style, layout=layout)


def label(text: str) -> widgets.HTML:
    return widgets.HTML(f"<span class='tutor-label'>{html.escape(text)}</span>")


def header(inner_html: str) -> widgets.HTML:
    """A header line; ``inner_html`` is already escaped."""
    return widgets.HTML(f"<div class='tutor-header'>{inner_html}</div>")
