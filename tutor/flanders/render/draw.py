"""Drawing an In Flanders Field ``Picture`` on ipycanvas: pure functions of (canvas, geometry, picture, data).

``draw_static`` paints what never changes during a game (the battlefield's
spaces and lines, the frames of the panels, the legend); ``draw_picture``
paints everything else. Callers wrap them in ``hold_canvas()`` (``Board`` does).
"""

from __future__ import annotations

import math
from typing import Any

from ipycanvas import Canvas

from tutor.flanders.battlefield import Battlefield, SpaceKind
from tutor.flanders.cards import FIXED, Card, CardId, CardSet
from tutor.flanders.game import NINE
from tutor.flanders.odds import DICE, PAIRS, ROLLS, SPACES
from tutor.i18n import _, ngettext
from tutor.i18n import percent as language_percent
from tutor.ui.drawing import INK, font, rounded_rect, text_colour_on

from .geometry import (AVAILABLE, BLACK_SYMBOL, BRITISH, BRITISH_FILL, CAPTION_H, CAPTION_LINE, CHOSEN, FRESH,
                       GERMAN, GERMAN_FILL, GREY_SYMBOL, HEADER_Y, LINE_FILL, LOST, MAY_RETAIN, MIN_TEXT, MUTED,
                       OBJECTIVE_FILL, OPEN_FILL, PANEL, PLAYER_COLOURS, PLAYER_SHAPES, RULE_LINE, START_FILL, Geometry,
                       Rect)
from .picture import Picture

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
KIND_FILL = {SpaceKind.START: START_FILL, SpaceKind.OPEN: OPEN_FILL, SpaceKind.DEFENSIVE: LINE_FILL,
             SpaceKind.OBJECTIVE: OBJECTIVE_FILL}


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


def _set(canvas: Canvas, name: str, value: object) -> None:
    if isinstance(canvas, Pen):
        canvas.set(name, value)
    else:  # a single drawing on a bare canvas: every attribute is sent
        setattr(canvas, name, value)


def text(canvas: Canvas, words: str, x: float, y: float, *, size: float = 12, bold: bool = False,
         colour: str = INK, align: str = "left", max_width: float | None = None) -> None:
    """``tutor.ui.drawing.text`` that sends only the attributes that changed. ``max_width`` is a safety net
    only: callers wrap or shorten long text (``lines``) so that the browser never squeezes it."""
    if size < MIN_TEXT:
        raise ValueError(f"text on the board is at least {MIN_TEXT} px, not {size:g} px ({words!r})")
    _set(canvas, "font", font(size, bold))
    _set(canvas, "text_align", align)
    _set(canvas, "text_baseline", "middle")
    _set(canvas, "fill_style", colour)
    canvas.fill_text(words, x, y, max_width)


# Advance widths (1/100 em) of Arial's metrics (Liberation Sans, Helvetica) for characters 32-126.
_WIDTHS = {False: "28 28 35 56 56 89 67 19 33 33 39 58 28 33 28 28 56 56 56 56 56 56 56 56 56 56 28 28 58 58 58 56 102 "
                  "67 67 72 72 67 61 78 72 28 50 67 56 83 72 78 67 78 72 67 61 72 67 94 67 67 61 28 28 28 47 56 33 56 "
                  "56 50 56 56 28 56 56 22 22 50 22 83 56 56 56 56 33 50 28 56 50 72 50 50 50 33 26 33 58",
           True: "28 33 47 56 56 89 72 24 33 33 39 58 28 33 28 28 56 56 56 56 56 56 56 56 56 56 33 33 58 58 58 61 98 "
                 "72 72 72 72 67 61 78 72 28 56 72 61 83 72 78 67 78 72 67 61 72 67 94 67 67 61 33 28 33 58 56 33 56 "
                 "61 56 61 56 33 61 61 28 28 56 28 89 61 61 61 61 39 56 33 61 56 78 56 56 50 39 28 39 58"}
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
        last = " ".join(out[most - 1:])
        while last and text_width(last + "…", size, bold) > width:
            last = last[:-1]
        out = out[:most - 1] + [last.rstrip() + "…"]
    return out


