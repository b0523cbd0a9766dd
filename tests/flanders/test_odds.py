"""Exactness: the odds against full enumeration of the 216 rolls of three dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import chain, combinations, product

import pytest

from tutor.flanders import odds
from tutor.flanders.cards import load_cards

ROLLS = list(product(range(1, 7), repeat=3))
SPACES = range(3, 12)


def enumerated(available: set[int]) -> Fraction:
    busts = sum(1 for a, b, c in ROLLS if not {a + b, a + c, b + c} & available)
    return Fraction(busts, len(ROLLS))


def test_216_rolls():
    assert len(ROLLS) == 216 == odds.ROLLS


def test_bust_probability_matches_enumeration_for_every_set_of_available_spaces():
    subsets = chain.from_iterable(combinations(SPACES, n) for n in range(len(SPACES) + 1))
    count = 0
    for subset in subsets:
        got = odds.bust_probability(subset)
        assert isinstance(got, Fraction)
        assert got == enumerated(set(subset)), subset
        count += 1
    assert count == 512


def test_known_values():
    assert odds.bust_probability([]) == 1
    assert odds.bust_probability(SPACES) == Fraction(2, 216)  # 1-1-1 and 6-6-6
    assert odds.bust_probability({7}) == Fraction(126, 216)


def test_spaces_outside_3_to_11_are_rejected():
    with pytest.raises(ValueError, match="not 12"):
        odds.bust_probability([7, 12])


def test_expected_bust_loss_is_the_probability_times_the_grey_symbols_held():
    cards = load_cards().by_name
    held = [cards["Infantry"], cards["Tank"], cards["Machine Gun"], cards["Reserves"]]
    assert odds.bust_risk(held) == 3  # German cards have no grey symbol; Reserves none
    for subset in ([], [7], [4, 5, 6], list(SPACES)):
        assert odds.expected_bust_loss(subset, held) == enumerated(set(subset)) * 3


def test_pair_sums():
    assert odds.pair_sums((3, 4, 6)) == (7, 9, 10)
    assert odds.pair_sums((2, 2, 2)) == (4,)
