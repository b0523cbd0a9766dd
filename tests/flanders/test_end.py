"""End of the game (seed 003, "Ending and Winning the Game"; RULES.md section 3): every condition and tie."""

from __future__ import annotations

import pytest

from tutor.flanders import GameOver, Phase, TroopsLost, TurnSkipped, WrongPhaseError, rules

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
    game = position(
        [{"id": "p1", "pawn": OBJ - 1, "troops": 3}, {"id": "p2", "pawn": OBJ - 1, "troops": 5}],
        taken=["Infantry"],
        spaces={"3": "Infantry", "4": "Infantry"},
    )
    arrive(game, "Infantry")
    game.roll([1, 2, 5])  # 3, 6, 7
    game.take(3)
    over = arrive(game, "Infantry")[-1]
    assert over.winners == ("p2",) and over.ending == "objective" and over.cites(rules.SEVERAL_ARRIVALS)
    assert not over.cites(rules.TIE)


def test_several_arrivals_with_equal_troops_share_the_win():
    """iff.end.several, iff.end.tie."""
    game = position(
        [{"id": "p1", "pawn": OBJ - 1, "troops": 4}, {"id": "p2", "pawn": OBJ - 1, "troops": 4}],
        taken=["Infantry"],
        spaces={"3": "Infantry", "4": "Infantry"},
    )
    arrive(game, "Infantry")
    game.roll([1, 2, 5])  # 3, 6, 7
    game.take(3)
    over = arrive(game, "Infantry")[-1]
    assert over.winners == ("p1", "p2") and over.cites(rules.TIE)


def test_everyone_out_of_troops_ends_the_game_at_once_and_the_most_advanced_pawn_wins():
    """iff.end.everyone-lost: with three players, mid-round."""
    game = position(
        [
            {"id": "p1", "pawn": 5, "troops": 1},
            {"id": "p2", "pawn": 7, "troops": 0},
            {"id": "p3", "pawn": 4, "troops": 0},
        ],
        taken=["Infantry"],
    )
    over = bust(game)[-1]
    assert isinstance(over, GameOver) and over.ending == "everyone-lost" and over.winners == ("p2",)
    assert over.cites(rules.EVERYONE_LOST) and game.round == 1


def test_everyone_out_of_troops_tie_on_the_most_advanced_pawn_is_shared():
    """iff.end.everyone-lost, iff.end.tie."""
    game = position(
        [
            {"id": "p1", "pawn": 7, "troops": 1},
            {"id": "p2", "pawn": 7, "troops": 0},
            {"id": "p3", "pawn": 4, "troops": 0},
        ],
        taken=["Infantry"],
    )
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
    game = position(
        [{"id": "p1", "pawn": OBJ - 2, "troops": 1}, {"id": "p2"}], taken=["Artillery Barrage", "Machine Gun"]
    )
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
    game = position(
        [{"id": "p1", "pawn": OBJ - 2}, {"id": "p2"}, {"id": "p3", "troops": 0}], taken=["Artillery Barrage"]
    )
    arrive(game)
    events = bust(game)
    assert [e.kind for e in events][-2:] == ["TurnSkipped", "GameOver"] and game.winners == ["p1"]


# ----- "the game ends immediately": the moment the last troop piece goes, nothing after it is carried out ------
OUT = [{"id": "p2", "pawn": 7, "troops": 0}, {"id": "p3", "pawn": 2, "troops": 0}]


def test_everyone_out_ends_the_game_at_the_german_card_so_no_move_card_follows():
    """iff.end.everyone-lost: "If all players lose all of their troop pieces, the game ends immediately and the
    player who has the most 'advanced' is the winner." p1's own Machine Gun takes its last troop piece: its
    Artillery Barrage (which would have moved it from 6 to 8, past p2 on 7) is never played."""
    game = position([{"id": "p1", "pawn": 6, "troops": 1}, *OUT], taken=["Machine Gun", "Artillery Barrage"])
    game.stop()
    events = game.play(ids(game, "Machine Gun")[0])
    assert [e.kind for e in events] == ["TroopsLost", "GameOver"]
    over = events[-1]
    assert isinstance(over, GameOver) and over.ending == "everyone-lost" and over.winners == ("p2",)
    assert over.cites(rules.EVERYONE_LOST) and game.is_over and game.legal_actions() == []
    assert over.pawns == (("p1", 6), ("p2", 7), ("p3", 2)) and over.troops == (("p1", 0), ("p2", 0), ("p3", 0))
    with pytest.raises(WrongPhaseError):
        game.play(ids(game, "Artillery Barrage")[0], 2)
    assert game.get_player("p1").pawn == 6 and game.get_player("p1").turns == 1


def test_everyone_out_at_the_end_of_the_turn_stops_before_the_discard_and_refill():
    """iff.end.everyone-lost: the German card applied by the end of the turn is the last thing that happens."""
    game = position([{"id": "p1", "troops": 1}, *OUT], taken=["Infantry", "Machine Gun"])
    game.stop()
    events = game.end_turn()
    assert [e.kind for e in events] == ["TroopsLost", "GameOver"] and game.winners == ["p2"]


def test_everyone_out_at_a_bust_stops_before_the_german_cards_and_the_discard():
    """iff.end.everyone-lost at a bust: the grey symbols take the last troop pieces; the German card taken this
    turn, the discard and the refill do not follow."""
    game = position([{"id": "p1", "pawn": 3, "troops": 2}, *OUT], taken=["Infantry", "Tank", "Machine Gun"])
    events = bust(game)
    assert [e.kind for e in events] == ["DiceRolled", "Busted", "TroopsLost", "GameOver"]
    lost = events[2]
    assert isinstance(lost, TroopsLost) and (lost.count, lost.owed, lost.troops) == (2, 3, 0)
    assert events[-1].winners == ("p2",) and game.discard == [] and game.get_player("p1").retained == []
    assert [game.cards[c].name for c in game.taken] == ["Infantry", "Tank", "Machine Gun"]  # still in hand


def test_everyone_out_by_a_sacrifice_ends_the_game_before_the_move():
    """iff.end.everyone-lost with iff.sacrifice: the sacrificed last troop piece ends the game at once."""
    game = position([{"id": "p1", "pawn": 6, "troops": 1}, *OUT], taken=["Bayonet Charge"])
    game.stop()
    events = game.play(ids(game, "Bayonet Charge")[0], 2)
    assert [e.kind for e in events] == ["TroopsLost", "GameOver"] and game.get_player("p1").pawn == 6
    assert events[-1].winners == ("p2",)


def test_a_player_who_still_has_troops_keeps_the_game_going():
    """iff.d.out: p1's last troop piece goes but p2 still has some: the turn carries on (three players)."""
    game = position(
        [{"id": "p1", "pawn": 6, "troops": 1}, {"id": "p2", "pawn": 7}, {"id": "p3", "troops": 0}],
        taken=["Machine Gun", "Artillery Barrage"],
    )
    game.stop()
    game.play(ids(game, "Machine Gun")[0])
    moved = game.play(ids(game, "Artillery Barrage")[0], 2)
    assert moved[-1].kind == "PawnMoved" and not game.is_over and game.get_player("p1").pawn == 8
