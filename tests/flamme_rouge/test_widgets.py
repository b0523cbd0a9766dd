"""Headless widget tests: click buttons from Python, check the race, the narration and the status line.

A click at the wrong time must leave ``race.to_dict()`` unchanged and show a warning.
"""

import html
import json
from pathlib import Path

import ipywidgets as widgets
import pytest

from tutor.flamme_rouge import Phase, Race
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.events import ExhaustionTaken, Slipstreamed
from tutor.ui.testing import recorded_commands
from tutor.flamme_rouge.widgets import PredictQuiz, RaceChooser, RaceTutor
from tests.flamme_rouge.positions import BLOCKED, SLIPSTREAM

SPRINT_FINISH = {
    "track": " ".join(["2"] * 16),
    "finish": 12,
    "riders": [{"id": "red-S", "square": 9, "lane": 0}, {"id": "blue-R", "square": 5, "lane": 0}],
    "cards": {"red-S": 5, "blue-R": 3},
}


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    """Tests click faster than a person: no double-click guard, except where a test asks for it."""
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)


@pytest.fixture
def tutor():
    return RaceTutor.new_race(
        "avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0, human_teams=("red",)
    )


def play_both(tutor, first=0, second=0):
    tutor.draw_buttons["red-S"].click()
    tutor.card_buttons[first].click()
    tutor.draw_buttons["red-R"].click()
    tutor.card_buttons[second].click()


def finish_round(tutor):
    """Finish round, then 'Start round N' at the pause that shows the end of the round."""
    tutor.finish_button.click()
    if tutor.paused:
        tutor.next_round_button.click()


def assert_refused(tutor, click, *words):
    state = tutor.race.to_dict()
    click()
    assert tutor.race.to_dict() == state
    assert tutor.status.kind == "warning"
    for word in words:
        assert word in tutor.status.text


# ----- RaceTutor: the energy phase ---------------------------------------------------------------------------


def test_a_new_race_waits_for_the_learner_while_the_bot_has_played(tutor):
    race = tutor.race
    assert race.phase is Phase.ENERGY and race.round == 1
    assert race.riders["blue-S"].played is not None and race.riders["blue-R"].played is not None
    assert sorted(race.waiting_riders()) == ["red-R", "red-S"]
    assert "(computer)" in tutor.narration.value
    assert tutor.next_button.disabled and tutor.finish_button.disabled and tutor.back_button.disabled
    assert all(b.disabled for b in tutor.card_buttons)
    assert not tutor.draw_buttons["red-S"].disabled


def test_drawing_shows_four_cards_as_buttons_and_in_the_narration(tutor):
    tutor.draw_buttons["red-S"].click()
    hand = tutor.race.riders["red-S"].hand
    assert len(hand) == 4
    assert [b.description for b in tutor.card_buttons] == [str(c) for c in hand]
    assert not any(b.disabled for b in tutor.card_buttons)
    assert f"red-S draws {', '.join(map(str, hand))}" in tutor.narration.value
    assert tutor.active_rider == "red-S"
    assert tutor.draw_buttons["red-R"].disabled  # one rider at a time per team


def test_playing_a_card_recycles_the_other_three_face_up_under_the_deck(tutor):
    tutor.draw_buttons["red-S"].click()
    hand = list(tutor.race.riders["red-S"].hand)
    tutor.card_buttons[2].click()
    rider = tutor.race.riders["red-S"]
    rest = hand[:2] + hand[3:]
    assert rider.played == hand[2] and rider.hand == []
    assert rider.recycled == rest and len(rider.deck.face_down) == 11
    text = tutor.narration_lines[0].text
    assert (
        f"red-S plays {hand[2]} face down and recycles {', '.join(map(str, rest))} face up at the bottom "
        "of its deck (recycled cards: 3)" in text
    )
    assert all(b.disabled for b in tutor.card_buttons)


def test_the_last_card_reveals_and_the_movement_phase_begins(tutor):
    play_both(tutor)
    assert tutor.race.phase is Phase.MOVEMENT
    assert "All cards are revealed" in tutor.narration.value
    assert not tutor.next_button.disabled and not tutor.finish_button.disabled
    assert tutor.race.to_move[0] in tutor.status.text


# ----- RaceTutor: clicks at the wrong time -------------------------------------------------------------------


def test_a_card_before_drawing_is_refused(tutor):
    assert_refused(tutor, tutor.card_buttons[0].click, "Draw first", "red-S")


def test_next_step_and_finish_round_during_the_energy_phase_are_refused(tutor):
    assert_refused(tutor, tutor.next_button.click, "energy phase", "red-S", "red-R")
    assert_refused(tutor, tutor.finish_button.click, "energy phase")


def test_drawing_for_the_second_rider_before_playing_the_first_is_refused(tutor):
    tutor.draw_buttons["red-S"].click()
    assert_refused(tutor, tutor.draw_buttons["red-R"].click, "red-S", "before drawing")


def test_a_card_during_the_movement_phase_is_refused(tutor):
    play_both(tutor)
    assert_refused(tutor, tutor.card_buttons[1].click, "energy phase", "movement phase")


def test_back_with_nothing_to_undo_is_refused(tutor):
    assert_refused(tutor, tutor.back_button.click, "Nothing to undo")


def test_next_step_after_the_finish_is_refused():
    tutor = RaceTutor.from_scenario(SPRINT_FINISH)
    tutor.next_button.click()
    tutor.next_button.click()
    assert tutor.race.phase is Phase.FINISHED and tutor.race.winner == "red-S"
    assert "crosses the finish line and wins" in tutor.narration.value
    assert tutor.next_button.disabled
    assert_refused(tutor, tutor.next_button.click, "race is over", "red-S")
    assert_refused(tutor, tutor.finish_button.click, "race is over")


