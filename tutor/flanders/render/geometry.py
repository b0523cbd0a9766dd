"""Where everything sits on the In Flanders Field board, and its colours and shapes (no drawing here).

One ``Geometry`` per board: the caption band, the battlefield (one row per
player, spaces 0 to the Objective line left to right), the 3x3 grid of card
spaces 3-11, the dice, the odds, the cards held and the legend. Tests and the
canvas click handler use the same numbers as the drawing (``space_rect``,
``pawn_centre``, ``die_rect``, ``space_at``).

Colour is never the only cue: British cards are rounded rectangles with a
round badge, German cards have cut corners and a square badge with a cross;
each player's pawn has its own shape and number; grey and black symbols carry
a letter (``G``/``B``) as well as their shade.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 960
SCALE = 2
"""Canvas pixels per CSS pixel: sharp on 2x screens (the board shrinks with a narrow page, keeping its shape)."""
MIN_TEXT = 11
"""No text on the board is smaller than this (CSS px at full width); ``pen.text`` refuses smaller sizes."""
CAPTION_LINE, RULE_LINE = 17, 14
CAPTION_H = 6 + CAPTION_LINE + 2 * RULE_LINE + 4
"""The caption band: what happens and the rule that decides it, in three lines (the caption takes two when
there is no rule)."""
HEADER_Y = CAPTION_H + 4
"""Top of the row of battlefield space numbers."""
ROWS_Y = HEADER_Y + 28
ROW_H = 44
SPACE_X = 160
CELL_W, CELL_H, GAP = 104, 86, 6
GRID_X = 12
DIE = 52
PANEL_X = GRID_X + 3 * CELL_W + 2 * GAP + 10
"""Left edge of the dice, the pair list and the cards held."""
ODDS_X = 606
MINI_W, MINI_H = 94, 62
LEGEND_H = 66

# Okabe-Ito colours (safe for colour-blind learners), plus a shape and a number per player.
PLAYER_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7")
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond")
BRITISH, BRITISH_FILL = "#2e7d32", "#eef7ee"
GERMAN, GERMAN_FILL = "#1f4e9c", "#e8eef8"
GREY_SYMBOL, BLACK_SYMBOL = "#9e9e9e", "#111111"
AVAILABLE = "#f2b400"
"""Outline of a space the dice offer (gold, with a tick)."""
CHOSEN = "#6a1b9a"
"""The chosen pair and the space it took (purple, with a thick outline)."""
FRESH = "#00838f"
"""A card space just refilled (teal, thin outline, "new")."""
LOST = "#c62828"
LINE_FILL, START_FILL, OBJECTIVE_FILL, OPEN_FILL = "#d7c4b7", "#dcefdc", "#ffe2b8", "#f7f4ec"
MAY_RETAIN = "#fff3c4"
PANEL = "#f6f7f9"
MUTED = "#5f6368"
GRID_ORDER = ((3, 4, 5), (6, 7, 8), (9, 10, 11))


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


@dataclass(frozen=True)
class Geometry:
    """The board for ``players`` players on a battlefield of ``spaces`` spaces (start ... Objective line)."""

    players: int
    spaces: int = 15
    compact: bool = False
    """A small board with the card grid and the odds only (for quizzes that compare two positions)."""

    @property
    def width(self) -> int:
        return GRID_X * 2 + 3 * CELL_W + 2 * GAP if self.compact else WIDTH

    @property
    def space_w(self) -> float:
        return (WIDTH - SPACE_X - 12) / self.spaces

    @property
    def lower_y(self) -> int:
        """Top of the area under the battlefield (the card grid, dice, odds and hand)."""
        return 0 if self.compact else ROWS_Y + ROW_H * self.players + 14

    @property
    def grid_y(self) -> int:
        return self.lower_y + (30 if self.compact else 24)

    @property
    def height(self) -> int:
        if self.compact:
            return self.grid_y + 3 * CELL_H + 2 * GAP + 60
        return self.legend_y + LEGEND_H

    @property
    def legend_y(self) -> int:
        return self.grid_y + 3 * CELL_H + 2 * GAP + 10

    # ----- battlefield --------------------------------------------------------------------------------------
    def row_rect(self, index: int) -> Rect:
        return Rect(4, ROWS_Y + index * ROW_H, WIDTH - 8, ROW_H - 2)

    def cell_rect(self, index: int, space: int) -> Rect:
        """The battlefield cell of ``space`` in player ``index``'s row."""
        return Rect(SPACE_X + space * self.space_w, ROWS_Y + index * ROW_H, self.space_w, ROW_H - 2)

    def pawn_centre(self, index: int, space: int) -> tuple[float, float]:
        return self.cell_rect(index, space).centre

    def troop_rect(self, index: int, piece: int) -> Rect:
        """Troop piece ``piece`` (0-based) of player ``index``, under its name."""
        return Rect(12 + piece * 16, ROWS_Y + index * ROW_H + 25, 12, 12)

    # ----- cards, dice, odds, hand --------------------------------------------------------------------------
    def space_rect(self, space: int) -> Rect:
        """The card space ``space`` (3 to 11) in the 3x3 grid."""
        for r, row in enumerate(GRID_ORDER):
            if space in row:
                c = row.index(space)
                return Rect(GRID_X + c * (CELL_W + GAP), self.grid_y + r * (CELL_H + GAP), CELL_W, CELL_H)
        raise ValueError(f"{space!r} is not a card space (3 to 11)")

    def space_at(self, x: float, y: float) -> int | None:
        """The card space under a click, or None."""
        for row in GRID_ORDER:
            for space in row:
                if self.space_rect(space).contains(x, y):
                    return space
        return None

    def die_rect(self, index: int) -> Rect:
        return Rect(PANEL_X + 6 + index * (DIE + 16), self.grid_y, DIE, DIE)

    def pair_rect(self, index: int) -> Rect:
        """Line ``index`` of the list of the three pairs and their sums."""
        return Rect(PANEL_X, self.grid_y + DIE + 12 + index * 27, ODDS_X - 14 - PANEL_X, 24)

    @property
    def bust_point(self) -> tuple[float, float]:
        """Where "BUST" is written, right of the dice."""
        die = self.die_rect(2)
        return die.x + die.w + 6, die.y + die.h / 2

    @property
    def odds_rect(self) -> Rect:
        if self.compact:
            return Rect(GRID_X, self.grid_y + 3 * CELL_H + 2 * GAP + 6, self.width - 2 * GRID_X, 50)
        return Rect(ODDS_X, self.grid_y - 4, WIDTH - ODDS_X - 12, 152)

    @property
    def hand_rect(self) -> Rect:
        top = self.grid_y + 154
        return Rect(PANEL_X, top, WIDTH - 12 - PANEL_X, self.grid_y + 3 * CELL_H + 2 * GAP - top)

    def mini_rect(self, index: int) -> Rect:
        """Card ``index`` among the cards held (retained, then taken)."""
        hand = self.hand_rect
        return Rect(hand.x + 8 + index * (MINI_W + 5), hand.y + 22, MINI_W, MINI_H)

    @property
    def minis(self) -> int:
        """How many cards held fit in the panel."""
        return int((self.hand_rect.w - 8) // (MINI_W + 5))
