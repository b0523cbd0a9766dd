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

Sharp on 2x screens: with ``scale=2`` the canvas holds twice the pixels of its CSS size and every paint
starts by setting that scale, so drawing code keeps using CSS pixels (mouse events, which ipycanvas gives in
canvas pixels, are divided back: ``scene.css_point(x, y)``). With ``fit=True`` the board shrinks with its page
(never wider than ``width``), keeping its proportions.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipywidgets import Layout

F = TypeVar("F")


class LayeredScene:
    """``canvas``: a MultiCanvas of ``layers`` layers (0 at the bottom), ``width`` x ``height`` CSS pixels."""

    def __init__(self, layers: int, width: int, height: int, *, scale: int = 1, fit: bool = False):
        self.layers, self.width, self.height, self.scale = layers, width, height, scale
        layout = (Layout(width="100%", max_width=f"{width}px", height="auto") if fit
                  else Layout(width=f"{width}px", height=f"{height}px"))
        self.canvas = MultiCanvas(layers, width=width * scale, height=height * scale, layout=layout)
        self._on_ready: list[Callable[[], None]] = []
        self.canvas.on_client_ready(self._client_ready)

    def on_click(self, handler: Callable[[float, float], None]) -> None:
        """Call ``handler(x, y)`` on a mouse press on the board, in the CSS pixels the drawing uses."""
        self.canvas.on_mouse_down(lambda x, y: handler(*self.css_point(x, y)))

    def css_point(self, x: float, y: float) -> tuple[float, float]:
        """A point of a mouse event (canvas pixels) in the CSS pixels the drawing uses."""
        return x / self.scale, y / self.scale

    def _set_scale(self) -> None:
        if self.scale != 1:
            for index in range(self.layers):
                self.layer(index).set_transform(self.scale, 0, 0, self.scale, 0, 0)

    def layer(self, index: int) -> Canvas:
        layer: Canvas = self.canvas[index]
        return layer

    def on_client_ready(self, repaint: Callable[[], None]) -> None:
        """Call ``repaint`` when a browser connects (its canvas is blank until then)."""
        self._on_ready.append(repaint)

    def _client_ready(self) -> None:
        for repaint in self._on_ready:
            repaint()

    @contextmanager
    def painting(self) -> Iterator[None]:
        """``with scene.painting(): ...``: every command in the block goes out as one message."""
        with hold_canvas():
            self._set_scale()
            yield

    def play(self, frames: Iterable[F], draw_frame: Callable[[F], float], *,
             before: Callable[[], bool] | None = None, after: Callable[[], None] | None = None) -> None:
        """Send a whole animation in one message.

        ``before()`` runs first (return True to show its drawing before the frames start),
        then each frame is drawn by ``draw_frame(frame)``, which returns how many
        milliseconds the browser keeps it, and ``after()`` paints the final state.
        """
        sleeper = self.layer(self.layers - 1)
        with self.painting():
            if before is not None and before():
                sleeper.sleep(0)
            for frame in frames:
                sleeper.sleep(draw_frame(frame))
            if after is not None:
                after()
