"""Errors raised by the In Flanders Field engine.

All are ``ValueError`` subclasses (through ``tutor.core.errors``) whose message
quotes the space, card or key that was wrong. An action that raises a
``RuleError`` leaves the game unchanged.
"""

from __future__ import annotations

from tutor.core import errors as core
from tutor.core.errors import DataError, RuleError, WrongPhaseError

__all__ = [
    "RuleError",
    "WrongPhaseError",
    "DiceError",
    "SpaceNotAvailableError",
    "CardNotHeldError",
    "IllegalMoveError",
    "RetainError",
    "CardDataError",
    "BoardDataError",
    "ScenarioError",
    "CodeVersionError",
]


class DiceError(RuleError):
    """Given (loaded) dice that are not three values from 1 to 6."""


class SpaceNotAvailableError(RuleError):
    """``take`` names a space that no pair of the dice reaches, or whose card is gone this turn."""


class CardNotHeldError(RuleError):
    """``play`` or ``end_turn`` names a card the player does not hold, or has already used this turn."""


class IllegalMoveError(RuleError):
    """A card played for more spaces than it allows, or through a defensive line without a Tank or Mines."""


class RetainError(RuleError):
    """``end_turn`` keeps a card that is not "May Retain" (or is German, or was used)."""


class CardDataError(DataError):
    """A malformed card set file (``cards.json``)."""


class BoardDataError(DataError):
    """A malformed battlefield file (``battlefield.json``)."""


class ScenarioError(DataError):
    """A malformed scenario: the message names the key, player, space or card."""


class CodeVersionError(ScenarioError, core.CodeVersionError):
    """A position code of another version than this tutor's (an older one: ask for a new code; a newer one:
    update the tutor). Both a ``ScenarioError`` and the shared ``tutor.core.errors.CodeVersionError``."""
