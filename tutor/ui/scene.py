"""``LayeredScene``: a board of stacked canvas layers with a fixed size, painted from Python only.

The canvas keeps no state of its own: a game's scene repaints everything in
``paint`` whenever a client connects (``on_client_ready``) and after every
action. Each paint is one message (``hold_canvas``).

    class Board(LayeredScene):
        def __init__(self):
            super().__init__(layers=2, width=600, height=300)
        def paint(self, *, static: bool = False): ...        # static: repaint the bottom layers too

    board.play(frames, draw_frame)          # draw_frame(frame) paints one frame and returns how long it shows (ms)
    board.finish()                          # Skip: the final picture now
    board.on_playing(lambda playing: ...)   # an animation started (True) or ended (False): show a Skip button

An animation never holds up a later click. In a kernel (its running event loop) the kernel sends one message
per frame, each when the one before has had its time; any later paint (``painting``) or animation drops the
frames not sent yet, so the browser shows the new picture at once. A browser plays a message's commands in
order and cannot be told to skip a ``canvas.sleep`` (ipycanvas has no cancel), which is why the frames are not
sent ahead as one message with sleeps. Outside a kernel (a script, a headless test) the whole animation
goes out as one message, a ``sleep`` after each frame, so a test can read every frame and its time.

Sharp on 2x screens: with ``scale=2`` the canvas holds twice the pixels of its CSS size and every paint
starts by setting that scale, so drawing code keeps using CSS pixels (mouse events, which ipycanvas gives in
canvas pixels, are divided back: ``scene.css_point(x, y)``). With ``fit=True`` the board shrinks with its page
(never wider than ``width``), keeping its proportions, as ``tutor.ui.screen.board_frame`` does: ipycanvas maps
a click through the CSS size to canvas pixels, so ``css_point`` stays right at any size.

Motion: with ``animated`` False (``tutor.ui.screen.MotionSetting``: the learner's choice, or the browser's
reduced-motion setting) ``play`` skips the frames and paints the final picture at once, in one message.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar

from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipywidgets import Layout

F = TypeVar("F")
_log = logging.getLogger(__name__)


class Clock(Protocol):
    """What the scene needs of an event loop to pace frames (``asyncio`` loops have both)."""

    def time(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Any: ...

    """Run ``callback`` at ``when``; the returned handle has ``cancel()``."""


@dataclass
class _Animation:
    frames: Iterator[Any]
    draw_frame: Callable[[Any], float]
    after: Callable[[], None] | None
    clock: Clock
    due: float
    handle: Any = None


class LayeredScene:
    """``canvas``: a MultiCanvas of ``layers`` layers (0 at the bottom), ``width`` x ``height`` CSS pixels."""

    clock: Clock | None = None
    """Paces animations; None: the kernel's event loop, if this runs in a kernel."""
    animated = True
    """False: every animation shows its final picture at once (reduced motion)."""

    def __init__(self, layers: int, width: int, height: int, *, scale: int = 1, fit: bool = False):
        self.layers, self.width, self.height, self.scale = layers, width, height, scale
        self.full_width = width
        """The width it was made with: the widest it is ever laid out (``set_width`` only narrows it)."""
        layout = (
            Layout(width="100%", max_width=f"{width}px", height="auto")
            if fit
            else Layout(width=f"{width}px", height=f"{height}px")
        )
        self.canvas = MultiCanvas(layers, width=width * scale, height=height * scale, layout=layout)
        self._on_ready: list[Callable[[], None]] = []
        self._on_playing: list[Callable[[bool], None]] = []
        self._animation: _Animation | None = None
        self.canvas.on_client_ready(self._client_ready)

    def set_height(self, height: int) -> None:
        """A new height in CSS pixels (a track with more lanes)."""
        self.height = height
        self.canvas.height = height * self.scale
        if self.canvas.layout.height != "auto":
            self.canvas.layout.height = f"{height}px"

    def set_width(self, width: int) -> None:
        """A new width in CSS pixels (``fit_column``: the board laid out for a narrower column)."""
        self.width = width
        self.canvas.width = width * self.scale
        if self.canvas.layout.max_width is not None:
            self.canvas.layout.max_width = f"{width}px"
        if self.canvas.layout.width != "100%":
            self.canvas.layout.width = f"{width}px"

    def fit_column(self, width: int) -> None:
        """The page's column for this board is ``width`` CSS pixels wide (``tutor.ui.screen.board_frame`` tells
        it, and again whenever it changes). A board that can lay itself out for a narrow column (fewer squares,
        its text kept at its own size) does so here and repaints; by default the board only shrinks with its
        column."""

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

    def on_playing(self, callback: Callable[[bool], None]) -> None:
        """Call ``callback(True)`` when a paced animation starts and ``callback(False)`` when it ends, is
        skipped or is dropped."""
        self._on_playing.append(callback)

    def _client_ready(self) -> None:
        for repaint in self._on_ready:
            repaint()

    @contextmanager
    def painting(self) -> Iterator[None]:
        """``with scene.painting(): ...``: every command in the block goes out as one message. A picture
        painted this way replaces a running animation (its frames not sent yet are dropped)."""
        self.stop()
        with self._held():
            yield

    @contextmanager
    def _held(self) -> Iterator[None]:
        with hold_canvas():
            self._set_scale()
            yield

    @property
    def playing(self) -> bool:
        """An animation has frames still to send."""
        return self._animation is not None

    def play(
        self,
        frames: Iterable[F],
        draw_frame: Callable[[F], float],
        *,
        before: Callable[[], bool] | None = None,
        after: Callable[[], None] | None = None,
    ) -> None:
        """Play an animation, replacing any running one.

        ``before()`` runs first (return True to show its drawing before the frames start),
        then each frame is drawn by ``draw_frame(frame)``, which returns how many
        milliseconds the browser keeps it, and ``after()`` paints the final state.
        A frame (or ``after``) that raises ends the animation: here the error is raised again,
        later (a frame the clock draws) it is logged.
        """
        self.stop()
        if not self.animated:
            with self._held():
                if before is not None:
                    before()
                if after is not None:
                    after()
            return
        clock = self.clock or _kernel_loop()
        if clock is None:
            self._send_at_once(frames, draw_frame, before, after)
            return
        self._animation = animation = _Animation(iter(frames), draw_frame, after, clock, clock.time())
        try:
            with self._held():
                if before is not None and before():  # its drawing shows on its own: the first frame comes next
                    animation.handle = clock.call_at(animation.due, self._tick)
                else:
                    self._draw_next()
        except Exception:
            self._animation = None
            raise
        if self._animation is not None:
            self._notify(True)

    def _send_at_once(
        self,
        frames: Iterable[F],
        draw_frame: Callable[[F], float],
        before: Callable[[], bool] | None,
        after: Callable[[], None] | None,
    ) -> None:
        """The whole animation in one message, a ``sleep`` after each frame (no event loop to pace it)."""
        sleeper = self.layer(self.layers - 1)
        with self._held():
            if before is not None and before():
                sleeper.sleep(0)
            for frame in frames:
                sleeper.sleep(draw_frame(frame))
            if after is not None:
                after()

    def _draw_next(self) -> None:
        """Draw the next frame (inside a held block) and book the one after; after the last, the end."""
        animation = self._animation
        assert animation is not None
        frame = next(animation.frames, _END)
        if frame is _END:
            self._animation = None
            if animation.after is not None:
                animation.after()
            return
        animation.due += animation.draw_frame(frame) / 1000
        animation.handle = animation.clock.call_at(animation.due, self._tick)

    def _tick(self) -> None:
        if self._animation is None:
            return
        try:
            with self._held():
                self._draw_next()
        except Exception:
            _log.exception("a frame of the animation failed: the animation stops")
            self._animation = None
        if self._animation is None:
            self._notify(False)

    def finish(self) -> None:
        """Skip the rest of a running animation: its final picture now (nothing when none runs)."""
        animation = self._animation
        if animation is None:
            return
        self.stop()
        if animation.after is not None:
            with self._held():
                animation.after()

    def stop(self) -> None:
        """Drop the frames of a running animation not sent yet (the caller paints what follows)."""
        animation, self._animation = self._animation, None
        if animation is not None:
            if animation.handle is not None:
                animation.handle.cancel()
            self._notify(False)

    def _notify(self, playing: bool) -> None:
        for callback in self._on_playing:
            callback(playing)


_END = object()


def _kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's running event loop. None outside a kernel: a script, or a test process, even one whose
    browser driver (Playwright's sync API) keeps a loop running."""
    kernelbase = sys.modules.get("ipykernel.kernelbase")  # not imported: no kernel
    if kernelbase is None or not kernelbase.Kernel.initialized():
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
