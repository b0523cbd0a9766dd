"""What a game's ``cli.add_options(options)`` gets to declare its ``rules-tutor simulate`` options with.

``Options`` is the one call a game makes (``options.add_argument(...)``, as on an ``argparse`` group, a
``default`` included); ``count`` is the ``type`` of a whole number in a range, refused in a sentence otherwise.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Protocol

MAX_GAMES = 1_000_000
"""Most races (or games) one ``simulate`` plays."""


class Options(Protocol):
    def add_argument(self, *flags: str, **kwargs: Any) -> Any:
        """Declare one option as ``argparse`` does; its ``default`` is this game's."""


def count(minimum: int, maximum: int) -> Callable[[str], int]:
    """An ``argparse`` type: an integer from ``minimum`` to ``maximum``, else a clear refusal."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"{value} is not from {minimum} to {maximum}")
        return value

    return parse
