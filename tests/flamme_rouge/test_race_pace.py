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
    t = RaceTutor.new_race(
        "avenue-corso-paseo",
        teams=("red", "blue", "green", "black"),
        bots={"blue": "heuristic", "green": "heuristic", "black": "heuristic"},
        seed=3,
    )
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


class LearnerPlays:
    """Records who played each learner rider's card: the learner's click on a card button, or anyone else."""

    def __init__(self, t: RaceTutor) -> None:
        self.t, self.clicked, self.by_computer = t, None, []
        mine = set(t.draw_buttons)
        play = t.race.play

        def recorded(rider, card):
            if rider in mine and (rider, card) != self.clicked:
                self.by_computer.append((rider, card))
            return play(rider, card)

        t.race.play = recorded  # type: ignore[method-assign]

    def click_card(self, index: int = 0) -> None:
        rider = self.t.active_rider
        self.clicked = (rider, self.t.race.riders[rider].hand[index])
        self.t.card_buttons[index].click()
        self.clicked = None


def to_round_3() -> RaceTutor:
    t = full_race()
    while t.race.round < 3:
        assert t.finish_race_button.layout.display == "none"
        play_round(t)
    return t


def play_cards_as_the_learner(t: RaceTutor, plays: LearnerPlays) -> None:
    """The learner draws and chooses a card for each rider in this round, as the prompt names them."""
    round_ = t.race.round
    while (
        t.race.round == round_ and t.race.phase is Phase.ENERGY and any(not b.disabled for b in t.draw_buttons.values())
    ):
        rider = next(r for r, b in t.draw_buttons.items() if not b.disabled)
        assert f"Draw 4 for {rider}" in t.status.text and t.focused is t.draw_buttons[rider]
        t.draw_buttons[rider].click()
        plays.click_card(0)


def test_finish_the_race_plays_on_quickly_and_stops_at_each_of_the_learners_cards():
    t = to_round_3()
    plays = LearnerPlays(t)
    assert t.race.phase is Phase.ENERGY and t.finish_race_button.layout.display != "none"
    t.finish_race_button.click()
    assert t.finishing and t.race.round == 3 and t.race.phase is Phase.ENERGY  # it stops at the learner's choice
    assert all(t.race.riders[r].played is None and not t.race.riders[r].hand for r in t.draw_buttons)
    assert "each round is resolved at once" in t.status.text and "Draw 4 for red-" in t.status.text
    assert t.finish_race_button.layout.display == "none" and t.focused in t.draw_buttons.values()
    rounds = 0
    while t.race.phase is not Phase.FINISHED:
        round_ = t.race.round
        play_cards_as_the_learner(t, plays)
        rounds += 1
        assert t.race.round == round_ + 1 or t.race.phase is Phase.FINISHED  # no pause, no "Next step"
        assert not t.paused and t.next_button.layout.display == "none"
        if t.race.phase is not Phase.FINISHED:
            assert f"Round {round_} was resolved at once" in t.status.text and "Draw 4 for red-" in t.status.text
    assert plays.by_computer == [] and rounds >= 2  # every card of the learner's riders was the learner's
    assert t.race.winner and "Results" in t.results.value and t.focused is t.restart_button
    assert "Round 4" in t.narration.value  # the log keeps every round


def test_finish_the_race_during_the_movement_resolves_the_round_and_stops_at_the_next_draw():
    t = to_round_3()
    plays = LearnerPlays(t)
    play_cards_as_the_learner(t, plays)
    assert t.race.phase.automatic and t.finish_race_button.layout.display != "none"
    t.finish_race_button.click()
    assert t.race.round == 4 and t.race.phase is Phase.ENERGY and plays.by_computer == []
    assert t.status.text.startswith("Round 3 was resolved at once") and "Draw 4 for red-" in t.status.text
    t.back_button.click()  # back to before "Finish the race": the round plays step by step again
    assert t.race.round == 3 and t.race.phase.automatic and not t.finishing
    assert t.next_button.layout.display != "none" and t.finish_race_button.layout.display != "none"


def test_back_after_a_quick_round_gives_the_learner_the_card_again():
    t = to_round_3()
    plays = LearnerPlays(t)
    t.finish_race_button.click()
    play_cards_as_the_learner(t, plays)
    assert t.race.round == 4
    t.back_button.click()
    assert t.race.round == 3 and t.race.phase is Phase.ENERGY and t.finishing and t.active_rider
    plays.click_card(1)
    assert t.race.round == 4 and plays.by_computer == []


def test_the_results_say_how_the_learner_did_and_mark_the_learners_riders():
    t = to_round_3()
    plays = LearnerPlays(t)
    t.finish_race_button.click()
    while t.race.phase is not Phase.FINISHED:
        play_cards_as_the_learner(t, plays)
    mine = [r for r in t.race.standings() if r.startswith("red-")]
    best = mine[0]
    place = t.race.standings().index(best) + 1
    said = (
        f"Your best rider, {best}, finished in place {place} of 8."
        if best in t.race.ranking and place > 1
        else "You won!"
        if place == 1
        else f"Your best rider, {best}, did not reach the finish line"
    )
    table = t.results.value
    assert said in table and table.index(said) < table.index("<table")  # the sentence above the table
    assert "<tr class='tutor-you'><td><b>" in table
    assert all(f"<b>{rid} (you)</b>" in table for rid in mine)
    assert table.count("tutor-you'") == 2 and "blue-S (you)" not in table


def test_a_prepared_position_never_offers_finish_the_race():
    t = RaceTutor.from_scenario(str(SCENARIOS / "mountain_climb.json"), stop_after="movement")
    assert t.finish_from_round is None and not t.offers_finish
