"""Drawing an In Flanders Field ``Picture`` on ipycanvas: pure functions of (canvas, geometry, picture, data).

``draw_static`` paints what never changes during a game (the battlefield's
spaces and lines, the frames of the panels, the legend); ``draw_picture``
paints everything else: the caption, the battlefield's pawns, the card grid, the
hand, and the dice and odds (``dice_panel``). Callers wrap them in
``hold_canvas()`` (``Board`` does). The pieces (cards, pawns, dice) are drawn by
``pieces``, the text by ``pen``.
"""

from __future__ import annotations

from typing import Callable

from ipycanvas import Canvas

from tutor.flanders.battlefield import Battlefield, SpaceKind
from tutor.flanders.cards import FIXED, CardId, CardSet
from tutor.flanders.game import NINE
from tutor.flanders.odds import SPACES
from tutor.i18n import _

from .dice_panel import draw_dice, draw_odds
from .geometry import (
    AVAILABLE,
    BRITISH,
    BRITISH_FILL,
    CAPTION_LINE,
    CHOSEN,
    FRESH,
    GERMAN,
    GERMAN_FILL,
    LABEL_MAX,
    LINE_FILL,
    LOST,
    MAY_RETAIN,
    MUTED,
    OBJECTIVE_FILL,
    OPEN_FILL,
    PANEL,
    PAWN_R,
    RULE_LINE,
    START_FILL,
    Geometry,
    Rect,
)
from .pen import Pen, lines, set_attr, text, text_width
from .picture import Picture
from .pieces import card_outline, draw_card, empty_space, outline, pawn, side_badge, symbol

KIND_FILL = {
    SpaceKind.START: START_FILL,
    SpaceKind.OPEN: OPEN_FILL,
    SpaceKind.DEFENSIVE: LINE_FILL,
    SpaceKind.OBJECTIVE: OBJECTIVE_FILL,
}


def draw_static(
    canvas: Canvas, geo: Geometry, field: Battlefield, names: tuple[str, ...] = (), *, retain: bool = True
) -> None:
    """The board under the pictures; ``retain=False``: the key leaves out "May Retain" (no card shows it)."""
    canvas = Pen(canvas)
    canvas.clear()
    set_attr(canvas, "fill_style", "#ffffff")
    canvas.fill_rect(0, 0, geo.width, geo.height)
    if geo.compact:
        text(
            canvas, _("Card spaces {first}-{last}").format(first=SPACES[0], last=SPACES[-1]), 12, 14, size=13, bold=True
        )
        return
    sw = geo.space_w
    # Space numbers and kinds, once above the rows.
    for s, space in enumerate(field.spaces):
        x = geo.cell_rect(0, s).x + sw / 2
        label = {SpaceKind.START: _("start"), SpaceKind.DEFENSIVE: _("line"), SpaceKind.OBJECTIVE: _("goal")}.get(
            space.kind
        )
        text(canvas, str(s), x, geo.numbers_y, size=13, bold=True, align="center")
        if label and geo.kind_labels:
            text(canvas, label, x, geo.numbers_y + 13, size=12, colour=MUTED, align="center", max_width=sw - 2)
    if geo.names_beside:
        text(canvas, _("Battlefield"), 12, geo.numbers_y, size=12, bold=True, colour=MUTED, max_width=LABEL_MAX)
        text(canvas, _("start → Objective line"), 12, geo.numbers_y + 13, size=12, colour=MUTED, max_width=LABEL_MAX)
    else:  # the names go above the rows: the battlefield is named above its numbers
        said = _("Battlefield") + ": " + _("start → Objective line")
        text(
            canvas,
            lines(said, geo.width - 24, 12, bold=True, most=1)[0],
            12,
            geo.header_y + 6,
            size=12,
            bold=True,
            colour=MUTED,
            max_width=geo.width - 24,
        )
    for i in range(geo.players):
        row = geo.row_rect(i)
        set_attr(canvas, "fill_style", "#fafafa")
        canvas.fill_rect(row.x, row.y, row.w, row.h)
        for s, space in enumerate(field.spaces):
            cell = geo.cell_rect(i, s)
            set_attr(canvas, "fill_style", KIND_FILL[space.kind])
            canvas.fill_rect(cell.x + 1, cell.y + 1, cell.w - 2, cell.h - 2)
            if space.kind is SpaceKind.DEFENSIVE:  # barbed wire: a zigzag across the cell
                set_attr(canvas, "stroke_style", "#5d4037")
                set_attr(canvas, "line_width", 1.5)
                canvas.begin_path()
                for k in range(7):
                    px = cell.x + 4 + (k % 2) * (cell.w - 8)
                    py = cell.y + 3 + k * (cell.h - 6) / 6
                    (canvas.move_to if k == 0 else canvas.line_to)(px, py)
                canvas.stroke()
            elif space.kind is SpaceKind.OBJECTIVE:
                set_attr(canvas, "fill_style", "#8d6e63")
                canvas.fill_rect(cell.x + cell.w - 9, cell.y + 4, 3, cell.h - 8)
                set_attr(canvas, "fill_style", LOST)
                canvas.fill_rect(cell.x + cell.w - 22, cell.y + 4, 13, 9)
        set_attr(canvas, "stroke_style", "#bdbdbd")
        set_attr(canvas, "line_width", 1)
        canvas.stroke_rect(row.x, row.y, row.w, row.h)
    room = (geo.panel_x if geo.side_panel else geo.width) - 24
    title = _("Card spaces {first} to {last}: take the card on a pair's sum").format(first=SPACES[0], last=SPACES[-1])
    text(
        canvas,
        lines(title, room, 12, bold=True, most=1)[0],
        12,
        geo.lower_y + 10,
        size=12,
        bold=True,
        colour=MUTED,
        max_width=room,
    )
    text(canvas, _("The three dice"), geo.die_rect(0).x, geo.dice_y - 14, size=12, bold=True, colour=MUTED)
    draw_legend(canvas, geo, retain=retain)


