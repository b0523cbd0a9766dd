"""Rider tokens and highlights on the road (redrawn every animation frame), and riders on the mini-map.

A token is a disc in the team colour; light tokens get a dark outline. Its
middle holds the team's mark, large (``style.TEAM_MARKS``: triangle, square, disc,
...), in white or black, whichever contrasts more, so that teams differ at a glance
without colour (under any colour vision); a white badge at its upper left carries
the rider's letter ("S" or "R"). A team without a mark shows the letter in the
middle. Positions may be fractional squares (animation frames).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import numpy as np
from ipycanvas import Canvas

from tutor.flamme_rouge.events import Position
from tutor.flamme_rouge.race import Race
from tutor.i18n import N_, _
from tutor.ui.drawing import font, needs_outline, rgb_array, rounded_rect, tag, text_colour_on
from tutor.ui.drawing import text as write

from . import style
from .geometry import LANE_H, MINIMAP_H, MINIMAP_Y, View
from .highlights import Highlights, Mark
from .labels import (
    BADGE_OFFSET,
    BADGE_SIZE,
    CHIP_H,
    MARK_SIZE,
    TAG_H,
    Box,
    Label,
    place_mark_labels,
    place_rider_labels,
)

FloatPosition = tuple[float, float]


# ----- who looks like what ---------------------------------------------------------------------------------


def rider_colours(race: Race) -> dict[str, str]:
    """Token colour of every rider: its team's colour (``Rider.colour``)."""
    return {rid: style.token_colour(rider.colour) for rid, rider in race.riders.items()}


def token_label(race: Race, rider_id: str) -> str:
    """ "S" or "R" (the rider's kind) for a team's riders; two riders of one kind in a team (the Peloton's two
    rouleurs, "peloton-1" and "peloton-2") are numbered as their ids end ("1", "2"), so they differ by more than
    colour; a rider alone in its team (scenario riders "a", "b", ...) shows the first two characters of its id."""
    rider = race.riders[rider_id]
    team = race.teams[rider.team].riders
    if len(team) == 1 and rider.team == rider.id:
        return rider_id[:2]
    twins = [r for r in team if race.riders[r].letter == rider.letter]
    if len(twins) > 1:
        end = rider_id.rsplit("-", 1)[-1]
        return end if len(end) == 1 and end.isdigit() else str(twins.index(rider_id) + 1)
    return rider.letter


def current_positions(race: Race) -> dict[str, FloatPosition]:
    return {rid: (float(square), float(lane)) for rid, (square, lane) in race.positions().items()}


# ----- the layer --------------------------------------------------------------------------------------------


def draw_riders(
    canvas: Canvas,
    view: View,
    race: Race,
    highlights: Highlights = Highlights(),
    positions: Mapping[str, FloatPosition] | None = None,
    moving: Iterable[str] = (),
) -> None:
    """Clear the layer and draw the riders at ``positions`` (default: where they are) with ``highlights``."""
    positions = current_positions(race) if positions is None else positions
    moving = tuple(moving)
    colours = rider_colours(race)
    canvas.clear()
    _draw_pack_outlines(canvas, view, highlights.packs)
    _draw_blocked(canvas, view, highlights.blocked)
    for placed in place_mark_labels(view, highlights.marks):
        _draw_mark(canvas, view, placed.mark, placed.centre)
    _draw_trails(canvas, view, highlights.trails)
    shown = {rid: pos for rid, pos in positions.items() if view.shows(pos[0])}
    order = sorted(shown, key=lambda rid: rid in moving)  # moving riders on top
    draw_tokens(canvas, view, race, {rid: shown[rid] for rid in order}, colours)
    rings = [r for r in (highlights.next_mover, *moving) if r in shown]
    _draw_rings(canvas, view, [shown[r] for r in dict.fromkeys(rings)], dashed=False)
    if highlights.active in shown:
        _draw_rings(canvas, view, [shown[highlights.active]], dashed=True)
    _draw_labels(canvas, view, highlights, shown)
    _draw_offview_markers(canvas, view, positions)


