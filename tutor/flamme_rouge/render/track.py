"""The static layer: the road in the view's window with every square's number, the mini-map of the whole stage.

The legend is HTML, under the canvas (``legend.legend_html``).

Drawn once per client and again when the view scrolls. Cells exist only for a
square's lanes (1 to 3); curves are drawn straight.
"""

from __future__ import annotations

import math

from ipycanvas import Canvas

from tutor.flamme_rouge.track import Terrain, Track
from tutor.i18n import _, ngettext
from tutor.ui.drawing import font, rgb_array

from . import style
from .geometry import GLYPH_H, GLYPH_Y, LANE_H, MARGIN, MIN_TEXT, MINIMAP_H, MINIMAP_Y, View


def draw_track(canvas: Canvas, view: View) -> None:
    """Draw the whole static layer of ``view`` (clears the canvas first)."""
    canvas.clear()
    canvas.fill_style = style.PAGE
    canvas.fill_rect(0, 0, view.width, view.height)
    draw_minimap(canvas, view)
    _draw_verge(canvas, view)
    _draw_cells(canvas, view)
    _draw_lane_lines(canvas, view)
    _draw_cobble_dots(canvas, view)
    _draw_terrain_glyphs(canvas, view)
    _draw_square_numbers(canvas, view)
    _draw_start_and_finish(canvas, view)


def terrain_of(track: Track, square: int) -> Terrain:
    return track.squares[square].terrain


# ----- the road ----------------------------------------------------------------------------------------


def _draw_verge(canvas: Canvas, view: View) -> None:
    canvas.fill_style = style.VERGE
    canvas.fill_rect(
        view.x(view.first),
        view.road_top - 3,
        view.x(view.last_visible + 1) - view.road_left,
        view.road_bottom - view.road_top + 6,
    )


def _draw_cells(canvas: Canvas, view: View) -> None:
    """Dark kerbs around each square, then one light cell per existing lane, coloured by terrain."""
    track, squares = view.track, list(view.squares)
    canvas.fill_style = style.ROAD_EDGE
    canvas.fill_rects(
        [view.x(s) for s in squares],
        [view.square_top(s) - 2 for s in squares],
        view.cell_w,
        [track.lanes[s] * LANE_H + 4 for s in squares],
    )
    cells = [(s, lane) for s in squares for lane in range(track.lanes[s])]
    canvas.fill_styled_rects(
        [view.x(s) + 1 for s, _ in cells],
        [view.lane_top(lane) for _, lane in cells],
        view.cell_w - 1.5,
        LANE_H,
        rgb_array([style.TERRAIN_FILL[terrain_of(track, s)] for s, _ in cells]),
    )


def _draw_lane_lines(canvas: Canvas, view: View) -> None:
    """A double line above the right lane; dashes between the left lane and the third lane."""
    track = view.track
    two = [s for s in view.squares if track.lanes[s] >= 2]
    if two:
        y = view.lane_top(0)
        canvas.fill_style = style.LANE_LINE
        xs = [view.x(s) + 1 for s in two] * 2
        ys = [y - 2.6] * len(two) + [y + 1.0] * len(two)
        canvas.fill_rects(xs, ys, view.cell_w - 1.5, 1.6)
    three = [s for s in view.squares if track.lanes[s] >= 3]
    if three:
        canvas.fill_style = style.LANE_LINE
        canvas.fill_rects(
            [view.x(s) + view.cell_w * 0.3 for s in three], view.lane_top(1) - 0.8, view.cell_w * 0.4, 1.6
        )


def _draw_cobble_dots(canvas: Canvas, view: View) -> None:
    """Cobblestones get a dot pattern as well as their grey colour."""
    track = view.track
    xs, ys = [], []
    for s in view.squares:
        if track.cobbles[s]:
            for lane in range(track.lanes[s]):
                for fx in (0.2, 0.5, 0.8):
                    for fy in (0.25, 0.75):
                        xs.append(view.x(s) + fx * view.cell_w + (4 if fy > 0.5 else 0) - 2)
                        ys.append(view.lane_top(lane) + fy * LANE_H)
    if xs:
        canvas.fill_style = style.TERRAIN_INK[Terrain.COBBLES]
        canvas.fill_circles(xs, ys, 1.7)


def _draw_terrain_glyphs(canvas: Canvas, view: View) -> None:
    """A band above the road repeats the terrain as a glyph on its colour: ▲ ascent, ▼ descent, ∴ cobbles, S supply."""
    track = view.track
    marked = [s for s in view.squares if terrain_of(track, s) is not Terrain.FLAT]
    if not marked:
        return
    canvas.fill_styled_rects(
        [view.x(s) + 0.5 for s in marked],
        GLYPH_Y,
        view.cell_w - 1,
        GLYPH_H - 2,
        rgb_array([style.TERRAIN_FILL[terrain_of(track, s)] for s in marked]),
    )
    canvas.font = font(MIN_TEXT, bold=True)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    for terrain in style.TERRAIN_GLYPH:
        squares = [s for s in marked if terrain_of(track, s) is terrain]
        if squares:
            canvas.fill_style = style.TERRAIN_INK[terrain]
            for s in squares:
                canvas.fill_text(style.TERRAIN_GLYPH[terrain], view.cx(s), GLYPH_Y + (GLYPH_H - 2) / 2 + 0.5)


