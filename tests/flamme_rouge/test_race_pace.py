"""The pace of Flamme Rouge's race tutor: "Finish round" plays in a few seconds (each held picture still
shown), the prompt names Skip while a long animation plays, and a full race offers "Finish the race"."""

from __future__ import annotations

from pathlib import Path

from tests.manual_clock import ManualClock
from tutor.flamme_rouge.race import Phase
from tutor.flamme_rouge.widgets import RaceTutor
from tutor.ui.pace import LONG_MS, ROUND_MS, SKIP_WORDS

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge" / "scenarios"


def full_race() -> RaceTutor:
    t = RaceTutor.new_race("avenue-corso-paseo", teams=("red", "blue", "green", "black"),
                           bots={"blue": "heuristic", "green": "heuristic", "black": "heuristic"}, seed=3)
    t.debounce_s = 0
    return t


def play_my_cards(t: RaceTutor) -> None:
    while any(not b.disabled for b in t.draw_buttons.values()):
        next(b for b in t.draw_buttons.values() if not b.disabled).click()
        t.card_buttons[0].click()
    assert t.race.phase.automatic


def play_round(t: RaceTutor) -> None:
    play_my_cards(t)
    t.finish_button.click()
    if t.paused:
        t.next_round_button.click()


def finish_round_ms(t: RaceTutor) -> float:
    """How long "Finish round" plays, as the kernel paces it."""
    t.scene.clock = clock = ManualClock()
    t.finish_button.click()
    while t.scene.playing:
        clock.advance(0.05)
    return clock.now * 1000


def test_finish_round_plays_a_round_of_eight_riders_in_a_few_seconds():
    t = full_race()
    play_my_cards(t)
    assert finish_round_ms(t) <= ROUND_MS + 300 and t.paused


def test_the_slow_speed_stays_slower_than_normal_and_a_long_animation_names_skip():
    t = full_race()
    play_my_cards(t)
    t.speed.value = "Slow"
    t.scene.clock = ManualClock()
    t.finish_button.click()
    assert t.scene.playing and t.status.text.endswith(SKIP_WORDS)  # over LONG_MS: Skip is named
    t.skip_button.click()
    assert not t.scene.playing and SKIP_WORDS not in t.status.text and "Start round 2" in t.status.text


def test_next_step_keeps_its_own_pace_and_names_no_skip():
    t = full_race()
    play_my_cards(t)
    t.scene.clock = clock = ManualClock()
    t.next_button.click()
    assert SKIP_WORDS not in t.status.text
    while t.scene.playing:
        clock.advance(0.05)
    assert clock.now * 1000 < LONG_MS


def test_finish_the_race_is_offered_from_round_3_and_rides_every_round_to_the_finish():
    t = full_race()
    while t.race.round < 3:
        assert t.finish_race_button.layout.display == "none"
        play_round(t)
    assert t.race.phase is Phase.ENERGY and t.finish_race_button.layout.display != "none"
    t.finish_race_button.click()
    assert t.race.phase is Phase.FINISHED and t.race.winner and "Results" in t.results.value
    assert t.finish_race_button.layout.display == "none" and t.focused is t.restart_button
    assert "Round 5" in t.narration.value  # the log keeps every round
    t.back_button.click()
    assert t.race.round == 3 and t.race.phase is Phase.ENERGY


def test_a_prepared_position_never_offers_finish_the_race():
    t = RaceTutor.from_scenario(str(SCENARIOS / "mountain_climb.json"), stop_after="movement")
    assert t.finish_from_round is None and not t.offers_finish
