"""Loading data files (cards, boards, tracks, scenarios) with clear errors.

Every problem raises the caller's ``DataError`` subclass with a message that
names the file and the entry: ``cards.json: cards[3] ('Tank'): unknown effect 'fly'``. Files are read
within the limits of ``tutor.core.schema`` (size, nesting, number length).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from tutor.i18n import _

from .errors import DataError
from .schema import load_json

__all__ = ["load_json", "is_int", "reject_unknown_keys", "require_keys", "positive_int"]


def is_int(value: Any) -> TypeGuard[int]:
    """An integer that is not a bool (JSON ``true`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def reject_unknown_keys(
    data: Mapping[str, Any], allowed: Iterable[str], where: str = "", error: type[DataError] = DataError
) -> None:
    allowed = sorted(allowed)
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise error(
            _("{where}unknown key {key} (allowed: {allowed})").format(
                where=where, key=repr(unknown[0]), allowed=", ".join(allowed)
            )
        )


def require_keys(
    data: Mapping[str, Any], required: Iterable[str], where: str = "", error: type[DataError] = DataError
) -> None:
    for key in required:
        if key not in data:
            raise error(_("{where}missing key {key}").format(where=where, key=repr(key)))


def positive_int(value: Any, where: str, error: type[DataError] = DataError) -> int:
    if not is_int(value) or value < 1:
        raise error(_("{where}: {value} is not a positive integer").format(where=where, value=repr(value)))
    return int(value)


def first_difference(
    expect: Mapping[str, Any], result: Mapping[str, Any], keys: Iterable[str], *, partial: bool
) -> str | None:
    """How a scenario's result first differs from its ``expect`` block, key by key in ``keys`` (a key ``expect``
    leaves out is not checked), or None. Objects are compared entry by entry; with ``partial`` only the entries
    ``expect`` names count (docs/scenario_format.md and docs/flanders_scenarios.md say which)."""
    for key in keys:
        if key not in expect or expect[key] == result[key]:
            continue
        want, got = expect[key], result[key]
        if isinstance(want, dict) and isinstance(got, dict):
            names = list(want) if partial else list(want) + [k for k in got if k not in want]
            for name in names:
                if want.get(name) != got.get(name):
                    return f"{key}: {name} expected {json.dumps(want.get(name))}, got {json.dumps(got.get(name))}"
            if partial:
                continue
        return f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}"
    return None
