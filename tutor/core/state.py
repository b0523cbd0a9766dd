"""Seeded game state with JSON round-trips, copies and undo.

A game's state class subclasses ``SeededState`` and writes ``_state_dict`` and
``_load_state``. Randomness comes only from ``self.rng`` (a ``random.Random``
kept in the state), so the same seed replays the same game, and ``to_dict``
captures the generator too. Actions call ``_save()`` once they have checked
that they are legal, so an illegal action changes nothing and ``undo()``
restores the state before the last legal one.

The history is the one undo system: a lesson widget groups a learner's click and
what follows it (the bots' replies, a whole round of steps) into one step with
``undo_step()`` (``tutor.ui.controller.UndoController`` does), so Back undoes what
the click did, and ``start_here()`` makes the state as it is the starting position.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Iterator, TypeVar

from .errors import WrongPhaseError

S = TypeVar("S", bound="SeededState")


def rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def set_rng_state(rng: random.Random, data: list[Any]) -> None:
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))


class SeededState:
    """Base class: a seeded ``random.Random`` and an optional undo history of ``to_dict`` snapshots."""

    def __init__(self, seed: int = 0, history: bool = True):
        self.rng = random.Random(seed)
        self._history: list[dict[str, Any]] | None = [] if history else None

    # ----- for subclasses ---------------------------------------------------------------------------------
    def _state_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def _load_state(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    @classmethod
    def _empty(cls: type[S], data: dict[str, Any]) -> S:
        """An instance ready for ``_load_state(data)``."""
        raise NotImplementedError

    # ----- undo -------------------------------------------------------------------------------------------
    def _save(self) -> None:
        if self._history is not None:
            self._history.append(self.to_dict(history=False))

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @contextmanager
    def undo_step(self) -> Iterator[None]:
        """Every action inside is one step of the history: ``undo()`` then returns to the state before the first
        of them. Turns the history on if it was off."""
        if self._history is None:
            self._history = []
        start = len(self._history)
        try:
            yield
        finally:
            del self._history[start + 1 :]  # the snapshot before the first action stands for them all

    def start_here(self) -> None:
        """Forget the history: the state as it is now is where ``undo()`` stops (it keeps the history on)."""
        self._history = []

    def undo(self) -> None:
        """Restore the state before the last action."""
        if not self._history:
            raise WrongPhaseError("nothing to undo")
        self._load(self._history.pop())

    # ----- JSON and copies --------------------------------------------------------------------------------
    def to_dict(self, history: bool = True) -> dict[str, Any]:
        data = self._state_dict()
        data["rng"] = rng_state(self.rng)
        if history:
            data["history"] = None if self._history is None else list(self._history)
        return data

    def _load(self, data: dict[str, Any]) -> None:
        self._load_state(data)
        set_rng_state(self.rng, data["rng"])

    def restore(self, data: dict[str, Any]) -> None:
        """Become the state ``data`` holds (a ``to_dict``), its undo history included."""
        self._history = None if data.get("history", []) is None else list(data.get("history") or [])
        self._load(data)

    @classmethod
    def from_dict(cls: type[S], data: dict[str, Any]) -> S:
        state = cls._empty(data)
        state.restore(data)
        return state

    def copy(self: S) -> S:
        return type(self).from_dict(self.to_dict())
