"""The ``rules-tutor`` command: check scenario files, simulate games, serve the lessons.

Every game of the registry (``tutor.core.games``): ``check`` reads each file's ``"game"`` key (absent: the
docs/scenario_format.md format, ``UNMARKED_SCENARIOS``), ``simulate --game`` picks the game (default: the first)
and offers the options each game's ``cli.add_options`` declares.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

from .core.check import check_scenario
from .core.data import load_json
from .core.games import GAMES, GameEntry
from .core.options import count
from .i18n.catalogs import add_arguments as add_language_arguments
from .i18n.catalogs import run as check_languages
from .server.class_mode import CLASS_MARGIN, MAX_CLASS_SIZE
from .server.command import cmd_serve
from .server.process import DEFAULT_PORT


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


class GameOptions:
    """The games' ``simulate`` options on one parser, each game's in its own group (its ``cli.add_options``).

    An option two games declare is one option (the first game's type and help) with each game's own default; an
    option given that the chosen game does not declare is refused (``refusal``)."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        self.actions: dict[str, argparse.Action] = {}
        """Every game's options, by their first flag."""
        self.defaults: dict[str, dict[str, object]] = {}
        """Each game's options (by ``dest``) with its defaults."""

    def add_game(self, entry: GameEntry, title: str) -> None:
        self.defaults[entry.id] = {}
        entry.module("cli").add_options(_GameGroup(self, entry.id, self.parser.add_argument_group(title)))

    def refusal(self, args: argparse.Namespace) -> str | None:
        """Fill in the defaults of ``args.game``'s options; the refusal when an option it does not have is given."""
        own = self.defaults[args.game]
        for flag, action in self.actions.items():
            if action.dest not in own and getattr(args, action.dest) is not None:
                return f"{flag} is not an option of {GAMES[args.game].title} (--game {args.game})"
        for name, default in own.items():
            if getattr(args, name) is None:
                setattr(args, name, default)
        return None


class _GameGroup:
    """The ``Options`` a game's ``add_options`` gets: its options go to its group, their defaults to
    ``GameOptions.defaults`` (on the parser every default is None: "not given")."""

    def __init__(self, table: GameOptions, game_id: str, group: argparse._ArgumentGroup) -> None:
        self.table, self.game_id, self.group = table, game_id, group

    def add_argument(self, *flags: str, **kwargs: Any) -> argparse.Action:
        default = kwargs.pop("default", None)
        shared = next((self.table.actions[flag] for flag in flags if flag in self.table.actions), None)
        action = shared or self.group.add_argument(*flags, default=None, **kwargs)
        self.table.actions.setdefault(action.option_strings[0], action)
        self.table.defaults[self.game_id][action.dest] = default
        return action


def cmd_simulate(options: GameOptions, args: argparse.Namespace) -> int:
    refused = options.refusal(args)
    if refused:
        print(f"rules-tutor simulate: {refused}", file=sys.stderr)
        return 2
    return int(GAMES[args.game].module("cli").simulate(args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rules-tutor", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="check scenario files against their expect block")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(run=cmd_check)

    simulate = sub.add_parser("simulate", help="play whole games of bots and print the winners")
    default_game = next(iter(GAMES))
    simulate.add_argument("--game", default=default_game, choices=list(GAMES), help=f"default: {default_game}")
    simulate.add_argument("--seed", type=count(-(2**63), 2**63), default=0)
    options = GameOptions(simulate)
    for entry in GAMES.values():
        options.add_game(
            entry,
            f"{entry.title} (the default game)" if entry.id == default_game else f"{entry.title} (--game {entry.id})",
        )
    simulate.set_defaults(run=functools.partial(cmd_simulate, options))

    serve = sub.add_parser("serve", help="serve the lessons with Voila")
    serve.add_argument("directory", nargs="?", help="lessons folder (default: ./lessons)")
    serve.add_argument("--port", type=count(1, 65535), default=DEFAULT_PORT)
    serve.add_argument("--open", action="store_true", help="open a browser tab")
    serve.add_argument(
        "--ip", help="address to listen on (default: this machine only; 0.0.0.0 to serve a classroom network)"
    )
    serve.add_argument(
        "--class-size",
        type=count(0, MAX_CLASS_SIZE),
        default=0,
        help=f"learners at once: preheat kernels for each --lesson, turn away beyond class size + {CLASS_MARGIN}",
    )
    serve.add_argument(
        "--lesson",
        action="append",
        default=[],
        metavar="NOTEBOOK",
        help="lesson the class opens together, relative to the lessons folder (repeatable)",
    )
    serve.add_argument(
        "--class-db",
        metavar="FILE",
        help="with --class-size: the class's results file (default: ~/.local/share/rules-tutor/class.sqlite3)",
    )
    serve.add_argument(
        "--no-next-lesson",
        action="store_true",
        help="without --class-size: do not keep the lesson after the open one ready (one kernel "
        "less; Next then waits for its kernel)",
    )
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