def percent(value: float) -> str:
    """``"25.5%"``, as the kernel's language writes it."""
    return language_percent(value, 1)


# ----- shapes ---------------------------------------------------------------------------------------------------
def card_outline(canvas: Canvas, r: Rect, german: bool) -> None:
    """A new path: rounded corners for a British card, cut corners for a German one."""
    if not german:
        rounded_rect(canvas, r.x, r.y, r.w, r.h, 8)
        return
    c = min(12.0, r.h / 4)
    canvas.begin_path()
    canvas.move_to(r.x + c, r.y)
    for x, y in ((r.x + r.w - c, r.y), (r.x + r.w, r.y + c), (r.x + r.w, r.y + r.h - c), (r.x + r.w - c, r.y + r.h),
                 (r.x + c, r.y + r.h), (r.x, r.y + r.h - c), (r.x, r.y + c)):
        canvas.line_to(x, y)
    canvas.close_path()


def side_badge(canvas: Canvas, x: float, y: float, german: bool, size: float = 8) -> None:
    """British: a round badge with a ring; German: a square badge with a cross."""
    if german:
        _set(canvas, "fill_style", GERMAN)
        canvas.fill_rect(x - size, y - size, 2 * size, 2 * size)
        _set(canvas, "fill_style", "#ffffff")
        canvas.fill_rect(x - size * 0.2, y - size * 0.75, size * 0.4, size * 1.5)
        canvas.fill_rect(x - size * 0.75, y - size * 0.2, size * 1.5, size * 0.4)
    else:
        _set(canvas, "fill_style", BRITISH)
        canvas.fill_circle(x, y, size)
        _set(canvas, "fill_style", "#ffffff")
        canvas.fill_circle(x, y, size * 0.55)
        _set(canvas, "fill_style", BRITISH)
        canvas.fill_circle(x, y, size * 0.3)


SYMBOL_R = 8.5
"""Radius of a troop symbol: its letter is then at least ``MIN_TEXT`` px."""


def symbol(canvas: Canvas, x: float, y: float, black: bool, r: float = SYMBOL_R) -> None:
    """A troop symbol: grey (lost at a bust) with a G, black (lost when applied) with a B."""
    _set(canvas, "fill_style", BLACK_SYMBOL if black else GREY_SYMBOL)
    canvas.fill_circle(x, y, r)
    text(canvas, "B" if black else "G", x, y + 0.5, size=r * 1.35, bold=True,
         colour="#ffffff" if black else "#000000", align="center")


def pawn(canvas: Canvas, x: float, y: float, index: int, r: float = 13, ghost: bool = False) -> None:
    """Player ``index``'s pawn: its colour, its shape and its number."""
    colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    shape = PLAYER_SHAPES[index % len(PLAYER_SHAPES)]
    _set(canvas, "global_alpha", 0.35 if ghost else 1.0)
    _set(canvas, "fill_style", colour)
    _set(canvas, "stroke_style", "#000000")
    _set(canvas, "line_width", 1.5)
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
    text(canvas, str(index + 1), x, y + (2 if shape == "triangle" else 0.5), size=r * 0.95, bold=True,
         colour=text_colour_on(colour), align="center")
    _set(canvas, "global_alpha", 1.0)


def die(canvas: Canvas, r: Rect, value: int, *, outline: str | None = None) -> None:
    _set(canvas, "fill_style", "#ffffff")
    rounded_rect(canvas, r.x, r.y, r.w, r.h, 9)
    canvas.fill()
    _set(canvas, "line_width", 4 if outline else 1.5)
    _set(canvas, "stroke_style", outline or "#444444")
    canvas.stroke()
    cx, cy = r.centre
    _set(canvas, "fill_style", INK)
    for dx, dy in PIPS[value]:
        canvas.fill_circle(cx + dx * r.w * 0.27, cy + dy * r.h * 0.27, r.w * 0.085)


