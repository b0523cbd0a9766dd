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
from tutor.i18n import language
from tutor.ui.drawing import font, needs_outline, rgb_array, rounded_rect, tag, text_colour_on

from . import style
from .geometry import GLYPH_Y, LANE_H, MINIMAP_H, MINIMAP_Y, View
from .highlights import Chip, Highlights, Mark

FloatPosition = tuple[float, float]


# ----- who looks like what ---------------------------------------------------------------------------------

def rider_colours(race: Race) -> dict[str, str]:
    """Token colour of every rider: its team's colour (``Rider.colour``)."""
    return {rid: style.token_colour(rider.colour) for rid, rider in race.riders.items()}


def token_label(race: Race, rider_id: str) -> str:
    """"S" or "R" (the rider's kind) for a team's riders; a rider alone in its team (scenario riders "a", "b",
    ...) shows the first two characters of its id."""
    rider = race.riders[rider_id]
    if len(race.teams[rider.team].riders) == 1 and rider.team == rider.id:
        return rider_id[:2]
    return rider.letter


def current_positions(race: Race) -> dict[str, FloatPosition]:
    return {rid: (float(square), float(lane)) for rid, (square, lane) in race.positions().items()}


# ----- the layer --------------------------------------------------------------------------------------------

def draw_riders(canvas: Canvas, view: View, race: Race, highlights: Highlights = Highlights(),
                positions: Mapping[str, FloatPosition] | None = None, moving: Iterable[str] = ()) -> None:
    """Clear the layer and draw the riders at ``positions`` (default: where they are) with ``highlights``."""
    positions = current_positions(race) if positions is None else positions
    moving = tuple(moving)
    colours = rider_colours(race)
    canvas.clear()
    _draw_pack_outlines(canvas, view, highlights.packs)
    _draw_blocked(canvas, view, highlights.blocked)
    for mark in highlights.marks:
        _draw_mark(canvas, view, mark)
    _draw_trails(canvas, view, highlights.trails)
    shown = {rid: pos for rid, pos in positions.items() if view.shows(pos[0])}
    order = sorted(shown, key=lambda rid: rid in moving)  # moving riders on top
    draw_tokens(canvas, view, race, {rid: shown[rid] for rid in order}, colours)
    rings = [r for r in (highlights.next_mover, *moving) if r in shown]
    _draw_rings(canvas, view, [shown[r] for r in dict.fromkeys(rings)], dashed=False)
    if highlights.active in shown:
        _draw_rings(canvas, view, [shown[highlights.active]], dashed=True)
    _draw_card_chips(canvas, view, {rid: label for rid, label in highlights.cards.items() if rid in shown}, shown)
    _draw_exhaustion_icons(canvas, view, [shown[r] for r in highlights.exhausted if r in shown])
    _draw_slipstream_gains(canvas, view, {r: n for r, n in highlights.slipstreamed.items() if r in shown}, shown)
    _draw_places(canvas, view, {r: n for r, n in highlights.places.items() if r in shown}, shown)
    _draw_offview_markers(canvas, view, positions)


def draw_tokens(canvas: Canvas, view: View, race: Race, positions: Mapping[str, FloatPosition],
                colours: Mapping[str, str]) -> None:
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


BADGE_OFFSET, BADGE_SIZE = 0.72, 0.62
"""Where a token's letter badge sits (up and left of its centre) and its radius, in token radii."""
MARK_SIZE = 0.6
"""Half the width of a team mark in the middle of a token, in token radii."""
LETTER_MIN = 11
"""Smallest letter in a badge, in CSS pixels (readable on a projector)."""


Coordinates = Sequence[float] | np.ndarray


def draw_discs(canvas: Canvas, xs: Coordinates, ys: Coordinates, radius: float, fills: list[str],
               colour_names: list[str]) -> None:
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
        inked = [i for i, fill in enumerate(fills)
                 if text_colour_on(fill) == ink and style.team_mark(colour_names[i])[1]]
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
    canvas.stroke_rect(view.minimap_x(view.first), MINIMAP_Y - 3,
                       view.minimap_cell_w * (view.last_visible + 1 - view.first), MINIMAP_H + 6)
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
    canvas.stroke_rects([view.x(s) + 1 for s in squares], tops, view.cell_w - 2,
                        [view.road_bottom - t for t in tops])
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


