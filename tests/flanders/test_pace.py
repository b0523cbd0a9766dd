"""The pace of In Flanders Field's game tutor: "Bots play" replays the bots' turns in a few seconds (every step
still shown), "Watch each step" replays them slowly, the header's round follows the replay, and a full game
offers "Finish the game"."""

from __future__ import annotations

from tests.manual_clock import ManualClock
from tutor.flanders import Phase
from tutor.flanders.widgets import GameTutor
from tutor.ui.pace import BOT_TURN_MS, SKIP_WORDS, STEP_FLOOR_MS


def full_game(**kwargs) -> GameTutor:
    t = GameTutor.new_game(4, bots={"p2": "cautious", "p3": "bold", "p4": "threshold"}, seed=7, **kwargs)
    t.debounce_s = 0
    return t


def play_my_turn(t: GameTutor) -> None:
    """The learner rolls once, takes the first card offered and stops (or busts), plays its cards, ends."""
    t.roll_button.click()
    if t.game.phase is Phase.CHOOSE:
        next(b for b in t.pair_buttons if not b.disabled).click()
    if t.continue_button.layout.display != "none":
        t.continue_button.click()
        return
    if t.game.phase is Phase.AGAIN:
        t.stop_button.click()
    while t.play_buttons:
        t.play_buttons[0].click()
    if t.game.phase is Phase.RESOLVE:
        t.end_button.click()


def animated(t: GameTutor) -> list:
    frames: list = []
    animate = t.board.animate

    def recorded(these, **kwargs):
        frames.extend(these)
        animate(these, **kwargs)

    t.board.animate = recorded  # type: ignore[method-assign]
    return frames


def steps(frames: list) -> list[str]:
    """The sentences of the steps shown, in order (a step's tumbling dice and pawn walk counted once)."""
    told: list[str] = []
    for picture, _ in frames:
        if picture.step and (not told or told[-1] != picture.caption):
            told.append(picture.caption)
    return told


def bots_play(watch: bool) -> tuple[GameTutor, list]:
    t = full_game()
    play_my_turn(t)
    assert t.bot_turn
    t.watch.value = watch
    frames = animated(t)
    t.finish_button.click()
    assert t.human_turn and not t.replaying
    return t, frames


def test_bots_play_replays_three_bot_turns_in_a_few_seconds_each_step_still_shown():
    _, fast = bots_play(watch=False)
    _, slow = bots_play(watch=True)
    told = steps(slow)
    assert steps(fast) == told and len(told) > 15  # the same steps, in order
    slow_ms, fast_ms = sum(ms for _, ms in slow), sum(ms for _, ms in fast)
    assert slow_ms > 3 * BOT_TURN_MS * 2  # the slow replay: 3 turns, several seconds each
    assert fast_ms <= max(3 * BOT_TURN_MS, len(told) * STEP_FLOOR_MS) + 1
    assert all(ms >= STEP_FLOOR_MS - 1e-6 for p, ms in fast[:-1] if p.step)  # no step too short to see
    assert any(p.rolling for p, _ in slow) and not any(p.rolling for p, _ in fast)  # tumbling dice: slow only


def test_watch_each_step_sits_in_the_secondary_row_and_is_off_at_first():
    t = full_game()
    assert t.watch.description == "Watch each step" and not t.watch.value
    assert t.watch in t.children[1].children[1].children[3].children


def test_the_header_shows_the_round_of_the_step_the_replay_is_at():
    t = full_game()
    play_my_turn(t)
    t.board.clock = clock = ManualClock()  # paced as in a kernel
    t.finish_button.click()
    assert t.replaying and t.game.round == 2  # the engine is at round 2 already
    assert "Round 1 ·" in t.header.value and t.status.text.startswith("p2 ")
    rounds = set()
    while t.replaying:
        clock.advance(0.1)
        rounds.add("Round 1 ·" in t.header.value)
        if t.status.text.startswith("Round 2: p1's turn"):
            assert "Round 2 ·" in t.header.value  # the banner and the header agree
    assert rounds == {True, False} and "Round 2 ·" in t.header.value


def test_a_long_replay_names_skip_in_the_prompt():
    t = full_game()
    play_my_turn(t)
    t.watch.value = True  # the slow replay: far over three seconds
    t.board.clock = clock = ManualClock()
    t.finish_button.click()
    assert t.status.text.endswith(SKIP_WORDS)
    t.skip_button.click()
    assert not t.replaying and SKIP_WORDS not in t.status.text and clock.pending == []


def test_finish_the_game_is_offered_from_round_3_and_plays_every_turn_to_the_end():
    t = full_game()
    while t.game.round < 3:
        assert t.finish_game_button.layout.display == "none"
        play_my_turn(t) if t.human_turn else t.finish_button.click()
    assert t.human_turn and t.game.phase is Phase.ROLL
    assert t.finish_game_button.layout.display != "none" and "'Finish the game'" in t.status.text
    t.finish_game_button.click()
    assert t.game.phase is Phase.FINISHED and "<caption>Results</caption>" in t.results.value
    assert t.focused is t.restart_button and t.finish_game_button.layout.display == "none"
    assert "Round 3 · p2" in t.narration.value  # the log keeps every turn
    t.back_button.click()
    assert t.game.round == 3 and t.human_turn and t.game.phase is Phase.ROLL


def test_a_lesson_position_never_offers_finish_the_game():
    t = GameTutor.from_scenario("lessons/flanders/scenarios/push_your_luck.json", bots={"p2": "threshold"})
    assert t.finish_from_round is None and not t.offers_finish
