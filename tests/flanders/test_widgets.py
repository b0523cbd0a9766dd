"""Headless tests of the In Flanders Field widgets: click the buttons (and the board), check state and text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.flanders.helpers import position
from tests.manual_clock import ManualClock
from tutor.flanders import Phase
from tutor.flanders.events import DiceRolled
from tutor.flanders.widgets import FlandersQuiz, GameTutor, RiskQuiz
from tutor.ui.pace import SKIP_WORDS
from tutor.ui.narration import NarrationLog
from tutor.ui.testing import recorded_commands

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "flanders" / "scenarios"


def tutor_at(game, **kwargs) -> GameTutor:
    t = GameTutor(game, **kwargs)
    t.debounce_s = 0
    return t


def lesson(name: str, **kwargs) -> GameTutor:
    t = GameTutor.from_scenario(SCENARIOS / f"{name}.json", **kwargs)
    t.debounce_s = 0
    return t


def enabled_pairs(t: GameTutor):
    return [b for b in t.pair_buttons if not b.disabled]


def test_roll_then_a_pair_button_takes_the_card_on_its_sum():
    t = tutor_at(position(2), dice=[(1, 2, 4)])
    assert t.status.text == "Your turn: choose 'Roll the dice'." and all(b.disabled for b in t.pair_buttons)
    t.roll_button.click()
    assert t.game.phase is Phase.CHOOSE and t.game.dice == (1, 2, 4)
    assert [b.description for b in t.pair_buttons] == [
        "1 + 2 = 3: take Infantry",
        "1 + 4 = 5: take Reserves",
        "2 + 4 = 6: take Tank",
    ]
    assert "rolls 1-2-4" in t.narration.value
    with recorded_commands() as log:  # no event loop here: the whole animation in one message
        t.pair_buttons[2].click()
    assert log.messages == 1 and "● 2 + 4 = 6: taken" in log.texts()
    assert [t.game.cards[c].name for c in t.game.taken] == ["Tank"] and t.game.spaces[6] is None
    assert t.game.phase is Phase.AGAIN and not t.stop_button.disabled and t.roll_button.description == "Roll again"
    assert "takes Tank (British); space 6 stays empty this turn" in t.narration.value
    assert "Choose two dice and take the card on the space of their sum" in t.narration.value  # the rule, cited


def test_a_click_on_a_card_space_of_the_board_takes_it():
    t = tutor_at(position(2), dice=[(1, 2, 4)])
    t.roll_button.click()
    x, y = t.board.geometry.space_rect(5).centre
    t._on_canvas_click(x, y)
    assert [t.game.cards[c].name for c in t.game.taken] == ["Reserves"]


@pytest.mark.parametrize("control", ["pair", "stop", "end", "canvas", "next"])
def test_a_click_at_the_wrong_time_warns_and_changes_nothing(control):
    t = tutor_at(position(2))
    before = t.game.to_dict(history=False)
    if control == "pair":
        t.pair_buttons[0].click()
    elif control == "stop":
        t.stop_button.click()
    elif control == "end":
        t.end_button.click()
    elif control == "canvas":
        t._on_canvas_click(*t.board.geometry.space_rect(4).centre)
    else:
        t.next_button.click()
    assert t.status.kind == "warning" and t.status.text
    assert t.game.to_dict(history=False) == before


def test_a_take_the_dice_do_not_offer_is_refused_with_the_rule():
    t = tutor_at(position(2), dice=[(1, 2, 4)])
    t.roll_button.click()
    t.take(7)
    assert t.status.kind == "warning" and "space 7 is not offered by the dice 1-2-4" in t.status.text
    assert t.game.phase is Phase.CHOOSE and t.game.taken == []


def test_a_double_click_runs_one_action():
    t = GameTutor(position(2))
    events = []
    real = t.game.apply
    t.game.apply = lambda action: events.extend(real(action)) or events  # type: ignore[method-assign]
    t.roll_button.click()
    t.roll_button.click()
    assert sum(isinstance(e, DiceRolled) for e in events) == 1


def test_the_forced_german_card_is_the_only_pair_offered():
    t = lesson("turn_first_roll", dice=[(1, 2, 4), (1, 6, 6)])
    t.roll_button.click()
    enabled_pairs(t)[0].click()
    t.roll_button.click()
    assert [b.description for b in enabled_pairs(t)] == ["1 + 6 = 7: take Machine Gun"]
    assert "only space 7 has a card for you, so you must take it" in t.status.text
    enabled_pairs(t)[0].click()
    assert "It was the only card offered, so it had to be taken." in t.narration.value


def test_the_status_shows_the_odds_of_rolling_again():
    t = lesson("push_your_luck")
    p = t.game.bust_probability()
    assert f"bust chance {float(p) * 100:.1f}%" in t.status.text and "4 troop pieces at stake" in t.status.text
    assert t.board.picture is not None and t.board.picture.odds is not None and t.board.picture.odds.bust == p


def continuing(t: GameTutor) -> bool:
    return t.continue_button.layout.display != "none"


def test_a_bust_stays_on_the_board_until_continue_then_the_turn_passes():
    t = lesson("push_your_luck", bots={"p2": "threshold"}, dice=[(1, 1, 1)])
    t.roll_button.click()
    assert t.game.player.id == "p2" and t.game.get_player("p1").troops == 2
    assert "Bust!" in t.narration.value
    assert "loses 4 troop pieces for the 4 grey symbols on its British cards (2 left)" in t.narration.value
    shown = t.board.picture
    assert shown is not None and shown.bust and shown.current == 0 and shown.lost == {"p1": 4}
    assert shown.players[0].troops == 2 and shown.caption.startswith("Bust: p1 loses 4 troop pieces")
    assert continuing(t) and t.next_button.disabled and t.roll_button.disabled and t.focused is t.continue_button
    assert "Continue" in t.status.text and "Round 1 · p2" not in t.narration.value and "Bust" in t.header.value
    t.next_button.click()  # not yet: the bust is still shown
    assert t.status.kind == "warning" and t.game.player.id == "p2" and t.board.picture is shown
    t.continue_button.click()
    assert not continuing(t) and t.next_button.disabled is False and t.roll_button.disabled
    assert t.focused is t.finish_button and "Bots play" in t.status.text
    assert "Round 1 · p2" in t.narration.value
    assert t.board.picture is not None and t.board.picture.current == 1 and not t.board.picture.bust


def prompts(t: GameTutor) -> list[str]:
    """Every text the prompt shows from now on."""
    said: list[str] = []
    show = t.status.show

    def recorded(text, kind="info", **kwargs):
        said.append(text)
        show(text, kind, **kwargs)

    t.status.show = recorded  # type: ignore[method-assign]
    return said


def recorded_frames(t: GameTutor) -> list:
    """Every (picture, ms) the board is asked to animate from now on."""
    frames: list = []
    animate = t.board.animate

    def recorded(these, **kwargs):
        frames.extend(these)
        animate(these, **kwargs)

    t.board.animate = recorded  # type: ignore[method-assign]
    return frames


def after_p1s_bust():
    t = lesson("push_your_luck", bots={"p2": "threshold"}, dice=[(1, 1, 1)])
    t.roll_button.click()
    t.continue_button.click()
    assert t.game.player.id == "p2" and t.bot_turn
    return t


def test_bots_play_replays_each_bot_step_on_the_board_with_its_sentence_in_the_prompt():
    t = after_p1s_bust()
    said, frames = prompts(t), recorded_frames(t)
    logged = len([line for _, lines in t.turns for line in lines])
    with recorded_commands() as log:  # no event loop here: the whole replay in one message, a sleep per frame
        t.finish_button.click()
    assert t.human_turn and not t.replaying and not continuing(t) and log.messages == 1
    assert len(log.sleeps()) == len(frames) - 1 > 10  # every step shown for its time (the end stays)
    told = [line.text for _, lines in t.turns for line in lines][logged:]
    assert any(line.startswith("p2 rolls") for line in told) and any(line.startswith("Bust!") for line in told)
    steps = [line.removesuffix(" " + SKIP_WORDS) for line in said]  # a long replay names Skip after each step
    assert [line for line in steps if line in told] == told  # each step's line in the prompt, in order
    rolls = [f for f, _ in frames if f.dice is not None and not f.rolling and f.caption.startswith("p2 rolls")]
    assert rolls and all(f.current == 1 for f in rolls)  # the bot's dice on the board, its turn marked
    final = frames[-1][0]
    assert final.current == 0 and [v.pawn for v in final.players] == [p.pawn for p in t.game.players]
    assert said[-1] == "Your turn: choose 'Roll the dice'." and t.focused is t.roll_button


def test_the_replay_plays_from_the_kernel_shows_only_skip_and_skip_jumps_to_the_learners_turn():
    t = after_p1s_bust()
    t.board.clock = clock = ManualClock()  # paced frame by frame, as in a kernel; time moves when told
    t.finish_button.click()
    assert t.replaying and t.board.playing and t.focused is t.skip_button and not t.skip_button.disabled
    shown = [
        b
        for b in (t.roll_button, t.stop_button, t.end_button, t.finish_button, t.next_button, *t.pair_buttons)
        if b.layout.display != "none"
    ]
    assert shown == [] and "The bots play" in t.header.value
    first = t.status.text
    assert first.startswith("p2 rolls")
    while t.status.text == first and clock.now < 5:  # the replay's own time moves on to its next step
        clock.advance(0.05)
    assert t.replaying and t.board.playing and t.status.text != first and t.status.text.startswith("p2 ")
    t.skip_button.click()
    assert not t.replaying and not t.board.playing and t.human_turn
    assert t.focused is t.roll_button and t.status.text == "Your turn: choose 'Roll the dice'."
    assert t.board.picture is not None and t.board.picture.current == 0


def test_with_no_animation_bots_play_draws_the_end_at_once_and_says_what_changed():
    t = after_p1s_bust()
    t.motion.value = True
    with recorded_commands() as log:
        t.finish_button.click()
    assert t.human_turn and log.sleeps() == [] and t.focused is t.roll_button
    assert t.status.changed.startswith("p2 rolls")


def test_focus_follows_play_to_the_control_the_prompt_names():
    t = lesson("push_your_luck", bots={"p2": "threshold"}, dice=[(2, 3, 4), (1, 1, 1)])
    t.roll_button.click()  # 2-3-4: a card
    assert t.game.phase is Phase.CHOOSE and t.focused is enabled_pairs(t)[0]
    t.focused.click()
    assert t.game.phase is Phase.AGAIN and t.focused is t.roll_button and t.roll_button.description == "Roll again"
    t.stop_button.click()
    assert t.game.phase is Phase.RESOLVE and t.focused is t.play_buttons[0]
    while t.play_buttons:
        t.play_buttons[0].click()
        assert t.focused is (t.play_buttons[0] if t.play_buttons else t.end_button)
    t.end_button.click()
    assert t.bot_turn and t.focused is t.finish_button
    t.next_button.click()
    assert t.focused is (t.next_button if t.bot_turn and not continuing(t) else t.next_control())
    t.back_button.click()
    assert t.focused is t.next_control() is t.finish_button
    t.restart_button.click()
    assert t.focused is t.roll_button and "Roll" in t.status.text


def test_only_the_controls_the_prompt_names_are_on_the_page():
    t = tutor_at(position(2), dice=[(1, 2, 4)])

    def shown():
        return [w for w in t.actions.children if w.layout.display != "none"]

    assert shown() == [t.roll_button]
    t.roll_button.click()
    assert shown() == t.pair_buttons
    t.pair_buttons[0].click()
    assert shown() == [t.roll_button, t.stop_button]
    t.stop_button.click()
    assert shown() == [*t.play_buttons, t.end_button] and all(b.description.startswith("Play ") for b in t.play_buttons)
    assert t.teachers.open is False and t.story.toggle.value is False  # teacher tools and the log start closed
    assert t.seed in t.teachers.body.children


def test_stop_then_play_cards_in_order_and_keep_a_may_retain_card():
    t = lesson("troops_retain", bots={"p2": "cautious"})
    labels = [b.description for b in t.play_buttons]
    assert "Play Bayonet Charge: move 2 (sacrifice 1 troop piece)" in labels
    assert "Play Machine Gun: lose 1 troop piece" in labels
    next(b for b in t.play_buttons if b.description == "Play Bayonet Charge: move 2 (sacrifice 1 troop piece)").click()
    assert t.game.get_player("p1").pawn == 6 and t.game.get_player("p1").troops == 3
    assert "sacrifices a troop piece" in t.narration.value
    assert sorted(t.game.cards[c].name for c in t.keep_checks) == ["Mines", "Reserves"]
    assert not any(box.value for box in t.keep_checks.values())  # none ticked: the child decides
    t.keep_checks[next(c for c in t.keep_checks if t.game.cards[c].name == "Mines")].value = True
    t.end_button.click()
    p1 = t.game.get_player("p1")
    assert [t.game.cards[c].name for c in p1.retained] == ["Mines"] and p1.troops == 2  # the Machine Gun at the end
    assert "keeps Mines (May Retain)" in t.narration.value


def test_a_defensive_line_halts_and_a_tank_goes_on():
    t = lesson("lines_tank_mines")
    next(b for b in t.play_buttons if b.description == "Play Infantry: move 1").click()
    assert t.game.get_player("p1").pawn == 3 and t.game.halted
    assert "space 3 is a defensive line: the pawn stops there" in t.narration.value
    labels = [b.description for b in t.play_buttons]
    assert "Play Artillery Barrage: move 2" not in labels and "Play Artillery Barrage: move 2 + 1 Mines" in labels
    next(b for b in t.play_buttons if b.description == "Play Tank: move 2").click()
    assert t.game.get_player("p1").pawn == 5


def test_back_undoes_the_last_action_and_restart_starts_again():
    t = tutor_at(position(2), dice=[(1, 2, 4)])
    t.roll_button.click()
    t.back_button.click()
    assert t.game.phase is Phase.ROLL and "Back:" in t.narration.value
    t.back_button.click()
    assert t.status.kind == "warning" and "Nothing to undo" in t.status.text
    t.roll_button.click()
    t.restart_button.click()
    assert t.game.phase is Phase.ROLL and t.game.dice is None


def test_bots_turns_are_watched_step_by_step():
    t = GameTutor.new_game(3, seed=4)
    t.debounce_s = 0
    t.roll_button.click()
    while t.game.phase is Phase.CHOOSE or (t.human_turn and t.game.phase is Phase.AGAIN):
        if t.game.phase is Phase.CHOOSE:
            enabled_pairs(t)[0].click()
        else:
            t.stop_button.click()
    while t.human_turn and t.game.phase is Phase.RESOLVE:
        t.end_button.click()
    assert t.bot_turn and "Next step" in t.status.text
    steps = 0
    while t.bot_turn and steps < 200:
        if continuing(t):
            t.continue_button.click()
            continue
        before = t.game.to_dict(history=False)
        t.next_button.click()
        assert t.game.to_dict(history=False) != before
        steps += 1
    assert steps > 2 and t.human_turn
    assert "p2" in t.narration.value and "p3" in t.narration.value


def test_a_whole_game_is_played_to_its_end_by_clicking_with_a_results_table():
    t = GameTutor.new_game(3, seed=1)
    t.debounce_s = 0
    clicks = 0
    while t.game.phase is not Phase.FINISHED and clicks < 2000:
        clicks += 1
        phase = t.game.phase
        if continuing(t):
            t.continue_button.click()
        elif t.bot_turn:
            t.finish_button.click()
        elif phase is Phase.ROLL:
            t.roll_button.click()
        elif phase is Phase.CHOOSE:
            enabled_pairs(t)[0].click()
        elif phase is Phase.AGAIN:
            (t.roll_button if len(t.game.taken) < 2 else t.stop_button).click()
        elif t.play_buttons:
            t.play_buttons[-1].click()
        else:
            t.end_button.click()
        # focus always lands on a control that is on the page and enabled: the one the prompt names
        assert t.focused is t.next_control() and t.focused.layout.display != "none" and not t.focused.disabled
    assert t.game.phase is Phase.FINISHED
    assert "<caption>Results</caption>" in t.results.value and "winner" in t.results.value
    assert t.status.kind == "success" and "Game over" in t.status.text
    t.roll_button.click()
    assert t.status.kind == "warning" and "The game is over" in t.status.text


def test_the_quiz_on_a_forced_card_is_answered_by_clicking_the_board():
    q = FlandersQuiz(
        [SCENARIOS / "forced_a.json", SCENARIOS / "forced_b.json"], ask="take", question="Which space does p1 take?"
    )
    q.debounce_s = 0  # a learner's pause between the clicks (the one click rule drops a double click)
    assert q.board.picture is not None and q.board.picture.available == ()  # the answer is not marked before Reveal
    q.reveal_button.click()
    assert q.status.kind == "warning" and q.is_right is None
    q._on_canvas_click(*q.board.geometry.space_rect(7).centre)
    assert q.choice.value == 7
    q.reveal_button.click()
    assert q.is_right is True and "space 7 (Machine Gun) is the only space offered" in q.feedback.value
    q.retry_button.click()
    assert q.index == 1 and "5-6-6" in q.position_text.value and q.is_right is None
    q.choice.value = 0
    q.reveal_button.click()
    assert q.is_right is False and "You chose: no card" in q.feedback.value


@pytest.mark.parametrize(
    "ask, names, answer",
    [
        ("lost", ["bust_a"], 4),
        ("lost", ["retain_bust_a"], 3),
        ("pawn", ["lines_a"], 6),
        ("pawn", ["lines_b"], 10),
        ("winners", ["end_b"], ("p1", "p3")),
        ("winners", ["end_c"], ("p3",)),
    ],
)
def test_quiz_answers_come_from_the_engine(ask, names, answer):
    q = FlandersQuiz([SCENARIOS / f"{n}.json" for n in names], ask=ask, question="?")
    assert q.correct_answer == answer
    q.choice.value = answer
    q.reveal_button.click()
    assert q.is_right is True and "The rule that decided it" in q.feedback.value


def test_the_risk_quiz_compares_exact_bust_chances():
    q = RiskQuiz([(SCENARIOS / "risk_a1.json", SCENARIOS / "risk_b1.json")], question="Which is riskier?")
    a, b = (g.bust_probability() for g in q.games)
    assert q.correct_answer == ("A" if a > b else "B")
    q.choice.value = q.correct_answer
    q.reveal_button.click()
    assert q.is_right and f"B: {int(b * 216)} of the 216 rolls bust" in q.feedback.value
    assert "/" not in q.feedback.value.split("B:")[1].split(")")[0]


def test_the_game_ends_at_the_learners_own_german_card_and_the_results_cite_the_rule_that_ended_it():
    """iff.end.everyone-lost: the results are found from the GameOver event, and cite its rules."""
    import html

    from tutor.flanders import rules

    game = position(
        [{"id": "p1", "pawn": 6, "troops": 1}, {"id": "p2", "pawn": 7, "troops": 0}, {"id": "p3", "troops": 0}],
        taken=["Machine Gun", "Artillery Barrage"],
        phase="resolve",
    )
    t = tutor_at(game, humans=("p1",))
    [gun] = [b for b in t.play_buttons if b.description.startswith("Play Machine Gun")]
    gun.click()
    assert t.game.phase is Phase.FINISHED and t.game.winners == ["p2"] and t.play_buttons == []
    assert t.status.kind == "success" and "<caption>Results</caption>" in t.results.value
    assert html.escape(rules.EVERYONE_LOST.text) in t.results.value
    assert html.escape(rules.OBJECTIVE.text) not in t.results.value


def test_next_step_is_one_bot_action_and_bots_play_runs_to_the_learners_turn():
    t = lesson("push_your_luck", bots={"p2": "threshold"}, dice=[(1, 1, 1)])
    t.roll_button.click()  # a bust: the board stays on it until Continue, then p2's turn
    t.continue_button.click()
    t.next_button.click()
    assert t.game.player.id == "p2" and t.game.phase is not Phase.ROLL  # one action: the roll
    t.finish_button.click()
    assert t.game.is_over or (t.game.player.id == "p1" and t.game.phase is Phase.ROLL)


def test_lesson_4_says_when_the_learners_pawn_reaches_the_space_asked():
    t = lesson("lines_tank_mines", goal=7)
    for label in ("Play Tank: move 2", "Play Infantry: move 1"):
        next(b for b in t.play_buttons if b.description == label).click()
    assert t.game.get_player("p1").pawn == 5 and "reached space" not in t.narration.value
    next(b for b in t.play_buttons if b.description == "Play Artillery Barrage: move 2 + 1 Mines").click()
    assert t.game.get_player("p1").pawn == 7
    assert t.status.kind == "success" and "Well done: p1's pawn reached space 7." in t.status.text
    assert "reached space 7" in t.narration.value


def test_a_take_quiz_board_shows_the_dice_and_the_cards_but_not_which_sums_have_a_card():
    q = FlandersQuiz([SCENARIOS / "forced_a.json"], ask="take", question="Which space does p1 take?")
    with recorded_commands() as log:
        q.redraw()
    texts = log.texts()
    assert "empty" in texts and "Machine Gun" in texts  # the position: cards and empty spaces on the grid
    assert not any(" = " in t or t.startswith(("✓", "✗")) or "empty space" in t for t in texts), texts
    q.choice.value = 7
    q.reveal_button.click()
    with recorded_commands() as log:
        q.redraw()
    assert any(t.endswith("= 7: taken") for t in log.texts())  # after Reveal the chosen pair is named


def test_try_again_right_after_reveal_drops_the_reveal_animation_for_the_new_position():
    q = FlandersQuiz([SCENARIOS / "bust_a.json", SCENARIOS / "bust_b.json"], ask="lost", question="?")
    q.board.clock = clock = ManualClock()  # paced frame by frame, as in a kernel; time moves when told
    q.choice.value = 0
    q.reveal_button.click()
    assert q.board.playing and clock.pending  # the reveal plays, frame by frame, from the kernel
    q.retry_button.click()
    assert not q.board.playing and q.board.picture is not None
    assert clock.pending == []  # the reveal's next frame is called off ...
    clock.advance(10)  # ... so no dropped frame comes back, however long it waits
    assert q.index == 1 and q.board.picture is not None and q.board.picture.caption == "Your prediction?"


def test_the_results_list_players_out_of_troops_after_those_still_in():
    game = position(
        [
            {"id": "p1", "pawn": 14, "troops": 4},
            {"id": "p2", "pawn": 13, "troops": 0},
            {"id": "p3", "pawn": 11, "troops": 2},
        ],
        current="p3",
        taken=["Infantry"],
        phase="resolve",
    )
    t = tutor_at(game, humans=("p3",))
    next(b for b in t.play_buttons if b.description == "Play Infantry: move 1").click()
    t.end_button.click()
    assert t.game.phase is Phase.FINISHED and t.game.get_player("p3").pawn == 12
    ranked = re.findall(r"<tr[^>]*><td>(?:<b>)?\d[^<]*(?:</b>)?</td><td>(?:<b>)?(p\d)", t.results.value)
    assert ranked == ["p1", "p3", "p2"]  # p2's pawn is further on, but p2 has no troop piece left
    assert t.focused is t.restart_button


def test_a_take_position_with_several_right_spaces_says_so_and_no_position_names_its_answer():
    q = FlandersQuiz([SCENARIOS / "forced_c.json", SCENARIOS / "forced_b.json"], ask="take", question="?")
    assert len(q.correct_answer) > 1 and "Several answers are right here" in q.position_text.value
    q.retry_button.click()
    assert q.correct_answer == (11,) and "Several answers" not in q.position_text.value
    assert "Gas Attack" not in q.position_text.value and "Space 11" not in q.position_text.value
    assert q.focused is q.choice  # Try again: focus on the answer


def test_an_unticked_may_retain_card_stays_unticked_while_the_other_cards_are_played():
    t = lesson("troops_retain", bots={"p2": "cautious"})
    reserves = next(c for c in t.keep_checks if t.game.cards[c].name == "Reserves")
    t.keep_checks[reserves].value = False
    next(b for b in t.play_buttons if b.description.startswith("Play Machine Gun")).click()
    assert t.keep_checks[reserves].value is False


def test_the_log_is_the_shared_one_a_section_per_turn_the_newest_on_top():
    t = lesson("push_your_luck", bots={"p2": "threshold"}, dice=[(1, 1, 1)])
    t.roll_button.click()
    t.continue_button.click()
    assert isinstance(t.story, NarrationLog) and t.narration is t.story.html and t.story.toggle.value is False
    assert [heading for heading, _ in t.turns] == ["Round 1 · p1", "Round 1 · p2"]
    value = t.narration.value
    assert value.index("Round 1 · p2") < value.index("Bust!")  # the newest turn first, the bust under it
    assert value.count(" open>") == 1  # only the newest turn is open


def test_a_learner_opens_the_code_the_teacher_reads_out_from_the_lessons_row():
    """Issue 37: "Open a position code" is in the lesson's secondary row (not under "For teachers"); the code of a
    teacher's position shows that position on the lesson's board, Restart comes back to it, and a code for a board
    of another size changes nothing."""
    from tutor.flanders import position_code
    from tutor.flanders.widgets.workbench import START

    from tutor.ui.screen import SecondaryRow

    def rows(widget):
        found = [widget] if isinstance(widget, SecondaryRow) else []
        return found + [row for child in getattr(widget, "children", ()) for row in rows(child)]

    t = lesson("goal_move_a")
    (secondary,) = rows(t)
    assert t.position_code is not None and t.position_code.button in secondary.children
    assert t.position_code.button.description == "▸ Open a position code" and not t.position_code.open
    box = t.position_code.body.children[0]
    assert box not in t.teachers.body.children
    teacher = {**START, "spaces": {**START["spaces"], "3": "Tank"}, "players": [{"id": "p1", "pawn": 2}, {"id": "p2"}]}
    assert len(t.game.players) == 2
    box.text.value = position_code.to_code(teacher)
    box.button.click()
    assert box.status is t.status and len(box.children) == 1  # the lesson's one live region says it
    assert "does not open" not in t.status.text and t.status.kind != "warning", t.status.text
    assert t.game.get_player("p1").pawn == 2 and t.game.cards[t.game.spaces[3]].name == "Tank"
    t.restart_button.click()
    assert t.game.get_player("p1").pawn == 2 and t.game.cards[t.game.spaces[3]].name == "Tank"
    before = t.game.to_dict()
    box.text.value = position_code.to_code({**teacher, "players": [*teacher["players"], {"id": "p3"}]})
    box.button.click()
    assert "does not open" in box.status.text and "3 players" in box.status.text
    assert t.game.to_dict() == before


def test_a_quiz_board_has_no_live_odds_and_on_a_phone_is_that_much_shorter():
    """Issue 37: a quiz asks about a position, never about the odds of rolling on (taught in lesson 3): its board
    paints no "Live odds" and keeps no room for them, so on a phone its Reveal is on the screen with the grid."""
    q = FlandersQuiz([SCENARIOS / "forced_a.json"], ask="take", question="Which space does p1 take?")
    game = GameTutor.from_scenario(str(SCENARIOS / "forced_a.json"))
    for board in (q.board, game.board):
        board.fit_column(390)
    with recorded_commands() as log:
        q.redraw()
    assert "Live odds" not in log.texts() and "Machine Gun" in log.texts()
    assert q.board.height < game.board.height - 60


def test_the_odds_in_the_status_are_written_as_the_language_writes_them():
    """Issue 38: a Catalan page says "17,6 %" in the prompt as on the board, not "17.6 %"."""
    from tutor import i18n

    i18n.use_language("ca")  # conftest sets English back
    t = lesson("push_your_luck")
    p = float(t.game.bust_probability())
    assert f"probabilitat de fallada {p * 100:.1f}\u00a0%".replace(".", ",") in t.status.text, t.status.text


# ----- issue 40: who plays is part of the setup; the tutor never writes on the engine's players ----------------


@pytest.fixture
def players_written(monkeypatch):
    """Every write of ``bot`` on a player that already had one (a widget changing who plays after the setup)."""
    from tutor.flanders.game_state import Player

    writes: list[tuple[str, object]] = []
    plain = object.__setattr__

    def guarded(self, name, value):
        if name == "bot" and hasattr(self, "bot"):
            writes.append((self.id, value))
        plain(self, name, value)

    monkeypatch.setattr(Player, "__setattr__", guarded)
    return writes


def test_a_lessons_bots_are_set_up_by_the_engine_not_written_on_its_players(players_written):
    from tutor.flanders import position_code
    from tutor.ui.share import PositionBox

    t = lesson("push_your_luck", bots={"p2": "threshold"})
    assert [(p.id, p.bot) for p in t.game.players] == [("p1", None), ("p2", "threshold")]
    t.seed.value = 3
    t.restart_button.click()
    assert [(p.id, p.bot) for p in t.game.players] == [("p1", None), ("p2", "threshold")]
    [box] = [w for w in t.position_code.body.children if isinstance(w, PositionBox)]
    code = position_code.to_code({"game": "flanders", "players": [{"id": "p1", "pawn": 2}, {"id": "p2", "pawn": 5}]})
    assert box.open_code(code)
    assert [(p.id, p.pawn, p.bot) for p in t.game.players] == [("p1", 2, None), ("p2", 5, "threshold")]
    assert players_written == []


def test_scenario_build_sets_up_the_bots_and_refuses_a_bot_for_no_player():
    from tutor.flanders import scenario

    data = {"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}, {"id": "p3"}]}
    game = scenario.build(data, bots={"p3": "bold"})
    assert [p.bot for p in game.players] == [None, None, "bold"]
    assert [p.bot for p in scenario.build(data).players] == [None, None, None]
    with pytest.raises(ValueError, match="'p9' is not a player of this game"):
        scenario.build(data, bots={"p9": "bold"})
    with pytest.raises(ValueError, match="a bot is given by its name"):
        scenario.build(data, bots={"p2": ""})
