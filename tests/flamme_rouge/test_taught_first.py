"""Issue 37: each Flamme Rouge lesson shows what it and the lessons before it teach, and nothing after, and says it
right. The widgets are built as the lessons' notebooks build them (``tests/lesson_cells.py``) and driven with their
buttons."""

from __future__ import annotations

import re

import pytest

from tests.lesson_cells import LESSONS, cell_widget, markdown
from tutor.flamme_rouge import rules
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.events import BreakawayCost
from tutor.flamme_rouge.race import Phase
from tutor.flamme_rouge.widgets import RaceTutor
from tutor.ui.testing import recorded_commands

FR = LESSONS / "flamme_rouge"


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)


def lesson(name: str, marker: str = "RaceTutor.") -> RaceTutor:
    return cell_widget(FR / name, marker)


def play_to_the_pause(tutor: RaceTutor) -> None:
    """Play the learner's cards (the first of each hand) and step until the board shows the end of a round (or the
    breakaway)."""
    for _ in range(40):
        if tutor.paused or tutor.race.phase is Phase.FINISHED:
            return
        free = [rid for rid, b in tutor.draw_buttons.items() if not b.disabled]
        if tutor.race.phase.choosing and free:
            tutor.draw_buttons[free[0]].click()
            tutor.card_buttons[0].click()
        else:
            tutor.finish_button.click()
    raise AssertionError(f"no pause: {tutor.status.text}")


def test_lesson_1_stops_once_the_riders_are_placed_and_shows_no_card_piles():
    tutor = lesson("01_track_and_setup.ipynb")
    assert not tutor.scene.view.cards  # no deck, recycled or exhaustion piles: lesson 2 shows the cards
    for _ in range(4):
        if not tutor.placing_rider:
            break
        tutor.place_button.click()
    assert tutor.placing_rider is None and all(r.square is not None for r in tutor.race.riders.values())
    assert tutor.done and tutor.energy_row.layout.display == "none"  # no "Draw 4": the energy phase is lesson 2
    assert tutor.continue_button.layout.display == "none" and tutor.done_row.layout.display is None
    assert "placed" in tutor.status.text and "Draw" not in tutor.status.text
    tutor.another_button.click()  # place them again: blue (a bot) places first, then it is the learner's turn
    assert tutor.race.phase is Phase.SETUP and tutor.placing_rider == "red-S"


def test_lesson_2s_round_end_names_no_mark_of_lessons_4_and_5():
    tutor = lesson("02_energy_phase.ipynb")
    play_to_the_pause(tutor)
    marks = tutor.highlights()
    assert marks.slipstreamed or marks.exhausted  # the board has marks: the words do not name them
    for word in ("+1", "E2", "slipstream", "exhaustion"):
        assert word not in tutor.status.text, tutor.status.text
    assert tutor.status.text.startswith("Round 1 is over. Look at the board")


def test_a_full_race_names_each_end_of_round_mark_in_a_whole_sentence():
    tutor = lesson("08_narrow_roads_and_cobbles.ipynb", 'new_race("cobbles-22"')
    play_to_the_pause(tutor)
    marks, text = tutor.highlights(), tutor.status.text
    assert marks.exhausted, text
    assert "cards who took" not in text and "card who took" not in text
    tired = sorted(marks.exhausted)
    one = len(tired) == 1
    said = re.search(r"The E2 cards? shows? that (.+?) (?:each )?took an exhaustion card\.", text)
    assert said and said.group(0).startswith("The E2 card shows" if one else "The E2 cards show"), text
    assert all(rid in said.group(1) for rid in tired)
    assert re.match(r"Round 1 is over\. [A-Z].*\. Look at the board, then choose 'Start round 2'\.$", text), text


def test_lesson_12_draws_the_exhaustion_cards_its_breakaway_words_name():
    tutor = lesson("12_twelve_single_riders.ipynb")
    play_to_the_pause(tutor)
    assert "E2" in tutor.status.text and "breakaway" in tutor.status.text
    winners = {rid for rid, r in tutor.race.riders.items() if r.exhaustion >= 2}
    assert winners and set(tutor.highlights().exhausted) == winners, tutor.highlights().exhausted
    with recorded_commands() as log:
        tutor.redraw()
    assert log.texts().count("E2") == len(winners)


def test_lesson_11_says_which_teams_the_learner_races():
    tutor = lesson("11_peloton_and_muscle_teams.ipynb")
    text = markdown(FR / "11_peloton_and_muscle_teams.ipynb")[0]
    said = re.search(r"you race ((?:[a-z]+)(?: and [a-z]+)?)", text)
    assert said, text
    assert set(said.group(1).split(" and ")) == set(tutor.human_teams), (said.group(0), tutor.human_teams)


def test_lesson_7_explains_the_end_of_the_road_before_its_quiz_turns_on_it():
    data = scenarios.load(FR / "scenarios" / "finish_sprint.json")
    race = scenarios.build(data)
    events = race.resolve(Phase.MOVEMENT)
    assert any(rules.CUT in e.rules for e in events)  # the quiz's answer turns on the end of the road
    before_quiz = " ".join(markdown(FR / "07_full_race.ipynb")[:2])
    assert "past the last square" in before_quiz and "stops on the last square" in before_quiz
    assert "no end phase" in before_quiz
    teachers = " ".join(markdown(FR / "07_full_race.ipynb")[2:])
    assert "tutor-teachers" in teachers and "last square" in teachers


def test_breakaway_costs_stay_on_the_board_like_the_end_of_a_round():
    from tutor.flamme_rouge.widgets.race_tutor import END_MARKS

    assert BreakawayCost in END_MARKS