# ----- cards -----------------------------------------------------------------------------------------------------
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


def draw_card(canvas: Canvas, r: Rect, card: Card, *, space: int | None = None, fixed: bool = False,
              small: bool = False) -> None:
    """One card: its side (shape, badge, colour, word), name, effects, symbols and "May Retain"."""
    german = card.german
    _set(canvas, "fill_style", GERMAN_FILL if german else BRITISH_FILL)
    card_outline(canvas, r, german)
    canvas.fill()
    _set(canvas, "line_width", 3)
    _set(canvas, "stroke_style", GERMAN if german else BRITISH)
    if fixed:
        canvas.set_line_dash([6, 3])
    canvas.stroke()
    canvas.set_line_dash([])
    x, y, w = r.x, r.y, r.w
    if small:
        side_badge(canvas, x + 10, y + 11, german, 5)
        names = lines(card.name, w - 24, 11, bold=True)
        for k, line in enumerate(names):
            text(canvas, line, x + w / 2 + 6, y + 11 + 13 * k, size=11, bold=True, align="center", max_width=w - 22)
        effects_y = y + 11 + 13 * len(names)
        text(canvas, effect_words(card), x + w / 2, effects_y, size=11, align="center", max_width=w - 8)
    else:
        side_badge(canvas, x + w - 13, y + 13, german)
        if space is not None:
            text(canvas, str(space), x + 8, y + 13, size=15, bold=True, colour=INK)
        text(canvas, "German" if german else ("fixed" if fixed else "British"), x + 28, y + 13, size=11,
             colour=MUTED, max_width=w - 46)
        names = lines(card.name, w - 10, 13, bold=True)
        for k, line in enumerate(names):
            text(canvas, line, x + w / 2, y + 32 + 14 * k - 5 * (len(names) - 1), size=13, bold=True,
                 align="center", max_width=w - 8)
        text(canvas, effect_words(card), x + w / 2, y + 50 + 4 * (len(names) - 1), size=11.5, align="center",
             max_width=w - 8)
    count = card.losses or (0 if fixed else card.risk)
    sy = y + r.h - SYMBOL_R - (2 if small else 4)
    for k in range(count):
        symbol(canvas, x + 4 + SYMBOL_R + k * (2 * SYMBOL_R + 2), sy, card.german)
    if card.may_retain:
        words = _("MAY RETAIN") if not small and count < 2 else _("RETAIN")
        tw = text_width(words, 11, True) + 6
        _set(canvas, "fill_style", MAY_RETAIN)
        canvas.fill_rect(x + w - tw - 4, sy - 8, tw, 16)
        text(canvas, words, x + w - tw / 2 - 4, sy + 0.5, size=11, bold=True, align="center", max_width=tw)


def empty_space(canvas: Canvas, r: Rect, space: int) -> None:
    _set(canvas, "fill_style", "#fbfbfb")
    rounded_rect(canvas, r.x, r.y, r.w, r.h, 8)
    canvas.fill()
    canvas.set_line_dash([5, 4])
    _set(canvas, "line_width", 1.5)
    _set(canvas, "stroke_style", "#9a9a9a")
    canvas.stroke()
    canvas.set_line_dash([])
    text(canvas, str(space), r.x + 8, r.y + 13, size=15, bold=True, colour=MUTED)
    text(canvas, "empty", r.x + r.w / 2, r.y + r.h / 2 + 4, size=12, colour=MUTED, align="center")


def outline(canvas: Canvas, r: Rect, colour: str, width: float = 4, pad: float = 3) -> None:
    _set(canvas, "line_width", width)
    _set(canvas, "stroke_style", colour)
    rounded_rect(canvas, r.x - pad, r.y - pad, r.w + 2 * pad, r.h + 2 * pad, 10)
    canvas.stroke()


