"""Properties over thousands of random games: cards conserved, troops never negative, no pawn past the
objective line, every game ends, the same seed gives the same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flanders import Game, simulate_game
from tutor.flanders.simulate import MAX_TURNS

from .helpers import all_cards

BOTS = ["cautious", "bold", "threshold", "threshold:0.2", "threshold:2"]


def check(game: Game) -> None:
    assert all_cards(game) == list(range(len(game.cards))), "a card was lost or duplicated"
    assert all(p.troops >= 0 for p in game.players)
    assert all(0 <= p.pawn <= game.battlefield.objective for p in game.players)
    assert len(set(game.used)) == len(game.used)


def random_game(players: int, seed: int) -> Game:
    """A game of random legal actions (a random agent with its own generator), checked after every action."""
    game = Game.new(players, seed=seed, history=False)
    agent = random.Random(-seed - 1)
    turns = 0
    while not game.is_over:
        turns_before = sum(p.turns for p in game.players)
        legal = game.legal_actions()
        assert legal
        game.apply(legal[int(agent.random() * len(legal))])
        check(game)
        turns += sum(p.turns for p in game.players) - turns_before
        assert turns < MAX_TURNS, f"seed {seed}: no end"
    assert game.winners
    return game


def test_thousand_random_action_games():
    for seed in range(1000):
        random_game(2 + seed % 3, seed)


def test_two_thousand_bot_games():
    endings = set()
    for seed in range(2000):
        players = 2 + seed % 3
        bots = ",".join(BOTS[(seed + i) % len(BOTS)] for i in range(players))
        result = simulate_game(players, bots, seed)
        check(result.game)
        assert result.winners and set(result.winners) <= set(result.troops)
        endings.add(result.reason)
    assert endings == {"objective", "everyone-lost", "two-players"}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_same_seed_same_game(seed, players):
    a, b = random_game(players, seed), random_game(players, seed)
    assert a.to_dict() == b.to_dict()
