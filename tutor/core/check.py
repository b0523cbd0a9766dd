"""Checking a teacher's scenario file, for ``rules-tutor check`` and the workbenches' "Check a file".

``check_scenario(data)`` reads the file's ``"game"`` (absent: ``games.UNMARKED_SCENARIOS``) and runs that game's
``cli.check_file``: (has an expect block, first difference or None). ``check_upload(content, name)`` reads an
upload with the limits of ``tutor.core.schema`` (size first, then depth, numbers, duplicate keys) and tells
the result in one sentence a teacher reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.i18n import _

from .errors import DataError
from .games import scenario_game
from .schema import parse_json


def check_scenario(data: Any) -> tuple[bool, str | None]:
    """(has an expect block, first difference or None); a malformed scenario raises a ``ValueError``."""
    if not isinstance(data, dict):
        raise DataError(_("a scenario is a JSON object, not {kind}").format(kind=type(data).__name__))
    return "expect" in data, scenario_game(data).module("cli").check_file(data)


@dataclass(frozen=True)
class CheckResult:
    verdict: str
    """``"pass"``, ``"fail"``, ``"no expect"`` or ``"malformed"`` (``rules-tutor check``'s four outcomes)."""
    sentence: str


def check_upload(content: bytes, name: str) -> CheckResult:
    """The check of an uploaded file, in words (never raises for bad content)."""
    try:
        data = parse_json(content, name, DataError)
        checked, difference = check_scenario(data)
    except (ValueError, RecursionError) as exc:
        message = str(exc).removeprefix(f"{name}: ")
        return CheckResult(
            "malformed",
            _("{file} cannot be used: {problem}. Fix it and choose it again.").format(file=name, problem=message),
        )
    game = scenario_game(data).title
    if not checked:
        return CheckResult(
            "no expect",
            _('{file} is a valid {game} position, but it has no expected answer (an "expect" block) to check.').format(
                file=name, game=game
            ),
        )
    if difference is None:
        return CheckResult(
            "pass",
            _("{file} passes: the rules of {game} give the answer written in the file.").format(file=name, game=game),
        )
    return CheckResult(
        "fail",
        _("{file} does not pass: the rules give another answer. {difference}").format(file=name, difference=difference),
    )