def draw_legend(canvas: Canvas, geo: Geometry, *, retain: bool = True) -> None:
    """The key: ten items (nine without "May Retain"), column by column (``Geometry.legend_item``)."""
    set_attr(canvas, "fill_style", PANEL)
    canvas.fill_rect(4, geo.legend_y, geo.width - 8, geo.legend_h)

    def card_side(german: bool, fill: str, stroke: str) -> Callable[[float, float], None]:
        def swatch(x: float, y: float) -> None:
            card_outline(canvas, Rect(x, y - 7, 22, 14), german)
            set_attr(canvas, "fill_style", fill)
            canvas.fill()
            set_attr(canvas, "stroke_style", stroke)
            set_attr(canvas, "line_width", 2)
            canvas.stroke()
            side_badge(canvas, x + 11, y, german, 4.5)

        return swatch

    def troops(x: float, y: float) -> None:
        set_attr(canvas, "fill_style", "#222222")
        canvas.fill_rect(x, y - 6, 12, 12)
        set_attr(canvas, "stroke_style", "#222222")
        set_attr(canvas, "line_width", 1.5)
        canvas.stroke_rect(x + 16, y - 6, 12, 12)

    def line(x: float, y: float) -> None:
        set_attr(canvas, "fill_style", LINE_FILL)
        canvas.fill_rect(x, y - 8, 18, 16)

    def retain_box(x: float, y: float) -> None:
        set_attr(canvas, "fill_style", MAY_RETAIN)
        canvas.fill_rect(x, y - 8, 84, 16)
        text(canvas, _("MAY RETAIN"), x + 42, y + 0.5, size=12, bold=True, align="center", max_width=82)

    def frame(colour: str, width: float) -> Callable[[float, float], None]:
        def swatch(x: float, y: float) -> None:
            set_attr(canvas, "line_width", width)
            set_attr(canvas, "stroke_style", colour)
            canvas.stroke_rect(x, y - 7, 18, 14)

        return swatch

    items = [
        (card_side(False, BRITISH_FILL, BRITISH), 28, _("British card (green, rounded, round badge)")),
        (card_side(True, GERMAN_FILL, GERMAN), 28, _("German card (blue, cut corners, cross badge)")),
        (lambda x, y: symbol(canvas, x + 7, y, False), 20, _("grey symbol: 1 troop lost at a bust")),
        (lambda x, y: symbol(canvas, x + 7, y, True), 20, _("black: 1 troop lost")),
        (troops, 34, _("troop piece / lost")),
        (line, 24, _("defensive line (stops a move)")),
        (frame(AVAILABLE, 3), 24, _("the dice offer it")),
        (frame(CHOSEN, 3), 24, _("chosen pair and card")),
        (
            lambda x, y: outline(canvas, Rect(x + 2, y - 5, 14, 10), FRESH, 2.5, pad=2),
            26,
            _("new: a card just dealt onto this space of the grid"),
        ),
    ]
    if retain:
        items.insert(6, (retain_box, 90, _("keep it for a later turn")))
    for k, (swatch, room, words) in enumerate(items):
        x, y, width = geo.legend_item(k)
        swatch(x + 4, y)
        text(
            canvas,
            lines(words, width - room - 12, 12, most=1)[0],
            x + 4 + room,
            y,
            size=12,
            max_width=width - room - 12,
        )


