"""The lesson screen every game widget shares: one live region, a prompt row, a compact row of secondary
controls, disclosures (the "For teachers" section), focus that follows play, and a motion setting.

    from tutor.ui.screen import (Disclosure, Focusing, MotionSetting, SecondaryRow, board_frame, changed_words,
                                 prompt_row, teacher_section)

    class MyGame(Focusing, widgets.VBox):
        def __init__(self):
            super().__init__()
            self.status = StatusLine()                       # the widget's one live region (tutor.ui.controls)
            self.motion = MotionSetting([self.scene])        # "No animation"; on by itself with reduced motion
            self.teachers = teacher_section(self.seed, self.open_box)   # closed by default
            self.log = Disclosure("Log", [self.narration])
            self.children = [
                widgets.HTML(CSS), self.header, board_frame(self.scene),
                prompt_row(self.status, self.next_button),   # the prompt, beside the action it names
                SecondaryRow([self.back_button, self.restart_button, self.motion,
                              self.log.button, self.teachers.button]),
                self.log.body, self.teachers.body,           # shown only when opened
            ]

        def _on_next(self):                                  # a button's handler: self.learner_action(self._on_next)
            ...
            self.status.show("Choose 'Next step'.", changed=changed_words(lines))  # announced once
            self.move_focus(self.next_button)                # focus follows play; tests read ``focused``

- **Live region**: ``StatusLine`` (``tutor.ui.controls``) is a ``LiveRegion``: the widget's own element (class
  ``tutor-live``) stays in the page while ipywidgets swaps its content, so a screen reader reads each new
  message once. ``a11y.js`` gives it ``role="status"``, ``aria-live="polite"`` and a label for what it is
  (``LIVE_LABELS``: "Messages", "The board in words").
- **Disclosure**: a toggle button (class ``tutor-disclosure``: ``a11y.js`` sets ``aria-expanded``) and a body
  shown only while it is open; place ``button`` and ``body`` where they belong.
- **Focus**: ``Focusing.move_focus(widget)`` sends ipywidgets' focus message and records the widget in
  ``focused``. ``a11y.js`` forwards focus given to a group (toggle buttons, a checkbox) to its first control.
- **Motion**: ``MotionSetting`` is a visible checkbox ("No animation"); ``a11y.js`` ticks it when the browser
  asks for reduced motion (``prefers-reduced-motion``). Ticked, its scenes (``LayeredScene.animated``) draw the
  final frame of every animation at once.
- **Layout**: ``prompt_row`` (the prompt and the action it names), ``SecondaryRow`` (small buttons that wrap),
  ``board_frame`` (the board as wide as its column, at most its own size: nothing is cut or scrolls sideways).
"""

from __future__ import annotations

import html
from typing import Callable, Iterable, Sequence

import ipywidgets as widgets

from tutor.i18n import _, ngettext

from .narration import Line
from .scene import LayeredScene

LIVE_LABELS = {"status": "Messages", "board": "The board in words"}
"""What each kind of live region is called for a screen reader (``a11y.js`` reads the class
``tutor-live-<kind>``)."""


class LiveRegion(widgets.HTML):
    """An HTML widget whose own element is a polite live region of kind ``kind`` (``LIVE_LABELS``)."""

    def __init__(self, kind: str = "status", **kwargs: object) -> None:
        if kind not in LIVE_LABELS:
            raise ValueError(f"live region kind must be one of {tuple(LIVE_LABELS)}, not {kind!r}")
        super().__init__(**kwargs)
        self.add_class("tutor-live")
        self.add_class(f"tutor-live-{kind}")


def sr_only(text: str) -> str:
    """``text`` (escaped) read by screen readers but not shown."""
    return f"<span class='tutor-sr-only'>{html.escape(text)}</span>" if text else ""


def changed_words(lines: Sequence[Line], limit: int = 2) -> str:
    """What a step changed, in ``limit`` sentences at most (the rest is in the log): read before the prompt."""
    said = [line.text.rstrip() for line in lines if line.text.strip()]
    if not said:
        return ""
    words = " ".join(s if s.endswith((".", "!", "?")) else s + "." for s in said[:limit])
    more = len(said) - limit
    if more <= 0:
        return words
    return words + " " + ngettext("And {n} more in the log.", "And {n} more in the log.", more).format(n=more)


class Focusing:
    """Mixin: ``move_focus(widget)`` gives ``widget`` the keyboard focus and records it in ``focused``;
    ``learner_action(handler)`` runs a learner's action with ``acting`` True (focus follows play then, not while
    the page is built)."""

    focused: widgets.Widget | None = None
    acting = False

    def learner_action(self, handler: Callable[[], None]) -> None:
        self.acting = True
        try:
            handler()
        finally:
            self.acting = False

    def move_focus(self, widget: widgets.Widget | None) -> None:
        """Focus ``widget`` (None: leave focus where it is). The browser moves focus only to a control that is
        shown and enabled: call this after the state that enables it."""
        if widget is None:
            return
        self.focused = widget
        if isinstance(widget, widgets.DOMWidget):
            widget.focus()


