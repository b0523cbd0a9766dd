"""Whole bot games run to the end (simulate_game)."""

from tutor.flanders import simulate_game


def test_simulate_game_returns_winners_turns_and_troops():
    result = simulate_game(players=3, seed=0)
    assert result.winners and set(result.winners) <= {"p1", "p2", "p3"}
    assert result.turns > 0
    assert set(result.troops) == {"p1", "p2", "p3"}