def draw_tokens(
    canvas: Canvas, view: View, race: Race, positions: Mapping[str, FloatPosition], colours: Mapping[str, str]
) -> None:
    """Discs in one vectorized call, then an outline, then each team mark and letter."""
    if not positions:
        return
    ids = list(positions)
    xs = np.array([view.cx(positions[r][0]) for r in ids])
    ys = np.array([view.cy(positions[r][1]) for r in ids])
    radius = view.token_r
    names = [race.riders[r].colour for r in ids]
    draw_discs(canvas, xs, ys, radius, [colours[r] for r in ids], names)
    marked = [bool(style.team_mark(name)[1]) for name in names]
    badges = [i for i, m in enumerate(marked) if m]
    if badges:  # the letter in a white badge at the upper left
        bx, by = xs[badges] - radius * BADGE_OFFSET, ys[badges] - radius * BADGE_OFFSET
        canvas.fill_style = "#ffffff"
        canvas.fill_circles(bx, by, radius * BADGE_SIZE)
        canvas.stroke_style = "#1b1b1b"
        canvas.line_width = 1
        canvas.stroke_circles(bx, by, radius * BADGE_SIZE)
        canvas.font = font(max(LETTER_MIN, int(radius * 0.85)), bold=True)
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        canvas.fill_style = style.INK
        for i, x, y in zip(badges, bx, by):
            canvas.fill_text(token_label(race, ids[i]), x, y + 0.5)
    canvas.font = font(int(radius * 1.05), bold=True)
    for ink in ("#ffffff", "#000000"):  # a team without a mark: its letter in the middle
        canvas.fill_style = ink
        for i, rid in enumerate(ids):
            if not marked[i] and text_colour_on(colours[rid]) == ink:
                canvas.fill_text(token_label(race, rid), xs[i], ys[i] + 1)


LETTER_MIN = 12
"""Smallest letter in a badge, in CSS pixels (readable on a projector)."""


Coordinates = Sequence[float] | np.ndarray


