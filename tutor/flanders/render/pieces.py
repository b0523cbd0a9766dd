"""The game's pieces on an In Flanders Field canvas: cards (``draw_card``, an ``empty_space``), their badges and
troop symbols, the players' pawns, the dice, and the outline that marks a space.
"""

from __future__ import annotations

import math

from ipycanvas import Canvas

from tutor.flanders.cards import Card
from tutor.i18n import _
from tutor.ui.drawing import INK, rounded_rect, text_colour_on

from .geometry import (
    BLACK_SYMBOL,
    BRITISH,
    BRITISH_FILL,
    GERMAN,
    GERMAN_FILL,
    GREY_SYMBOL,
    MAY_RETAIN,
    MUTED,
    PLAYER_COLOURS,
    PLAYER_SHAPES,
    Rect,
)
from .pen import lines, set_attr, text, text_width

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def card_outline(canvas: Canvas, r: Rect, german: bool) -> None:
    """A new path: rounded corners for a British card, cut corners for a German one."""
    if not german:
        rounded_rect(canvas, r.x, r.y, r.w, r.h, 8)
        return
    c = min(12.0, r.h / 4)
    canvas.begin_path()
    canvas.move_to(r.x + c, r.y)
    for x, y in (
        (r.x + r.w - c, r.y),
        (r.x + r.w, r.y + c),
        (r.x + r.w, r.y + r.h - c),
        (r.x + r.w - c, r.y + r.h),
        (r.x + c, r.y + r.h),
        (r.x, r.y + r.h - c),
        (r.x, r.y + c),
    ):
        canvas.line_to(x, y)
    canvas.close_path()


def side_badge(canvas: Canvas, x: float, y: float, german: bool, size: float = 8) -> None:
    """British: a round badge with a ring; German: a square badge with a cross."""
    if german:
        set_attr(canvas, "fill_style", GERMAN)
        canvas.fill_rect(x - size, y - size, 2 * size, 2 * size)
        set_attr(canvas, "fill_style", "#ffffff")
        canvas.fill_rect(x - size * 0.2, y - size * 0.75, size * 0.4, size * 1.5)
        canvas.fill_rect(x - size * 0.75, y - size * 0.2, size * 1.5, size * 0.4)
    else:
        set_attr(canvas, "fill_style", BRITISH)
        canvas.fill_circle(x, y, size)
        set_attr(canvas, "fill_style", "#ffffff")
        canvas.fill_circle(x, y, size * 0.55)
        set_attr(canvas, "fill_style", BRITISH)
        canvas.fill_circle(x, y, size * 0.3)


SYMBOL_R = 9
"""Radius of a troop symbol: its letter is then at least ``MIN_TEXT`` px."""


def symbol(canvas: Canvas, x: float, y: float, black: bool, r: float = SYMBOL_R) -> None:
    """A troop symbol: grey (lost at a bust) with a G, black (lost when applied) with a B (the letters are the
    language's: Catalan G and N)."""
    set_attr(canvas, "fill_style", BLACK_SYMBOL if black else GREY_SYMBOL)
    canvas.fill_circle(x, y, r)
    # Translators: the one letter on a black troop symbol (the first letter of "black"; Catalan: N, negre)
    black_letter = _("B")
    # Translators: the one letter on a grey troop symbol (the first letter of "grey"; Catalan: G, gris)
    grey_letter = _("G")
    text(
        canvas,
        black_letter if black else grey_letter,
        x,
        y + 0.5,
        size=r * 1.35,
        bold=True,
        colour="#ffffff" if black else "#000000",
        align="center",
    )


def pawn(canvas: Canvas, x: float, y: float, index: int, r: float = 13, ghost: bool = False) -> None:
    """Player ``index``'s pawn: its colour, its shape and its number."""
    colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    shape = PLAYER_SHAPES[index % len(PLAYER_SHAPES)]
    set_attr(canvas, "global_alpha", 0.35 if ghost else 1.0)
    set_attr(canvas, "fill_style", colour)
    set_attr(canvas, "stroke_style", "#000000")
    set_attr(canvas, "line_width", 1.5)
    canvas.begin_path()
    if shape == "circle":
        canvas.arc(x, y, r, 0, 2 * math.pi)
    elif shape == "square":
        canvas.rect(x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8)
    elif shape == "triangle":
        canvas.move_to(x, y - r * 1.1)
        canvas.line_to(x + r * 1.1, y + r * 0.85)
        canvas.line_to(x - r * 1.1, y + r * 0.85)
        canvas.close_path()
    else:
        canvas.move_to(x, y - r * 1.15)
        canvas.line_to(x + r * 1.15, y)
        canvas.line_to(x, y + r * 1.15)
        canvas.line_to(x - r * 1.15, y)
        canvas.close_path()
    canvas.fill()
    canvas.stroke()
    text(
        canvas,
        str(index + 1),
        x,
        y + (2 if shape == "triangle" else 0.5),
        size=r * 0.95,
        bold=True,
        colour=text_colour_on(colour),
        align="center",
    )
    set_attr(canvas, "global_alpha", 1.0)


