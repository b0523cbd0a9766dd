"""``rules-tutor`` support for In Flanders Field: its ``simulate`` options, ``simulate`` and ``check`` (the
registry's ``cli`` module, see ``tutor.core.games``).

``add_options(options)`` declares ``--players``, ``--bots`` and ``--games`` with their defaults.
``simulate(args)`` reads ``args.players``, ``args.bots`` (comma-separated bot
names, one for everybody or one per player; None for the default), ``args.seed``
and ``args.games``, and prints one line per game. ``check_file(data)`` checks a
scenario already loaded from a file whose ``"game"`` is ``"flanders"``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.options import MAX_GAMES, Options, count
from . import scenario
from .simulate import GameResult, bot_names, simulate_game


def add_options(options: Options) -> None:
    """In Flanders Field's options of ``rules-tutor simulate``."""
    options.add_argument("--players", type=int, default=3, help="default: 3")
    options.add_argument("--bots", default=None, help="comma-separated bot names, one per player")
    options.add_argument("--games", type=count(1, MAX_GAMES), default=1, help="default: 1")


def describe(seed: int, result: GameResult) -> str:
    """``seed 0: p1 wins after 23 turns (troops: p1 5, p2 3, p3 0)``."""
    winners = result.winners
    who = f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} share the win"
    troops = ", ".join(f"{pid} {n}" for pid, n in result.troops.items())
    return f"seed {seed}: {who} after {result.turns} turns (troops: {troops})"


def simulate(args: argparse.Namespace) -> int:
    """Play ``args.games`` bot games from ``args.seed`` on; 0 when done, 2 (and a message on stderr) on bad input."""
    players = getattr(args, "players", 3)
    bots = getattr(args, "bots", None)
    seed = getattr(args, "seed", 0)
    games = getattr(args, "games", 1)
    for name, value in (("--players", players), ("--seed", seed), ("--games", games)):
        if not isinstance(value, int) or isinstance(value, bool):
            print(f"rules-tutor simulate: {name} must be an integer, not {value!r}", file=sys.stderr)
            return 2
    if not 2 <= players <= 4:
        print(f"rules-tutor simulate: In Flanders Field is for 2 to 4 players, not {players}", file=sys.stderr)
        return 2
    if games < 1:
        print(f"rules-tutor simulate: --games must be at least 1, not {games}", file=sys.stderr)
        return 2
    try:
        bot_names(players, bots)  # checks the bot names before any game is played
    except ValueError as exc:
        print(f"rules-tutor simulate: {exc}", file=sys.stderr)
        return 2
    for s in range(seed, seed + games):
        print(describe(s, simulate_game(players, bots, s)))
    return 0


def check_file(data: dict[str, Any]) -> str | None:
    """None when the scenario's ``expect`` block holds (or it has none and is valid), else the first difference.

    A malformed scenario raises ``ScenarioError`` (a ``ValueError``) naming the key.
    """
    if "expect" not in data:
        scenario.run(data)
        return None
    return scenario.check(data)
