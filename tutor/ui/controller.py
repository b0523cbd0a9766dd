"""Act and Back for a lesson widget, over the game state's own undo history (``tutor.core.state``).

Every game's tutor widget runs a learner's click through ``act``: the engine action
and what follows it (the bots' replies, the narration, the board) form one step of
the state's history, so Back (``back``) restores the position before the click. A
refused action (a ``RuleError``) is told by ``warn`` and changes nothing. There is
no stack of snapshots in the widget: the state is the only undo system.

    controller = UndoController(lambda: self.race, self._warn)
    events = controller.act(lambda: self.race.play(rider, card), then=self._after)  # None: refused
    if controller.back("Nothing to undo: this is the starting position."):
        self._show(...)
"""

from __future__ import annotations

from typing import Callable, TypeVar

from tutor.core.errors import RuleError
from tutor.core.state import SeededState
from tutor.i18n import _

T = TypeVar("T")


class UndoController:
    """``act`` and ``back`` for the state ``state()`` returns (a widget may replace its state on Restart)."""

    def __init__(self, state: Callable[[], SeededState | None], warn: Callable[[str], None]) -> None:
        self._state = state
        self._warn = warn

    @property
    def can_back(self) -> bool:
        state = self._state()
        return state is not None and state.can_undo

    def act(self, action: Callable[[], T], then: Callable[[T], None] | None = None) -> T | None:
        """Run ``action``, then ``then(its result)``, as one step of the state's history, and return the result.
        A ``RuleError`` from ``action`` is shown as "Not allowed: ..." and ``then`` does not run (None)."""
        state = self._state()
        assert state is not None, "act needs a state"
        with state.undo_step():
            try:
                result = action()
            except RuleError as err:
                self._warn(_("Not allowed: {reason}.").format(reason=err))
                return None
            if then is not None:
                then(result)
        return result

    def back(self, nothing: str) -> bool:
        """Undo the last step; when there is none, ``warn(nothing)`` and return False."""
        state = self._state()
        if state is None or not state.can_undo:
            self._warn(nothing)
            return False
        state.undo()
        return True

    def start_here(self) -> None:
        """The state as it is now is the starting position: Back stops here."""
        state = self._state()
        if state is not None:
            state.start_here()
