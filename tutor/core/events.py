"""Events: what an action did, as data.

Each event carries the rules it applied (``Rule`` references, never sentences to
split), whether the step was ``automatic`` (the player did not choose it), and the
squares, cards and riders involved in its own fields. Narration and drawing are
built from those fields.

Events are values: frozen dataclasses whose fields cannot change after the fact
(a list given to a field is kept as a tuple, a dict as a read-only mapping), so a
log, a narration and an animation holding the same event always agree.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Mapping

from tutor.i18n import _


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a rulebook, cited by events and lessons."""

    id: str
    """Short stable id, e.g. ``"fr.move.exact"``."""
    section_message: str
    """Rulebook section the rule belongs to, in English, e.g. ``"Movement phase"`` (the gettext message id)."""
    text_message: str
    """The rule in one plain English sentence (the gettext message id)."""
    decision: bool = False
    """True when the rulebook is silent and this is the tutor's decision (docs/rule_decisions.md)."""

    @property
    def section(self) -> str:
        """The section's name in the kernel's language (translated when read: rules are made at import)."""
        return _(self.section_message)

    @property
    def text(self) -> str:
        """The rule in the kernel's language."""
        return _(self.text_message)

    def __str__(self) -> str:
        return f"{self.section}: {self.text}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every game event."""

    rules: tuple[Rule, ...] = ()
    """The rules this event applied, most specific last."""
    automatic: bool = False
    """True for a step the rules make happen (a move, slipstream, a bot's flip), not a player's choice."""

    def __post_init__(self) -> None:
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if isinstance(value, dict):
                object.__setattr__(self, name, MappingProxyType(dict(value)))
            elif isinstance(value, list):
                object.__setattr__(self, name, tuple(value))

    @property
    def kind(self) -> str:
        return type(self).__name__

    @property
    def reason(self) -> str:
        """The rules as one readable sentence (for logs; narration composes its own text)."""
        return "; ".join(str(rule) for rule in self.rules)

    def cites(self, rule: Rule) -> bool:
        return rule in self.rules

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = [r.id for r in value] if f.name == "rules" else plain(value)
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


def plain(value: Any) -> Any:
    """JSON-ready form of an event field: enums by value, rules by id, other objects by ``str``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Rule):
        return value.id
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        return [plain(v) for v in value]
    return str(value)
