"""``LayeredScene``: a board of stacked canvas layers with a fixed size, painted from Python only.

The canvas keeps no state of its own: a game's scene repaints everything in
``paint`` whenever a client connects (``on_client_ready``) and after every
action. Each paint is one message (``hold_canvas``); an animation is one message
too, its frames separated by ``canvas.sleep`` so Python never waits.

    class Board(LayeredScene):
        def __init__(self):
            super().__init__(layers=2, width=600, height=300)
        def paint(self, *, static: bool = False): ...        # static: repaint the bottom layers too

    board.play(frames, draw_frame)          # draw_frame(frame) paints one frame and returns how long it shows (ms)
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Callable, Iterable, TypeVar

from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipywidgets import Layout

F = TypeVar("F")


class LayeredScene:
    """``canvas``: a MultiCanvas of ``layers`` layers (0 at the bottom), ``width`` x ``height`` CSS pixels."""

    def __init__(self, layers: int, width: int, height: int):
        self.layers, self.width, self.height = layers, width, height
        self.canvas = MultiCanvas(layers, width=width, height=height,
                                  layout=Layout(width=f"{width}px", height=f"{height}px"))
        self._on_ready: list[Callable[[], None]] = []
        self.canvas.on_client_ready(self._client_ready)

    def layer(self, index: int) -> Canvas:
        layer: Canvas = self.canvas[index]
        return layer

    def on_client_ready(self, repaint: Callable[[], None]) -> None:
        """Call ``repaint`` when a browser connects (its canvas is blank until then)."""
        self._on_ready.append(repaint)

    def _client_ready(self) -> None:
        for repaint in self._on_ready:
            repaint()

    def painting(self) -> AbstractContextManager[None]:
        """``with scene.painting(): ...``: every command in the block goes out as one message."""
        return hold_canvas()

    def play(self, frames: Iterable[F], draw_frame: Callable[[F], float], *,
             before: Callable[[], bool] | None = None, after: Callable[[], None] | None = None) -> None:
        """Send a whole animation in one message.

        ``before()`` runs first (return True to show its drawing before the frames start),
        then each frame is drawn by ``draw_frame(frame)``, which returns how many
        milliseconds the browser keeps it, and ``after()`` paints the final state.
        """
        sleeper = self.layer(self.layers - 1)
        with hold_canvas():
            if before is not None and before():
                sleeper.sleep(0)
            for frame in frames:
                sleeper.sleep(draw_frame(frame))
            if after is not None:
                after()