def draw_picture(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet, field: Battlefield) -> None:
    canvas = Pen(canvas)
    canvas.clear()
    if not geo.compact:
        draw_caption(canvas, geo, pic)
        draw_battlefield(canvas, geo, pic, field)
        draw_dice(canvas, geo, pic, cards)
        draw_hand(canvas, geo, pic, cards)
    draw_grid(canvas, geo, pic, cards)
    if geo.odds:
        draw_odds(canvas, geo, pic)


def draw_caption(canvas: Canvas, geo: Geometry, pic: Picture) -> None:
    colour = "#fff4e5" if pic.step else "#eef3fb"
    set_attr(canvas, "fill_style", colour)
    canvas.fill_rect(0, 0, geo.width, geo.caption_h - 2)
    if pic.winners:
        caption = _("Game over: {caption}").format(caption=pic.caption)
    elif pic.step:
        caption = _("Step {step} of {steps}: {caption}").format(
            step=pic.step[0], steps=pic.step[1], caption=pic.caption
        )
    else:
        caption = pic.caption
    width = geo.width - 20
    room = geo.caption_lines  # lines in all: the caption's (two at most when a rule follows), then the rule's
    said = lines(caption, width, 13.5, bold=True, most=room - 2 if pic.rule else room - 1)
    y = 6 + CAPTION_LINE / 2
    for line in said:
        text(canvas, line, 10, y, size=13.5, bold=True, max_width=width)
        y += CAPTION_LINE
    y += (RULE_LINE - CAPTION_LINE) / 2
    for line in lines(pic.rule, width, 12, most=room - len(said)) if pic.rule else []:
        text(canvas, line, 10, y, size=12, colour=MUTED, max_width=width)
        y += RULE_LINE


def draw_battlefield(canvas: Canvas, geo: Geometry, pic: Picture, field: Battlefield) -> None:
    for i, p in enumerate(pic.players):
        row = geo.row_rect(i)
        if i == pic.current and not pic.winners:
            set_attr(canvas, "stroke_style", CHOSEN)
            set_attr(canvas, "line_width", 2.5)
            canvas.stroke_rect(row.x, row.y, row.w, row.h)
            text(canvas, "▶", row.x + 1, geo.name_y(i), size=12, colour=CHOSEN)
        status = (" · " + _("out") if p.out else "") + (" · " + _("wins") if p.id in pic.winners else "")
        most = geo.name_max
        name = next((n for n in (p.label + status, p.id + status) if text_width(n, 12.5, True) <= most), None)
        name = name or lines(p.label + status, most, 12.5, bold=True, most=1)[0]
        text(canvas, name, 14, geo.name_y(i), size=12.5, bold=True, max_width=most)
        lost_now = pic.lost.get(p.id, 0)
        for k in range(max(p.start_troops, p.troops + lost_now)):
            r = geo.troop_rect(i, k)
            if k < p.troops:
                set_attr(canvas, "fill_style", "#222222")
                canvas.fill_rect(r.x, r.y, r.w, r.h)
            else:
                set_attr(canvas, "stroke_style", "#9e9e9e")
                set_attr(canvas, "line_width", 1)
                canvas.stroke_rect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1)
            if p.troops <= k < p.troops + lost_now:
                set_attr(canvas, "stroke_style", LOST)
                set_attr(canvas, "line_width", 2.5)
                canvas.stroke_line(r.x - 2, r.y - 2, r.x + r.w + 2, r.y + r.h + 2)
                canvas.stroke_line(r.x + r.w + 2, r.y - 2, r.x - 2, r.y + r.h + 2)
        after = geo.troop_rect(i, max(p.start_troops, p.troops + lost_now))
        text(canvas, str(p.troops), after.x + 2, after.y + 6, size=12, bold=True, colour=LOST if lost_now else MUTED)
        x, y = geo.pawn_centre(i, p.pawn)
        pawn(canvas, x, y, i, r=PAWN_R)
        if i == pic.current and pic.halted and field.lines[p.pawn]:
            if geo.names_beside:
                text(canvas, _("halted"), x, y + 16, size=12, bold=True, colour=LOST, align="center")
            else:  # under the pawn is the next row: on the name's line, at the row's end
                text(
                    canvas,
                    _("halted"),
                    row.x + row.w - 6,
                    geo.name_y(i),
                    size=12,
                    bold=True,
                    colour=LOST,
                    align="right",
                )
        if p.id in pic.winners:
            set_attr(canvas, "stroke_style", AVAILABLE)
            set_attr(canvas, "line_width", 3)
            canvas.stroke_circle(x, y, PAWN_R + 6 if geo.names_beside else PAWN_R + 3)


