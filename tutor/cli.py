"""The ``rules-tutor`` command: check scenario files, simulate games, serve the lessons.

Several games: ``check`` reads each file's ``"game"`` key (absent: Flamme Rouge, the
SCENARIOS.md format) and ``simulate --game`` picks the game (default: flamme-rouge).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from .core.check import check_scenario
from .core.data import load_json
from .core.games import GAMES
from .flamme_rouge import STAGES, TEACHING_TRACKS
from .languages import add_arguments as add_language_arguments
from .languages import run as check_languages
from .serve import CLASS_MARGIN, DEFAULT_PORT, MAX_CLASS_SIZE, cmd_serve

MAX_GAMES = 1_000_000
"""Most races (or games) one ``simulate`` plays."""


def check_file(path: str) -> tuple[bool, str | None]:
    """(has an expect block, first difference or None) for one scenario file of any game (``core.check``, the
    same check as the workbenches' "Check a file"). A malformed file raises a ``DataError`` (a ``ValueError``)."""
    return check_scenario(load_json(path))


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0 when every scenario passes, 1 when one fails, 2 when one is malformed."""
    status = 0
    for path in args.files:
        try:
            checked, difference = check_file(path)
        except (ValueError, OSError) as exc:  # DataError, or a rule the position breaks
            message = str(exc).removeprefix(f"{path}: ")
            print(f"{path}: malformed: {message}", file=sys.stderr)
            status = 2
            continue
        if not checked:
            print(f"{path}: no expect block, nothing to check (the scenario itself is valid)")
        elif difference is None:
            print(f"{path}: pass")
        else:
            print(f"{path}: FAIL: {difference}")
            status = max(status, 1)
    return status


FLAMME_ROUGE_OPTIONS: dict[str, object] = {"stage": "avenue-corso-paseo", "teams": 4, "bot": "heuristic",
                                           "races": 1, "single_riders": False, "peloton": False, "muscle": 0,
                                           "breakaway": False}
FLANDERS_OPTIONS: dict[str, object] = {"players": 3, "bots": None, "games": 1}
"""``simulate``'s options of each game, with their defaults: an option of the other game is refused."""


def _game_options(args: argparse.Namespace) -> str | None:
    """Fill in the defaults of ``args.game``'s options; the refusal when an option of the other game is given."""
    own, other = ((FLAMME_ROUGE_OPTIONS, FLANDERS_OPTIONS) if args.game == "flamme-rouge"
                  else (FLANDERS_OPTIONS, FLAMME_ROUGE_OPTIONS))
    given = [name for name in other if getattr(args, name) is not None]
    if given:
        option = "--" + given[0].replace("_", "-")
        return f"{option} is not an option of {GAMES[args.game].title} (--game {args.game})"
    for name, default in own.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    return None


def cmd_simulate(args: argparse.Namespace) -> int:
    refused = _game_options(args)
    if refused:
        print(f"rules-tutor simulate: {refused}", file=sys.stderr)
        return 2
    return int(GAMES[args.game].module("cli").simulate(args))


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rules-tutor", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="check scenario files against their expect block")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(run=cmd_check)

    simulate = sub.add_parser("simulate", help="play whole races of bots and print the winners")
    simulate.add_argument("--game", default="flamme-rouge", choices=list(GAMES))
    simulate.add_argument("--seed", type=count(-(2 ** 63), 2 ** 63), default=0)
    flamme_rouge = simulate.add_argument_group("Flamme Rouge (the default game)")
    flamme_rouge.add_argument("--stage", choices=[*STAGES, *TEACHING_TRACKS], help="default: avenue-corso-paseo")
    flamme_rouge.add_argument("--teams", type=int, help="default: 4")
    flamme_rouge.add_argument("--bot", choices=["heuristic", "random"], help="default: heuristic")
    flamme_rouge.add_argument("--races", type=count(1, MAX_GAMES), help="default: 1")
    flamme_rouge.add_argument("--single-riders", action="store_true", default=None,
                              help="one rider per player (up to 12 players)")
    flamme_rouge.add_argument("--peloton", action="store_true", default=None, help="add the Peloton bot team")
    flamme_rouge.add_argument("--muscle", type=int, help="number of Muscle bot teams (0-2)")
    flamme_rouge.add_argument("--breakaway", action="store_true", default=None,
                              help="bid for the breakaway before the race")
    flanders = simulate.add_argument_group("In Flanders Field (--game flanders)")
    flanders.add_argument("--players", type=int, help="default: 3")
    flanders.add_argument("--bots", help="comma-separated bot names, one per player")
    flanders.add_argument("--games", type=count(1, MAX_GAMES), help="default: 1")
    simulate.set_defaults(run=cmd_simulate)

    serve = sub.add_parser("serve", help="serve the lessons with Voila")
    serve.add_argument("directory", nargs="?", help="lessons folder (default: ./lessons)")
    serve.add_argument("--port", type=count(1, 65535), default=DEFAULT_PORT)
    serve.add_argument("--open", action="store_true", help="open a browser tab")
    serve.add_argument("--ip", help="address to listen on (default: this machine only; 0.0.0.0 to serve a "
                                    "classroom network)")
    serve.add_argument("--class-size", type=count(0, MAX_CLASS_SIZE), default=0,
                       help="learners at once: preheat kernels for each --lesson, turn away beyond class size + "
                            f"{CLASS_MARGIN}")
    serve.add_argument("--lesson", action="append", default=[], metavar="NOTEBOOK",
                       help="lesson the class opens together, relative to the lessons folder (repeatable)")
    serve.add_argument("--class-db", metavar="FILE",
                       help="with --class-size: the class's results file (default: "
                            "~/.local/share/rules-tutor/class.sqlite3)")
    serve.set_defaults(run=cmd_serve)

    languages = sub.add_parser("languages", help="after translating: update the catalogs, report what is left")
    add_language_arguments(languages)
    languages.set_defaults(run=check_languages)

    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        print(f"rules-tutor {args.command}: stopped (Ctrl+C)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
