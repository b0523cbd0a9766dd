"""``Board``: the In Flanders Field board, a two-layer ``tutor.ui.LayeredScene``.

Layer 0 holds what does not change during a game (battlefield, panel frames,
legend); layer 1 everything else. ``draw(picture)`` paints one picture in one
message; ``animate(frames)`` sends a whole animation in one message, with
``sleep`` between frames, so Python never waits.
"""

from __future__ import annotations

from typing import Sequence

from tutor.flanders.battlefield import Battlefield
from tutor.flanders.cards import CardSet
from tutor.ui.scene import LayeredScene

from .draw import draw_dice_only, draw_picture, draw_static
from .geometry import Geometry
from .picture import Picture


class Board(LayeredScene):
    def __init__(self, cards: CardSet, battlefield: Battlefield, players: int, *, compact: bool = False):
        self.geometry = Geometry(players, len(battlefield.spaces), compact)
        super().__init__(2, self.geometry.width, self.geometry.height)
        self.cards, self.battlefield = cards, battlefield
        self.picture: Picture | None = None
        """The picture last painted (the final one of an animation)."""
        self.on_client_ready(self.repaint)

    def repaint(self) -> None:
        """Paint both layers again (a browser connected)."""
        with self.painting():
            draw_static(self.layer(0), self.geometry, self.battlefield)
            if self.picture is not None:
                draw_picture(self.layer(1), self.geometry, self.picture, self.cards, self.battlefield)

    def draw(self, picture: Picture, *, static: bool = False) -> None:
        self.picture = picture
        with self.painting():
            if static:
                draw_static(self.layer(0), self.geometry, self.battlefield)
            draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)

    def animate(self, frames: Sequence[tuple[Picture, float]]) -> None:
        """Play (picture, ms) frames in one message; the last picture stays."""
        if not frames:
            return
        self.picture = frames[-1][0]

        def draw_frame(frame: tuple[Picture, float]) -> float:
            picture = frame[0]
            if picture.rolling and not self.geometry.compact:  # a tumbling die: repaint the dice only
                draw_dice_only(self.layer(1), self.geometry, picture, self.cards)
            else:
                draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)
            return frame[1]

        self.play(frames, draw_frame)