def _draw_mark(canvas: Canvas, view: View, mark: Mark) -> None:
    if not view.shows(mark.square):
        return
    top = view.square_top(mark.square) if mark.lane is None else view.lane_top(mark.lane)
    bottom = view.road_bottom if mark.lane is None else top + LANE_H
    canvas.stroke_style = mark.colour
    canvas.line_width = 3
    canvas.set_line_dash([5, 3])
    canvas.stroke_rect(view.x(mark.square) + 1.5, top + 1.5, view.cell_w - 3, bottom - top - 3)
    canvas.set_line_dash([])
    tag(canvas, mark.label, view.cx(mark.square), view.numbers_y if mark.below else GLYPH_Y + 5, mark.colour)


def _draw_rings(canvas: Canvas, view: View, positions: list[FloatPosition], dashed: bool) -> None:
    if not positions:
        return
    canvas.stroke_style = style.HIGHLIGHT
    canvas.line_width = 3.5
    canvas.set_line_dash([4, 3] if dashed else [])
    canvas.stroke_circles([view.cx(s) for s, _ in positions], [view.cy(lane) for _, lane in positions],
                          view.token_r + 3)
    canvas.set_line_dash([])


def _draw_card_chips(canvas: Canvas, view: View, chips: Mapping[str, Chip],
                     positions: Mapping[str, FloatPosition]) -> None:
    """A small card with the revealed value at the upper right of each token still to move."""
    for rid, chip in chips.items():
        square, lane = positions[rid]
        x, y = view.cx(square) + view.token_r * 0.45, view.cy(lane) - view.token_r - 4
        exhaustion = chip.exhaustion
        _mini_card(canvas, x, y, chip.label, style.EXHAUSTION_FACE if exhaustion else style.CARD_FACE,
                   style.EXHAUSTION_INK if exhaustion else style.INK)


def _draw_exhaustion_icons(canvas: Canvas, view: View, positions: list[FloatPosition]) -> None:
    for square, lane in positions:
        _mini_card(canvas, view.cx(square) + view.token_r * 0.45, view.cy(lane) - view.token_r - 4, "E2",
                   style.EXHAUSTION_FACE, style.EXHAUSTION_INK)


def _draw_slipstream_gains(canvas: Canvas, view: View, gains: Mapping[str, int],
                           positions: Mapping[str, FloatPosition]) -> None:
    for rid, gained in gains.items():
        square, lane = positions[rid]
        tag(canvas, f"+{gained}", view.cx(square) + view.token_r + 1, view.cy(lane) - view.token_r + 1,
             style.SLIPSTREAM)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st (Catalan: 1r, 2n, 3r, 4t, 5è)."""
    if language() == "ca":
        return str(n) + {1: "r", 2: "n", 3: "r", 4: "t"}.get(n, "è")
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _draw_places(canvas: Canvas, view: View, places: Mapping[str, int], positions: Mapping[str, FloatPosition]) -> None:
    """Finishing places above the tokens at the finish; the winner's tag is larger, with a gold ring round it."""
    for rid, place in sorted(places.items(), key=lambda item: -item[1]):
        square, lane = positions[rid]
        x, y = view.cx(square), view.cy(lane)
        if place == 1:
            canvas.stroke_style = style.WINNER
            canvas.line_width = 4
            canvas.stroke_circle(x, y, view.token_r + 4)
            canvas.stroke_style = style.INK
            canvas.line_width = 1
            canvas.stroke_circle(x, y, view.token_r + 6.5)
        tag(canvas, ordinal(place), x + view.token_r * 0.3, y - view.token_r - 6, style.WINNER)


def _mini_card(canvas: Canvas, x: float, y: float, label: str, face: str, ink: str) -> None:
    w, h = 8 + 7 * len(label), 15
    canvas.fill_style = face
    canvas.fill_rect(x, y, w, h)
    canvas.stroke_style = style.CARD_BORDER
    canvas.line_width = 1
    canvas.stroke_rect(x, y, w, h)
    canvas.font = font(11, bold=True)
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
