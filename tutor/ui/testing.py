"""Record the drawing commands ipycanvas would send to the browser (for headless tests).

    with recorded_commands() as log:
        scene.draw(race)
    assert "START" in log.texts()
    assert log.messages == 1            # the whole frame went out as one message

Each command is a ``Command(name, args, sizes)``; ``sizes`` gives the length of
every array argument (e.g. how many rectangles one ``fillRects`` drew).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from ipycanvas import canvas as ipycanvas_canvas

COMMAND_NAMES = {code: name for name, code in ipycanvas_canvas.COMMANDS.items()}


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[Any, ...]
    sizes: tuple[int, ...] = ()
    """Length of each array argument, in order."""


@dataclass
class CommandLog:
    commands: list[Command] = field(default_factory=list)
    messages: int = 0
    """Messages sent to the browser (a ``hold_canvas`` block is one message)."""

    def named(self, name: str) -> list[Command]:
        return [c for c in self.commands if c.name == name]

    def texts(self) -> list[str]:
        return [c.args[0] for c in self.named("fillText")]

    def count(self, name: str) -> int:
        return len(self.named(name))

    def sleeps(self) -> list[float]:
        return [c.args[0] for c in self.named("sleep")]

    def receive(self, message: list[Any]) -> None:
        """Record one message the canvas manager would send (a command, or a ``hold_canvas`` batch)."""
        self.messages += 1
        batch = message if message and isinstance(message[0], list) else [message]
        for command in batch:
            code, args = command[0], command[1] if len(command) > 1 else []
            sizes = tuple(a["shape"][0] for a in args if isinstance(a, dict) and "shape" in a)
            self.commands.append(Command(COMMAND_NAMES.get(code, str(code)), tuple(args), sizes))


@contextmanager
def recorded_commands() -> Iterator[CommandLog]:
    """Capture every canvas command sent while the block runs (nothing reaches a browser)."""
    manager = ipycanvas_canvas._CANVAS_MANAGER
    log = CommandLog()
    original = manager._send_custom
    manager._send_custom = lambda command, buffers=(): log.receive(command)
    try:
        yield log
    finally:
        manager._send_custom = original
