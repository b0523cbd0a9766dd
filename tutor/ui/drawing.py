"""Drawing helpers any board can use: fonts, colours that contrast, rounded rectangles, text.

Colours are ``"#rrggbb"`` strings. Contrast follows WCAG: ``text_colour_on`` picks
white or black ink, whichever reads better on a fill.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np
from ipycanvas import Canvas

FONT = "Helvetica, Arial, sans-serif"
INK = "#222222"


def font(size: float, bold: bool = False) -> str:
    """A CSS font for ``canvas.font``: ``"bold 12px Helvetica, Arial, sans-serif"``."""
    return f"{'bold ' if bold else ''}{size:g}px {FONT}"


@lru_cache(maxsize=None)
def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def rgb_array(colours: Iterable[str]) -> np.ndarray:
    """An (n, 3) uint8 array of colours, for ipycanvas' ``fill_styled_rects`` and ``fill_styled_circles``."""
    return np.array([hex_to_rgb(c) for c in colours], dtype=np.uint8).reshape(-1, 3)


@lru_cache(maxsize=None)
def luminance(colour: str) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=None)
def text_colour_on(colour: str) -> str:
    """White or black, whichever has the higher WCAG contrast ratio on ``colour``."""
    lum = luminance(colour)
    return "#ffffff" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else "#000000"


@lru_cache(maxsize=None)
def needs_outline(colour: str) -> bool:
    """Light fills (a white token) need a dark outline to stand out on a light board."""
    return luminance(colour) > 0.6


def rounded_rect(canvas: Canvas, x: float, y: float, w: float, h: float, r: float) -> None:
    """Add a rounded rectangle to a new path (stroke or fill it afterwards)."""
    canvas.begin_path()
    canvas.move_to(x + r, y)
    canvas.arc_to(x + w, y, x + w, y + h, r)
    canvas.arc_to(x + w, y + h, x, y + h, r)
    canvas.arc_to(x, y + h, x, y, r)
    canvas.arc_to(x, y, x + w, y, r)
    canvas.close_path()


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
    """Write ``words`` with its middle at ``y``."""
    canvas.font = font(size, bold)
    canvas.text_align = align
    canvas.text_baseline = "middle"
    canvas.fill_style = colour
    canvas.fill_text(words, x, y, max_width)


def tag(canvas: Canvas, words: str, x: float, y: float, colour: str) -> None:
    """A small rounded label in ``colour`` centred on (x, y), with ink that contrasts."""
    w = 8 + 7.5 * len(words)
    canvas.fill_style = colour
    rounded_rect(canvas, x - w / 2, y - 8, w, 16, 4)
    canvas.fill()
    text(canvas, words, x, y + 0.5, size=12, bold=True, colour=text_colour_on(colour), align="center")
