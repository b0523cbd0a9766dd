"""Count to Ten's part of ``rules-tutor``: its ``simulate`` options, ``simulate`` and ``check_file``.

A scenario file: ``{"game": "count-to-ten", "players": 2, "total": 7, "adds": [1, 2], "expect": {"total": 10,
"winner": 1}}``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tutor.core.errors import DataError
from tutor.core.options import MAX_GAMES, Options, count

from .engine import CountGame


def add_options(options: Options) -> None:
    options.add_argument("--players", type=int, default=2, help="default: 2")  # shared with In Flanders Field
    options.add_argument("--games", type=count(1, MAX_GAMES), default=1, help="default: 1")
    options.add_argument("--start", type=count(0, 9), default=0, help="the total to start from (default: 0)")


def simulate(args: argparse.Namespace) -> int:
    for seed in range(args.seed, args.seed + args.games):
        try:
            game = CountGame(players=args.players, total=args.start, seed=seed)
        except ValueError as exc:
            print(f"rules-tutor simulate: {exc}", file=sys.stderr)
            return 2
        while game.winner is None:
            game.bot_add()
        print(f"seed {seed}: player {game.winner + 1} says ten")
    return 0


def check_file(data: dict[str, Any]) -> str | None:
    adds = data.get("adds", [])
    if not isinstance(adds, list) or not all(isinstance(n, int) for n in adds):
        raise DataError("adds: a list of whole numbers")
    try:
        game = CountGame(players=data.get("players", 2), total=data.get("total", 0))
        for amount in adds:
            game.add(amount)
    except ValueError as exc:
        raise DataError(str(exc)) from exc
    got = {"total": game.total, "winner": game.winner}
    for key, expected in data.get("expect", {}).items():
        if got.get(key) != expected:
            return f"{key}: expected {expected!r}, got {got.get(key)!r}"
    return None
