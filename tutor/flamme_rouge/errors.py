"""Errors raised by the Flamme Rouge engine.

All are ``ValueError`` subclasses whose message names the rider, card or square
that was wrong. An action that raises leaves the race unchanged.
"""


class RuleError(ValueError):
    """An action the rules do not allow at this point of the race."""


class WrongPhaseError(RuleError):
    """The action belongs to another phase (e.g. playing a card during movement)."""


class UnknownRiderError(RuleError):
    """No rider with this id is in the race."""


class CardNotInHandError(RuleError):
    """The card to play is not among the cards the rider drew."""


class RiderOrderError(RuleError):
    """A team draws for its second rider before playing for its first, or draws twice."""


class PlacementError(RuleError):
    """A start placement on a taken lane, outside the start area, or out of turn."""


class TrackError(ValueError):
    """A malformed track description (unknown tile, bad token, bad lane count)."""


class ScenarioError(ValueError):
    """A malformed scenario: bad key, rider, square, lane or card."""
