"""``tutor.ui.pace``: durations fitted to a budget, each shown step kept visible; the one "Finish" offer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tutor.ui.pace import FINISH_FROM_ROUND, LONG_MS, SKIP_WORDS, FinishOffer, fit, skip_hint


def test_durations_that_fit_are_unchanged():
    assert fit([300, 0, 200], budget_ms=1000, floor_ms=100) == [300, 0, 200]


def test_long_durations_are_scaled_down_to_the_budget_keeping_their_shares():
    assert fit([600, 300, 300], budget_ms=600, floor_ms=50) == [300, 150, 150]


def test_no_shown_frame_falls_under_the_floor_and_the_others_share_what_is_left():
    assert fit([1000, 100, 0, 100], budget_ms=600, floor_ms=100) == [400, 100, 0, 100]


def test_when_the_floors_alone_pass_the_budget_every_frame_keeps_its_floor():
    assert fit([500] * 10, budget_ms=1000, floor_ms=150) == [150] * 10


@given(st.lists(st.integers(0, 5000), max_size=60), st.integers(1, 20000), st.integers(0, 300))
def test_fitted_durations_never_grow_and_add_up_to_the_budget_or_the_floors(durations, budget, floor):
    fitted = fit(durations, budget, floor_ms=floor)
    assert len(fitted) == len(durations)
    assert all(f <= d + 1e-9 and (d == 0 or f >= min(d, floor) - 1e-9) for f, d in zip(fitted, durations))
    floors = sum(min(d, floor) for d in durations)
    assert sum(fitted) <= max(budget, floors) + 1e-6


def test_skip_is_named_only_for_a_long_animation():
    assert skip_hint(LONG_MS + 1) == SKIP_WORDS and skip_hint(LONG_MS) == ""


def test_each_frame_may_have_its_own_floor():
    assert fit([40, 40, 900], budget_ms=320, floor_ms=[10, 10, 300]) == [10, 10, 300]


def test_finish_is_offered_in_a_full_game_from_its_round_until_chosen_and_its_note_is_said_once():
    """Issue 40, "Finish ... live once in the shell": both games' "Finish" is this offer; each adds its own
    conditions (its riders racing, nothing being shown) to ``reached``."""
    offer = FinishOffer("Finish the game", "Play on quickly")
    assert offer.button.layout.display == "none" and offer.button.description == "Finish the game"
    assert not offer.reached(9) and offer.first_round == FINISH_FROM_ROUND  # a lesson's game: never offered
    offer.from_round = 3
    assert [offer.reached(n) for n in (2, 3, 4)] == [False, True, True]
    offer.show(True)
    assert offer.button.layout.display is None
    offer.choose()
    assert offer.finishing and not offer.reached(4)  # chosen: no longer offered
    offer.note = "Round 4 was resolved at once."
    assert offer.take_note() == "Round 4 was resolved at once." and offer.take_note() == ""