def draw_discs(
    canvas: Canvas, xs: Coordinates, ys: Coordinates, radius: float, fills: list[str], colour_names: list[str]
) -> None:
    """Token discs of ``radius`` in ``fills`` with their outline, each with the mark of its team colour in its
    middle, large, in white or black ink (whichever contrasts more with its fill)."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    canvas.fill_styled_circles(xs, ys, radius, rgb_array(fills))
    canvas.stroke_style = "#1b1b1b"
    canvas.line_width = 1.2
    canvas.stroke_circles(xs, ys, radius)
    light = [i for i, fill in enumerate(fills) if needs_outline(fill)]
    if light:
        canvas.line_width = 2
        canvas.stroke_circles(xs[light], ys[light], radius)
    scale = radius * MARK_SIZE
    canvas.line_width = max(1.5, radius * 0.16)
    for ink in ("#ffffff", "#000000"):
        inked = [
            i for i, fill in enumerate(fills) if text_colour_on(fill) == ink and style.team_mark(colour_names[i])[1]
        ]
        if not inked:
            continue
        canvas.fill_style = canvas.stroke_style = ink
        for filled in (True, False):
            canvas.begin_path()
            for i in inked:
                for points, fill in style.team_mark(colour_names[i])[1]:
                    if fill is filled:
                        canvas.move_to(xs[i] + points[0][0] * scale, ys[i] + points[0][1] * scale)
                        for px, py in points[1:]:
                            canvas.line_to(xs[i] + px * scale, ys[i] + py * scale)
                        canvas.close_path()
            if filled:
                canvas.fill()
            else:
                canvas.stroke()


def draw_minimap_riders(canvas: Canvas, view: View, race: Race) -> None:
    """The window shown on the road as a box on the mini-map, and every rider as a dot (clears that strip)."""
    positions, colours = current_positions(race), rider_colours(race)
    canvas.clear_rect(view.minimap_left - 6, MINIMAP_Y - 6, view.minimap_w + 12, MINIMAP_H + 12)
    canvas.stroke_style = style.INK
    canvas.line_width = 2
    canvas.stroke_rect(
        view.minimap_x(view.first),
        MINIMAP_Y - 3,
        view.minimap_cell_w * (view.last_visible + 1 - view.first),
        MINIMAP_H + 6,
    )
    if not positions:
        return
    ids = list(positions)
    xs = np.array([view.minimap_x(positions[r][0] + 0.5) for r in ids])
    ys = np.array([MINIMAP_Y + MINIMAP_H - 3 - positions[r][1] * 3 for r in ids])
    canvas.fill_styled_circles(xs, ys, 3, rgb_array(colours[r] for r in ids))
    canvas.line_width = 0.8
    canvas.stroke_circles(xs, ys, 3)


# ----- highlights -------------------------------------------------------------------------------------------


def _draw_pack_outlines(canvas: Canvas, view: View, packs: Iterable[tuple[float, float]]) -> None:
    """A rounded box around each pack (fractional squares while a pack slides)."""
    canvas.stroke_style = style.PACK
    canvas.line_width = 2.5
    for lo, hi in packs:
        if not (view.shows(lo) or view.shows(hi)):
            continue
        x0, x1 = view.x(max(lo, view.first)) - 1, view.x(min(hi, view.last_visible) + 1) + 1
        rounded_rect(canvas, x0, view.road_top - 5, x1 - x0, view.road_bottom - view.road_top + 10, 7)
        canvas.stroke()


def _draw_blocked(canvas: Canvas, view: View, squares: Iterable[int]) -> None:
    """Outline the full squares a rider fell back over and cross them out."""
    squares = [s for s in squares if view.shows(s)]
    if not squares:
        return
    canvas.stroke_style = style.WARNING
    canvas.line_width = 2.5
    tops = [view.square_top(s) for s in squares]
    canvas.stroke_rects([view.x(s) + 1 for s in squares], tops, view.cell_w - 2, [view.road_bottom - t for t in tops])
    canvas.line_width = 2
    canvas.begin_path()
    for s, top in zip(squares, tops):
        x0, x1 = view.x(s) + 4, view.x(s + 1) - 4
        canvas.move_to(x0, top + 3)
        canvas.line_to(x1, view.road_bottom - 3)
        canvas.move_to(x1, top + 3)
        canvas.line_to(x0, view.road_bottom - 3)
    canvas.stroke()


def _draw_trails(canvas: Canvas, view: View, trails: Mapping[str, tuple[Position, Position]]) -> None:
    """A ghost ring where the rider started and a dashed line to where it is now."""
    if not trails:
        return
    canvas.stroke_style = style.HIGHLIGHT
    canvas.line_width = 2
    for frm, to in trails.values():
        x0, y0, x1, y1 = view.cx(frm[0]), view.cy(frm[1]), view.cx(to[0]), view.cy(to[1])
        if view.shows(frm[0]):
            canvas.set_line_dash([])
            canvas.stroke_circle(x0, y0, view.token_r * 0.8)
        canvas.set_line_dash([4, 3])
        canvas.begin_path()
        canvas.move_to(x0 + view.token_r * 0.8, y0)
        canvas.line_to(x1, y1)
        canvas.stroke()
    canvas.set_line_dash([])


def _draw_mark(canvas: Canvas, view: View, mark: Mark, label_at: tuple[float, float]) -> None:
    """A square's (or a cell's) dashed outline, and its label centred on ``label_at`` (``place_mark_labels``)."""
    top = view.square_top(mark.square) if mark.lane is None else view.lane_top(mark.lane)
    bottom = view.road_bottom if mark.lane is None else top + LANE_H
    canvas.stroke_style = mark.colour
    canvas.line_width = 3
    canvas.set_line_dash([5, 3])
    canvas.stroke_rect(view.x(mark.square) + 1.5, top + 1.5, view.cell_w - 3, bottom - top - 3)
    canvas.set_line_dash([])
    tag(canvas, mark.label, *label_at, mark.colour)


def _draw_rings(canvas: Canvas, view: View, positions: list[FloatPosition], dashed: bool) -> None:
    if not positions:
        return
    canvas.stroke_style = style.HIGHLIGHT
    canvas.line_width = 3.5
    canvas.set_line_dash([4, 3] if dashed else [])
    canvas.stroke_circles(
        [view.cx(s) for s, _ in positions], [view.cy(lane) for _, lane in positions], view.token_r + 3
    )
    canvas.set_line_dash([])


def rider_labels(view: View, highlights: Highlights, positions: Mapping[str, FloatPosition]) -> list[Label]:
    """The labels by the tokens shown (``positions``), placed clear of the badges and of each other
    (``labels.place_rider_labels``): finishing places, card chips, exhaustion cards, slipstream gains."""
    wanted: list[tuple[str, str, str, float]] = []
    wanted += [(rid, "place", ordinal(n), TAG_H) for rid, n in sorted(highlights.places.items(), key=lambda i: i[1])]
    wanted += [(rid, "card", chip.label, CHIP_H) for rid, chip in highlights.cards.items()]
    wanted += [(rid, "exhaustion", "E2", CHIP_H) for rid in highlights.exhausted]
    wanted += [(rid, "slipstream", f"+{n}", TAG_H) for rid, n in highlights.slipstreamed.items()]
    taken = [placed.box for placed in place_mark_labels(view, highlights.marks)]
    return place_rider_labels(view, positions, wanted, taken)


def _draw_labels(canvas: Canvas, view: View, highlights: Highlights, positions: Mapping[str, FloatPosition]) -> None:
    """The winner's gold ring, then every label by a token where ``rider_labels`` puts it."""
    for rid, place in highlights.places.items():
        if place == 1 and rid in positions:
            x, y = view.centre(*positions[rid])
            canvas.stroke_style = style.WINNER
            canvas.line_width = 4
            canvas.stroke_circle(x, y, view.token_r + 4)
            canvas.stroke_style = style.INK
            canvas.line_width = 1
            canvas.stroke_circle(x, y, view.token_r + 6.5)
    for label in rider_labels(view, highlights, positions):
        x, y, w, h = label.box
        if label.kind == "card":
            exhaustion = highlights.cards[label.rider].exhaustion
            _mini_card(
                canvas,
                label.box,
                label.text,
                style.EXHAUSTION_FACE if exhaustion else style.CARD_FACE,
                style.EXHAUSTION_INK if exhaustion else style.INK,
            )
        elif label.kind == "exhaustion":
            _mini_card(canvas, label.box, label.text, style.EXHAUSTION_FACE, style.EXHAUSTION_INK)
        else:
            colour = style.SLIPSTREAM if label.kind == "slipstream" else style.WINNER
            canvas.fill_style = colour
            rounded_rect(canvas, x, y, w, h, 4)
            canvas.fill()
            write(
                canvas,
                label.text,
                x + w / 2,
                y + h / 2 + 0.5,
                size=12,
                bold=True,
                colour=text_colour_on(colour),
                align="center",
            )