# ----- static layer ---------------------------------------------------------------------------------------------
def draw_static(canvas: Canvas, geo: Geometry, field: Battlefield, names: tuple[str, ...] = ()) -> None:
    canvas = Pen(canvas)
    canvas.clear()
    _set(canvas, "fill_style", "#ffffff")
    canvas.fill_rect(0, 0, geo.width, geo.height)
    if geo.compact:
        text(canvas, _("Card spaces {first}-{last}").format(first=SPACES[0], last=SPACES[-1]), 12, 14, size=13,
             bold=True)
        return
    sw = geo.space_w
    # Space numbers and kinds, once above the rows.
    for s, space in enumerate(field.spaces):
        x = geo.cell_rect(0, s).x + sw / 2
        label = {SpaceKind.START: _("start"), SpaceKind.DEFENSIVE: _("line"), SpaceKind.OBJECTIVE: _("goal")
                 }.get(space.kind)
        text(canvas, str(s), x, HEADER_Y + 6, size=13, bold=True, align="center")
        if label:
            text(canvas, label, x, HEADER_Y + 19, size=11, colour=MUTED, align="center", max_width=sw - 2)
    text(canvas, _("Battlefield"), 12, HEADER_Y + 6, size=12, bold=True, colour=MUTED, max_width=LABEL_MAX)
    text(canvas, _("start → Objective line"), 12, HEADER_Y + 19, size=11, colour=MUTED, max_width=LABEL_MAX)
    for i in range(geo.players):
        row = geo.row_rect(i)
        _set(canvas, "fill_style", "#fafafa")
        canvas.fill_rect(row.x, row.y, row.w, row.h)
        for s, space in enumerate(field.spaces):
            cell = geo.cell_rect(i, s)
            _set(canvas, "fill_style", KIND_FILL[space.kind])
            canvas.fill_rect(cell.x + 1, cell.y + 1, cell.w - 2, cell.h - 2)
            if space.kind is SpaceKind.DEFENSIVE:  # barbed wire: a zigzag across the cell
                _set(canvas, "stroke_style", "#5d4037")
                _set(canvas, "line_width", 1.5)
                canvas.begin_path()
                for k in range(7):
                    px = cell.x + 4 + (k % 2) * (cell.w - 8)
                    py = cell.y + 3 + k * (cell.h - 6) / 6
                    (canvas.move_to if k == 0 else canvas.line_to)(px, py)
                canvas.stroke()
            elif space.kind is SpaceKind.OBJECTIVE:
                _set(canvas, "fill_style", "#8d6e63")
                canvas.fill_rect(cell.x + cell.w - 9, cell.y + 4, 3, cell.h - 8)
                _set(canvas, "fill_style", LOST)
                canvas.fill_rect(cell.x + cell.w - 22, cell.y + 4, 13, 9)
        _set(canvas, "stroke_style", "#bdbdbd")
        _set(canvas, "line_width", 1)
        canvas.stroke_rect(row.x, row.y, row.w, row.h)
    text(canvas, _("Card spaces {first} to {last}: take the card on a pair's sum").format(
        first=SPACES[0], last=SPACES[-1]), 12, geo.lower_y + 10, size=12, bold=True, colour=MUTED,
        max_width=geo.die_rect(0).x - 24)
    text(canvas, _("The three dice"), geo.die_rect(0).x, geo.lower_y + 10, size=12, bold=True, colour=MUTED)
    draw_legend(canvas, geo)


