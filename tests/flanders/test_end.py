"""End of the game (seed 003, "Ending and Winning the Game"; RULES.md section 3): every condition and tie."""

from __future__ import annotations

from tutor.flanders import GameOver, Phase, TurnSkipped, rules

from .helpers import ids, position

OBJ = 14  # the Objective line of the tutor's battlefield


def arrive(game, card="Artillery Barrage"):
    """The current player stops and plays ``card`` for all its spaces, then ends the turn."""
    game.stop()
    card_id = ids(game, card)[0]
    events = game.play(card_id, game.cards[card_id].move)
    return events + game.end_turn()


def bust(game):
    return game.roll([1, 1, 1])


def test_reaching_the_objective_finishes_the_round_then_the_one_arrival_wins():
    """iff.end.objective, iff.end.one: the others still play their turn of the round."""
    game = position([{"id": "p1", "pawn": OBJ - 2}, {"id": "p2"}, {"id": "p3"}], taken=["Artillery Barrage"])
    events = arrive(game)
    assert "ObjectiveReached" in [e.kind for e in events]
    assert game.phase is Phase.ROLL and game.player.id == "p2"
    bust(game)
    assert game.player.id == "p3"
    events = bust(game)
    over = events[-1]
    assert isinstance(over, GameOver) and over.winners == ("p1",) and over.ending == "objective"
    assert over.cites(rules.OBJECTIVE) and over.cites(rules.ONE_ARRIVAL)
    assert game.winners == ["p1"] and game.is_over and game.legal_actions() == []


def test_several_arrivals_the_most_troops_wins():
    """iff.end.several."""
    game = position([{"id": "p1", "pawn": OBJ - 1, "troops": 3}, {"id": "p2", "pawn": OBJ - 1, "troops": 5}],
                    taken=["Infantry"], spaces={"3": "Infantry", "4": "Infantry"})
    arrive(game, "Infantry")
    game.roll([1, 2, 5])  # 3, 6, 7
    game.take(3)
    over = arrive(game, "Infantry")[-1]
    assert over.winners == ("p2",) and over.ending == "objective" and over.cites(rules.SEVERAL_ARRIVALS)
    assert not over.cites(rules.TIE)


def test_several_arrivals_with_equal_troops_share_the_win():
    """iff.end.several, iff.end.tie."""
    game = position([{"id": "p1", "pawn": OBJ - 1, "troops": 4}, {"id": "p2", "pawn": OBJ - 1, "troops": 4}],
                    taken=["Infantry"], spaces={"3": "Infantry", "4": "Infantry"})
    arrive(game, "Infantry")
    game.roll([1, 2, 5])  # 3, 6, 7
    game.take(3)
    over = arrive(game, "Infantry")[-1]
    assert over.winners == ("p1", "p2") and over.cites(rules.TIE)


def test_everyone_out_of_troops_ends_the_game_at_once_and_the_most_advanced_pawn_wins():
    """iff.end.everyone-lost: with three players, mid-round."""
    game = position([{"id": "p1", "pawn": 5, "troops": 1}, {"id": "p2", "pawn": 7, "troops": 0},
                     {"id": "p3", "pawn": 4, "troops": 0}], taken=["Infantry"])
    over = bust(game)[-1]
    assert isinstance(over, GameOver) and over.ending == "everyone-lost" and over.winners == ("p2",)
    assert over.cites(rules.EVERYONE_LOST) and game.round == 1


def test_everyone_out_of_troops_tie_on_the_most_advanced_pawn_is_shared():
    """iff.end.everyone-lost, iff.end.tie."""
    game = position([{"id": "p1", "pawn": 7, "troops": 1}, {"id": "p2", "pawn": 7, "troops": 0},
                     {"id": "p3", "pawn": 4, "troops": 0}], taken=["Infantry"])
    over = bust(game)[-1]
    assert over.winners == ("p1", "p2") and over.cites(rules.TIE)


def test_two_players_the_game_ends_when_one_has_no_troops_left():
    """iff.end.two-players, iff.d.two-player-winner: the other player wins."""
    game = position([{"id": "p1", "pawn": 9, "troops": 1}, {"id": "p2", "pawn": 2}], taken=["Infantry"])
    over = bust(game)[-1]
    assert over.ending == "two-players" and over.winners == ("p2",)
    assert over.cites(rules.TWO_PLAYERS) and over.cites(rules.TWO_PLAYER_WINNER)


def test_two_players_an_arrival_still_wins_when_its_last_troop_goes():
    """iff.d.two-player-winner: a pawn on the Objective line wins even if the game ends on troops."""
    game = position([{"id": "p1", "pawn": OBJ - 2, "troops": 1}, {"id": "p2"}],
                    taken=["Artillery Barrage", "Machine Gun"])
    over = arrive(game)[-1]
    assert over.ending == "two-players" and over.winners == ("p1",) and over.cites(rules.ONE_ARRIVAL)


def test_three_players_a_player_without_troops_is_skipped():
    """iff.d.out: with three or four players, a player with no troops takes no more turns."""
    game = position([{"id": "p1", "troops": 2}, {"id": "p2", "troops": 0}, {"id": "p3"}], taken=["Infantry"])
    events = bust(game)
    skipped = [e for e in events if isinstance(e, TurnSkipped)]
    assert [e.player for e in skipped] == ["p2"] and skipped[0].cites(rules.OUT_OF_TROOPS)
    assert game.player.id == "p3" and not game.is_over


def test_skipped_players_count_as_having_played_the_final_round():
    """iff.end.objective with iff.d.out: the round ends after the last player with troops."""
    game = position([{"id": "p1", "pawn": OBJ - 2}, {"id": "p2"}, {"id": "p3", "troops": 0}],
                    taken=["Artillery Barrage"])
    arrive(game)
    events = bust(game)
    assert [e.kind for e in events][-2:] == ["TurnSkipped", "GameOver"] and game.winners == ["p1"]