def test_a_stray_click_on_an_empty_card_slot_is_refused():
    tutor = RaceTutor.from_scenario(SPRINT_FINISH, seed=1)
    assert tutor.seed.value == 1
    tutor.finish_button.click()
    assert_refused(tutor, tutor.card_buttons[3].click, "race is over")


# ----- RaceTutor: resolving a round --------------------------------------------------------------------------


def test_next_step_moves_the_frontmost_rider_and_says_so(tutor):
    play_both(tutor)
    mover = tutor.race.to_move[0]
    start = tutor.race.riders[mover].square
    value = tutor.race.move_values[mover]
    tutor.next_button.click()
    end = tutor.race.riders[mover].square
    assert end == start + value
    assert f"{mover} moves {value} squares (card {value}) from square {start} to {end}" in tutor.narration.value
    assert "Movement phase: a rider moves exactly the value of its card" in tutor.narration.value


def test_finish_round_plays_the_end_phase_and_the_bots_play_the_next_energy_phase(tutor):
    play_both(tutor)
    tutor.finish_button.click()
    race = tutor.race
    assert race.phase is Phase.ENERGY and race.round == 2
    assert all(r.removed for r in race.riders.values())
    # The end of round 1 stays on the board and in the log until the learner starts round 2.
    assert tutor.paused and tutor.next_round_button.layout.display is None
    assert tutor.next_round_button.description == "Start round 2 ▸"
    assert tutor.energy_row.layout.display == "none" and tutor.next_button.disabled
    assert race.riders["blue-S"].played is None
    assert "played cards leave the game" in tutor.narration.value and "Round 2 begins" not in tutor.narration.value
    assert "The end of round 1" in tutor.header.value and "Start round 2" in tutor.status.text
    assert_refused(tutor, tutor.draw_buttons["red-S"].click, "Start round 2")
    tutor.next_round_button.click()
    assert not tutor.paused and tutor.next_round_button.layout.display == "none"
    assert race.riders["blue-S"].played is not None and race.riders["red-S"].played is None
    assert "Round 2 begins" in tutor.narration.value and tutor.energy_row.layout.display is None


def test_the_end_of_a_round_keeps_its_slipstream_and_exhaustion_marks_until_the_next_round():
    bots = {"red": "heuristic", "blue": "heuristic"}
    twin = Race.new("sprint-20", ["red", "blue"], bots=bots, seed=3)  # the same race, played by the engine
    autoplay(twin, steps=False)
    ended = twin.finish_round()
    gained = {rid for e in ended if isinstance(e, Slipstreamed) for rid in e.riders}
    tired = {e.rider for e in ended if isinstance(e, ExhaustionTaken)}
    assert gained and tired
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue"), bots=bots, human_teams=(), seed=3)
    for _ in range(12):  # one step at a time: the exhaustion step ends the round
        tutor.next_button.click()
        if tutor.paused:
            break
    assert tutor.paused and tutor.race.round == 2 and tutor.race.positions() == twin.positions()
    with recorded_commands() as log:
        tutor.redraw()
    assert set(tutor.highlights().slipstreamed) == gained and set(tutor.highlights().exhausted) == tired
    chips = [t for t in log.texts() if t.startswith("+")]
    assert log.texts().count("E2") == len(tired) and len(chips) == len(gained)
    tutor.next_round_button.click()
    with recorded_commands() as log:
        tutor.redraw()
    assert not tutor.highlights().exhausted and not any(t.startswith("+") for t in log.texts())


def test_back_undoes_one_learner_action_at_a_time(tutor):
    tutor.draw_buttons["red-S"].click()
    drawn = tutor.race.to_dict(history=False)
    tutor.card_buttons[0].click()
    tutor.back_button.click()
    assert tutor.race.to_dict(history=False) == drawn
    assert tutor.status.kind == "info" and "Back" in tutor.narration.value
    tutor.back_button.click()
    assert tutor.race.riders["red-S"].hand == [] and tutor.back_button.disabled


def test_back_after_finish_round_restores_the_movement_phase(tutor):
    play_both(tutor)
    before = tutor.race.to_dict(history=False)
    tutor.finish_button.click()
    tutor.back_button.click()
    assert tutor.race.to_dict(history=False) == before


def test_restart_uses_the_seed(tutor):
    play_both(tutor)
    tutor.seed.value = 7
    tutor.restart_button.click()
    race = tutor.race
    assert race.round == 1 and race.phase is Phase.ENERGY and tutor.back_button.disabled
    assert "shuffle number 7" in tutor.narration.value
    again = RaceTutor.new_race(seed=7).race
    assert race.to_dict(history=False) == again.to_dict(history=False)


def test_a_scenario_starts_at_the_movement_phase_and_narrates_the_blocked_rider():
    tutor = RaceTutor.from_scenario(BLOCKED)
    assert tutor.race.phase is Phase.MOVEMENT and tutor.title == "Blocked rider"
    tutor.next_button.click()
    tutor.next_button.click()
    tutor.next_button.click()
    assert tutor.race.riders["red-R"].position == (7, 0)
    text = tutor.narration.value
    assert "red-R (card 5) would reach square 8, but square 8 is full, so it stops on square 7" in text
    assert "first square behind with a free lane" in text


def test_the_hint_tells_the_learner_what_to_do_next(tutor):
    tutor.draw_buttons["red-S"].click()
    tutor.card_buttons[0].click()
    assert "choose 'Draw 4 for red-R'" in tutor.status.text
    tutor.draw_buttons["red-R"].click()
    tutor.card_buttons[0].click()
    finish_round(tutor)
    assert "choose 'Draw 4 for red-S' (or for red-R)" in tutor.status.text