def draw_legend(canvas: Canvas, geo: Geometry) -> None:
    y0 = geo.legend_y
    _set(canvas, "fill_style", PANEL)
    canvas.fill_rect(4, y0, geo.width - 8, 62)
    y1, y2, y3 = y0 + 12, y0 + 31, y0 + 50
    for x, german, fill, stroke, words in (
            (12.0, False, BRITISH_FILL, BRITISH, _("British card (green, rounded, round badge)")),
            (290.0, True, GERMAN_FILL, GERMAN, _("German card (blue, cut corners, cross badge)"))):
        card_outline(canvas, Rect(x, y1 - 7, 22, 14), german)
        _set(canvas, "fill_style", fill)
        canvas.fill()
        _set(canvas, "stroke_style", stroke)
        _set(canvas, "line_width", 2)
        canvas.stroke()
        side_badge(canvas, x + 11, y1, german, 4.5)
        text(canvas, words, x + 28, y1, size=11.5, max_width=250)
    symbol(canvas, 584, y1, False)
    text(canvas, _("grey symbol: 1 troop lost at a bust"), 597, y1, size=11.5, max_width=200)
    symbol(canvas, 808, y1, True)
    text(canvas, _("black: 1 troop lost"), 821, y1, size=11.5, max_width=geo.width - 830)
    _set(canvas, "fill_style", "#222222")
    canvas.fill_rect(12, y2 - 6, 12, 12)
    _set(canvas, "stroke_style", "#222222")
    _set(canvas, "line_width", 1.5)
    canvas.stroke_rect(28, y2 - 6, 12, 12)
    text(canvas, _("troop piece / lost"), 46, y2, size=11.5, max_width=108)
    _set(canvas, "fill_style", LINE_FILL)
    canvas.fill_rect(160, y2 - 8, 18, 16)
    text(canvas, _("defensive line (stops a move)"), 184, y2, size=11.5, max_width=182)
    _set(canvas, "fill_style", MAY_RETAIN)
    canvas.fill_rect(372, y2 - 8, 72, 16)
    text(canvas, _("MAY RETAIN"), 408, y2 + 0.5, size=11, bold=True, align="center", max_width=70)
    text(canvas, _("keep it for a later turn"), 450, y2, size=11.5, max_width=145)
    _set(canvas, "line_width", 3)
    _set(canvas, "stroke_style", AVAILABLE)
    canvas.stroke_rect(600, y2 - 7, 18, 14)
    text(canvas, _("the dice offer it"), 624, y2, size=11.5, max_width=94)
    _set(canvas, "line_width", 3)
    _set(canvas, "stroke_style", CHOSEN)
    canvas.stroke_rect(722, y2 - 7, 18, 14)
    text(canvas, _("chosen pair and card"), 746, y2, size=11.5, max_width=geo.width - 754)
    outline(canvas, Rect(14, y3 - 5, 14, 10), FRESH, 2.5, pad=2)
    text(canvas, _("new: a card just dealt onto this space of the grid"), 40, y3, size=11.5, max_width=geo.width - 50)


# ----- the moving parts ---------------------------------------------------------------------------------------
def draw_picture(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet, field: Battlefield) -> None:
    canvas = Pen(canvas)
    canvas.clear()
    if not geo.compact:
        draw_caption(canvas, geo, pic)
        draw_battlefield(canvas, geo, pic, field)
        draw_dice(canvas, geo, pic, cards)
        draw_hand(canvas, geo, pic, cards)
    draw_grid(canvas, geo, pic, cards)
    draw_odds(canvas, geo, pic)


def draw_caption(canvas: Canvas, geo: Geometry, pic: Picture) -> None:
    colour = "#fff4e5" if pic.step else "#eef3fb"
    _set(canvas, "fill_style", colour)
    canvas.fill_rect(0, 0, geo.width, CAPTION_H - 2)
    if pic.winners:
        caption = _("Game over: {caption}").format(caption=pic.caption)
    elif pic.step:
        caption = _("Step {step} of {steps}: {caption}").format(step=pic.step[0], steps=pic.step[1],
                                                                 caption=pic.caption)
    else:
        caption = pic.caption
    width = geo.width - 20
    said = lines(caption, width, 13.5, bold=True, most=1 if pic.rule else 2)
    y = 6 + CAPTION_LINE / 2
    for line in said:
        text(canvas, line, 10, y, size=13.5, bold=True, max_width=width)
        y += CAPTION_LINE
    y += (RULE_LINE - CAPTION_LINE) / 2
    for line in lines(pic.rule, width, 11.5, most=2 if len(said) == 1 else 1) if pic.rule else []:
        text(canvas, line, 10, y, size=11.5, colour=MUTED, max_width=width)
        y += RULE_LINE


