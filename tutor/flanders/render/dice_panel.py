"""The dice panel of an In Flanders Field canvas: the three dice and the sums of their pairs (``draw_dice``; the
frames of a roll repaint it alone, ``draw_dice_only``) and the live odds of rolling again (``draw_odds``).
"""

from __future__ import annotations

from ipycanvas import Canvas

from tutor.flanders.cards import CardSet
from tutor.flanders.game import NINE
from tutor.flanders.odds import DICE, ROLLS
from tutor.i18n import _, ngettext
from tutor.ui.drawing import INK, rounded_rect

from .geometry import AVAILABLE, CHOSEN, LOST, MUTED, PANEL, Geometry, Rect
from .pen import Pen, lines, percent, set_attr, text
from .picture import Picture
from .pieces import die


def draw_dice(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    note_y = geo.pair_rect(0).y + 12
    if pic.dice is None:
        for k in range(DICE):
            r = geo.die_rect(k)
            canvas.set_line_dash([4, 4])
            set_attr(canvas, "stroke_style", "#bdbdbd")
            set_attr(canvas, "line_width", 1.5)
            rounded_rect(canvas, r.x, r.y, r.w, r.h, 9)
            canvas.stroke()
            canvas.set_line_dash([])
        text(canvas, _("not rolled yet"), geo.pair_rect(0).x + 6, note_y, size=12, colour=MUTED)
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
    for k, pair in enumerate(pic.pairs):  # the engine's pairs (``Game.pairs``): this panel only draws them
        total, repeat, offered = pair.total, pair.repeat, pair.offered
        r = geo.pair_rect(k)
        is_chosen = pic.chosen == pair.dice
        neutral = pic.chosen is not None and not is_chosen  # after a take: only the chosen pair stands out
        set_attr(canvas, "fill_style", "#fff6d6" if offered else ("#f1e6f7" if is_chosen else "#f3f3f3"))
        canvas.fill_rect(r.x, r.y, r.w, r.h)
        if offered or is_chosen:
            set_attr(canvas, "stroke_style", (CHOSEN if is_chosen else AVAILABLE))
            set_attr(canvas, "line_width", 2.5)
            canvas.stroke_rect(r.x, r.y, r.w, r.h)
        if is_chosen:
            where = _("taken") if total != NINE else _("2nd pawn placed")
        elif repeat:
            where = _("the same sum")
        elif total == NINE:
            where = _("fixed card (2nd pawn)")
        elif pair.space:
            card = pic.spaces.get(total)
            where = cards[card].name if card is not None else _("empty space")
        else:
            where = _("no space")
        mark = "" if neutral else "✓ " if offered else ("● " if is_chosen else "✗ ")
        a, b = pair.values
        words = f"{mark}{a} + {b} = {total}: {where}"
        bold = offered or is_chosen
        text(
            canvas,
            lines(words, r.w - 10, 12, bold=bold, most=1)[0],
            r.x + 6,
            r.y + r.h / 2 + 0.5,
            size=12,
            bold=bold,
            colour=INK if offered or is_chosen or neutral else MUTED,
            max_width=r.w - 10,
        )


def draw_dice_only(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    """Repaint the dice panel alone (the frames of a roll)."""
    canvas = Pen(canvas)
    top = geo.die_rect(0)
    canvas.clear_rect(top.x - 8, top.y - 6, geo.pair_rect(0).w + 14, geo.pair_rect(2).y + 30 - top.y)
    draw_dice(canvas, geo, pic, cards)


def draw_odds(canvas: Canvas, geo: Geometry, pic: Picture) -> None:
    r = geo.odds_rect
    set_attr(canvas, "fill_style", PANEL)
    canvas.fill_rect(r.x, r.y, r.w, r.h)
    if pic.odds is None:
        if not geo.compact and pic.odds_panel:
            text(canvas, _("Live odds"), r.x + 10, r.y + 14, size=13, bold=True, max_width=r.w - 20)
            text(canvas, _("shown when you choose:"), r.x + 10, r.y + 36, size=12, colour=MUTED, max_width=r.w - 20)
            text(canvas, _("roll again, or stop"), r.x + 10, r.y + 54, size=12, colour=MUTED, max_width=r.w - 20)
        return
    o = pic.odds
    bust = o.bust
    rolls = int(bust * ROLLS)
    stake = ngettext("{n} grey symbol", "{n} grey symbols", o.at_stake).format(n=o.at_stake)
    chance = percent(float(bust))
    if geo.compact:
        text(
            canvas,
            _("Bust chance: {chance}").format(chance=chance),
            r.x + 8,
            r.y + 14,
            size=13,
            bold=True,
            max_width=r.w - 12,
        )
        text(
            canvas,
            _("{busts} of the {rolls} rolls · at stake: {stake}").format(busts=rolls, rolls=ROLLS, stake=stake),
            r.x + 8,
            r.y + 34,
            size=12,
            max_width=r.w - 12,
        )
        return
    width = r.w - 20
    text(canvas, _("If you roll again"), r.x + 10, r.y + 14, size=13, bold=True, max_width=width)
    text(
        canvas,
        _("Chance of a bust: {chance}").format(chance=chance),
        r.x + 10,
        r.y + 36,
        size=13,
        bold=True,
        colour=LOST if bust > 0.3 else INK,
        max_width=width,
    )
    text(
        canvas,
        _("{busts} of the {rolls} rolls of three dice offer no card").format(busts=rolls, rolls=ROLLS),
        r.x + 10,
        r.y + 54,
        size=12,
        colour=MUTED,
        max_width=width,
    )
    bar = Rect(r.x + 10, r.y + 66, width, 10)
    set_attr(canvas, "fill_style", "#e0e0e0")
    canvas.fill_rect(bar.x, bar.y, bar.w, bar.h)
    set_attr(canvas, "fill_style", LOST)
    canvas.fill_rect(bar.x, bar.y, bar.w * float(bust), bar.h)
    text(
        canvas,
        _("At stake: {stake} on your British cards").format(stake=stake),
        r.x + 10,
        r.y + 94,
        size=12,
        max_width=width,
    )