def test_focus_follows_play_to_the_control_the_prompt_names(monkeypatch):
    """Issue 22: after every action focus moves to the next control (never left on a button that hid itself)."""
    sent: list[object] = []
    monkeypatch.setattr(widgets.Button, "focus", lambda self: sent.append(self))
    tutor = RaceTutor.new_race(
        "avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0, human_teams=("red",)
    )
    assert tutor.focused is None and sent == []  # building the page moves no focus
    tutor.draw_buttons["red-S"].click()
    assert tutor.focused is tutor.card_buttons[0] and not tutor.card_buttons[0].disabled  # a card after Draw
    assert "Play " in tutor.card_buttons[0].tooltip and " for red-S" in tutor.card_buttons[0].tooltip
    tutor.card_buttons[0].click()
    assert tutor.focused is tutor.draw_buttons["red-R"]  # the next Draw after a card
    tutor.draw_buttons["red-R"].click()
    tutor.card_buttons[1].click()
    assert tutor.focused is tutor.next_button and not tutor.next_button.disabled
    while not tutor.paused:
        tutor.next_button.click()
        assert tutor.focused in (tutor.next_button, tutor.next_round_button)
    assert tutor.focused is tutor.next_round_button and tutor.next_round_button.layout.display is None
    assert "Start round 2" in tutor.status.text  # Next step ending a round: focus on 'Start round 2'
    tutor.next_round_button.click()
    assert tutor.focused is tutor.draw_buttons["red-S"]  # the first button of the new round
    assert sent[-1] is tutor.focused and sent.count(tutor.card_buttons[0]) == 2  # after each Draw


def test_the_status_says_what_the_step_changed_in_two_sentences_before_the_prompt(tutor):
    play_both(tutor)
    tutor.finish_button.click()
    assert tutor.status.changed.count(".") <= 3 and "more in the log" in tutor.status.changed
    assert tutor.status.changed.split(".")[0] in tutor.narration_lines[0].text
    assert tutor.status.changed in tutor.status.value.replace("&#x27;", "'") and "Start round 2" in tutor.status.text


def test_draw_and_card_buttons_show_only_in_the_energy_phase():
    tutor = RaceTutor.from_scenario(BLOCKED)
    assert tutor.energy_row.layout.display == "none"
    tutor.finish_button.click()
    # A prepared position stops at the end of its round, not in an energy phase for every rider ...
    assert tutor.race.phase is Phase.ENERGY and tutor.energy_row.layout.display == "none" and tutor.done
    assert tutor.done_row.layout.display is None and tutor.next_button.disabled
    assert "position is done" in tutor.status.text
    # ... until the learner continues it as a race: red is the learner's, the others are bots.
    tutor.continue_button.click()
    assert tutor.human_teams == ("red",) and list(tutor.draw_buttons) == ["red-R"]
    assert tutor.energy_row.layout.display is None and not tutor.done
    assert tutor.race.riders["green-S"].played is not None  # the bots have played


def test_a_scenario_file_loads(tmp_path):
    path = tmp_path / "blocked.json"
    path.write_text(json.dumps(BLOCKED))
    tutor = RaceTutor.from_scenario(str(path))
    assert tutor.race.positions()["red-R"] == (3, 1)


def test_human_teams_are_checked():
    with pytest.raises(ValueError, match="played by the 'heuristic' bot"):
        RaceTutor.new_race(human_teams=("blue",))
    with pytest.raises(ValueError, match="no team 'green'"):
        RaceTutor.new_race(human_teams=("green",))
    with pytest.raises(ValueError, match="'blue' has no bot and is not in human_teams"):
        RaceTutor(Race.new("sprint-20", ("red", "blue")), human_teams=("red",))


def test_new_race_gives_teams_nobody_plays_to_the_heuristic_bot():
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue", "green"))
    assert tutor.race.teams["green"].bot == "heuristic" and tutor.race.teams["red"].bot is None
    assert sorted(tutor.race.waiting_riders()) == ["red-R", "red-S"]


def test_a_race_of_bots_only_is_stepped_with_next_step():
    tutor = RaceTutor.new_race(
        "sprint-20", teams=("red", "blue"), bots={"red": "random", "blue": "random"}, human_teams=()
    )
    assert tutor.race.phase is Phase.MOVEMENT and "All cards are revealed" in tutor.narration.value
    assert not tutor.draw_buttons
    while tutor.race.phase is not Phase.FINISHED:
        finish_round(tutor)
    assert tutor.race.winner and "wins" in tutor.status.text


# ----- drawing: on client ready and after every handler ------------------------------------------------------


def test_a_connecting_client_gets_the_whole_canvas(tutor):
    with recorded_commands() as log:
        tutor.scene.canvas[2]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert log.messages == 1
    assert "START" in log.texts() and "red-S  (sprinteur)" in log.texts()


def test_every_handler_sends_one_message_and_steps_animate(tutor):
    with recorded_commands() as log:
        tutor.draw_buttons["red-S"].click()
    assert log.messages == 1
    tutor.card_buttons[0].click()
    tutor.draw_buttons["red-R"].click()
    tutor.card_buttons[0].click()
    with recorded_commands() as log:
        tutor.next_button.click()
    assert log.messages == 1 and len(log.sleeps()) >= 3 and sum(log.sleeps()) < 1100


# ----- PredictQuiz -------------------------------------------------------------------------------------------


def quiz(**kwargs):
    kwargs.setdefault("question", "Where does red-R end after the movement phase?")
    return PredictQuiz(BLOCKED, rider="red-R", **kwargs)


def test_quiz_right_answer():
    q = quiz(explain="A full square pushes you back.")
    assert q.race.phase is Phase.MOVEMENT and q.correct_answer == 7
    q.square_input.value = 7
    q.reveal_button.click()
    assert q.is_right is True and "tutor-status-success" in q.feedback.value and "Try again" in q.status.text
    assert "Right" in q.feedback.value and "ends on square 7" in q.feedback.value
    assert "first square behind it with a free lane" in q.feedback.value
    assert "A full square pushes you back." in q.feedback.value
    assert q.race.riders["red-R"].position == (7, 0) and q.race.phase is not Phase.MOVEMENT
    assert q.reveal_button.disabled


