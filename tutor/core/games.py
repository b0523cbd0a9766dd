"""The registry of games: what the command line, the landing page, the scenario checker and the server dispatch on.

A game plugs in with one folder and one line: its package (an engine on ``tutor.core``, ``render/``, ``widgets/``
on ``tutor.ui``, and a ``cli`` module), its lessons in ``lessons/<folder>/``, and one ``GameEntry`` in ``GAMES``
below (or, for a game that lives outside this package, one ``register(GameEntry(...))`` call before the command
line or the page runs). The ``cli`` module provides:

- ``add_options(options)``: its ``rules-tutor simulate`` options, each with its default
  (``options.add_argument("--players", type=int, default=3, help=...)``);
- ``simulate(args)``: plays bot games, prints one line per game, returns the exit status;
- ``check_file(data)``: the first difference of a loaded scenario file from its ``expect`` block (None when it
  holds), raising a ``ValueError`` naming the key when the file is malformed.

Modules are named, not imported, so listing the games imports no engine.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tutor.i18n import N_

from .errors import DataError


@dataclass(frozen=True)
class GameEntry:
    """One game of the registry (not a game being played: that is each engine's state)."""

    id: str
    """Command-line name (``--game``) and the ``"game"`` key of its scenario files."""
    title: str
    """The game's name on the landing page and in messages."""
    package: str
    """The game's package, e.g. ``tutor.flamme_rouge``."""
    lessons: str
    """Its folder under ``lessons/``."""
    summary: str
    """One sentence on the landing page, under the title."""

    def module(self, name: str = "") -> ModuleType:
        """The game's package, or one of its modules (``entry.module("cli")``)."""
        return importlib.import_module(f"{self.package}.{name}" if name else self.package)


GAMES: dict[str, GameEntry] = {
    g.id: g
    for g in (
        GameEntry(
            "flamme-rouge",
            "Flamme Rouge",
            "tutor.flamme_rouge",
            "flamme_rouge",
            N_(
                "The cycling race card game: energy cards, blocking, slipstream and exhaustion, mountains, "
                "and the Peloton expansion."
            ),
        ),
        GameEntry(
            "flanders",
            "In Flanders Field",
            "tutor.flanders",
            "flanders",
            N_("Push your luck with three dice: take cards, advance across the battlefield, keep your troops."),
        ),
    )
}
"""Games by id, in the order the landing page lists them; the first is ``rules-tutor simulate``'s default."""

UNMARKED_SCENARIOS = "flamme-rouge"
"""The game of a scenario file without a ``"game"`` key: docs/scenario_format.md's format, older than the key. Every
other game's files name their game."""


def register(entry: GameEntry) -> GameEntry:
    """Add a game from outside this package (after the built-in ones); an id already taken raises ``ValueError``."""
    if entry.id in GAMES:
        raise ValueError(f"a game with the id {entry.id!r} is already registered ({GAMES[entry.id].title})")
    GAMES[entry.id] = entry
    return entry


def game(game_id: str) -> GameEntry:
    """The registered game of that id; an unknown id raises ``ValueError`` naming the known ones."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None


def scenario_game(data: dict[str, Any]) -> GameEntry:
    """The game a loaded scenario file is for: its ``"game"`` key, else ``UNMARKED_SCENARIOS``; an unknown or
    malformed key raises ``DataError``."""
    game_id = data.get("game", UNMARKED_SCENARIOS)
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise DataError(f"unknown game {str(game_id)[:40]!r} (known: {', '.join(GAMES)})")
    return GAMES[game_id]
