"""The narration panel: what happened, one ``Line`` each, with the rules that decided it.

A game words its events into ``Line`` objects from the events' fields; the rules come
as ``Rule`` references and are cited here from their ``section`` and ``text``:

    >>> from tutor.core.events import Rule
    >>> a = Rule("x.move", "Movement phase", "a rider moves exactly the value of its card")
    >>> b = Rule("x.empty", "Movement phase", "it takes the right-hand lane of an empty square")
    >>> cite((a, b))
    'Movement phase: a rider moves exactly the value of its card. It takes the right-hand lane of an empty square.'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Iterable, Sequence

import ipywidgets as widgets

from tutor.core.events import Rule
from tutor.i18n import N_, _
from tutor.i18n import and_list as i18n_and_list


@dataclass(frozen=True)
class Line:
    text: str
    """What happened, in plain words."""
    rules: tuple[Rule, ...] = ()
    """The rules that decided it."""

    @property
    def rule(self) -> str:
        """The rules as sentences (empty without rules)."""
        return cite(self.rules)

    @property
    def plain(self) -> str:
        return f"{self.text} {self.rule}".strip()


def cite(rules: Iterable[Rule]) -> str:
    """Rules as sentences, each section named once (sections in order of first mention):
    ``"Energy phase: draw 4 .... The chosen card ...."``.

    A rule the rulebook leaves open (``Rule.decision``) reads like any other: the child reads the rule as it is
    played; the decision is named for teachers (the rules summaries, "For teachers").
    """
    sections: dict[str, list[str]] = {}
    for rule in dict.fromkeys(rules):
        sections.setdefault(rule.section, []).append(rule.text)
    sentences = []
    for section, texts in sections.items():
        sentences.append(f"{section}: {texts[0]}")
        sentences += [text[:1].upper() + text[1:] for text in texts[1:]]
    return "".join(f"{s.rstrip('.')}. " for s in sentences).rstrip()


def to_html(lines: Iterable[Line], *, cited: set[Rule] | None = None, new: int = 0) -> str:
    """A bulleted list: each line, and under it its rules in grey.

    With ``cited`` (a set, updated), a rule already in it is not cited again: each rule sentence is said
    once per section of a log, not once per rider. The last ``new`` lines are marked as new (``tutor-new``).
    """
    lines = list(lines)
    items = []
    for k, line in enumerate(lines):
        rules = tuple(r for r in line.rules if cited is None or r not in cited)
        if cited is not None:
            cited.update(rules)
        mark = " class='tutor-new'" if k >= len(lines) - new else ""
        items.append(
            f"<li{mark}>{html.escape(line.text)}"
            + (f"<br><span class='tutor-rule'>{html.escape(cite(rules))}</span>" if rules else "")
            + "</li>"
        )
    return f"<ul class='tutor-narration'>{''.join(items)}</ul>" if items else ""


EMPTY_LOG = N_("Nothing has happened yet. Each step you take is written here.")
"""What an empty log says."""


class NarrationLog(widgets.VBox):
    """A log of what happened, section by section (a game's rounds or turns), that keeps every line.

    ``add(lines, section="Round 2")`` appends (a new section title starts a new section), ``start`` always
    starts one; the newest section is open, older ones are folded (``<details>``) and ``toggle`` folds the
    whole log. ``newest_first`` lists the newest section at the top. Each rule is cited once per section.
    ``html`` is the HTML widget (its ``value`` is the log), ``lines`` the lines of the newest section,
    ``sections`` every (title, lines). With ``show=False``, ``add`` and ``start`` keep the lines for the next
    ``refresh`` (a widget that shows its log last, once its controls are set). An empty log says so
    (``EMPTY_LOG``).
    """

    def __init__(self, title: str = "What happened", *, open_: bool = True, newest_first: bool = False) -> None:
        self.sections: list[tuple[str, list[Line]]] = []
        self._newest_first = newest_first
        self.html = widgets.HTML()
        self.toggle = widgets.ToggleButton(
            value=open_,
            description=f"▾ {title}",
            tooltip=_("Show or hide the log"),
            layout=widgets.Layout(width="auto", align_self="flex-start"),
        )
        self.toggle.add_class("tutor-disclosure")
        self._title = title
        self.toggle.observe(lambda _: self.refresh(), "value")
        self.html.add_class("tutor-log")  # the log, wherever a widget places it (apart from its toggle)
        super().__init__([self.toggle, self.html])
        self._new = 0
        self.refresh()

    @property
    def lines(self) -> list[Line]:
        return self.sections[-1][1] if self.sections else []

    @property
    def every_line(self) -> list[Line]:
        """Every line logged, in order."""
        return [line for _title, lines in self.sections for line in lines]

    def add(self, lines: Sequence[Line], section: str | None = None, *, show: bool = True) -> None:
        if section is not None and (not self.sections or self.sections[-1][0] != section):
            self.sections.append((section, []))
        elif not self.sections:
            self.sections.append(("", []))
        self.sections[-1][1].extend(lines)
        self._new = len(lines)
        if show:
            self.refresh()

    def start(self, section: str, lines: Sequence[Line] = (), *, show: bool = True) -> None:
        """A new section, even when the newest one has the same title."""
        self.sections.append((section, []))
        self.add(lines, show=show)

    def clear(self) -> None:
        self.sections = []
        self.refresh()

    def refresh(self) -> None:
        """Show the log as it is."""
        shown = self.toggle.value
        self.toggle.description = f"{'▾' if shown else '▸'} {self._title}"
        self.html.layout.display = None if shown else "none"  # folded, it keeps its text (for the next opening)
        parts = []
        for k, (title, lines) in enumerate(self.sections):
            last = k == len(self.sections) - 1
            body = to_html(lines, cited=set(), new=self._new if last else 0)
            if not title:
                parts.append(body)
                continue
            parts.append(
                f"<details class='tutor-log-section'{' open' if last else ''}><summary>"
                f"{html.escape(title)}</summary>{body}</details>"
            )
        logged = "".join(reversed(parts) if self._newest_first else parts)
        # Opened before anything happened, the log says so (an empty log would open onto nothing, 0 px high).
        self.html.value = logged or f"<p class='tutor-log-empty'>{html.escape(_(EMPTY_LOG))}</p>"


def and_list(items: Iterable[object], empty: str | None = None) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` in the kernel's language (``tutor.i18n.and_list``); ``empty`` (else
    "nobody") for no items."""
    return i18n_and_list(items, empty)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 square"``, ``"3 squares"``."""
    return f"{count} {word if count == 1 else many or word + 's'}"
