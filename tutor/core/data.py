"""Loading data files (cards, boards, tracks, scenarios) with clear errors.

Every problem raises the caller's ``DataError`` subclass with a message that
names the file and the entry: ``cards.json: cards[3] ('Tank'): unknown effect 'fly'``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from .errors import DataError


def load_json(path: str | Path, error: type[DataError] = DataError) -> Any:
    """Parse a UTF-8 JSON file; bad JSON or encoding raises ``error`` naming the file, line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None


def is_int(value: Any) -> TypeGuard[int]:
    """An integer that is not a bool (JSON ``true`` is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def reject_unknown_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str = "",
                        error: type[DataError] = DataError) -> None:
    allowed = sorted(allowed)
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise error(f"{where}unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")


def require_keys(data: Mapping[str, Any], required: Iterable[str], where: str = "",
                 error: type[DataError] = DataError) -> None:
    for key in required:
        if key not in data:
            raise error(f"{where}missing key {key!r}")


def positive_int(value: Any, where: str, error: type[DataError] = DataError) -> int:
    if not is_int(value) or value < 1:
        raise error(f"{where}: {value!r} is not a positive integer")
    return int(value)