NUMBER_FONT = 12
"""Square numbers: every square has one, large enough to read on a projector (learners count squares)."""


def _draw_square_numbers(canvas: Canvas, view: View) -> None:
    """Every square's number under the road; every fifth one in bold."""
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_style = style.NUMBER_INK
    size = max(MIN_TEXT, min(NUMBER_FONT, view.cell_w * 0.42))
    for bold in (False, True):
        canvas.font = font(size, bold=bold)
        for s in view.squares:
            if (s % 5 == 0) is bold:
                canvas.fill_text(str(s), view.cx(s), view.numbers_y)


def _draw_start_and_finish(canvas: Canvas, view: View) -> None:
    track = view.track
    if 0 < track.start <= len(track) - 1 and view.shows(track.start - 0.5):
        x = view.x(track.start)
        canvas.fill_style = style.INK
        canvas.fill_rect(x - 2.5, view.road_top - 3, 5, view.road_bottom - view.road_top + 6)
        canvas.fill_style = "#ffffff"
        canvas.fill_rect(x - 1, view.road_top - 3, 2, view.road_bottom - view.road_top + 6)
        _line_label(canvas, _("START"), x - 4, view, align="right")
    if track.finish is not None and view.shows(track.finish - 0.5):
        x = view.x(track.finish)
        _draw_chequers(canvas, x - 5, view.road_top - 3, 10, view.road_bottom - view.road_top + 6, 5)
        _line_label(canvas, _("FINISH"), x + 7, view, align="left")


def _line_label(canvas: Canvas, text: str, x: float, view: View, align: str) -> None:
    """START or FINISH above the road, on a white tag beside its line (it may cover two terrain glyphs)."""
    w = 7.8 * len(text) + 6
    left = x - w if align == "right" else x
    canvas.fill_style = "#ffffff"
    canvas.fill_rect(left, GLYPH_Y - 1, w, GLYPH_H)
    canvas.font = font(MIN_TEXT, bold=True)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_style = style.INK
    canvas.fill_text(text, left + w / 2, GLYPH_Y + GLYPH_H / 2 - 1)


def _draw_chequers(canvas: Canvas, x: float, y: float, w: float, h: float, size: float) -> None:
    canvas.fill_style = "#ffffff"
    canvas.fill_rect(x, y, w, h)
    cols, rows = int(w // size), math.ceil(h / size)
    black = [(c, r) for c in range(cols) for r in range(rows) if (c + r) % 2 == 0]
    canvas.fill_style = style.INK
    canvas.fill_rects(
        [x + c * size for c, _ in black],
        [y + r * size for _, r in black],
        size,
        [min(size, h - r * size) for _, r in black],
    )
    canvas.stroke_style = style.INK
    canvas.line_width = 1
    canvas.stroke_rect(x, y, w, h)


# ----- mini-map and legend ---------------------------------------------------------------------------------


def draw_minimap(canvas: Canvas, view: View) -> None:
    """The whole stage as a thin strip of terrain colours, with the start and finish lines."""
    track = view.track
    canvas.font = font(12, bold=True)
    canvas.text_align = "left"
    canvas.text_baseline = "middle"
    canvas.fill_style = style.INK
    stage = ngettext("Stage: {n} square", "Stage: {n} squares", len(track)).format(n=len(track))
    canvas.fill_text(stage, MARGIN, MINIMAP_Y + MINIMAP_H / 2, view.minimap_left - MARGIN - 8)
    squares = range(len(track))
    canvas.fill_styled_rects(
        [view.minimap_x(s) for s in squares],
        MINIMAP_Y,
        view.minimap_cell_w + 0.4,
        MINIMAP_H,
        rgb_array([style.TERRAIN_FILL[terrain_of(track, s)] for s in squares]),
    )
    canvas.stroke_style = style.ROAD_EDGE
    canvas.line_width = 1
    canvas.stroke_rect(view.minimap_left, MINIMAP_Y, view.minimap_w, MINIMAP_H)
    if track.start:
        canvas.fill_style = style.INK
        canvas.fill_rect(view.minimap_x(track.start) - 1, MINIMAP_Y - 3, 2, MINIMAP_H + 6)
    if track.finish is not None:
        _draw_chequers(canvas, view.minimap_x(track.finish) - 3, MINIMAP_Y - 3, 6, MINIMAP_H + 6, 3)
