"""The error family of every game. All are ``ValueError`` subclasses whose message says what was wrong.

An action that raises a ``RuleError`` leaves the game state unchanged.
"""


class TutorError(ValueError):
    """Base of every error the tutor raises on bad input."""


class RuleError(TutorError):
    """An action the rules do not allow at this point of the game."""


class WrongPhaseError(RuleError):
    """The action belongs to another phase, or there is nothing to undo."""


class DataError(TutorError):
    """A malformed data file (cards, board, track, scenario): the message names the file and the entry."""


class CodeVersionError(DataError):
    """A position code of another version than the one this tutor writes (``tutor.core.bits.refuse_other_version``):
    the message says what to do (ask for a new code, or update the tutor)."""
