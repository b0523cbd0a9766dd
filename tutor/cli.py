"""The ``rules-tutor`` command: check scenario files, simulate games, serve the lessons.

Several games: ``check`` reads each file's ``"game"`` key (absent: Flamme Rouge, the
SCENARIOS.md format) and ``simulate --game`` picks the game (default: flamme-rouge).
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from .core.data import load_json
from .core.errors import DataError
from .core.games import GAMES
from .flamme_rouge import STAGES, TEACHING_TRACKS, simulate_race
from .flamme_rouge import scenario as scenarios
from .serve import DEFAULT_PORT, cmd_serve


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0 when every scenario passes, 1 when one fails, 2 when one is malformed."""
    status = 0
    for path in args.files:
        try:
            data = load_json(path)
            game = data.get("game", "flamme-rouge") if isinstance(data, dict) else "flamme-rouge"
            if game not in GAMES:
                raise DataError(f"{path}: unknown game {game!r} (known: {', '.join(GAMES)})")
            if game == "flamme-rouge":
                data = scenarios.load(path)
                if "expect" not in data:
                    scenarios.build(data)
                    print(f"{path}: no expect block, nothing to check (the scenario itself is valid)")
                    continue
                difference = scenarios.check(data)
            else:
                if "expect" not in data:
                    GAMES[game].module("cli").check_file(data)
                    print(f"{path}: no expect block, nothing to check (the scenario itself is valid)")
                    continue
                difference = GAMES[game].module("cli").check_file(data)
        except (DataError, OSError) as exc:
            print(f"{path}: malformed: {exc}", file=sys.stderr)
            status = 2
            continue
        if difference is None:
            print(f"{path}: pass")
        else:
            print(f"{path}: FAIL: {difference}")
            status = max(status, 1)
    return status


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.game != "flamme-rouge":
        return int(GAMES[args.game].module("cli").simulate(args))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rules-tutor", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="check scenario files against their expect block")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(run=cmd_check)

    simulate = sub.add_parser("simulate", help="play whole races of bots and print the winners")
    simulate.add_argument("--stage", default="avenue-corso-paseo", choices=[*STAGES, *TEACHING_TRACKS])
    simulate.add_argument("--teams", type=int, default=4)
    simulate.add_argument("--bot", default="heuristic", choices=["heuristic", "random"])
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--races", type=int, default=1)
    simulate.add_argument("--single-riders", action="store_true", help="one rider per player (up to 12 players)")
    simulate.add_argument("--peloton", action="store_true", help="add the Peloton bot team")
    simulate.add_argument("--muscle", type=int, default=0, help="number of Muscle bot teams (0-2)")
    simulate.add_argument("--breakaway", action="store_true", help="bid for the breakaway before the race")
    simulate.add_argument("--game", default="flamme-rouge", choices=list(GAMES))
    flanders = simulate.add_argument_group("In Flanders Field (--game flanders)")
    flanders.add_argument("--players", type=int, default=3)
    flanders.add_argument("--bots", default=None, help="comma-separated bot names, one per player")
    flanders.add_argument("--games", type=int, default=1)
    simulate.set_defaults(run=cmd_simulate)

    serve = sub.add_parser("serve", help="serve the lessons with Voila")
    serve.add_argument("directory", nargs="?", help="lessons folder (default: ./lessons)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT)
    serve.add_argument("--open", action="store_true", help="open a browser tab")
    serve.add_argument("--ip", help="address to listen on (default: this machine only; 0.0.0.0 to serve a "
                                    "classroom network)")
    serve.add_argument("--class-size", type=int, default=0,
                       help="learners at once: preheat kernels for each --lesson, turn away beyond class size + 2")
    serve.add_argument("--lesson", action="append", default=[], metavar="NOTEBOOK",
                       help="lesson the class opens together, relative to the lessons folder (repeatable)")
    serve.set_defaults(run=cmd_serve)

    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