ORDINALS = {
    1: N_("1st"),
    2: N_("2nd"),
    3: N_("3rd"),
    4: N_("4th"),
    5: N_("5th"),
    6: N_("6th"),
    7: N_("7th"),
    8: N_("8th"),
    9: N_("9th"),
    10: N_("10th"),
    11: N_("11th"),
    12: N_("12th"),
    13: N_("13th"),
}
"""A finishing place, one message each (a race has at most 13 riders): each language writes its own (Catalan:
1r, 2n, 3r, 4t, 5è)."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 12th, 13th, in the kernel's language."""
    return _(ORDINALS[n]) if n in ORDINALS else _("{n}th").format(n=n)


def _mini_card(canvas: Canvas, box: Box, label: str, face: str, ink: str) -> None:
    x, y, w, h = box
    canvas.fill_style = face
    canvas.fill_rect(x, y, w, h)
    canvas.stroke_style = style.CARD_BORDER
    canvas.line_width = 1
    canvas.stroke_rect(x, y, w, h)
    canvas.font = font(12, bold=True)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_style = ink
    canvas.fill_text(label, x + w / 2, y + h / 2 + 0.5)


def _draw_offview_markers(canvas: Canvas, view: View, positions: Mapping[str, FloatPosition]) -> None:
    """Counts of riders off the road window, at its left ("◀ 2") and right ("3 ▶") ends."""
    behind = sum(1 for s, _ in positions.values() if s < view.first - 0.5)
    ahead = sum(1 for s, _ in positions.values() if s > view.last_visible + 0.5)
    y = (view.road_top + view.road_bottom) / 2
    if behind:
        tag(canvas, f"◀ {behind}", view.road_left + 14, y, style.INK)
    if ahead:
        tag(canvas, f"{ahead} ▶", view.x(view.last_visible + 1) - 14, y, style.INK)