def draw_battlefield(canvas: Canvas, geo: Geometry, pic: Picture, field: Battlefield) -> None:
    for i, p in enumerate(pic.players):
        row = geo.row_rect(i)
        if i == pic.current and not pic.winners:
            _set(canvas, "stroke_style", CHOSEN)
            _set(canvas, "line_width", 2.5)
            canvas.stroke_rect(row.x, row.y, row.w, row.h)
            text(canvas, "▶", row.x + 1, row.y + 12, size=11, colour=CHOSEN)
        status = (" · " + _("out") if p.out else "") + (" · " + _("wins") if p.id in pic.winners else "")
        name = next((n for n in (p.label + status, p.label.replace(" bot", "") + status)
                     if text_width(n, 12.5, True) <= LABEL_MAX), None)
        name = name or lines(p.label + status, LABEL_MAX, 12.5, bold=True, most=1)[0]
        text(canvas, name, 14, row.y + 12, size=12.5, bold=True, max_width=LABEL_MAX)
        lost_now = pic.lost.get(p.id, 0)
        for k in range(max(p.start_troops, p.troops + lost_now)):
            r = geo.troop_rect(i, k)
            if k < p.troops:
                _set(canvas, "fill_style", "#222222")
                canvas.fill_rect(r.x, r.y, r.w, r.h)
            else:
                _set(canvas, "stroke_style", "#9e9e9e")
                _set(canvas, "line_width", 1)
                canvas.stroke_rect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1)
            if p.troops <= k < p.troops + lost_now:
                _set(canvas, "stroke_style", LOST)
                _set(canvas, "line_width", 2.5)
                canvas.stroke_line(r.x - 2, r.y - 2, r.x + r.w + 2, r.y + r.h + 2)
                canvas.stroke_line(r.x + r.w + 2, r.y - 2, r.x - 2, r.y + r.h + 2)
        text(canvas, str(p.troops), 12 + 16 * max(p.start_troops, p.troops + lost_now) + 2, row.y + 31, size=11,
             bold=True, colour=LOST if lost_now else MUTED)
        x, y = geo.pawn_centre(i, p.pawn)
        pawn(canvas, x, y, i)
        if i == pic.current and pic.halted and field.lines[p.pawn]:
            text(canvas, "halted", x, y + 16, size=11, bold=True, colour=LOST, align="center")
        if p.id in pic.winners:
            _set(canvas, "stroke_style", AVAILABLE)
            _set(canvas, "line_width", 3)
            canvas.stroke_circle(x, y, 19)


LABEL_MAX = 140