def test_quiz_wrong_answer_gives_the_correct_one_and_the_rule():
    q = quiz()
    q.square_input.value = 8
    q.reveal_button.click()
    assert q.is_right is False and "tutor-status-warning" in q.feedback.value
    assert "Not quite" in q.feedback.value and "You said square 8" in q.feedback.value
    assert "square 8 is full" in q.feedback.value


def test_quiz_with_lanes():
    q = quiz(with_lane=True)
    q.square_input.value, q.lane_input.value = 7, 1
    q.reveal_button.click()
    assert q.correct_answer == (7, 0) and q.is_right is False and "right lane" in q.feedback.value


def test_quiz_reveal_without_an_answer_or_twice_is_refused():
    q = quiz()
    q.debounce_s = 0  # a learner's pause between the clicks (the one click rule drops a double click)
    state = q.race.to_dict()
    q.reveal_button.click()
    assert q.race.to_dict() == state and q.status.kind == "warning" and "Choose a square first" in q.status.text
    q.square_input.value = 7
    q.reveal_button.click()
    state = q.race.to_dict()
    q.reveal_button.click()
    assert q.race.to_dict() == state and "Already revealed" in q.status.text


def test_quiz_try_again_resets_the_position_and_the_answer():
    q = quiz()
    q.square_input.value = 8
    q.reveal_button.click()
    q.retry_button.click()
    assert q.is_right is None and q.feedback.value == "" and q.square_input.value is None
    assert q.race.phase is Phase.MOVEMENT and q.race.riders["red-R"].position == (3, 1)
    assert not q.reveal_button.disabled and not q.square_input.disabled


def test_quiz_exhausted_riders():
    q = PredictQuiz(SLIPSTREAM, question="Who takes an exhaustion card?", ask="exhausted")
    assert q.correct_answer == {"a", "g"} and q.after == "slipstream"
    q.rider_checks["a"].value = True
    q.reveal_button.click()
    assert q.is_right is False and "Exhausted: a, g" in q.feedback.value and "You chose: a" in q.feedback.value
    assert "exhaustion card" in q.feedback.value
    q.retry_button.click()
    q.rider_checks["a"].value = q.rider_checks["g"].value = True
    q.reveal_button.click()
    assert q.is_right is True


def test_quiz_rejects_bad_arguments():
    with pytest.raises(ValueError, match="ask must be"):
        PredictQuiz(BLOCKED, question="?", ask="nonsense")
    with pytest.raises(ValueError, match="crosses the finish line"):
        PredictQuiz(BLOCKED, question="?", ask="winner")
    with pytest.raises(ValueError, match="rider 'zz'"):
        PredictQuiz(BLOCKED, question="?", rider="zz")


def test_quiz_reveal_animates_in_one_message():
    q = quiz()
    q.square_input.value = 7
    with recorded_commands() as log:
        q.reveal_button.click()
    assert log.messages == 1 and log.sleeps() and "answer: 7" in log.texts()


# ----- RaceChooser ---------------------------------------------------------------------------------------


def test_race_chooser_starts_the_chosen_race_against_the_chosen_bots():
    chooser = RaceChooser(human_team="red", bots=("blue", "green", "black"))
    assert chooser.tutor.race.track.name == "Avenue Corso Paseo"
    assert set(chooser.tutor.race.teams) == {"red", "blue", "green", "black"}
    chooser.stage_input.value = "la-haute-montagne"
    chooser.bots_input.value = 1
    chooser.bot_input.value = "random"
    chooser.seed_input.value = 7
    chooser.start_button.click()
    race = chooser.tutor.race
    assert race.track.name == "La Haute Montagne"
    assert {name: team.bot for name, team in race.teams.items()} == {"red": None, "blue": "random"}
    assert chooser.tutor in chooser.children
    # The learner plays red; the bot has already played its cards face down.
    assert race.waiting_riders() == ["red-S", "red-R"]
    chooser.tutor.draw_buttons["red-S"].click()
    chooser.tutor.card_buttons[0].click()
    assert race.riders["red-S"].played is not None and len(race.riders["red-S"].recycled) == 3


# ----- setup: placing riders -----------------------------------------------------------------------------


def test_the_learner_places_riders_by_clicking_the_board_after_the_bot_team():
    """Rulebook, Setup: players place both riders in turn in free lanes behind the start line."""
    tutor = RaceTutor.new_race(
        stage="sprint-20",
        teams=("blue", "red"),
        bots={"blue": "heuristic"},
        human_teams=("red",),
        place="manual",
        seed=1,
    )
    race = tutor.race
    assert race.phase is Phase.SETUP
    assert race.positions() == {"blue-S": (3, 0), "blue-R": (3, 1)}  # the bot placed first, at the front
    assert tutor.placing_rider == "red-S" and "Place red-S: choose a square and lane" in tutor.status.text
    view = tutor.scene.view
    before = race.to_dict()
    tutor.placing.on_canvas_click(view.cx(2), view.cy(1))  # left lane of an empty square: not allowed
    assert tutor.status.kind == "warning" and "takes the right-hand lane" in tutor.status.text
    assert "square 2, left lane" in tutor.status.text and "lane 1" not in tutor.status.text  # no internal names
    assert race.to_dict() == before
    tutor.placing.on_canvas_click(view.cx(2), view.cy(0))
    assert race.riders["red-S"].position == (2, 0) and "red-S starts on square 2, right lane" in tutor.narration.value
    assert tutor.place_input.value == (2, 1) and tutor.place_button.description == "Place red-R"
    tutor.place_button.click()
    assert race.riders["red-R"].position == (2, 1)
    assert race.phase is Phase.ENERGY and tutor.setup_row.layout.display == "none"
    assert "Draw 4 for red-S" in tutor.status.text


