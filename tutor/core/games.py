"""The registry of games: what the command line, the landing page and the scenario checker dispatch on.

A game plugs in by adding one ``Game`` here (its package, where its lessons live)
and a ``cli`` module in its package with ``simulate(args)`` and ``check_file(data)``,
which ``rules-tutor simulate`` and ``rules-tutor check`` call. Modules are named, not
imported, so listing the games imports no engine.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from tutor.i18n import N_


@dataclass(frozen=True)
class Game:
    id: str
    """Command-line name and the ``"game"`` key of its scenario files."""
    title: str
    package: str
    """The game's package, e.g. ``tutor.flamme_rouge``."""
    lessons: str
    """Its folder under ``lessons/``."""
    summary: str

    def module(self, name: str = "") -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}" if name else self.package)


GAMES: dict[str, Game] = {g.id: g for g in (
    Game("flamme-rouge", "Flamme Rouge", "tutor.flamme_rouge", "flamme_rouge",
         N_("The cycling race card game: energy cards, blocking, slipstream and exhaustion, mountains, "
            "and the Peloton expansion.")),
    Game("flanders", "In Flanders Field", "tutor.flanders", "flanders",
         N_("Push your luck with three dice: take cards, advance across the battlefield, keep your troops.")),
)}
"""Games by id, in the order the landing page lists them."""


def game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