def draw_grid(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    for s in SPACES:
        r = geo.space_rect(s)
        if s == NINE:
            draw_card(canvas, r, cards.fixed, space=NINE, fixed=True)
            if pic.on_nine:
                pawn(canvas, r.x + r.w - 16, r.y + r.h - 16, pic.current, r=13)
                text(canvas, _("2nd pawn"), r.x + r.w - 34, r.y + r.h - 12, size=12, bold=True, align="right")
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
            text(canvas, _("new"), r.x + r.w / 2, r.y + r.h + 1, size=12, bold=True, colour=FRESH, align="center")
    # The expected troop loss is worked out under "How is this worked out?" (widgets/odds_help.py), not here.


def draw_hand(canvas: Canvas, geo: Geometry, pic: Picture, cards: CardSet) -> None:
    r = geo.hand_rect
    set_attr(canvas, "fill_style", PANEL)
    canvas.fill_rect(r.x, r.y, r.w, r.h)
    who = pic.players[pic.current].id if pic.players else ""
    retained, taken = _("retained"), _("taken")
    held: list[tuple[CardId, str]] = [(c, retained) for c in pic.retained] + [(c, taken) for c in pic.taken]
    if pic.on_nine:
        held.append((FIXED, _("on {space}").format(space=NINE)))
    room = geo.minis
    if len(held) > room:
        title = _(
            "{player}'s cards: kept from earlier turns, then taken this turn (the last {room} of {count} shown)"
        ).format(player=who, room=room, count=len(held))
    else:
        title = _("{player}'s cards: kept from earlier turns, then taken this turn").format(player=who)
    for k, line in enumerate(lines(title, r.w - 16, 12, bold=True, most=geo.hand_title_lines)):
        text(canvas, line, r.x + 8, r.y + 11 + 14 * k, size=12, bold=True, max_width=r.w - 12)
    if not held:
        text(canvas, _("none yet"), r.x + 10, geo.mini_rect(0).y + 22, size=12, colour=MUTED)
    for k, (card, how) in enumerate(held[-room:]):
        m = geo.mini_rect(k)
        draw_card(canvas, m, cards[card], small=True, fixed=card == FIXED)
        text(canvas, how, m.x + m.w / 2, m.y + m.h + 9, size=12, colour=MUTED, align="center", max_width=m.w + 4)
        if card in pic.used or card in pic.discarding:
            set_attr(canvas, "global_alpha", 0.6)
            set_attr(canvas, "fill_style", "#ffffff")
            canvas.fill_rect(m.x, m.y, m.w, m.h)
            set_attr(canvas, "global_alpha", 1.0)
            discarded = card in pic.discarding
            word = _("discard") if discarded else _("used")
            text(
                canvas,
                word,
                m.x + m.w / 2,
                m.y + m.h / 2,
                size=12,
                bold=True,
                colour=LOST if discarded else MUTED,
                align="center",
            )
            set_attr(canvas, "stroke_style", (LOST if discarded else MUTED))
            set_attr(canvas, "line_width", 2)
            canvas.stroke_line(m.x + 4, m.y + m.h - 4, m.x + m.w - 4, m.y + 4)
