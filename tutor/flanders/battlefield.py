"""The battlefield: the spaces a pawn crosses from its starting line to the Objective line.

The rulebook describes the map only through its rules (starting lines,
defensive lines, the Objective line), so the tutor ships an illustrative map as
data, ``data/battlefield.json``, which a teacher can replace with their
edition's. Every player's pawn crosses its own sector; in this map every sector
has the same spaces, so a pawn's position is one ``int``: 0 is the starting
line, ``objective`` the Objective line.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from tutor.core.data import load_json, reject_unknown_keys, require_keys
from tutor.i18n import _

from .errors import BoardDataError

_FILE_KEYS = ("_doc", "description", "name", "spaces")
_SPACE_KEYS = ("name", "kind")


class SpaceKind(enum.Enum):
    START = "start"
    """The starting line (space 0)."""
    OPEN = "open"
    DEFENSIVE = "defensive"
    """A defensive line: a pawn that moves into it stops, unless a Tank or Mines card lets it go on."""
    OBJECTIVE = "objective"
    """The Objective line (the last space)."""


@dataclass(frozen=True, slots=True)
class Space:
    name: str
    """What the lesson calls it, e.g. ``"German wire"``."""
    kind: SpaceKind


@dataclass(frozen=True)
class Battlefield:
    name: str
    spaces: tuple[Space, ...]
    """Space 0 is the starting line; the last space is the Objective line."""
    description: str = ""

    @property
    def objective(self) -> int:
        return len(self.spaces) - 1

    @cached_property
    def lines(self) -> tuple[bool, ...]:
        """``lines[i]`` is True when space ``i`` is a defensive line."""
        return tuple(s.kind is SpaceKind.DEFENSIVE for s in self.spaces)

    @cached_property
    def _dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "spaces": [{"name": s.name, "kind": s.kind.value} for s in self.spaces],
        }

    def to_dict(self) -> dict[str, Any]:
        """The file format (shared, never mutate it)."""
        return self._dict

    @classmethod
    def from_dict(cls, data: Any, source: str = "battlefield") -> Battlefield:
        where = f"{source}: "
        if not isinstance(data, Mapping):
            raise BoardDataError(_("{where}a battlefield is a JSON object with 'spaces'").format(where=where))
        reject_unknown_keys(data, _FILE_KEYS, where, BoardDataError)
        require_keys(data, ("spaces",), where, BoardDataError)
        entries = data["spaces"]
        if not isinstance(entries, list) or len(entries) < 2:
            raise BoardDataError(
                _("{where}'spaces' must be a list of at least 2 spaces (start ... objective)").format(where=where)
            )
        spaces: list[Space] = []
        for i, entry in enumerate(entries):
            label = f"{where}spaces[{i}]: "
            if not isinstance(entry, dict):
                raise BoardDataError(_("{where}a space is an object with name and kind").format(where=label))
            reject_unknown_keys(entry, _SPACE_KEYS, label, BoardDataError)
            require_keys(entry, ("kind",), label, BoardDataError)
            try:
                kind = SpaceKind(entry["kind"])
            except ValueError:
                known = ", ".join(k.value for k in SpaceKind)
                raise BoardDataError(
                    _("{where}unknown kind {kind} (known: {known})").format(
                        where=label, kind=repr(entry["kind"]), known=known
                    )
                ) from None
            name = entry.get("name", kind.value)
            if not isinstance(name, str):
                raise BoardDataError(_("{where}'name' must be a string").format(where=label))
            spaces.append(Space(name, kind))
        kinds = [s.kind for s in spaces]
        if SpaceKind.OBJECTIVE not in kinds:
            raise BoardDataError(
                _("{where}no space has kind 'objective': the map needs an Objective line as its last space").format(
                    where=where
                )
            )
        if kinds.count(SpaceKind.OBJECTIVE) > 1 or kinds[-1] is not SpaceKind.OBJECTIVE:
            i = kinds.index(SpaceKind.OBJECTIVE)
            raise BoardDataError(
                _("{where}: the Objective line must be the last space, and the only one").format(
                    where=f"{where}spaces[{i}]"
                )
            )
        if kinds[0] is not SpaceKind.START or kinds.count(SpaceKind.START) > 1:
            raise BoardDataError(
                _("{where}: the first space must be the starting line (kind 'start'), and the only one").format(
                    where=f"{where}spaces[0]"
                )
            )
        description = data.get("description", data.get("_doc", ""))
        if isinstance(description, list):
            description = " ".join(str(line) for line in description)
        name = data.get("name", source)
        if not isinstance(name, str) or not isinstance(description, str):
            raise BoardDataError(_("{where}'name' and 'description' must be strings").format(where=where))
        return cls(name, tuple(spaces), description)


DATA = resources.files(__package__) / "data"
"""Where the tutor's battlefield file is (a teacher may replace ``battlefield.json`` there)."""


def load_battlefield(path: str | Path | None = None) -> Battlefield:
    """Load and validate a battlefield file (default: the tutor's illustrative ``data/battlefield.json``)."""
    if path is None:
        with resources.as_file(DATA / "battlefield.json") as default:
            return Battlefield.from_dict(load_json(default, BoardDataError), "battlefield.json")
    path = Path(path)
    return Battlefield.from_dict(load_json(path, BoardDataError), path.name)
