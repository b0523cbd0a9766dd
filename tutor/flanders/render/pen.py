"""Text on an In Flanders Field canvas: ``Pen`` (sends a drawing attribute only when it changes), ``set_attr``,
``text``, its width (``text_width``, Arial's metrics), wrapping (``lines``) and ``percent``.
"""

from __future__ import annotations

from typing import Any

from ipycanvas import Canvas

from tutor.i18n import percent as language_percent
from tutor.ui.drawing import INK, font

from .geometry import MIN_TEXT


class Pen:
    """One paint's view of a canvas: it sends a drawing attribute only when it changes, and passes every other
    call on. Each paint makes its own, so a new paint (a reconnected browser) is sent every attribute again."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.sent: dict[str, object] = {}

    def set(self, name: str, value: object) -> None:
        if name not in self.sent or self.sent[name] != value:
            self.sent[name] = value
            setattr(self.canvas, name, value)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.canvas, name)


def set_attr(canvas: Canvas, name: str, value: object) -> None:
    if isinstance(canvas, Pen):
        canvas.set(name, value)
    else:  # a single drawing on a bare canvas: every attribute is sent
        setattr(canvas, name, value)


def text(
    canvas: Canvas,
    words: str,
    x: float,
    y: float,
    *,
    size: float = 12,
    bold: bool = False,
    colour: str = INK,
    align: str = "left",
    max_width: float | None = None,
) -> None:
    """``tutor.ui.drawing.text`` that sends only the attributes that changed. ``max_width`` is a safety net
    only: callers wrap or shorten long text (``lines``) so that the browser never squeezes it."""
    if size < MIN_TEXT:
        raise ValueError(f"text on the board is at least {MIN_TEXT} px, not {size:g} px ({words!r})")
    set_attr(canvas, "font", font(size, bold))
    set_attr(canvas, "text_align", align)
    set_attr(canvas, "text_baseline", "middle")
    set_attr(canvas, "fill_style", colour)
    canvas.fill_text(words, x, y, max_width)


# Advance widths (1/100 em) of Arial's metrics (Liberation Sans, Helvetica) for characters 32-126.
_WIDTHS = {
    False: "28 28 35 56 56 89 67 19 33 33 39 58 28 33 28 28 56 56 56 56 56 56 56 56 56 56 28 28 58 58 58 56 102 "
    "67 67 72 72 67 61 78 72 28 50 67 56 83 72 78 67 78 72 67 61 72 67 94 67 67 61 28 28 28 47 56 33 56 "
    "56 50 56 56 28 56 56 22 22 50 22 83 56 56 56 56 33 50 28 56 50 72 50 50 50 33 26 33 58",
    True: "28 33 47 56 56 89 72 24 33 33 39 58 28 33 28 28 56 56 56 56 56 56 56 56 56 56 33 33 58 58 58 61 98 "
    "72 72 72 72 67 61 78 72 28 56 72 61 83 72 78 67 78 72 67 61 72 67 94 67 67 61 33 28 33 58 56 33 56 "
    "61 56 61 56 33 61 61 28 28 56 28 89 61 61 61 61 39 56 33 61 56 78 56 56 50 39 28 39 58",
}
_ADVANCE = {bold: {chr(32 + k): int(w) / 100 for k, w in enumerate(row.split())} for bold, row in _WIDTHS.items()}


def text_width(words: str, size: float, bold: bool = False) -> float:
    """The width of ``words`` in CSS px, in Arial's metrics (other characters count as a wide letter)."""
    advance = _ADVANCE[bold]
    return sum(advance.get(c, 0.9) for c in words) * size


def lines(words: str, width: float, size: float, *, bold: bool = False, most: int = 2) -> list[str]:
    """``words`` wrapped into at most ``most`` lines of ``width`` px; an ellipsis ends a cut text."""
    out: list[str] = []
    line = ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if text_width(trial, size, bold) <= width or not line:
            line = trial
            continue
        out.append(line)
        line = word
    out.append(line)
    if len(out) > most:
        last = " ".join(out[most - 1 :])
        while last and text_width(last + "…", size, bold) > width:
            last = last[:-1]
        out = out[: most - 1] + [last.rstrip() + "…"]
    return out


def percent(value: float) -> str:
    """``"25.5%"``, as the kernel's language writes it."""
    return language_percent(value, 1)
