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

from dataclasses import dataclass, replace

WIDTH = 960
NARROWEST = 360
"""The narrowest a board is laid out (a phone's column; the 3x3 card grid needs it): a narrower column shrinks it."""
WIDE = WIDTH
"""From this width the card grid, the dice, the odds and the cards held sit side by side (``fit``): the odds need
the room right of the dice and "BUST"."""
SCALE = 2
"""Canvas pixels per CSS pixel: sharp on 2x screens."""
MIN_TEXT = 12
"""No text on the board is smaller than this (CSS px: the board is laid out for its column, ``Geometry.fit``,
and drawn at its own size); ``pen.text`` refuses smaller sizes."""
CAPTION_LINE, RULE_LINE = 17, 14
CAPTION_H = 6 + CAPTION_LINE + 2 * RULE_LINE + 4
"""The caption band: what happens and the rule that decides it, in three lines (the caption takes two when
there is no rule); four lines on a narrower board."""
ROW_H = 44
NAME_LINE = 17
"""A narrow board's player row: its name and troop pieces on a line above its spaces."""
SPACE_X = 160
MIN_SPACE_W = 36
"""A battlefield space at least this wide keeps the players' names beside the row (else above it)."""
KIND_SPACE_W = 34
"""A space at least this wide has its kind ("start", "line", "goal") under its number."""
PAWN_R = 13
CELL_W, CELL_H, GAP = 104, 86, 6
GRID_X = 12
GRID_H = 3 * CELL_H + 2 * GAP
DIE = 52
PANEL_X = GRID_X + 3 * CELL_W + 2 * GAP + 10
"""Left edge of the dice, the pair list and the cards held (beside the card grid)."""
ODDS_W = 342
PAIR_H, PAIR_STEP = 24, 27
ODDS_H, ODDS_SHORT_H = 152, 108
HAND_H = 116
MINI_W, MINI_H = 94, 62
LEGEND_ITEMS, LEGEND_LINE = 10, 19

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
    """The board for ``players`` players on a battlefield of ``spaces`` spaces (start ... Objective line), laid
    out ``column`` CSS pixels wide (``fit``: ``NARROWEST`` to ``WIDTH``).

    Wide (``WIDE`` and up): the battlefield's rows with the names on their left, under it the card grid and beside
    it the dice, the pairs, the odds and the cards held. Narrower: the dice, odds and cards held one under the
    other beside the grid, or under it on a phone; the names above their rows when the spaces would be too
    narrow beside them; the key in fewer columns. Every text keeps its size."""

    players: int
    spaces: int = 15
    compact: bool = False
    """A small board with the card grid and the odds only (for quizzes that compare two positions)."""
    column: int = WIDTH
    odds: bool = True
    """The live odds have their place (a quiz's board has none: on a phone it is that much shorter)."""

    def fit(self, column: float) -> Geometry:
        """This board laid out for a column ``column`` CSS px wide (a compact board keeps its size)."""
        return replace(self, column=max(NARROWEST, min(WIDTH, int(column))))

    @property
    def width(self) -> int:
        return GRID_X * 2 + 3 * CELL_W + 2 * GAP if self.compact else self.column

    @property
    def wide(self) -> bool:
        return self.width >= WIDE

    @property
    def names_beside(self) -> bool:
        """The players' names on the left of their rows (else on a line above their spaces)."""
        return (self.width - SPACE_X - 12) / self.spaces >= MIN_SPACE_W

    @property
    def space_x(self) -> float:
        return SPACE_X if self.names_beside else 8

    @property
    def space_w(self) -> float:
        return (self.width - self.space_x - 12) / self.spaces

    @property
    def kind_labels(self) -> bool:
        """The spaces' kinds written under their numbers (else only their colours say it)."""
        return self.space_w >= KIND_SPACE_W

    # ----- bands, top to bottom ----------------------------------------------------------------------------
    @property
    def caption_lines(self) -> int:
        return 3 if self.wide else 4

    @property
    def caption_h(self) -> int:
        return CAPTION_H + (self.caption_lines - 3) * RULE_LINE

    @property
    def header_y(self) -> int:
        """Top of the row of battlefield space numbers (a narrow board names the battlefield above them)."""
        return self.caption_h + 4

    @property
    def numbers_y(self) -> int:
        """The middle of the space numbers."""
        return self.header_y + (6 if self.names_beside else 22)

    @property
    def rows_y(self) -> int:
        return self.numbers_y + (22 if self.kind_labels else 10)

    @property
    def row_h(self) -> int:
        return ROW_H if self.names_beside else ROW_H + NAME_LINE - 10

    @property
    def side_panel(self) -> bool:
        """The dice, odds and cards held beside the card grid (else under it)."""
        return self.width >= PANEL_X + 300

    @property
    def key_above(self) -> bool:
        """The key and the cards held right under the battlefield (a phone: the card grid, the dice, the odds and
        what comes next then fit on one screen), else at the bottom."""
        return not self.side_panel

    @property
    def lower_y(self) -> int:
        """Top of the area under the battlefield (the card grid, dice, odds and hand)."""
        if self.compact:
            return 0
        rows = self.rows_y + self.row_h * self.players + 14
        return rows + self.legend_h + 10 + HAND_H + 8 if self.key_above else rows

    @property
    def grid_y(self) -> int:
        return self.lower_y + (30 if self.compact else 24)

    @property
    def dice_y(self) -> int:
        return self.grid_y if self.side_panel else self.grid_y + GRID_H + 32

    @property
    def panel_x(self) -> int:
        return PANEL_X if self.side_panel else GRID_X

    @property
    def height(self) -> int:
        if self.compact:
            return self.grid_y + GRID_H + 60
        if self.key_above:
            last = self.odds_rect if self.odds else self.pair_rect(2)
            return int(last.y + last.h) + 8
        return self.legend_y + self.legend_h

    @property
    def legend_y(self) -> int:
        if self.key_above:
            return self.rows_y + self.row_h * self.players + 8
        bottom = self.grid_y + GRID_H
        if not self.wide:
            hand = self.hand_rect
            bottom = max(bottom, int(hand.y + hand.h))
        return bottom + 10

    @property
    def legend_columns(self) -> int:
        return 3 if self.wide else 2 if self.width >= 600 else 1

    @property
    def legend_h(self) -> int:
        return -(-LEGEND_ITEMS // self.legend_columns) * LEGEND_LINE + 10

    def legend_item(self, index: int) -> tuple[float, float, float]:
        """Where item ``index`` of the key sits: its left, its middle line and its width (column by column)."""
        columns = self.legend_columns
        rows = -(-LEGEND_ITEMS // columns)
        width = (self.width - 16) / columns
        return 8 + (index // rows) * width, self.legend_y + 5 + LEGEND_LINE / 2 + (index % rows) * LEGEND_LINE, width

    # ----- battlefield --------------------------------------------------------------------------------------
    def row_rect(self, index: int) -> Rect:
        return Rect(4, self.rows_y + index * self.row_h, self.width - 8, self.row_h - 2)

    def name_y(self, index: int) -> float:
        """The middle of player ``index``'s name."""
        return self.rows_y + index * self.row_h + (12 if self.names_beside else 9)

    def cell_rect(self, index: int, space: int) -> Rect:
        """The battlefield cell of ``space`` in player ``index``'s row."""
        top = 0 if self.names_beside else NAME_LINE
        return Rect(
            self.space_x + space * self.space_w,
            self.rows_y + index * self.row_h + top,
            self.space_w,
            self.row_h - 2 - top,
        )

    def pawn_centre(self, index: int, space: int) -> tuple[float, float]:
        return self.cell_rect(index, space).centre

    def troop_rect(self, index: int, piece: int) -> Rect:
        """Troop piece ``piece`` (0-based) of player ``index``, under its name (after it on a narrow board)."""
        if self.names_beside:
            return Rect(12 + piece * 16, self.rows_y + index * self.row_h + 25, 12, 12)
        return Rect(12 + NAME_MAX + 10 + piece * 16, self.rows_y + index * self.row_h + 3, 12, 12)

    @property
    def name_max(self) -> int:
        """The widest a player's name is written."""
        return LABEL_MAX if self.names_beside else NAME_MAX

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
        return Rect(self.panel_x + 6 + index * (DIE + 16), self.dice_y, DIE, DIE)

    @property
    def odds_x(self) -> int:
        return self.width - 12 - ODDS_W if self.wide else self.panel_x

    def pair_rect(self, index: int) -> Rect:
        """Line ``index`` of the list of the three pairs and their sums."""
        right = self.odds_x - 14 if self.wide else self.width - 12
        return Rect(self.panel_x, self.dice_y + DIE + 12 + index * PAIR_STEP, right - self.panel_x, PAIR_H)

    @property
    def bust_point(self) -> tuple[float, float]:
        """Where "BUST" is written, right of the dice."""
        die = self.die_rect(2)
        return die.x + die.w + 6, die.y + die.h / 2

    @property
    def odds_rect(self) -> Rect:
        if self.compact:
            return Rect(GRID_X, self.grid_y + GRID_H + 6, self.width - 2 * GRID_X, 50)
        if self.wide:
            return Rect(self.odds_x, self.grid_y - 4, ODDS_W, ODDS_H)
        last = self.pair_rect(2)
        return Rect(self.panel_x, last.y + last.h + 10, self.width - 12 - self.panel_x, ODDS_SHORT_H)

    @property
    def hand_rect(self) -> Rect:
        if self.wide:
            top = self.grid_y + 154
            return Rect(PANEL_X, top, self.width - 12 - PANEL_X, self.grid_y + GRID_H - top)
        if self.key_above:  # under the key, above the card grid
            return Rect(self.panel_x, self.legend_y + self.legend_h + 8, self.width - 12 - self.panel_x, HAND_H)
        odds = self.odds_rect
        return Rect(self.panel_x, odds.y + odds.h + 8, self.width - 12 - self.panel_x, HAND_H)

    @property
    def hand_title_lines(self) -> int:
        """Lines of the title of the cards held (two on a narrower board)."""
        return 1 if self.wide else 2

    def mini_rect(self, index: int) -> Rect:
        """Card ``index`` among the cards held (retained, then taken)."""
        hand = self.hand_rect
        return Rect(hand.x + 8 + index * (MINI_W + 5), hand.y + 8 + 14 * self.hand_title_lines, MINI_W, MINI_H)

    @property
    def minis(self) -> int:
        """How many cards held fit in the panel."""
        return int((self.hand_rect.w - 8) // (MINI_W + 5))


LABEL_MAX = 140
"""The widest a player's name is written beside its row."""
NAME_MAX = 150
"""The widest a player's name is written above its row (the troop pieces follow it)."""
