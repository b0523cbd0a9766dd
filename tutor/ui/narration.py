"""The narration panel: what happened, one ``Line`` each, with the rules that decided it.

A game words its events into ``Line`` objects from the events' fields; the rules come
as ``Rule`` references and are cited here from their ``section`` and ``text``:

    >>> from tutor.core.events import Rule
    >>> a = Rule("x.move", "Movement phase", "a rider moves exactly the value of its card")
    >>> b = Rule("x.empty", "Movement phase", "a rider landing on an empty square takes the right-hand lane")
    >>> cite((a, b))
    'Movement phase: a rider moves exactly the value of its card. A rider landing on an empty square takes the right-hand lane.'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Iterable, Sequence

from tutor.core.events import Rule


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

    Rules the rulebook leaves open (``Rule.decision``) say they are the tutor's decision.
    """
    sections: dict[str, list[str]] = {}
    for rule in dict.fromkeys(rules):
        sections.setdefault(rule.section, []).append(rule.text + (" (tutor decision)" if rule.decision else ""))
    sentences = []
    for section, texts in sections.items():
        sentences.append(f"{section}: {texts[0]}")
        sentences += [text[:1].upper() + text[1:] for text in texts[1:]]
    return "".join(f"{s.rstrip('.')}. " for s in sentences).rstrip()


def to_html(lines: Iterable[Line]) -> str:
    """A bulleted list: each line, and under it its rules in grey."""
    items = "".join(f"<li>{html.escape(line.text)}"
                    + (f"<br><span class='tutor-rule'>{html.escape(line.rule)}</span>" if line.rules else "")
                    + "</li>" for line in lines)
    return f"<ul class='tutor-narration'>{items}</ul>" if items else ""


def and_list(items: Iterable[object], empty: str = "nobody") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; ``empty`` for no items."""
    words = [str(i) for i in items]
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 square"``, ``"3 squares"``."""
    return f"{count} {word if count == 1 else many or word + 's'}"

