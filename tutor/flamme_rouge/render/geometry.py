"""Where things go on the canvas: a ``View`` maps (square, lane) to pixels.

Convention: riders ride to the right (east). Lane 0, the right-hand lane, is
drawn at the BOTTOM of the road (a rider facing east has its right hand to the
south); lanes 1 and 2 are above it. A double white line separates the right
lane from the others, as on the real tiles.

The road shows a window of ``visible`` squares starting at ``first``;
``follow`` scrolls it to keep the riders in view. Bands from top to bottom:
mini-map of the whole stage, terrain glyphs (and the START / FINISH labels), road,
square numbers (every square), card panel (unless the view has no cards). The
legend is HTML under the canvas (``legend.legend_html``). ``canvas_height`` gives the
fixed canvas height for a track.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from tutor.flamme_rouge.track import Track

WIDTH = 960
MARGIN = 16
LANE_H = 36
MAX_CELL_W = 44
MIN_VISIBLE = 26
"""Squares shown at once on long stages (26 squares of 35 px fill the 960 px canvas)."""

NARROW_PANEL = 600
"""A board narrower than this shows its card panel in two rows."""
NARROWEST = 300
"""The narrowest the board is laid out (CSS pixels): a phone held upright gets a board of its own width."""
SQUARE_W = (WIDTH - 2 * MARGIN) / MIN_VISIBLE
"""A square's width on a long stage; a narrower board shows fewer squares of this width (``visible_for``)."""

MINIMAP_Y, MINIMAP_H = 20, 12
GLYPH_Y, GLYPH_H = 42, 16
NUMBERS_H = 20
MIN_TEXT = 12
"""No text on the board is smaller (CSS pixels): the captions, the small cards' values, the track's numbers,
glyphs and START/FINISH, the riders' letters and the chips (the board is laid out for its column, drawn at its own
size)."""
PANEL_H = 112


def canvas_height(track: Track, cards: bool = True) -> int:
    """Fixed canvas height for ``track`` (it depends only on the widest square's lane count), with or without
    the card panel."""
    return GLYPH_Y + GLYPH_H + max(track.lanes) * LANE_H + NUMBERS_H + (PANEL_H + 8 if cards else 4)


@dataclass(frozen=True)
class View:
    track: Track
    first: int = 0
    """First square shown on the road."""
    visible: int = MIN_VISIBLE
    width: int = WIDTH
    cards: bool = True
    """Whether the card panel is shown under the road."""
    panel_rows: int = 1
    """Rows of the card panel (2 on a narrow board: ``narrowed``)."""

    @property
    def height(self) -> int:
        return canvas_height(self.track, self.cards) + (self.panel_h - PANEL_H if self.cards else 0)

    @property
    def panel_h(self) -> int:
        """The card panel's height: ``PANEL_H`` a row."""
        return PANEL_H * self.panel_rows

    @property
    def last_visible(self) -> int:
        return min(self.first + self.visible, len(self.track)) - 1

    @property
    def squares(self) -> range:
        return range(self.first, self.last_visible + 1)

    # ----- horizontal -----
    @property
    def cell_w(self) -> float:
        return min(MAX_CELL_W, (self.width - 2 * MARGIN) / self.visible)

    @property
    def road_left(self) -> float:
        return MARGIN

    def x(self, square: float) -> float:
        """Left edge of ``square`` (fractional squares for animation)."""
        return self.road_left + (square - self.first) * self.cell_w

    def cx(self, square: float) -> float:
        return self.x(square) + self.cell_w / 2

    def shows(self, square: float) -> bool:
        return self.first - 0.5 <= square <= self.last_visible + 0.5

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (square, lane) under a point of the canvas, or None off the road."""
        column = int((x - self.road_left) // self.cell_w)
        square, lane = self.first + column, int((self.road_bottom - y) // LANE_H)
        if 0 <= column < self.visible and square <= self.last_visible and 0 <= lane < self.track.lanes[square]:
            return square, lane
        return None

    # ----- vertical -----
    @property
    def max_lanes(self) -> int:
        return max(self.track.lanes)

    @property
    def road_top(self) -> float:
        return GLYPH_Y + GLYPH_H

    @property
    def road_bottom(self) -> float:
        return self.road_top + self.max_lanes * LANE_H

    def lane_top(self, lane: float) -> float:
        return self.road_bottom - (lane + 1) * LANE_H

    def cy(self, lane: float) -> float:
        return self.road_bottom - (lane + 0.5) * LANE_H

    def square_top(self, square: int) -> float:
        """Top of the existing lanes of ``square`` (squares with fewer lanes are lower)."""
        return self.lane_top(self.track.lanes[square] - 1)

    def centre(self, square: float, lane: float) -> tuple[float, float]:
        """Centre of the cell of ``lane`` on ``square``: where a rider's token is drawn."""
        return self.cx(square), self.cy(lane)

    @property
    def token_r(self) -> float:
        return min(LANE_H, self.cell_w) * 0.38

    def token_fill_points(self, square: float, lane: float) -> list[tuple[float, float]]:
        """Two points inside a rider's token, low left and low right (clear of its team mark, its letter badge
        and the chips above it), that show only the token's fill."""
        x, y = self.centre(square, lane)
        offset = self.token_r * 0.62
        return [(x - offset, y + offset), (x + offset, y + offset)]

    def device_scale(self, pixel_width: float) -> float:
        """Canvas pixels per view unit, for a ``<canvas>`` element ``pixel_width`` pixels wide.

        The scene's canvas holds ``scene.SCALE`` (2) pixels per view unit, whatever its CSS size on the page
        (sharp on 2x screens), so this is 2 for ``Scene``; reading pixels back, multiply the view's
        coordinates by it.
        """
        return pixel_width / self.width

    @property
    def numbers_y(self) -> float:
        return self.road_bottom + NUMBERS_H / 2 + 2

    @property
    def panel_top(self) -> float:
        return self.road_bottom + NUMBERS_H + 4

    # ----- mini-map -----
    @property
    def minimap_left(self) -> float:
        return MARGIN + 150

    @property
    def minimap_w(self) -> float:
        return self.width - MARGIN - self.minimap_left

    def minimap_x(self, square: float) -> float:
        return self.minimap_left + square * self.minimap_w / len(self.track)

    @property
    def minimap_cell_w(self) -> float:
        return self.minimap_w / len(self.track)


