"""``TextView``: the board in words, beside its canvas, for a screen reader and for anyone who wants to read it.

A canvas is a picture a screen reader cannot see. Each game describes its board as plain sentences from the
engine's data (``tutor.flamme_rouge.render.describe``, ``tutor.flanders.render.describe``); a ``TextView`` shows
them under "What just happened" (the narration's own ``Line`` objects, with their rules) and "The board".

    view = TextView()
    view.show(["Round 1, movement phase.", "red-R: square 4, right lane."], happened=[Line("red-R moves 5.")])

The whole board is there on demand, not read out after every step: what a step changed is said in a sentence
or two by the widget's one live region (``tutor.ui.screen.changed_words`` in its ``StatusLine``). ``toggle``
(a disclosure: ``aria-expanded``) shows the text on screen; hidden, it stays readable by a screen reader that
moves there (visually hidden, not ``display: none``), and it describes the board's canvas
(``aria-describedby``, set by ``a11y.js`` from the class ``tutor-board-words``).
"""

from __future__ import annotations

import html
from typing import Sequence

import ipywidgets as widgets

from tutor.core.events import Rule

from tutor.i18n import _

from .narration import Line, cite


class TextView(widgets.VBox):
    """``html`` holds the text (its ``value``), ``toggle`` shows it on screen, ``text`` is the plain text last
    shown (for tests and for the canvas' label)."""

    def __init__(self, title: str = "") -> None:
        self.title = title or _("The board in words")
        self.text = ""
        self._last_said: Line | None = None
        self.html = widgets.HTML()
        self.html.add_class("tutor-board-words")
        self.html.add_class("tutor-sr-only")
        self.toggle = widgets.ToggleButton(
            value=False,
            description=_("▸ Board in words"),
            tooltip=_("Read the board as text"),
            layout=widgets.Layout(width="auto", align_self="flex-start"),
        )
        self.toggle.add_class("tutor-disclosure")
        self.toggle.observe(lambda _: self._on_toggle(), "value")
        super().__init__([self.toggle, self.html])
        self.add_class("tutor-text-view-box")

    def show(self, board: Sequence[str], happened: Sequence[Line] = ()) -> None:
        """Say what just happened (``happened``, with its rules) and what the board shows now (``board``)."""
        parts = []
        plain = []
        if happened:
            said = _each_rule_once(happened)
            parts.append(
                "<p><b>"
                + html.escape(_("What just happened:"))
                + "</b></p><ul>"
                + "".join(f"<li>{html.escape(sentence)}</li>" for sentence in said)
                + "</ul>"
            )
            plain += [_("What just happened:"), *said]
        items = "".join(f"<li>{html.escape(sentence)}</li>" for sentence in board)
        parts.append(f"<p><b>{html.escape(self.title)}:</b></p><ul>{items}</ul>")
        plain += [f"{self.title}:", *board]
        self.text = "\n".join(plain)
        self.html.value = f"<div class='tutor-text-view'>{''.join(parts)}</div>"

    def show_since(self, board: Sequence[str], log: Sequence[Line]) -> None:
        """``show`` with the lines of ``log`` (a whole log that grows) added since the last call; a log that
        no longer holds the last line said (a restart) is said from its start."""
        start = next((k + 1 for k in range(len(log) - 1, -1, -1) if log[k] is self._last_said), 0)
        self._last_said = log[-1] if log else None
        self.show(board, log[start:])

    def _on_toggle(self) -> None:
        shown = self.toggle.value
        self.toggle.description = _("▾ Board in words") if shown else _("▸ Board in words")
        if shown:
            self.html.remove_class("tutor-sr-only")
        else:
            self.html.add_class("tutor-sr-only")


def _each_rule_once(lines: Sequence[Line]) -> list[str]:
    """Each line with the rules not cited by an earlier line (a rule is read out once, not once per rider)."""
    cited: set[Rule] = set()
    said = []
    for line in lines:
        new = tuple(rule for rule in line.rules if rule not in cited)
        cited.update(new)
        said.append(f"{line.text} {cite(new)}".strip())
    return said
