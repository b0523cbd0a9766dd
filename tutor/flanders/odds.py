"""The dice and their odds: the pairs of a roll, the bust probability and the expected troop loss.

A roll offers the three sums of its pairs of dice; it busts when none of them
names an available card space (3 to 11). The probabilities are exact
``Fraction`` values out of 216 rolls, counted once for all 512 sets of
available spaces over the 56 distinct rolls (with their orderings). This module
is the one place these are computed: ``Game``, the bots, the board and the
lessons ask it.

    >>> bust_probability({6, 7, 8})
    Fraction(23, 108)
    >>> bust_probability(range(3, 12))  # only 1-1-1 and 6-6-6 bust
    Fraction(1, 108)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement

from .cards import Card

SPACES = tuple(range(3, 12))
"""The card spaces (space 9 holds the fixed card)."""
DICE = 3
"""Dice in a roll."""
ROLLS = 6**DICE
"""The equally likely rolls of the dice, in order."""
_SPACE_SET = frozenset(SPACES)


PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (1, 2))
"""The three pairs of a roll, as indices of its dice."""


@dataclass(frozen=True, slots=True)
class DicePair:
    """One of the three pairs of a roll, as ``dice_pairs`` (and ``Game.pairs``) give it."""

    dice: tuple[int, int]
    """Which two dice of the roll (indices, as ``PAIRS``)."""
    values: tuple[int, int]
    """Their values."""
    total: int
    """Their sum: the space a take with them names."""
    repeat: bool
    """An earlier pair of the roll has the same sum (a take of that space uses the earlier pair)."""
    offered: bool
    """Taking the space ``total`` now is legal, and uses this pair (``Take(total)`` is in ``legal_actions``)."""

    @property
    def space(self) -> bool:
        """The sum names a card space (3 to 11)."""
        return self.total in _SPACE_SET


def dice_pairs(dice: Sequence[int], available_mask: int = 0) -> tuple[DicePair, ...]:
    """The three pairs of ``dice`` in ``PAIRS`` order, with their sums and whether each is offered when the spaces
    in ``available_mask`` (bit ``s`` for space ``s``, as ``mask_of`` makes it) may be taken (none by default).

    The one place a pair of dice is added up: ``Game.pairs``, ``Game.offered`` and ``legal_actions`` are built on it.

    >>> [(p.total, p.repeat, p.offered) for p in dice_pairs((2, 4, 4), mask_of({6}))]
    [(6, False, True), (6, True, False), (8, False, False)]
    """
    pairs = []
    seen = 0
    for i, j in PAIRS:
        total = dice[i] + dice[j]
        repeat = bool(seen >> total & 1)
        seen |= 1 << total
        offered = not repeat and bool(available_mask >> total & 1)
        pairs.append(DicePair((i, j), (dice[i], dice[j]), total, repeat, offered))
    return tuple(pairs)


def pair_sums(dice: Sequence[int]) -> tuple[int, ...]:
    """The sums of the pairs of three dice, sorted, without repeats."""
    return tuple(sorted(p.total for p in dice_pairs(dice) if not p.repeat))


def mask_of(spaces: Iterable[int]) -> int:
    """The bit mask of a set of spaces (bit ``s`` for space ``s``), as ``bust_count`` takes it."""
    mask = 0
    for s in spaces:
        mask |= 1 << s
    return mask


def _bust_counts() -> tuple[int, ...]:
    rolls: list[tuple[int, int]] = []  # (mask of pair sums, orderings of the roll)
    for a, b, c in combinations_with_replacement(range(1, 7), DICE):
        orderings = 6 if a != b != c != a else (1 if a == c else 3)
        rolls.append((mask_of(pair_sums((a, b, c))), orderings))
    counts = []
    for available in range(1 << 12):
        counts.append(sum(n for sums, n in rolls if not sums & available))
    return tuple(counts)


_BUSTS = _bust_counts()
"""``_BUSTS[mask]``: rolls out of 216 that bust when the spaces in ``mask`` (bit ``s`` for space ``s``) are
available."""


def bust_count(available_mask: int) -> int:
    """Fast path for bots: rolls out of 216 that bust, for a bit mask of available spaces (bit s = space s)."""
    return _BUSTS[available_mask & 0xFF8]


def bust_chance(available_mask: int) -> Fraction:
    """Fast path of ``bust_probability``: for a bit mask of available spaces (as ``mask_of`` makes it)."""
    return Fraction(bust_count(available_mask), ROLLS)


def expected_loss(available_mask: int, at_stake: int) -> Fraction:
    """Fast path of ``expected_bust_loss``: for a bit mask of available spaces and the grey symbols held."""
    return bust_chance(available_mask) * at_stake


def _checked_mask(available: Iterable[int]) -> int:
    spaces = set(available)
    if not spaces <= _SPACE_SET:
        bad = sorted(s for s in spaces if s not in _SPACE_SET)
        raise ValueError(f"available spaces are 3 to 11, not {bad[0]!r}")
    return mask_of(spaces)


def bust_probability(available: Iterable[int]) -> Fraction:
    """The exact probability that three dice offer no pair whose sum is in ``available`` (spaces 3 to 11)."""
    return bust_chance(_checked_mask(available))


def bust_risk(held: Iterable[Card]) -> int:
    """Troop pieces lost at a bust: the grey symbols on the British cards held (retained ones included)."""
    return sum(card.risk for card in held if card.british)


def expected_bust_loss(available: Iterable[int], held: Iterable[Card]) -> Fraction:
    """Expected troop pieces lost by rolling again: bust probability times the grey symbols on the cards held.

    German cards already taken are not at stake: they are applied whether the
    player stops or busts.
    """
    return expected_loss(_checked_mask(available), bust_risk(held))
