"""The pace of In Flanders Field's game tutor: "Bots play" replays the bots' turns in a few seconds (every step
still shown), "Watch each step" replays them slowly, the header's round follows the replay, and a full game
offers "Finish the game"."""

from __future__ import annotations

from tests.manual_clock import ManualClock
from tutor.flanders import Phase
from tutor.flanders.widgets import GameTutor
from tutor.ui.pace import BOT_TURN_MS, SKIP_WORDS, STEP_FLOOR_MS
from tutor.ui.screen import SecondaryRow


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
    rows = [w for w in t.children[1].children[1].children if isinstance(w, SecondaryRow)]
    assert len(rows) == 1 and t.watch in rows[0].children and t.skip_button in rows[0].children


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


class LearnerActs:
    """Records every action of the learner's player p1 the learner did not choose: each learner click applies
    one action of p1; any other action of p1 is the computer playing for the learner."""

    def __init__(self, t: GameTutor) -> None:
        self.allowed, self.by_computer = 0, []
        game, apply = t.game, t.game.apply

        def recorded(action):
            if game.player.id == "p1":
                if self.allowed:
                    self.allowed -= 1
                else:
                    self.by_computer.append(action)
            return apply(action)

        game.apply = recorded  # type: ignore[method-assign]

    def click(self, button) -> None:
        self.allowed = 1
        button.click()
        self.allowed = 0


def play_my_turn_as_the_learner(t: GameTutor, acts: LearnerActs) -> None:
    """``play_my_turn``, each click recorded as the learner's."""
    acts.click(t.roll_button)
    if t.game.phase is Phase.CHOOSE:
        acts.click(next(b for b in t.pair_buttons if not b.disabled))
    if t.continue_button.layout.display != "none":
        t.continue_button.click()
        return
    if t.game.phase is Phase.AGAIN:
        acts.click(t.stop_button)
    while t.play_buttons:
        acts.click(t.play_buttons[0])
    if t.game.phase is Phase.RESOLVE:
        acts.click(t.end_button)


def to_round_3(t: GameTutor) -> None:
    while t.game.round < 3:
        assert t.finish_game_button.layout.display == "none"
        play_my_turn(t) if t.human_turn else t.finish_button.click()


def test_finish_the_game_does_the_bots_turns_at_once_and_leaves_every_turn_of_the_learner_to_the_learner():
    t = full_game()
    to_round_3(t)
    acts = LearnerActs(t)
    assert t.human_turn and t.game.phase is Phase.ROLL
    assert t.finish_game_button.layout.display != "none" and "'Finish the game'" in t.status.text
    t.finish_game_button.click()
    assert t.finishing and t.human_turn and t.game.phase is Phase.ROLL and t.game.round == 3  # still the learner's
    assert t.status.text.startswith("From now on the bots' turns are done at once.")
    assert "'Roll the dice'" in t.status.text and t.focused is t.roll_button
    assert t.finish_game_button.layout.display == "none"
    turns = 0
    while not t.game.is_over:
        round_ = t.game.round
        play_my_turn_as_the_learner(t, acts)
        turns += 1
        assert not t.replaying and acts.by_computer == []
        if not t.game.is_over:
            assert t.human_turn and t.game.phase is Phase.ROLL and t.game.round == round_ + 1  # the bots played
            assert t.status.text.startswith("The bots played their turns at once")
            assert "'Roll the dice'" in t.status.text and t.focused is t.roll_button
    assert acts.by_computer == [] and turns >= 2  # every action of p1 was the learner's click
    assert "<caption>Results</caption>" in t.results.value and t.focused is t.restart_button
    assert "Round 4 · p2" in t.narration.value  # the log keeps every bot turn


def test_back_after_the_bots_quick_turns_gives_the_learner_their_turn_end_again():
    t = full_game()
    to_round_3(t)
    t.finish_game_button.click()
    acts = LearnerActs(t)
    play_my_turn_as_the_learner(t, acts)
    assert t.game.round == 4 and t.human_turn
    t.back_button.click()
    assert t.game.round == 3 and t.human_turn and t.finishing and acts.by_computer == []


def test_finish_the_game_on_the_bots_turn_plays_them_at_once_up_to_the_learners_turn():
    t = full_game()
    to_round_3(t)
    play_my_turn(t)
    assert t.bot_turn and t.finish_game_button.layout.display != "none"
    t.finish_game_button.click()
    assert t.human_turn and t.game.phase is Phase.ROLL and t.game.round == 4 and not t.replaying
    assert t.status.text.startswith("The bots played their turns at once") and t.focused is t.roll_button


def play_recklessly_until_out(t: GameTutor) -> None:
    """The learner always rolls again, until a bust leaves p1 without troop pieces (round 2 of this deal)."""
    while not t.game.is_out("p1"):
        assert t.finish_now_button.layout.display == "none"
        game = t.game
        if t.continue_button.layout.display != "none":
            t.continue_button.click()
        elif t.bot_turn:
            t.finish_button.click()
        elif game.phase in (Phase.ROLL, Phase.AGAIN):
            t.roll_button.click()
        elif game.phase is Phase.CHOOSE:
            next(b for b in t.pair_buttons if not b.disabled).click()
        else:
            while t.play_buttons:
                t.play_buttons[0].click()
            if t.game.phase is Phase.RESOLVE:
                t.end_button.click()


def test_when_the_learner_is_out_finish_the_game_now_is_the_next_control_and_ends_the_game_at_once():
    t = full_game()
    play_recklessly_until_out(t)
    assert t.bust_shown and t.finish_now_button.layout.display == "none"  # the bust first
    t.continue_button.click()
    assert not t.game.is_over and t.bot_turn
    assert t.finish_now_button.layout.display != "none" and t.focused is t.finish_now_button
    assert "no troop pieces left" in t.status.text and "'Finish the game now'" in t.status.text
    t.finish_now_button.click()
    assert t.game.is_over and not t.replaying and t.focused is t.restart_button
    assert t.finish_now_button.layout.display == "none" and "The results are below" in t.status.text
    table = t.results.value
    place = [p.id for p in t.game.standings()].index("p1") + 1
    said = f"You (p1) finished in place {place} of 4."
    assert said in table and table.index(said) < table.index("<table")
    assert "<tr class='tutor-you'><td><b>" in table and "<b>p1 (you)</b>" in table and table.count("tutor-you'") == 1
    t.back_button.click()
    assert not t.game.is_over and t.finish_now_button.layout.display != "none"


def test_the_results_say_you_won_when_the_learners_player_wins():
    from tutor.flanders.bots import autoplay
    from tutor.flanders.game import Game
    from tutor.flanders.widgets.game_words import results_html

    game = Game.new(["p1", "p2", "p3"], bots={"p1": "bold", "p2": "cautious", "p3": "threshold"}, seed=1)
    autoplay(game, people=())
    winner = game.winners[0]
    table = results_html(game, (winner,), None)
    assert f"You ({winner}) won" in table and f"<b>{winner} (you)</b>" in table
    assert "tutor-you" not in results_html(game, ("p1", "p2", "p3"), None)  # no "you" against nobody


def test_a_lesson_position_never_offers_finish_the_game():
    t = GameTutor.from_scenario("lessons/flanders/scenarios/push_your_luck.json", bots={"p2": "threshold"})
    assert t.finish_from_round is None and not t.offers_finish