def test_board_clicks_outside_the_setup_change_nothing(tutor):
    before = tutor.race.to_dict()
    view = tutor.scene.view
    tutor.placing.on_canvas_click(view.cx(1), view.cy(0))
    tutor.place_button.click()
    assert tutor.race.to_dict() == before
    assert "Riders are placed during the setup" in tutor.status.text


# ----- narration: sentences from the events' fields, rules from their Rule references -------------------------


def test_narration_words_attack_cards_and_bot_riders_that_take_no_exhaustion():
    from pathlib import Path

    from tutor.flamme_rouge import rules, scenario as scenarios
    from tutor.flamme_rouge.widgets import narrate

    data = scenarios.load(Path(__file__).parent / "scenarios" / "attack_card_front_2_back_9.json")
    lines = narrate(scenarios.build(data).resolve())
    moves = [line for line in lines if "Attack! card" in line.text]
    assert [line.text.split(" moves ")[0] for line in moves] == ["p1", "p2"]
    assert "worth 2 for this rider" in moves[0].text and "worth 9 for this rider" in moves[1].text
    assert all(rules.ATTACK in line.rules and rules.MOVE in line.rules for line in moves)
    assert moves[0].rule.count("Movement phase:") == 1  # each section named once
    exempt = next(line for line in lines if "ride for a bot team" in line.text)
    assert exempt.text.startswith("p1 and p2") and exempt.rules == (rules.BOT_NO_EXHAUSTION,)


def test_narration_groups_the_riders_that_take_an_exhaustion_card():
    from tutor.flamme_rouge import rules, scenario as scenarios
    from tutor.flamme_rouge.widgets import narrate

    race = scenarios.build(
        {
            "track": "2 " * 10,
            "riders": [
                {"id": "a", "square": 3, "lane": 0},
                {"id": "b", "square": 4, "lane": 0},
                {"id": "c", "square": 5, "lane": 0},
            ],
        }
    )
    lines = narrate(race.resolve())
    told = [line for line in lines if rules.EXHAUSTION in line.rules]
    assert [line.text for line in told] == [
        "c (square 5) has an empty square right in front: it takes an exhaustion card (E2) into its recycled cards."
    ]


# ----- issue 7: the log, double clicks, Finish round rider by rider, prepared positions, results ---------------

CLIMB = {
    "name": "Climb",
    "track": "2 2 2 2 2 2 2 2 2u 2u 2u 2u 2u 2u 2 2 2 2 2 2",
    "riders": [
        {"id": "red-S", "team": "red", "kind": "sprinteur", "square": 1, "lane": 0},
        {"id": "blue-R", "team": "blue", "kind": "rouleur", "square": 0, "lane": 0},
    ],
    "cards": {"red-S": 9, "blue-R": 3},
}


def test_a_double_click_runs_one_step_and_the_log_keeps_every_step(monkeypatch):
    monkeypatch.setattr(RaceTutor, "debounce_s", 0.3)
    tutor = RaceTutor.from_scenario(BLOCKED)
    tutor.next_button.click()
    tutor.next_button.click()  # the second click of a double click: ignored
    assert tutor.race.to_move == ["blue-S", "red-R"]
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)
    tutor.next_button.click()
    log = tutor.narration.value
    assert "green-S moves 2 squares" in log and "blue-S moves 5 squares" in log  # the first step is still there
    # Each rule is cited once in a round, not once per rider.
    assert log.count("a rider moves exactly the value of its card") == 1
    assert "<details class='tutor-log-section' open><summary>Round 1</summary>" in log


def test_the_log_goes_round_by_round_and_folds(tutor):
    play_both(tutor)
    tutor.finish_button.click()
    assert "<details class='tutor-log-section' open><summary>Round 1</summary>" in tutor.narration.value
    tutor.next_round_button.click()
    log = tutor.narration.value
    assert "<summary>Round 1</summary>" in log and "<details class='tutor-log-section' open><summary>Round 2" in log
    round_1, round_2 = log.split("<summary>Round 2</summary>")
    assert "moves" in round_1 and "leave the game" in round_1  # the round's end is logged in its own round
    assert "Round 2 begins" in round_2 and "(computer)" in round_2
    assert tutor.story.toggle.value is False and tutor.narration.layout.display == "none"  # collapsed at first
    tutor.story.toggle.value = True
    assert tutor.narration.layout.display is None and tutor.story.toggle.description.startswith("▾")
    assert "Round 1" in tutor.narration.value


def test_finish_round_animates_rider_by_rider_at_the_chosen_speed():
    sleeps = {}
    for speed in ("Normal", "Slow"):
        tutor = RaceTutor.from_scenario(BLOCKED)
        tutor.speed.value = speed
        with recorded_commands() as log:
            tutor.finish_button.click()
        assert log.messages == 1
        sleeps[speed] = sum(log.sleeps())
    assert sleeps["Normal"] > 3 * 900  # three moves and the end phase, each with its time, pauses between
    assert sleeps["Slow"] > 1.5 * sleeps["Normal"]


def test_the_hint_gives_the_real_move_on_a_climb():
    tutor = RaceTutor.from_scenario(CLIMB)
    # The climb starts on square 8: red-S may ride the flat up to square 7 (6 squares), more than 5.
    assert "red-S moves next (6 squares: its 9 is capped by the climb)" in tutor.status.text
    tutor.next_button.click()
    assert tutor.race.riders["red-S"].square == 7


