"""Games per second of In Flanders Field bot games (2, 3 and 4 players). A script, not a test.

python benchmarks/bench_flanders.py [--games N] [--bots NAMES]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.flanders import simulate_game  # noqa: E402


def games_per_second(players: int, games: int, bots: str | None) -> tuple[float, float]:
    """(games per second, mean turns per game) over ``games`` seeded games."""
    if bots is not None:  # cycle the names over the players: "cautious,bold" -> cautious, bold, cautious
        names = bots.split(",")
        bots = ",".join(names[i % len(names)] for i in range(players))
    start = time.perf_counter()
    turns = 0
    for seed in range(games):
        turns += simulate_game(players, bots, seed).turns
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument(
        "--bots", default=None, help="comma-separated bot names, cycled over the players (default: threshold)"
    )
    args = parser.parse_args()
    games_per_second(3, 1, args.bots)  # warm up (loads the data files)
    for players in (2, 3, 4):
        rate, turns = games_per_second(players, args.games, args.bots)
        print(f"{players} players: {rate:8.0f} games/s  ({turns:.1f} turns per game, {args.games} games)")


if __name__ == "__main__":
    main()
