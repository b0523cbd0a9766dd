"""Drawing In Flanders Field on ipycanvas: pure functions of a ``Picture``; no widget wiring.

    board = Board(game.cards, game.battlefield, players=len(game.players))   # board.canvas: a MultiCanvas
    board.draw(picture_of(game, humans=("p1",)))
    board.animate(frames_for(before, events, captions, picture_of(game)))    # frames timed by the kernel;
                                                                              # a new draw drops the rest

``Geometry`` says where every part sits (``space_rect``, ``die_rect``,
``pawn_centre``, ``space_at`` for clicks); the browser tests read it to check
that the dice, cards and pawns are where the engine says. The board is drawn at device pixel ratio 2
and laid out for its column (``Board.fit_column``, ``Geometry.fit``: a phone's, a tablet's, a laptop's); no text on
it is under 12 CSS px (``geometry.MIN_TEXT``) nor squeezed.
"""

from .board import Board
from .draw import draw_picture, draw_static
from .geometry import PLAYER_COLOURS, PLAYER_SHAPES, Geometry, Rect
from .pen import percent
from .picture import Odds, Picture, PlayerView, frames_for, picture_of
from .pieces import draw_card

__all__ = [
    "Board",
    "draw_card",
    "draw_picture",
    "draw_static",
    "percent",
    "PLAYER_COLOURS",
    "PLAYER_SHAPES",
    "Geometry",
    "Rect",
    "Odds",
    "Picture",
    "PlayerView",
    "frames_for",
    "picture_of",
]
