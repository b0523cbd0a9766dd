"""``rules-tutor`` support for Flamme Rouge: ``simulate`` and ``check`` (wired in ``tutor/cli.py``).

``simulate(args)`` reads ``args.stage``, ``args.teams``, ``args.bot``, ``args.races``, ``args.seed``,
``args.single_riders``, ``args.peloton``, ``args.muscle`` and ``args.breakaway``, and prints one line per race.
``check_file(data)`` checks a scenario already loaded from a file whose ``"game"`` is ``"flamme-rouge"`` (or
absent: the SCENARIOS.md format).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import scenario
from .simulate import simulate_race


def simulate(args: argparse.Namespace) -> int:
    """Play ``args.races`` bot races from ``args.seed`` on; 0 when done, 2 (and a message on stderr) on bad input."""
    for seed in range(args.seed, args.seed + args.races):
        try:
            result = simulate_race(args.stage, teams=args.teams, bot=args.bot, seed=seed,
                                   single_riders=args.single_riders, peloton=args.peloton, muscle=args.muscle,
                                   breakaway=args.breakaway)
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