def draw_grid(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    for s in SPACES:
        r = geo.space_rect(s)
        if s == NINE:
            draw_card(canvas, r, cards.fixed, space=NINE, fixed=True)
            if pic.on_nine:
                pawn(canvas, r.x + r.w - 16, r.y + r.h - 16, pic.current, r=12)
                text(canvas, _("2nd pawn"), r.x + r.w - 34, r.y + r.h - 12, size=11, bold=True, align="right")
        else:
            card = pic.spaces.get(s)
            if card is None:
                empty_space(canvas, r, s)
            else:
                draw_card(canvas, r, cards[card], space=s)
        if s in pic.available:
            outline(canvas, r, AVAILABLE, 4)
            text(canvas, "✓", r.x + r.w - 2, r.y + r.h - 2, size=16, bold=True, colour="#8a6500", align="center")
        if s == pic.chosen_space:
            outline(canvas, r, CHOSEN, 4)
        if s in pic.fresh:
            outline(canvas, r, FRESH, 2.5, pad=2)
            text(canvas, _("new"), r.x + r.w / 2, r.y + r.h + 1, size=11, bold=True, colour=FRESH, align="center")


def draw_dice(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    note_y = geo.pair_rect(0).y + 12
    if pic.dice is None:
        for k in range(DICE):
            r = geo.die_rect(k)
            canvas.set_line_dash([4, 4])
            _set(canvas, "stroke_style", "#bdbdbd")
            _set(canvas, "line_width", 1.5)
            rounded_rect(canvas, r.x, r.y, r.w, r.h, 9)
            canvas.stroke()
            canvas.set_line_dash([])
        text(canvas, _("not rolled yet"), geo.pair_rect(0).x + 6, note_y, size=11.5, colour=MUTED)
        return
    chosen = set(pic.chosen or ())
    for k, value in enumerate(pic.dice):
        die(canvas, geo.die_rect(k), value, outline=CHOSEN if k in chosen else None)
    if pic.rolling:
        text(canvas, _("rolling…"), geo.pair_rect(0).x + 6, note_y, size=12, bold=True, colour=MUTED)
        return
    if pic.bust:
        x, y = geo.bust_point
        text(canvas, _("BUST"), x, y, size=18, bold=True, colour=LOST)
    if not pic.judged and pic.chosen is None:  # a quiz before Reveal: the dice and the cards only
        text(canvas, _("Add two of the dice:"), geo.pair_rect(0).x + 6, note_y, size=12, colour=MUTED)
        text(canvas, _("which card is taken?"), geo.pair_rect(0).x + 6, note_y + 18, size=12, colour=MUTED)
        return
    seen: set[int] = set()
    for k, (i, j) in enumerate(PAIRS):
        total = pic.dice[i] + pic.dice[j]
        r = geo.pair_rect(k)
        repeat = total in seen
        seen.add(total)
        offered = total in pic.available and not repeat
        is_chosen = pic.chosen == (i, j)
        neutral = pic.chosen is not None and not is_chosen  # after a take: only the chosen pair stands out
        _set(canvas, "fill_style", "#fff6d6" if offered else ("#f1e6f7" if is_chosen else "#f3f3f3"))
        canvas.fill_rect(r.x, r.y, r.w, r.h)
        if offered or is_chosen:
            _set(canvas, "stroke_style", (CHOSEN if is_chosen else AVAILABLE))
            _set(canvas, "line_width", 2.5)
            canvas.stroke_rect(r.x, r.y, r.w, r.h)
        if is_chosen:
            where = _("taken") if total != NINE else _("2nd pawn placed")
        elif repeat:
            where = _("the same sum")
        elif total == NINE:
            where = _("fixed card (2nd pawn)")
        elif total in SPACES:
            card = pic.spaces.get(total)
            where = cards[card].name if card is not None else _("empty space")
        else:
            where = _("no space")
        mark = "" if neutral else "✓ " if offered else ("● " if is_chosen else "✗ ")
        words = f"{mark}{pic.dice[i]} + {pic.dice[j]} = {total}: {where}"
        bold = offered or is_chosen
        text(canvas, lines(words, r.w - 10, 12, bold=bold, most=1)[0], r.x + 6, r.y + r.h / 2 + 0.5, size=12,
             bold=bold, colour=INK if offered or is_chosen or neutral else MUTED, max_width=r.w - 10)


def draw_dice_only(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    """Repaint the dice panel alone (the frames of a roll)."""
    canvas = Pen(canvas)
    top = geo.die_rect(0)
    canvas.clear_rect(top.x - 8, top.y - 6, geo.pair_rect(0).w + 14, geo.pair_rect(2).y + 30 - top.y)
    draw_dice(canvas, geo, pic, cards)


def draw_odds(canvas: Canvas, geo: Geometry, pic: Picture) -> None:
    r = geo.odds_rect
    _set(canvas, "fill_style", PANEL)
    canvas.fill_rect(r.x, r.y, r.w, r.h)
    if pic.odds is None:
        if not geo.compact:
            text(canvas, _("Live odds"), r.x + 10, r.y + 14, size=13, bold=True, max_width=r.w - 20)
            text(canvas, _("shown when you choose:"), r.x + 10, r.y + 36, size=11.5, colour=MUTED, max_width=r.w - 20)
            text(canvas, _("roll again, or stop"), r.x + 10, r.y + 54, size=11.5, colour=MUTED, max_width=r.w - 20)
        return
    o = pic.odds
    bust = o.bust
    rolls = int(bust * ROLLS)
    stake = ngettext("{n} grey symbol", "{n} grey symbols", o.at_stake).format(n=o.at_stake)
    chance = percent(float(bust))
    if geo.compact:
        text(canvas, _("Bust chance: {chance}").format(chance=chance), r.x + 8, r.y + 14, size=13, bold=True,
             max_width=r.w - 12)
        text(canvas, _("{busts} of the {rolls} rolls · at stake: {stake}").format(busts=rolls, rolls=ROLLS,
                                                                                  stake=stake),
             r.x + 8, r.y + 34, size=12, max_width=r.w - 12)
        return
    width = r.w - 20
    text(canvas, _("If you roll again"), r.x + 10, r.y + 14, size=13, bold=True, max_width=width)
    text(canvas, _("Chance of a bust: {chance}").format(chance=chance), r.x + 10, r.y + 36, size=13, bold=True,
         colour=LOST if bust > 0.3 else INK, max_width=width)
    text(canvas, _("{busts} of the {rolls} rolls of three dice offer no card").format(busts=rolls, rolls=ROLLS),
         r.x + 10, r.y + 54, size=11.5, colour=MUTED, max_width=width)
    bar = Rect(r.x + 10, r.y + 66, width, 10)
    _set(canvas, "fill_style", "#e0e0e0")
    canvas.fill_rect(bar.x, bar.y, bar.w, bar.h)
    _set(canvas, "fill_style", LOST)
    canvas.fill_rect(bar.x, bar.y, bar.w * float(bust), bar.h)
    text(canvas, _("At stake: {stake} on your British cards").format(stake=stake), r.x + 10, r.y + 94, size=12,
         max_width=width)
    # The expected troop loss is worked out under "How is this worked out?" (widgets/odds_help.py), not here.


def draw_hand(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    r = geo.hand_rect
    _set(canvas, "fill_style", PANEL)
    canvas.fill_rect(r.x, r.y, r.w, r.h)
    who = pic.players[pic.current].id if pic.players else ""
    retained, taken = _("retained"), _("taken")
    held: list[tuple[CardId, str]] = [(c, retained) for c in pic.retained] + [(c, taken) for c in pic.taken]
    if pic.on_nine:
        held.append((FIXED, _("on {space}").format(space=NINE)))
    room = geo.minis
    if len(held) > room:
        title = _("{player}'s cards: kept from earlier turns, then taken this turn (the last {room} of {count} "
                  "shown)").format(player=who, room=room, count=len(held))
    else:
        title = _("{player}'s cards: kept from earlier turns, then taken this turn").format(player=who)
    text(canvas, title, r.x + 8, r.y + 11, size=12, bold=True, max_width=r.w - 12)
    if not held:
        text(canvas, _("none yet"), r.x + 10, r.y + 44, size=12, colour=MUTED)
    for k, (card, how) in enumerate(held[-room:]):
        m = geo.mini_rect(k)
        draw_card(canvas, m, cards[card], small=True, fixed=card == FIXED)
        text(canvas, how, m.x + m.w / 2, m.y + m.h + 9, size=11, colour=MUTED, align="center")
        if card in pic.used or card in pic.discarding:
            _set(canvas, "global_alpha", 0.6)
            _set(canvas, "fill_style", "#ffffff")
            canvas.fill_rect(m.x, m.y, m.w, m.h)
            _set(canvas, "global_alpha", 1.0)
            word = "discard" if card in pic.discarding else "used"
            text(canvas, word, m.x + m.w / 2, m.y + m.h / 2, size=12, bold=True,
                 colour=LOST if word == "discard" else MUTED, align="center")
            _set(canvas, "stroke_style", (LOST if word == "discard" else MUTED))
            _set(canvas, "line_width", 2)
            canvas.stroke_line(m.x + 4, m.y + m.h - 4, m.x + m.w - 4, m.y + 4)
