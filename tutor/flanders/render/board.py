"""``Board``: the In Flanders Field board, a two-layer ``tutor.ui.LayeredScene`` at device pixel ratio 2.

Layer 0 holds what does not change during a game (battlefield, panel frames,
legend); layer 1 everything else. ``draw(picture)`` paints one picture in one
message. The board is ``WIDTH`` CSS px wide at most and shrinks with a narrow page.

``animate(frames)`` plays an animation from the kernel: each frame is its own
message, sent when the one before has been on screen long enough (a timer on the
kernel's event loop), so the browser never holds a queue of frames. A new
``draw`` or ``animate`` drops the frames not yet sent at once: the board never
lags behind the game. (ipycanvas plays ``canvas.sleep`` in the browser, on one
queue for every canvas of the page, and nothing can cancel it once sent.)
Without a running event loop (a script, a test) ``animate`` paints the last frame.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Sequence

from tutor.flanders.battlefield import Battlefield
from tutor.flanders.cards import CardSet
from tutor.ui.scene import LayeredScene

from .draw import draw_dice_only, draw_picture, draw_static
from .geometry import SCALE, Geometry
from .picture import Picture

Frame = tuple[Picture, float]
log = logging.getLogger(__name__)


class Board(LayeredScene):
    def __init__(self, cards: CardSet, battlefield: Battlefield, players: int, *, compact: bool = False):
        self.geometry = Geometry(players, len(battlefield.spaces), compact)
        super().__init__(2, self.geometry.width, self.geometry.height, scale=SCALE, fit=True)
        self.cards, self.battlefield = cards, battlefield
        self.picture: Picture | None = None
        """The picture last painted, or the last one of the animation playing."""
        self._timer: asyncio.TimerHandle | None = None
        self.on_client_ready(self.repaint)

    @property
    def animating(self) -> bool:
        """Frames of an animation are still to be shown."""
        return self._timer is not None

    def repaint(self) -> None:
        """Paint both layers again (a browser connected); a running animation jumps to its end."""
        self.stop()
        with self.painting():
            draw_static(self.layer(0), self.geometry, self.battlefield)
            if self.picture is not None:
                draw_picture(self.layer(1), self.geometry, self.picture, self.cards, self.battlefield)

    def draw(self, picture: Picture, *, static: bool = False) -> None:
        """Paint ``picture`` now (a running animation is dropped)."""
        self.stop()
        self.picture = picture
        with self.painting():
            if static:
                draw_static(self.layer(0), self.geometry, self.battlefield)
            draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)

    def stop(self) -> None:
        """Drop the frames of the running animation that are not on screen yet."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def animate(self, frames: Sequence[Frame]) -> None:
        """Play (picture, ms) frames, each shown ``ms`` before the next; the last picture stays."""
        self.stop()
        if not frames:
            return
        self.picture = frames[-1][0]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop to time the frames: the end at once
            self._paint(frames[-1][0], rolling=False)
            return
        self._next(loop, list(frames), 0)

    def _next(self, loop: asyncio.AbstractEventLoop, frames: list[Frame], index: int) -> None:
        self._timer = None
        picture, ms = frames[index]
        try:
            self._paint(picture, rolling=picture.rolling and 0 < index < len(frames) - 1)
            if index + 1 < len(frames):
                self._timer = loop.call_later(ms / 1000, self._next, loop, frames, index + 1)
        except Exception:  # a timer callback has no caller to tell: log it (Voila shows the kernel's log)
            log.exception("In Flanders Field board: a frame of the animation failed")

    def _paint(self, picture: Picture, *, rolling: bool) -> None:
        with self.painting():
            if rolling and not self.geometry.compact:  # a tumbling die: repaint the dice only
                draw_dice_only(self.layer(1), self.geometry, picture, self.cards)
            else:
                draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)