def test_a_prepared_position_restarts_as_itself_and_shows_no_seed():
    tutor = RaceTutor.from_scenario(BLOCKED)
    tutor.next_button.click()
    tutor.restart_button.click()
    assert "Back to the starting position." in tutor.narration.value and "seed" not in tutor.narration.value
    assert tutor.seed.layout.display == "none" and tutor.race.to_move[0] == "green-S"
    tutor.teachers.open = True  # For teachers does not open onto nothing
    said = [child.value for child in tutor.teachers.body.children if child.layout.display != "none"]
    assert said and "same position and the same cards" in said[0]


def test_try_another_position_goes_through_the_positions(tmp_path):
    other = dict(BLOCKED, name="Another", cards={"green-S": 3, "blue-S": 2, "red-R": 4})
    tutor = RaceTutor.from_scenario([BLOCKED, other], stop_after="movement")
    tutor.finish_button.click()
    assert tutor.done and tutor.race.phase is Phase.END_CARDS  # the lesson is about movement: it stops there
    assert tutor.another_button.description.startswith("Try another position")
    tutor.another_button.click()
    assert tutor.title == "Another" and tutor.race.riders["green-S"].played.value == 3 and not tutor.done
    assert "Another" in tutor.header.value and "A new position." in tutor.narration.value


def test_a_position_without_another_names_the_button_it_has():
    """Issue 22: "Try another position" is said only where that button exists; alone, it is "Watch it again"."""
    tutor = RaceTutor.from_scenario(BLOCKED, stop_after="movement")
    tutor.finish_button.click()
    assert tutor.done and tutor.another_button.description.startswith("Watch it again")
    assert "Choose 'Watch it again'" in tutor.status.text and "another position" not in tutor.status.text.lower()
    assert "another position" not in tutor.next_button.tooltip.lower()


def test_the_header_names_a_teaching_track_once():
    tutor = RaceTutor.new_race("sprint-20", title="Sprint 20 (teaching track)")
    assert tutor.header.value.count("Sprint") == 1


def test_the_finished_race_shows_a_results_table():
    tutor = RaceTutor.from_scenario(SPRINT_FINISH)
    tutor.finish_button.click()
    results = tutor.results.value
    assert "<th>Place</th>" in results and "Exhaustion cards taken" in results
    assert results.index("red-S") < results.index("blue-R") and "1st" in results and "past the line" in results


def test_disabled_buttons_say_why(tutor):
    assert tutor.next_button.disabled and "Draw and play a card for" in tutor.next_button.tooltip
    tutor.draw_buttons["red-S"].click()
    assert tutor.draw_buttons["red-R"].tooltip == "Play red-S's card first (one rider at a time)"
    assert tutor.next_button.tooltip == "Play red-S's card first"


def test_button_colours_have_enough_contrast():
    from tutor.ui.controls import BUTTON_COLOURS, DISABLED_COLOURS
    from tutor.ui.drawing import luminance

    def contrast(a, b):
        hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    for background, ink in [*BUTTON_COLOURS.values(), DISABLED_COLOURS]:
        assert contrast(background, ink) >= 4.5, (background, ink)


def test_a_mouse_press_on_the_2x_canvas_lands_on_the_square_under_it():
    tutor = RaceTutor.new_race(
        stage="sprint-20",
        teams=("blue", "red"),
        bots={"blue": "heuristic"},
        human_teams=("red",),
        place="manual",
        seed=1,
    )
    view = tutor.scene.view
    top = tutor.scene.canvas[-1]
    top._handle_frontend_event(None, {"event": "mouse_down", "x": 2 * view.cx(2), "y": 2 * view.cy(0)}, [])
    assert tutor.race.riders["red-S"].position == (2, 0)


def press(tutor, x, y):
    """A mouse press on the 2x canvas at (x, y) in the view's units (CSS pixels), as the browser sends it."""
    tutor.scene.canvas[-1]._handle_frontend_event(None, {"event": "mouse_down", "x": 2 * x, "y": 2 * y}, [])


@pytest.mark.parametrize("riders", [("red",), ("red", "blue", "green")], ids=["full columns", "narrow columns"])
def test_a_click_on_a_drawn_card_on_the_board_plays_it(riders):
    """Issue 37 (FR 02): a card drawn on the card panel is played by clicking it, not only by its small button."""
    tutor = RaceTutor.new_race(
        stage="sprint-20",
        teams=("red", "blue", "green"),
        bots={"blue": "heuristic", "green": "heuristic"} if riders == ("red",) else {},
        human_teams=riders,
        seed=3,
    )
    tutor.draw_buttons["red-R"].click()
    hand = list(tutor.race.riders["red-R"].hand)
    slots = {(rid, slot): box for rid, slot, box in tutor._panel().hand_slots(tutor.race, tutor.scene.view)}
    x, y, w, h = slots[("red-R", 2)]
    with recorded_commands() as log:
        tutor.redraw()
    drawn = [c.args[:3] for c in log.named("fillText") if c.args[0] == str(hand[2])]
    assert any(abs(dx - (x + w / 2)) < 1 and abs(dy - (y + h / 2 + 2)) < 1 for _, dx, dy in drawn)  # drawn there
    press(tutor, x + 2, tutor.scene.view.panel_top + 4)  # above the cards: nothing
    assert tutor.race.riders["red-R"].played is None
    press(tutor, x + w - 3, y + h - 3)
    assert tutor.race.riders["red-R"].played == hand[2] and tutor.status.kind != "warning"
    assert [str(c) for c in tutor.race.riders["red-R"].recycled] == [str(c) for k, c in enumerate(hand) if k != 2]


def test_a_click_on_a_drawn_card_on_the_board_bids_it_in_the_breakaway():
    """FR 10: the bids use the same card panel; a drawn card there is bid by clicking it."""
    from tutor.flamme_rouge.widgets import BreakawayBid

    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green", "black", "white"), learner="red", seed=0)
    bid.draw_buttons[bid.hand.free[0]].click()
    rider = bid.holding
    hand = list(bid.race.riders[rider].hand)
    slots = {(rid, slot): box for rid, slot, box in bid._panel().hand_slots(bid.race, bid.scene.view)}
    x, y, w, h = slots[(rider, 1)]
    press(bid, x + w / 2, y + h / 2)
    assert bid.race.riders[rider].bids[-1] == hand[1] and bid.status.kind != "warning"