class Disclosure:
    """A toggle ``button`` (``aria-expanded``) and the ``body`` it shows: closed unless ``open_``."""

    def __init__(
        self, title: str, children: Iterable[widgets.Widget], *, open_: bool = False, tooltip: str = ""
    ) -> None:
        self.title = title
        self.button = widgets.ToggleButton(
            value=open_,
            description=title,
            tooltip=tooltip or _("Show {title}").format(title=title),
            layout=widgets.Layout(width="auto"),
        )
        self.button.add_class("tutor-disclosure")
        self.body = widgets.VBox(list(children))
        self.body.add_class("tutor-disclosure-body")
        self.button.observe(lambda _: self._shown(), "value")
        self._shown()

    @property
    def open(self) -> bool:
        return bool(self.button.value)

    @open.setter
    def open(self, value: bool) -> None:
        self.button.value = value

    def add(self, *children: widgets.Widget) -> None:
        """Show ``children`` too, after what the body shows."""
        self.body.children = (*self.body.children, *children)

    def _shown(self) -> None:
        self.body.layout.display = None if self.button.value else "none"
        marker = "▾" if self.button.value else "▸"
        self.button.description = f"{marker} {self.title}"


def teacher_section(*children: widgets.Widget) -> Disclosure:
    """The "For teachers" section (shuffle number, position code, ...): closed by default."""
    section = Disclosure(
        _("For teachers"), children, tooltip=_("Tools for a teacher: the shuffle number, a position code")
    )
    section.body.add_class("tutor-teachers")
    return section


class MotionSetting(widgets.Checkbox):
    """ "No animation": ticked (by the learner, or by ``a11y.js`` under ``prefers-reduced-motion``), the
    ``scenes`` draw each animation's final frame at once."""

    def __init__(self, scenes: Sequence[LayeredScene]) -> None:
        super().__init__(
            value=False,
            description=_("No animation"),
            indent=False,
            tooltip=_("Show each result at once, without moving pictures"),
            layout=widgets.Layout(width="auto"),
        )
        self.add_class("tutor-motion")
        self.scenes = list(scenes)
        self.observe(lambda _: self._apply(), "value")

    def follow(self, scene: LayeredScene) -> None:
        """Apply the setting to ``scene`` too (a board made later)."""
        self.scenes.append(scene)
        self._apply()

    def _apply(self) -> None:
        for scene in self.scenes:
            scene.animated = not self.value
            if self.value:
                scene.finish()


def prompt_row(status: widgets.Widget, *actions: widgets.Widget) -> widgets.HBox:
    """The prompt line and, beside it, the controls it names (they wrap under it on a narrow page)."""
    row = widgets.HBox([status, *actions], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
    row.add_class("tutor-prompt-row")
    return row


class SecondaryRow(widgets.HBox):
    """One compact row of secondary controls (Back, Restart, Speed, Skip, disclosures) that wraps."""

    def __init__(self, children: Iterable[widgets.Widget]) -> None:
        super().__init__(list(children), layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.add_class("tutor-secondary")


def board_frame(scene: LayeredScene) -> widgets.Box:
    """The board, as wide as its column and never wider than its own size (``scene.width``), keeping its
    proportions: its canvas keeps its pixels (sharp), only its CSS size follows the column, and a click maps
    back through the same scale (ipycanvas gives canvas pixels, ``LayeredScene.css_point`` divides). In a row
    (a panel beside it, ``a11y.css``) the panel moves under the board when the column has no room for both.

    The frame also tells the board how wide its column is (``LayeredScene.fit_column``): ``a11y.js`` writes the
    column's width into a hidden box of the frame (class ``tutor-column-width``) when the page is laid out and
    whenever the width changes, so a board can lay itself out for a phone instead of shrinking its text."""
    scene.canvas.layout = widgets.Layout(width="100%", max_width=f"{scene.width}px", height="auto")
    frame = widgets.Box(
        [scene.canvas, column_input(scene)],
        layout=widgets.Layout(width="100%", max_width=f"{scene.full_width}px", min_width="0"),
    )
    frame.add_class("tutor-board-frame")
    return frame


def column_input(scene: LayeredScene) -> widgets.Text:
    """The hidden box through which the page tells ``scene`` its column's width (one per scene, whichever
    frame shows it)."""
    box: widgets.Text | None = getattr(scene, "_column_input", None)
    if box is None:
        box = widgets.Text(value="", layout=widgets.Layout(display="none"))
        box.add_class("tutor-column-width")
        box.observe(lambda change: _column_changed(scene, change["new"]), "value")
        setattr(scene, "_column_input", box)
    return box


def _column_changed(scene: LayeredScene, value: str) -> None:
    try:
        width = int(float(value))
    except ValueError:
        return
    if 0 < width < 100_000:
        scene.fit_column(width)
