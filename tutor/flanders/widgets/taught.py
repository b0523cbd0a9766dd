"""What a lesson's game shows of the rules taught after it (``GameTutor(..., taught=...)``).

Each lesson shows what it and the lessons before it teach, and nothing after. The parts of the game a later
lesson teaches are named in ``FEATURES``; a lesson passes those it may show (lesson 1: none), a full game
shows them all (``taught=None``):

=========== ======= ==================================================================================
part        lesson  what it shows
=========== ======= ==================================================================================
``odds``    3       the live odds of a bust (the board's panel, the prompt) and "How is this worked out?"
``tank``    4       "tank" in a card's effects
``mines``   4       "mines" in a card's effects
``retain``  5       "May Retain" on the cards, and the boxes "Keep for a later turn"
=========== ======= ==================================================================================

The rules are played all the same (the engine does not change): a part not taught is only not shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from tutor.flanders.cards import CardSet

FEATURES = ("odds", "tank", "mines", "retain")
"""The parts of the game a lesson may leave out, in the order the lessons teach them."""
CARD_EFFECTS = {"tank": "tank", "mines": "mines", "retain": "may_retain"}
"""The card effect (``Card`` field) each part shows."""


def taught_parts(taught: Iterable[str] | None) -> frozenset[str]:
    """The parts shown: all of ``FEATURES`` for None; an unknown name raises ValueError."""
    if taught is None:
        return frozenset(FEATURES)
    parts = frozenset([taught] if isinstance(taught, str) else taught)
    unknown = sorted(parts - set(FEATURES))
    if unknown:
        raise ValueError(f"taught: unknown part {unknown[0]!r} (known: {', '.join(FEATURES)})")
    return parts


def shown_cards(cards: CardSet, taught: frozenset[str]) -> CardSet:
    """The cards as the board draws them: the effects of the parts not taught are left off (the same ids)."""
    hidden: dict[str, Any] = {CARD_EFFECTS[part]: False for part in CARD_EFFECTS if part not in taught}
    if not hidden:
        return cards
    return replace(
        cards, kinds=tuple(replace(kind, **hidden) for kind in cards.kinds), fixed=replace(cards.fixed, **hidden)
    )