def test_a_click_on_a_rider_s_empty_hand_slots_plays_nothing():
    tutor = RaceTutor.new_race(
        stage="sprint-20", teams=("red", "blue"), bots={"blue": "heuristic"}, human_teams=("red",), seed=3
    )
    state = tutor.race.to_dict()
    x, y, w, h = tutor._panel().hand_slots(tutor.race, tutor.scene.view)[0][2]
    press(tutor, x + w / 2, y + h / 2)
    assert tutor.race.to_dict() == state


def test_the_card_panel_follows_the_rider_being_played_past_the_fourth():
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue", "green"), bots={}, human_teams=None)
    tutor.draw_buttons["green-R"].click()
    assert tutor._panel().columns(tutor.race)[0] == "green-R"


# ----- issue 7: new kinds of question, a new position on Try again, honest marks --------------------------------

OTHER_BLOCKED = dict(BLOCKED, cards={"green-S": 3, "blue-S": 4, "red-R": 6})


def click_square(q, square, lane=0):
    view = q.scene.view
    top = q.scene.canvas[-1]
    top._handle_frontend_event(None, {"event": "mouse_down", "x": 2 * view.cx(square), "y": 2 * view.cy(lane)}, [])


def test_a_square_question_is_answered_by_clicking_the_board():
    q = quiz()
    click_square(q, 7)
    assert q.square_input.value == 7 and "Your answer: square 7" in q.status.text
    with recorded_commands() as log:
        q.redraw()
    assert "your answer: 7" in log.texts()  # the guess is outlined on the board before Reveal
    q.reveal_button.click()
    assert q.is_right is True
    click_square(q, 9)  # after Reveal the board no longer answers
    assert q.square_input.value == 7
    assert "data-right='1'" in q.feedback.value and f"data-quiz='{q.id}'" in q.feedback.value


def test_a_click_behind_the_rider_is_refused():
    q = quiz()
    click_square(q, 1)
    assert q.square_input.value is None and q.status.kind == "warning" and "backwards" in q.status.text


def test_try_again_offers_a_different_position():
    q = PredictQuiz([BLOCKED, OTHER_BLOCKED], question="Where does red-R end?", rider="red-R")
    first = q.correct_answer
    q.square_input.value = first
    q.reveal_button.click()
    q.retry_button.click()
    assert q.position == 1 and q.race.riders["red-R"].played.value == 6 and q.is_right is None
    assert q.correct_answer != first or q.race.to_dict() != scenarios_build(BLOCKED)


def scenarios_build(data):
    from tutor.flamme_rouge import scenario

    return scenario.build(data).to_dict()


def test_the_answer_is_never_under_a_cross_and_crosses_go_with_the_riders_own_move():
    q = quiz()
    q.square_input.value = 7
    q.reveal_button.click()
    marks = q._highlights()
    assert marks.blocked == (8,) and 7 not in marks.blocked
    s = PredictQuiz(BLOCKED, question="After slipstream?", rider="red-R", after="slipstream")
    s.square_input.value = s.correct_answer
    s.reveal_button.click()
    assert s._highlights().blocked == ()  # slipstream is over: no cross is left standing


def test_the_played_cards_show_their_movement_order_only_after_reveal():
    q = quiz()
    assert [rid for rid, _ in q._panel().played] == ["blue-S", "green-S", "red-R"]  # by name: the order is a hint
    q.square_input.value = 7
    q.reveal_button.click()
    panel = q._panel()
    assert [rid for rid, _ in panel.played] == ["green-S", "blue-S", "red-R"]
    assert panel.moved == {"green-S", "blue-S", "red-R"}


def test_who_moves_first():
    q = PredictQuiz(BLOCKED, question="Who moves first?", ask="first")
    assert q.correct_answer == "green-S" and set(q.choice_input.options) >= {("red-R", "red-R")}
    q.choice_input.value = "red-R"
    q.reveal_button.click()
    assert q.is_right is False
    assert "green-S moves first" in q.feedback.value and "closest to the finish" in q.feedback.value


def test_which_card_reaches_a_square():
    q = PredictQuiz(
        BLOCKED,
        question="Which card takes red-R to square 7?",
        ask="card",
        rider="red-R",
        choices=(2, 4, 5, 7),
        target=7,
    )
    assert q.correct_answer == {"4", "5"}  # 4 lands on 7; 5 would reach the full square 8 and falls back to 7
    assert dict(q._panel().played)["red-R"] == ""  # the learner's card is not shown before Reveal
    q.choice_input.value = "7"
    q.reveal_button.click()
    assert q.is_right is False and "4 or 5 takes red-R to square 7" in q.feedback.value
    q.retry_button.click()
    q.choice_input.value = "4"
    q.reveal_button.click()
    assert q.is_right is True


def test_who_wins():
    q = PredictQuiz(SPRINT_FINISH, question="Who wins?", ask="winner")
    assert q.correct_answer == "red-S"
    q.choice_input.value = "red-S"
    q.reveal_button.click()
    assert q.is_right is True and "red-S wins" in q.feedback.value


def test_who_is_exhausted_gets_feedback_rider_by_rider():
    q = PredictQuiz(SLIPSTREAM, question="Who takes an exhaustion card?", ask="exhausted")
    q.rider_checks["a"].value = q.rider_checks["b"].value = True
    q.reveal_button.click()
    feedback = q.feedback.value
    assert "✓ a (square 1) takes an exhaustion card: square 2 in front of it is empty; you ticked it" in feedback
    assert "✗ b (square 6) takes none: square 7 in front of it is taken; you ticked it" in feedback
    assert "✗ g" in feedback and "you left it unticked" in feedback


