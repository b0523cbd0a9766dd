"""``rules-tutor`` support for Flamme Rouge: its ``simulate`` options, ``simulate`` and ``check`` (the registry's
``cli`` module, see ``tutor.core.games``).

``add_options(options)`` declares ``--stage``, ``--teams``, ``--bot``, ``--races``, ``--single-riders``,
``--peloton``, ``--muscle`` and ``--breakaway`` with their defaults.
``simulate(args)`` reads ``args.stage``, ``args.teams``, ``args.bot``, ``args.races``, ``args.seed``,
``args.single_riders``, ``args.peloton``, ``args.muscle`` and ``args.breakaway``, and prints one line per race.
``check_file(data)`` checks a scenario already loaded from a file whose ``"game"`` is ``"flamme-rouge"`` (or
absent: the format of docs/scenario_format.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.options import MAX_GAMES, Options, count
from . import scenario
from .simulate import simulate_race
from .track import STAGES, TEACHING_TRACKS


def add_options(options: Options) -> None:
    """Flamme Rouge's options of ``rules-tutor simulate``."""
    options.add_argument(
        "--stage", choices=[*STAGES, *TEACHING_TRACKS], default="avenue-corso-paseo", help="default: avenue-corso-paseo"
    )
    options.add_argument("--teams", type=int, default=4, help="default: 4")
    options.add_argument("--bot", choices=["heuristic", "random"], default="heuristic", help="default: heuristic")
    options.add_argument("--races", type=count(1, MAX_GAMES), default=1, help="default: 1")
    options.add_argument(
        "--single-riders", action="store_true", default=False, help="one rider per player (up to 12 players)"
    )
    options.add_argument("--peloton", action="store_true", default=False, help="add the Peloton bot team")
    options.add_argument("--muscle", type=int, default=0, help="number of Muscle bot teams (0-2)")
    options.add_argument(
        "--breakaway", action="store_true", default=False, help="bid for the breakaway before the race"
    )


def simulate(args: argparse.Namespace) -> int:
    """Play ``args.races`` bot races from ``args.seed`` on; 0 when done, 2 (and a message on stderr) on bad input."""
    for seed in range(args.seed, args.seed + args.races):
        try:
            result = simulate_race(
                args.stage,
                teams=args.teams,
                bot=args.bot,
                seed=seed,
                single_riders=args.single_riders,
                peloton=args.peloton,
                muscle=args.muscle,
                breakaway=args.breakaway,
            )
        except ValueError as exc:
            print(f"rules-tutor simulate: {exc}", file=sys.stderr)
            return 2
        print(f"seed {seed}: {result.winner} wins after {result.rounds} rounds")
    return 0


def check_file(data: dict[str, Any]) -> str | None:
    """None when the ``expect`` block holds (or, without one, the scenario is valid), else the first difference;
    a malformed scenario raises ``ScenarioError`` (a ``ValueError``) naming the key."""
    if "expect" in data:
        return scenario.check(data)
    scenario.build(data)
    return None
