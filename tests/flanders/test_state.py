"""The API: JSON round-trips, undo, illegal actions that change nothing, seeded games, the bots' randomness in the
state, one driver (``autoplay``)."""

from __future__ import annotations

import json
import random

import pytest

from tutor.core.errors import RuleError
from tutor.flanders import FIXED, EndTurn, Game, Phase, Play, Roll, Stop, Take, autoplay, make_bot, simulate_game


def advance(game: Game, actions: int, seed: int = 0) -> None:
    """Play ``actions`` random legal actions."""
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])


def test_json_round_trip_mid_game_replays_the_same_future():
    game = Game.new(3, seed=5)
    advance(game, 25, seed=1)
    data = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(data)
    assert copy.to_dict() == game.to_dict()
    advance(game, 60, seed=2)
    advance(copy, 60, seed=2)
    assert copy.to_dict() == game.to_dict()


def test_undo_restores_every_earlier_state():
    game = Game.new(2, seed=9)
    states = []
    rng = random.Random(3)
    for _ in range(40):
        if game.is_over:
            break
        states.append(game.to_dict(history=False))
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])
    for state in reversed(states):
        game.undo()
        assert game.to_dict(history=False) == state
    assert not game.can_undo


ILLEGAL = [
    Roll(),
    Roll((7, 1, 1)),
    Take(2),
    Take(9),
    Take(12),
    Stop(),
    Play(FIXED, 1),
    Play(0, 1),
    Play(999, 1),
    Play(5, 9),
    EndTurn((0,)),
    EndTurn((999,)),
]


def test_illegal_actions_raise_a_rule_error_and_leave_the_state_unchanged():
    raised = 0
    for seed in range(30):
        game = Game.new(3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            for action in ILLEGAL:
                if action in legal:
                    continue
                before = game.to_dict()
                try:
                    game.apply(action)
                except RuleError as exc:
                    raised += 1
                    assert str(exc)
                    assert game.to_dict() == before, (action, exc)
                else:
                    game.undo()  # legal after all (e.g. a card id that happens to be held): undo it
                    assert game.to_dict() == before
            game.apply(legal[int(rng.random() * len(legal))])
    assert raised > 1000


def test_every_legal_action_is_accepted():
    for seed in range(20):
        game = Game.new(4, seed=seed, history=False)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if game.phase is Phase.RESOLVE:
                for action in legal:
                    assert game.is_legal(action), action
            game.apply(legal[int(rng.random() * len(legal))])


def test_events_are_json_data_citing_rules():
    game = Game.new(3, bots=dict.fromkeys(("p1", "p2", "p3"), "bold"), seed=2)
    events = list(game.setup_events) + autoplay(game)
    assert game.is_over
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        assert data["rules"] and all(r.startswith("iff.") for r in data["rules"]), data
        assert isinstance(data["automatic"], bool)
    assert events[-1].kind == "GameOver"


def test_same_seed_same_game():
    a, b = (
        simulate_game(4, "cautious,bold,threshold,threshold:1", seed=11),
        simulate_game(4, "cautious,bold,threshold,threshold:1", seed=11),
    )
    assert a.game.to_dict() == b.game.to_dict() and a.winners == b.winners and a.turns == b.turns
    assert simulate_game(4, seed=12).game.to_dict() != a.game.to_dict()


def test_a_bots_choice_changes_nothing_and_never_touches_the_dice():
    """A bot reads the state (its tie-break is the game's ``bot_draw``); the dice stream is the game's alone."""
    for name in ("cautious", "bold", "threshold"):
        game = Game.new(3, seed=4)
        bot = make_bot(name)
        while not game.is_over:
            state = game.to_dict()
            action = bot.choose(game)
            assert game.to_dict() == state
            game.apply(action)


def test_the_bots_randomness_is_in_the_state_restored_by_undo_and_json():
    """Undo, or a JSON copy, replays a bot's choice exactly, ties included."""
    ids = ("p1", "p2", "p3")
    game = Game.new(3, bots=dict.fromkeys(ids, "bold"), seed=6)
    for _ in range(40):
        before = game.to_dict(history=False)
        copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        events = autoplay(game, limit=1)
        assert autoplay(copy, limit=1) == events
        game.undo()
        assert game.to_dict(history=False) == before
        assert autoplay(game, limit=1) == events


def test_any_mix_of_bots_and_people():
    """A learner (p2) plays against two bots: ``autoplay`` plays the bots' turns and stops at the learner's."""
    game = Game.new(3, bots={"p1": "bold", "p3": "cautious"}, seed=8)
    learner = random.Random(0)
    while not game.is_over:
        autoplay(game)
        assert game.is_over or game.player.id == "p2"
        while not game.is_over and game.player.id == "p2":
            legal = game.legal_actions()
            game.apply(legal[int(learner.random() * len(legal))])
    assert game.winners


def test_autoplay_plays_the_players_not_listed_as_people_and_stops_after_a_limit():
    game = Game.new(2, seed=3)  # no bot names: by default autoplay waits for the people
    assert autoplay(game) == [] and game.phase is Phase.ROLL
    one = autoplay(game, people=("p2",), limit=1)  # p1 is played by the default bot, one action
    assert one[0].kind == "DiceRolled" and (game.phase is Phase.CHOOSE or one[1].kind == "Busted")
    autoplay(game, people=("p2",))
    assert game.is_over or game.player.id == "p2"


@pytest.mark.parametrize("name", ["nobody", "threshold:x", "bold:2"])
def test_unknown_bot_names(name):
    with pytest.raises(ValueError, match="bot"):
        make_bot(name)