def test_a_whole_race_never_shows_internal_names_and_ends_with_results():
    import re

    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue", "green"), seed=5, place="manual")
    seen = []
    for _ in range(200):
        race = tutor.race
        if race.phase is Phase.FINISHED:
            break
        if tutor.placing_rider:
            tutor.place_button.click()
        elif race.phase.choosing:
            rider = tutor.active_rider
            if rider:
                tutor.card_buttons[0].click()
            else:
                tutor.draw_buttons[race.waiting_riders()[0]].click()
        else:
            finish_round(tutor)
        seen += [tutor.status.text, tutor.header.value, *(b.tooltip for b in tutor.card_buttons)]
    assert tutor.race.phase is Phase.FINISHED
    text = " ".join(seen) + tutor.narration.value + tutor.results.value
    assert not re.search(r"\blane \d|\['|\[\d", text)
    assert "Results" in tutor.results.value and tutor.race.winner in tutor.results.value


def test_the_end_phase_lesson_shows_every_riders_cards():
    tutor = RaceTutor.from_scenario("lessons/flamme_rouge/scenarios/exhaustion_board.json")
    with recorded_commands() as log:
        tutor.redraw()
    assert len(tutor.race.riders) == 5
    for rid, rider in tutor.race.riders.items():
        assert f"{rid}  ({rider.kind})" in log.texts()


# ----- the board keeps up: Skip, and a click never waits behind an animation ----------------------------------


def test_skip_shows_the_end_of_finish_round_at_once_and_a_new_click_drops_the_animation(tutor):
    from tests.manual_clock import ManualClock

    tutor.scene.clock = clock = ManualClock()
    play_both(tutor)
    assert tutor.skip_button.disabled
    tutor.finish_button.click()
    assert tutor.scene.playing and not tutor.skip_button.disabled
    with recorded_commands() as log:
        tutor.skip_button.click()
        clock.advance(30)
    assert log.messages == 1 and not tutor.scene.playing and tutor.skip_button.disabled
    assert tutor.paused and "Start round 2" in tutor.next_round_button.description
    tutor.back_button.click()
    tutor.finish_button.click()  # ten seconds of animation ...
    with recorded_commands() as log:
        tutor.back_button.click()  # ... that a new click drops: its picture goes out at once, and nothing after
        clock.advance(30)
    assert log.messages == 1 and not tutor.scene.playing and clock.pending == []


def test_a_slipstream_quiz_reveal_shows_the_packs_and_chips_like_the_main_board():
    """Issue 22 item 7 (FR 04): the reveal outlines the packs and shows every "+1" chip, not only the rider's."""
    scenarios = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge" / "scenarios"
    q = PredictQuiz(
        [str(scenarios / "slipstream_double.json")],
        rider="red-S",
        after="slipstream",
        question="Where is red-S after slipstream?",
    )
    q.square_input.value = q.correct_answer
    q.reveal_button.click()
    gained = {rid for e in q._events if isinstance(e, Slipstreamed) for rid in e.riders}
    marks = q._highlights()
    assert gained and set(marks.slipstreamed) == gained and marks.packs


def test_after_reveal_focus_goes_to_try_again_and_after_try_again_to_the_answer(monkeypatch):
    sent: list[object] = []
    monkeypatch.setattr(widgets.DOMWidget, "focus", lambda self: sent.append(self))
    q = quiz()
    q.square_input.value = q.correct_answer
    q.reveal_button.click()
    assert q.focused is q.retry_button and sent == [q.retry_button]
    assert "Right!" in q.status.text and f"square {q.correct_answer}" in q.status.value  # read in the live region
    q.retry_button.click()
    assert q.focused is q.square_input and sent[-1] is q.square_input and not q.square_input.disabled


def test_reveal_cites_each_rule_once():
    """Issue 22: the rule that decided the answer is not cited again in the step-by-step story."""
    q = quiz()
    q.square_input.value = q.correct_answer
    q.reveal_button.click()
    shown = q.feedback.value + q.narration.value
    rules = {rule for event in q._events for rule in event.rules}
    assert rules and "The rule that decided it" in q.feedback.value and "step by step" in q.narration.value
    for rule in rules:
        assert shown.count(html.escape(rule.text)) <= 1, rule.text


def test_teacher_tools_sit_in_a_closed_for_teachers_section_and_the_log_is_collapsed(tutor):
    """Issue 22: the board, one prompt row, one compact row; the shuffle number closed under "For teachers"; the
    position code a learner types behind "Open a position code" in the row itself (issue 37)."""
    assert not tutor.teachers.open and tutor.teachers.body.layout.display == "none"
    assert tutor.seed in tutor.teachers.body.children and tutor.open_box not in tutor.teachers.body.children
    assert tutor.position_code.button in tutor.secondary.children and not tutor.position_code.open
    assert tutor.position_code.button.description == "▸ Open a position code"
    assert tutor.position_code.body in tutor.children and tutor.open_box in tutor.position_code.body.children
    tutor.position_code.button.value = True  # one click, no "For teachers" to find
    assert tutor.position_code.body.layout.display is None and not tutor.teachers.open
    assert tutor.open_box.text.description == "Position code"  # the code box has a label
    assert tutor.seed not in tutor.secondary.children and tutor.teachers.button in tutor.secondary.children
    assert {tutor.back_button, tutor.restart_button, tutor.speed, tutor.skip_button} <= set(tutor.secondary.children)
    assert tutor.status in tutor.prompt.children and not tutor.story.toggle.value
    assert tutor.next_button.layout.display == "none"  # the energy phase: Draw is the next step, not Next step