def die(canvas: Canvas, r: Rect, value: int, *, outline: str | None = None) -> None:
    set_attr(canvas, "fill_style", "#ffffff")
    rounded_rect(canvas, r.x, r.y, r.w, r.h, 9)
    canvas.fill()
    set_attr(canvas, "line_width", 4 if outline else 1.5)
    set_attr(canvas, "stroke_style", outline or "#444444")
    canvas.stroke()
    cx, cy = r.centre
    set_attr(canvas, "fill_style", INK)
    for dx, dy in PIPS[value]:
        canvas.fill_circle(cx + dx * r.w * 0.27, cy + dy * r.h * 0.27, r.w * 0.085)


def effect_words(card: Card) -> str:
    words = []
    if card.move:
        words.append((_("move {n} (+1)") if card.extra_space else _("move {n}")).format(n=card.move))
    if card.tank:
        words.append(_("tank"))
    if card.mines:
        words.append(_("mines"))
    if card.german and not card.losses:
        words.append(_("no losses"))
    return " · ".join(words)


def draw_card(
    canvas: Canvas, r: Rect, card: Card, *, space: int | None = None, fixed: bool = False, small: bool = False
) -> None:
    """One card: its side (shape, badge, colour, word), name, effects, symbols and "May Retain"."""
    german = card.german
    set_attr(canvas, "fill_style", GERMAN_FILL if german else BRITISH_FILL)
    card_outline(canvas, r, german)
    canvas.fill()
    set_attr(canvas, "line_width", 3)
    set_attr(canvas, "stroke_style", GERMAN if german else BRITISH)
    if fixed:
        canvas.set_line_dash([6, 3])
    canvas.stroke()
    canvas.set_line_dash([])
    x, y, w = r.x, r.y, r.w
    if small:
        side_badge(canvas, x + 10, y + 11, german, 5)
        names = lines(card.name, w - 24, 12, bold=True)
        for k, line in enumerate(names):
            text(canvas, line, x + w / 2 + 6, y + 11 + 13 * k, size=12, bold=True, align="center", max_width=w - 22)
        effects_y = y + 11 + 13 * len(names)
        text(canvas, effect_words(card), x + w / 2, effects_y, size=12, align="center", max_width=w - 8)
    else:
        side_badge(canvas, x + w - 13, y + 13, german)
        if space is not None:
            text(canvas, str(space), x + 8, y + 13, size=15, bold=True, colour=INK)
        text(
            canvas,
            _("German") if german else (_("fixed") if fixed else _("British")),
            x + 28,
            y + 13,
            size=12,
            colour=MUTED,
            max_width=w - 46,
        )
        names = lines(card.name, w - 10, 13, bold=True)
        for k, line in enumerate(names):
            text(
                canvas,
                line,
                x + w / 2,
                y + 32 + 14 * k - 5 * (len(names) - 1),
                size=13,
                bold=True,
                align="center",
                max_width=w - 8,
            )
        text(
            canvas,
            effect_words(card),
            x + w / 2,
            y + 50 + 4 * (len(names) - 1),
            size=12,
            align="center",
            max_width=w - 8,
        )
    count = card.losses or (0 if fixed else card.risk)
    sy = y + r.h - SYMBOL_R - (2 if small else 4)
    for k in range(count):
        symbol(canvas, x + 4 + SYMBOL_R + k * (2 * SYMBOL_R + 2), sy, card.german)
    if card.may_retain:
        words = _("MAY RETAIN") if not small and count < 2 else _("RETAIN")
        tw = text_width(words, 12, True) + 6
        set_attr(canvas, "fill_style", MAY_RETAIN)
        canvas.fill_rect(x + w - tw - 4, sy - 8, tw, 16)
        text(canvas, words, x + w - tw / 2 - 4, sy + 0.5, size=12, bold=True, align="center", max_width=tw)


def empty_space(canvas: Canvas, r: Rect, space: int) -> None:
    set_attr(canvas, "fill_style", "#fbfbfb")
    rounded_rect(canvas, r.x, r.y, r.w, r.h, 8)
    canvas.fill()
    canvas.set_line_dash([5, 4])
    set_attr(canvas, "line_width", 1.5)
    set_attr(canvas, "stroke_style", "#9a9a9a")
    canvas.stroke()
    canvas.set_line_dash([])
    text(canvas, str(space), r.x + 8, r.y + 13, size=15, bold=True, colour=MUTED)
    text(canvas, _("empty"), r.x + r.w / 2, r.y + r.h / 2 + 4, size=12, colour=MUTED, align="center")


def outline(canvas: Canvas, r: Rect, colour: str, width: float = 4, pad: float = 3) -> None:
    set_attr(canvas, "line_width", width)
    set_attr(canvas, "stroke_style", colour)
    rounded_rect(canvas, r.x - pad, r.y - pad, r.w + 2 * pad, r.h + 2 * pad, 10)
    canvas.stroke()
