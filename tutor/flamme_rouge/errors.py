"""Errors raised by the Flamme Rouge engine (the shared family of ``tutor.core.errors``).

All are ``ValueError`` subclasses whose message names the rider, card or square
that was wrong. An action that raises leaves the race unchanged.
"""

from tutor.core import errors as core
from tutor.core.errors import DataError, RuleError, WrongPhaseError

__all__ = [
    "RuleError",
    "WrongPhaseError",
    "UnknownRiderError",
    "CardNotInHandError",
    "RiderOrderError",
    "PlacementError",
    "DeckError",
    "UnknownTeamError",
    "TrackError",
    "ScenarioError",
    "CodeVersionError",
]


class UnknownRiderError(RuleError):
    """No rider with this id is in the race."""


class CardNotInHandError(RuleError):
    """The card to play is not among the cards the rider drew."""


class RiderOrderError(RuleError):
    """A team draws for its second rider before playing for its first, or draws twice."""


class DeckError(RuleError):
    """A deck stacked (``Race.stack_deck``) with a card its rider cannot hold, or at a time it cannot be."""


class UnknownTeamError(RuleError):
    """No team of this name is in the race, or no bot of this name plays."""


class PlacementError(RuleError):
    """A start placement on a taken lane, outside the start area, or out of turn."""


class TrackError(DataError):
    """A malformed track description (unknown tile, bad token, bad lane count)."""


class ScenarioError(DataError):
    """A malformed scenario: bad key, rider, square, lane or card."""


class CodeVersionError(ScenarioError, core.CodeVersionError):
    """A position code of another version than this tutor's (an older one: ask for a new code; a newer one:
    update the tutor). Both a ``ScenarioError`` and the shared ``tutor.core.errors.CodeVersionError``."""