def visible_for(track: Track, width: int) -> int:
    """How many squares a board ``width`` pixels wide shows: ``MIN_VISIBLE`` (the whole track when it is
    shorter) at full width; on a narrower board as many as fit at a long stage's square width, so the riders,
    numbers and text keep their size (a phone shows about 10)."""
    room = MIN_VISIBLE if width >= WIDTH else max(6, int((width - 2 * MARGIN) // SQUARE_W))
    return min(len(track), room)


def make_view(track: Track, width: int = WIDTH, *, cards: bool = True) -> View:
    """A view of ``track``: the whole track when it is short, else a window of ``MIN_VISIBLE`` squares (fewer
    on a narrower board: ``visible_for``)."""
    return View(track, 0, visible_for(track, width), width, cards)


def narrowed(view: View, width: int) -> View:
    """``view`` laid out ``width`` pixels wide (``NARROWEST`` to ``WIDTH``), its first square kept if it can."""
    width = max(NARROWEST, min(WIDTH, width))
    visible = visible_for(view.track, width)
    first = max(0, min(view.first, len(view.track) - visible))
    return replace(view, first=first, visible=visible, width=width, panel_rows=2 if width < NARROW_PANEL else 1)


def follow(view: View, squares: Iterable[int], priority: Iterable[int] = ()) -> View:
    """Scroll ``view`` so that ``squares`` are in view, keeping it still when they already are.

    When the squares do not fit in the window, the ``priority`` squares (the
    rider moving, the learner's riders) are kept in view instead.
    """
    n = view.visible
    for group in (sorted(set(squares)), sorted(set(priority))):
        if not group:
            continue
        lo, hi = group[0], group[-1]
        if _in_view(view, lo, hi):
            return view
        if hi - lo + 3 <= n:
            # Leave a little more room ahead of the riders than behind them.
            slack = n - (hi - lo + 1)
            return _scrolled(view, lo - slack // 3)
    if priority:
        return _scrolled(view, max(priority) - n // 2)
    return view


def _in_view(view: View, lo: int, hi: int) -> bool:
    """Whether squares lo..hi are shown with a square to spare on each side (or the track ends there)."""
    at_start, at_end = view.first == 0, view.first + view.visible >= len(view.track)
    return (
        (at_start or lo >= view.first + 1)
        and (at_end or hi <= view.first + view.visible - 2)
        and lo >= view.first
        and hi <= view.last_visible
    )


def _scrolled(view: View, first: int) -> View:
    first = max(0, min(first, len(view.track) - view.visible))
    return view if first == view.first else replace(view, first=first)
