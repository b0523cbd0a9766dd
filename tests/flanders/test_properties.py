"""Properties over thousands of random games: cards conserved, troops never negative, no pawn past the
objective line, the odds the engine states are the dice's, every game ends, the same seed gives the same game."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flanders import Game, odds, simulate_game
from tutor.flanders.bots import MAX_ROUNDS

from .helpers import all_cards

BOTS = ["cautious", "bold", "threshold", "threshold:0.2", "threshold:2"]


def check(game: Game) -> None:
    assert all_cards(game) == list(range(len(game.cards))), "a card was lost or duplicated"
    assert all(p.troops >= 0 for p in game.players)
    assert all(0 <= p.pawn <= game.battlefield.objective for p in game.players)
    assert len(set(game.used)) == len(game.used)


def rolled_bust_chance(game: Game) -> Fraction:
    """The bust chance of the position counted over the 216 rolls, from the spaces' cards (not from ``odds``)."""
    open_spaces = {s for s, card in game.spaces.items() if card is not None} | (set() if game.on_nine else {9})
    busts = sum(not {a + b, a + c, b + c} & open_spaces for a, b, c in product(range(1, 7), repeat=3))
    return Fraction(busts, 216)


def check_odds(game: Game) -> None:
    """The engine's stated odds are the dice's, and are ``odds.py``'s for the position."""
    held = [game.cards[c] for c in game.held()]
    assert game.bust_probability() == odds.bust_probability(game.available()) == rolled_bust_chance(game)
    assert game.at_stake() == odds.bust_risk(held) == sum(card.risk for card in held)
    assert (
        game.expected_bust_loss()
        == odds.expected_bust_loss(game.available(), held)
        == rolled_bust_chance(game) * game.at_stake()
    )


def random_game(players: int, seed: int) -> Game:
    """A game of random legal actions (a random agent with its own generator), checked after every action."""
    game = Game.new(players, seed=seed, history=False)
    agent = random.Random(-seed - 1)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal
        game.apply(legal[int(agent.random() * len(legal))])
        check(game)
        assert game.round <= MAX_ROUNDS, f"seed {seed}: no end"
    assert game.winners
    return game


def test_the_stated_odds_are_the_dices_in_every_position_of_random_games():
    """Game.bust_probability() == odds.bust_probability(game.available()) == the count over 216 rolls."""
    positions = 0
    for seed in range(60):
        game = Game.new(2 + seed % 3, seed=seed, history=False)
        agent = random.Random(seed)
        while not game.is_over:
            if game.phase.value in ("roll", "again"):
                check_odds(game)
                positions += 1
            legal = game.legal_actions()
            game.apply(legal[int(agent.random() * len(legal))])
    assert positions > 1000


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
