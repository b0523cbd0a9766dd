"""What no game owns: errors, events that carry their rules, seeded state with undo, data loading, the registry.

A game package (``tutor.flamme_rouge``, ``tutor.flanders``) builds its engine on these
and registers itself in ``tutor.core.games``. Nothing here imports a game or a UI library.
"""

from .errors import DataError, RuleError, TutorError, WrongPhaseError
from .events import Event, Rule
from .state import SeededState

__all__ = ["DataError", "RuleError", "TutorError", "WrongPhaseError", "Event", "Rule", "SeededState"]
