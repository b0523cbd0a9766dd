"""``Board``: the In Flanders Field board, a two-layer ``tutor.ui.LayeredScene`` at device pixel ratio 2.

Layer 0 holds what does not change during a game (battlefield, panel frames,
legend); layer 1 everything else. ``draw(picture)`` paints one picture in one
message. The board is ``WIDTH`` CSS px wide at most; a narrower column (``tutor.ui.screen.board_frame`` tells it,
``fit_column``) lays it out again for that width (``Geometry.fit``), its text at its own size; narrower than
``geometry.NARROWEST`` it shrinks with its column, keeping its proportions; clicks map through the same scale.

``animate(frames)`` plays an animation with ``LayeredScene.play``: in a kernel, one
message per frame, each sent when the one before has had its time, and a new
``draw`` or ``animate`` drops the frames not sent yet, so the board never lags
behind the game (ipycanvas plays a ``canvas.sleep`` in the browser, on one queue
for every canvas of the page, and cannot cancel it once sent). The last frame is
the animation's end: Skip (``finish``) and "No animation" (``animated`` False) paint it at once;
``on_frame(picture)`` hears each picture as it is painted, ``after()`` the end.
"""

from __future__ import annotations

from typing import Callable, Sequence

from tutor.flanders.battlefield import Battlefield
from tutor.flanders.cards import CardSet
from tutor.ui.scene import LayeredScene

from .dice_panel import draw_dice_only
from .draw import draw_picture, draw_static
from .geometry import SCALE, Geometry
from .picture import Picture

Frame = tuple[Picture, float]
"""A picture and how long it shows (ms)."""


class Board(LayeredScene):
    def __init__(
        self, cards: CardSet, battlefield: Battlefield, players: int, *, compact: bool = False, odds: bool = True
    ):
        """``odds=False``: no place for the live odds (a quiz's board)."""
        self.geometry = Geometry(players, len(battlefield.spaces), compact, odds=odds)
        super().__init__(2, self.geometry.width, self.geometry.height, scale=SCALE, fit=True)
        self.cards, self.battlefield = cards, battlefield
        self.retain = any(card.retainable for card in cards.kinds)
        """A card shows "May Retain": the key explains it."""
        self.picture: Picture | None = None
        """The picture last painted, or the last one of the animation playing."""
        self.on_client_ready(self.repaint)

    def fit_column(self, width: int) -> None:
        """Lay the board out for a column ``width`` CSS px wide (``Geometry.fit``): its parts rearranged, every
        text at its own size (not shrunk with the page), then paint it all again. Clicks follow: they are read
        through ``geometry``."""
        if self.geometry.compact:
            return
        geometry = self.geometry.fit(min(width, self.full_width))
        if geometry == self.geometry:
            return
        self.geometry = geometry
        self.set_width(geometry.width)
        self.set_height(geometry.height)
        self._client_ready()  # the widget's whole repaint, as when a page connects

    def repaint(self) -> None:
        """Paint both layers again (a browser connected); a running animation jumps to its end."""
        with self.painting():
            draw_static(self.layer(0), self.geometry, self.battlefield, retain=self.retain)
            if self.picture is not None:
                draw_picture(self.layer(1), self.geometry, self.picture, self.cards, self.battlefield)

    def draw(self, picture: Picture, *, static: bool = False) -> None:
        """Paint ``picture`` now (a running animation is dropped)."""
        self.picture = picture
        with self.painting():
            if static:
                draw_static(self.layer(0), self.geometry, self.battlefield, retain=self.retain)
            draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)

    def animate(
        self,
        frames: Sequence[Frame],
        *,
        on_frame: Callable[[Picture], None] | None = None,
        after: Callable[[], None] | None = None,
    ) -> None:
        """Play (picture, ms) frames, each shown ``ms`` before the next; the last picture stays."""
        if not frames:
            return
        last = frames[-1][0]
        self.picture = last

        def draw_frame(numbered: tuple[int, Frame]) -> float:
            index, (picture, ms) = numbered
            if picture.rolling and index and not self.geometry.compact:  # a tumbling die: the dice only
                draw_dice_only(self.layer(1), self.geometry, picture, self.cards)
            else:
                draw_picture(self.layer(1), self.geometry, picture, self.cards, self.battlefield)
            if on_frame is not None:
                on_frame(picture)
            return ms

        def end() -> None:
            draw_frame((0, (last, 0)))
            if after is not None:
                after()

        self.play(enumerate(frames[:-1]), draw_frame, after=end)
