"""Energy cards and decks (rulebook: Components, Energy Phase).

A card is a small immutable value. Cards of one kind and value are shared
instances, so decks are plain lists and copying a deck is cheap.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

HAND_SIZE = 4
"""Cards a player's rider draws in the energy phase (each player team's ``Team.hand_size``)."""


class CardKind(enum.Enum):
    ENERGY = "energy"
    EXHAUSTION = "exhaustion"
    MUSCLE = "muscle"  # Peloton expansion: the Muscle team's extra 5
    ATTACK = "attack"  # Peloton expansion: the Peloton team's Attack! card


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card value. Cards are interned (``energy(v)``, ``EXHAUSTION``, ``MUSCLE``, ``ATTACK``; ``Card.parse``
    returns those), so equality is identity: fast in ``hand.remove`` on the simulations' hot path."""

    value: int
    """Squares the card moves (Attack! moves the Peloton's riders 2 and 9: see rules.ATTACK_FRONT)."""
    kind: CardKind = CardKind.ENERGY

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return (Card.parse, (str(self),))

    def __str__(self) -> str:
        if self.kind is CardKind.ATTACK:
            return "A"
        return _PREFIX[self.kind] + str(self.value)

    @property
    def is_exhaustion(self) -> bool:
        return self.kind is CardKind.EXHAUSTION

    @staticmethod
    def parse(token: str | int) -> Card:
        """Inverse of ``str``: ``"5"``, ``"E2"`` (exhaustion), ``"M5"`` (muscle), ``"A"`` (attack)."""
        text = str(token).strip().upper()
        if text == "A":
            return ATTACK
        if text == "E2":
            return EXHAUSTION
        if text == "M5":
            return MUSCLE
        if text.isdigit() and int(text) >= 2:
            return energy(int(text))
        raise ValueError(f"not a card: {token!r} (use a number >= 2, 'E2', 'M5' or 'A')")


_PREFIX = {CardKind.ENERGY: "", CardKind.EXHAUSTION: "E", CardKind.MUSCLE: "M"}
_ENERGY: dict[int, Card] = {}


def energy(value: int) -> Card:
    """The shared energy card of this value."""
    card = _ENERGY.get(value)
    if card is None:
        card = _ENERGY[value] = Card(value)
    return card


EXHAUSTION = Card(2, CardKind.EXHAUSTION)
MUSCLE = Card(5, CardKind.MUSCLE)
ATTACK = Card(0, CardKind.ATTACK)


class RiderKind(enum.StrEnum):
    """A rider's kind: it picks the energy deck (and the token's letter). A ``str``, so files and JSON keep the
    plain words ``"sprinteur"`` and ``"rouleur"``."""

    SPRINTEUR = "sprinteur"
    ROULEUR = "rouleur"

    @property
    def letter(self) -> str:
        """``"S"`` or ``"R"``: the token's letter and the last part of a rider's id."""
        return self.value[0].upper()


SPRINTEUR, ROULEUR = RiderKind.SPRINTEUR, RiderKind.ROULEUR
RIDER_KINDS = tuple(RiderKind)

DECK_VALUES = {
    SPRINTEUR: (2, 3, 4, 5, 9),  # three of each: 15 cards
    ROULEUR: (3, 4, 5, 6, 7),
}


def shuffled(rng: random.Random, cards: list[Card]) -> list[Card]:
    """A uniformly shuffled copy: sorted by random keys, one ``rng.random()`` per card in order (faster than
    ``rng.shuffle`` in CPython). The key function is built from C calls only, with no Python frame per card; its
    sentinel is a float that ``random()`` never returns, so each stop test is a float comparison."""
    return sorted(cards, key=partial(next, iter(rng.random, -1.0)))


def starting_deck(kind: RiderKind) -> list[Card]:
    """The 15 energy cards of a sprinteur or rouleur, unshuffled."""
    return list(_STARTING_DECKS[kind])


_STARTING_DECKS = {kind: tuple(energy(v) for v in values for _ in range(3)) for kind, values in DECK_VALUES.items()}
