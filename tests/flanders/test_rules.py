"""Rule tests for every part of the turn (seed 003; RULES.md section 3). Each test names the rule it checks."""

from __future__ import annotations

import pytest

from tutor.flanders import (
    FIXED,
    CardNotHeldError,
    CardTaken,
    DiceError,
    EndTurn,
    Game,
    IllegalMoveError,
    PawnMoved,
    Phase,
    Play,
    Reshuffled,
    RetainError,
    Roll,
    RowRedrawn,
    SpaceFilled,
    SpaceNotAvailableError,
    Stop,
    Take,
    TroopsLost,
    WrongPhaseError,
    rules,
)
from tutor.flanders.game import CARD_SPACES, ROWS

from .helpers import all_cards, ids, position


def unchanged(game: Game, error: type[Exception], action: object, match: str) -> None:
    """The action raises ``error`` (message matching ``match``) and leaves the state exactly as it was."""
    before = game.to_dict()
    with pytest.raises(error, match=match):
        game.apply(action)  # type: ignore[arg-type]
    assert game.to_dict() == before


# ----- setup -------------------------------------------------------------------------------------------------
def test_setup_pawns_on_starting_line_troops_and_cards_dealt_to_3_to_11_except_9():
    """RULES.md 3, Starting the Game: pawns on the starting line, 6 troop pieces (8 for beginners); iff.setup.deal."""
    game = Game.new(4, beginners={"p2"}, seed=3)
    assert [p.pawn for p in game.players] == [0, 0, 0, 0]
    assert [p.troops for p in game.players] == [6, 8, 6, 6]
    assert all(game.spaces[s] is not None for s in CARD_SPACES) and 9 not in game.spaces
    assert all_cards(game) == list(range(len(game.cards)))
    assert game.phase is Phase.ROLL and game.player.id == "p1"
    assert Game.new(2, beginners=True).players[1].troops == 8


def test_setup_redraws_a_row_of_only_german_cards():
    """iff.rows at setup: a row (3-5 or 6-8) of three German cards is discarded and redrawn."""
    for seed in range(2000):
        game = Game.new(2, seed=seed)
        redrawn = [e for e in game.setup_events if isinstance(e, RowRedrawn)]
        if redrawn:
            break
    else:
        pytest.fail("no seed deals an all-German row")
    assert redrawn[0].row in ROWS and redrawn[0].cites(rules.GERMAN_ROW)
    assert all(game.cards[c].german for c in redrawn[0].cards)
    assert set(redrawn[0].cards) <= set(game.discard)
    for row in ROWS:
        assert not all(game.cards[game.spaces[s]].german for s in row)  # type: ignore[index]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game.new(players)


# ----- rolling and taking ------------------------------------------------------------------------------------
def test_roll_then_choose_two_dice_and_take_the_card_on_their_sum():
    """iff.roll, iff.take: the sums of the three pairs are offered; the card leaves its space."""
    game = position()
    card = game.spaces[7]
    events = game.roll([3, 4, 6])
    assert events[0].dice == (3, 4, 6) and events[0].sums == (7, 9, 10) and events[0].available == (7, 9, 10)
    assert game.phase is Phase.CHOOSE and game.legal_actions() == [Take(7), Take(9), Take(10)]
    [taken] = game.take(7)
    assert isinstance(taken, CardTaken) and taken.card == card and taken.pair == (3, 4) and not taken.forced
    assert taken.cites(rules.TAKE) and game.spaces[7] is None and game.taken == [card]
    assert game.phase is Phase.AGAIN and game.legal_actions() == [Roll(), Stop()]


def test_forced_german_card():
    """iff.take.forced: you must take a card if you can, so a roll offering only a German card forces it."""
    game = position(spaces={"7": "Machine Gun", "4": "Infantry"})
    game.roll([1, 2, 6])  # pairs: 3, 7, 8; only 7 holds a card
    assert game.legal_actions() == [Take(7)]
    unchanged(game, SpaceNotAvailableError, Take(8), r"space 8 is not offered by the dice 1-2-6")
    unchanged(game, WrongPhaseError, Stop(), "stopping belongs to the roll again phase")
    [taken] = game.take(7)
    assert taken.forced and taken.german and taken.cites(rules.MUST_TAKE)


def test_vacated_space_stays_empty_for_the_turn():
    """iff.take.vacated: a second roll of the same sum finds the space empty (here: a bust)."""
    game = position(spaces={"7": "Infantry"})
    game.roll([3, 4, 4])
    game.take(7)
    assert 7 not in game.available()
    events = game.roll([3, 4, 4])
    assert [e.kind for e in events][:2] == ["DiceRolled", "Busted"]


def test_taking_nine_places_the_second_pawn_on_the_fixed_card():
    """iff.nine: taking 9 puts the second pawn on it; 9 is not offered again that turn."""
    game = position(spaces={"3": "Infantry"})
    game.roll([4, 5, 1])  # 9, 5, 6
    [placed] = game.take(9)
    assert placed.kind == "PawnPlacedOnNine" and game.on_nine and 9 not in game.available()
    assert game.hand() == [FIXED]
    game.stop()
    [moved, removed] = game.play(FIXED, 1)
    assert moved.name == "Infantry" and moved.cites(rules.NINE_MOVE) and (moved.frm, moved.to) == (0, 1)
    assert removed.kind == "PawnRemovedFromNine" and not game.on_nine


def test_loaded_dice_must_be_three_values_from_1_to_6():
    game = position()
    unchanged(game, DiceError, Roll((0, 3, 4)), r"dice \[0, 3, 4\]")


# ----- bust --------------------------------------------------------------------------------------------------
def test_bust_with_retained_cards():
    """iff.bust.risk, iff.bust.german, iff.bust.discard: retained British cards count and are discarded too."""
    game = position(
        players=[{"id": "p1", "retained": ["Mines"]}, {"id": "p2"}],
        taken=["Artillery Barrage", "Gas Attack"],
        spaces={"3": "Infantry"},
    )
    held = game.held()
    events = game.roll([1, 1, 1])  # only 2: a bust
    kinds = [e.kind for e in events]
    assert kinds[:5] == ["DiceRolled", "Busted", "TroopsLost", "TroopsLost", "CardsDiscarded"]
    bust_loss, german_loss = events[2], events[3]
    assert (bust_loss.cause, bust_loss.count) == ("bust", 3) and bust_loss.cites(rules.BUST_RISK)
    assert (german_loss.cause, german_loss.count) == ("german", 2) and german_loss.cites(rules.BUST_GERMAN)
    assert all(e.automatic for e in events[1:])
    p1 = game.players[0]
    assert p1.troops == 1 and p1.retained == [] and set(held) <= set(game.discard)
    assert game.player.id == "p2" and game.phase is Phase.ROLL


def test_pawn_on_nine_at_a_bust_is_removed_without_moving():
    """iff.bust.nine: the pawn is taken off 9; the fixed card gives no movement and no grey symbol."""
    game = position(players=[{"id": "p1", "pawn": 1}, {"id": "p2"}], on_nine=True, spaces={})
    events = game.roll([2, 2, 2])  # 4 only; no cards on the spaces
    removed = [e for e in events if e.kind == "PawnRemovedFromNine"]
    assert removed and removed[0].cites(rules.BUST_NINE)
    assert game.players[0].pawn == 1 and game.players[0].troops == 6 and not game.on_nine


def test_bust_probability_of_the_position_is_exact():
    game = position(spaces={"7": "Infantry"}, on_nine=True, taken=["Tank"])
    assert game.bust_probability() == pytest.approx(1 - 90 / 216)  # 7 appears as a pair sum in 90 of 216
    assert game.expected_bust_loss() == game.bust_probability() * 2


# ----- stopping: movement, lines, Tank, Mines, sacrifice, losses -----------------------------------------------
def test_stop_moves_up_to_the_card_and_need_not_use_all_of_it():
    """iff.move: up to N spaces; unused movement is lost."""
    game = position(taken=["Artillery Barrage"])
    game.stop()
    assert {a.spaces for a in game.legal_actions() if isinstance(a, Play)} == {1, 2}
    [moved] = game.play(ids(game, "Artillery Barrage")[0], 1)
    assert (moved.frm, moved.to, moved.allowed) == (0, 1, 2) and moved.cites(rules.MOVE)
    unchanged(game, CardNotHeldError, Play(moved.card, 1), "already used this turn")


def test_a_defensive_line_stops_the_pawn_for_the_rest_of_the_turn():
    """iff.line: moving into a defensive line ends the pawn's movement this turn."""
    game = position(players=[{"id": "p1", "pawn": 2}, {"id": "p2"}], taken=["Artillery Barrage", "Infantry"])
    game.stop()
    art, inf = ids(game, "Artillery Barrage")[0], ids(game, "Infantry")[0]
    unchanged(game, IllegalMoveError, Play(art, 2), "would pass the defensive line at space 3")
    [moved] = game.play(art, 1)
    assert moved.to == 3 and moved.halted and moved.cites(rules.LINE)
    unchanged(game, IllegalMoveError, Play(inf, 1), "is halted on the defensive line at space 3")
    assert not any(isinstance(a, Play) for a in game.legal_actions())


def test_tank_through_a_defensive_line():
    """iff.tank: a Tank's movement ignores defensive lines, and can move a halted pawn on."""
    game = position(players=[{"id": "p1", "pawn": 2}, {"id": "p2"}], taken=["Tank", "Infantry"])
    game.stop()
    [moved] = game.play(ids(game, "Tank")[0], 2)
    assert (moved.frm, moved.to, moved.crossed, moved.halted) == (2, 4, (3,), False) and moved.cites(rules.TANK)
    # halted first, then the Tank moves on
    game = position(players=[{"id": "p1", "pawn": 2}, {"id": "p2"}], taken=["Tank", "Infantry"])
    game.stop()
    assert game.play(ids(game, "Infantry")[0], 1)[0].halted
    [moved] = game.play(ids(game, "Tank")[0], 2)
    assert (moved.frm, moved.to) == (3, 5)


def test_mines_let_a_move_continue_past_a_defensive_line():
    """iff.mines: one Mines card per defensive line passed (or left after a halt); the Mines card is spent."""
    game = position(players=[{"id": "p1", "pawn": 2, "retained": ["Mines"]}, {"id": "p2"}], taken=["Artillery Barrage"])
    game.stop()
    mines, art = ids(game, "Mines")[0], ids(game, "Artillery Barrage")[0]
    assert Play(art, 2, (mines,)) in game.legal_actions()
    unchanged(game, IllegalMoveError, Play(art, 2, (art,)), "cannot be spent twice")
    [moved] = game.play(art, 2, [mines])
    assert (moved.to, moved.mines, moved.crossed) == (4, (mines,), (3,)) and moved.cites(rules.MINES)
    assert mines in game.used
    game.end_turn()
    assert mines in game.discard and game.players[0].retained == []


def test_sacrifice_a_troop_for_one_more_space():
    """iff.sacrifice: a card with the sacrifice symbol moves one more space for one troop piece."""
    game = position(players=[{"id": "p1", "pawn": 0, "troops": 2}, {"id": "p2"}], taken=["Bayonet Charge"])
    game.stop()
    card = ids(game, "Bayonet Charge")[0]
    assert Play(card, 2) in game.legal_actions()
    unchanged(game, IllegalMoveError, Play(card, 3), "moves the pawn 1 space, or 2 by sacrificing a troop piece")
    lost, moved = game.play(card, 2)
    assert isinstance(lost, TroopsLost) and (lost.cause, lost.count, lost.troops) == ("sacrifice", 1, 1)
    assert isinstance(moved, PawnMoved) and moved.sacrifice and moved.to == 2


def test_no_sacrifice_without_troops():
    game = position(players=[{"id": "p1", "troops": 0}, {"id": "p2"}], taken=["Bayonet Charge"])
    game.stop()
    card = ids(game, "Bayonet Charge")[0]
    assert Play(card, 2) not in game.legal_actions()
    unchanged(game, IllegalMoveError, Play(card, 2), "needs a troop piece to sacrifice")


def test_german_cards_are_applied_when_stopping_in_the_order_the_player_chooses():
    """iff.losses, iff.d.order: German cards may be played before or after movement; unplayed ones at EndTurn."""
    game = position(players=[{"id": "p1", "troops": 3}, {"id": "p2"}], taken=["Gas Attack", "Machine Gun"])
    game.stop()
    gas, mg = ids(game, "Gas Attack")[0], ids(game, "Machine Gun")[0]
    [lost] = game.play(gas)
    assert (lost.count, lost.troops, lost.automatic) == (2, 1, False)
    unchanged(game, IllegalMoveError, Play(mg, 1), "German card: play it with no spaces")
    events = game.end_turn()
    auto = [e for e in events if isinstance(e, TroopsLost)]
    assert [(e.card, e.count, e.automatic) for e in auto] == [(mg, 1, True)]


def test_no_pawn_moves_past_the_objective_line():
    """iff.d.objective-cap."""
    game = position(players=[{"id": "p1", "pawn": 13}, {"id": "p2"}], taken=["Artillery Barrage"])
    game.stop()
    card = ids(game, "Artillery Barrage")[0]
    assert [a for a in game.legal_actions() if isinstance(a, Play)] == [Play(card, 1)]
    unchanged(game, IllegalMoveError, Play(card, 2), "1 space from the Objective line")


# ----- end of turn: retain, discard, refill, rows, reshuffle --------------------------------------------------
def test_may_retain_cards_may_be_kept_the_others_are_discarded():
    """iff.retain, iff.discard."""
    game = position(taken=["Reserves", "Infantry"])
    game.stop()
    reserves, infantry = ids(game, "Reserves")[0], ids(game, "Infantry")[0]
    assert EndTurn((reserves,)) in game.legal_actions() and EndTurn() in game.legal_actions()
    unchanged(game, RetainError, EndTurn((infantry,)), 'not marked "May Retain"')
    events = game.end_turn([reserves])
    assert game.players[0].retained == [reserves] and infantry in game.discard
    assert [e.kind for e in events][:3] == ["CardsDiscarded", "CardsRetained", "TurnEnded"]


def test_refill_empty_spaces_from_the_draw_pile():
    """iff.refill: every empty card space is refilled at the end of the turn (top of the draw pile first)."""
    game = position(
        spaces={"3": "Infantry"},
        draw=["Tank", "Reserves", "Infantry", "Infantry", "Bayonet Charge", "Reserves", "Infantry", "Tank"],
        taken=["Infantry"],
    )
    game.stop()
    events = game.end_turn()
    filled = [(e.space, e.name) for e in events if isinstance(e, SpaceFilled)]
    assert filled[0] == (4, "Tank") and [s for s, _ in filled] == [4, 5, 6, 7, 8, 10, 11]
    assert all(e.cites(rules.REFILL) for e in events if isinstance(e, SpaceFilled))


def test_refill_that_triggers_the_all_german_row_rule():
    """iff.rows at refill: the refill makes row 3-5 all German; it is discarded and redrawn."""
    spaces = {"6": "Infantry", "7": "Tank", "8": "Infantry", "10": "Infantry", "11": "Infantry"}
    game = position(
        spaces=spaces,
        taken=["Reserves"],
        draw=["Machine Gun", "Gas Attack", "Quiet Sector", "Infantry", "Artillery Barrage", "Tank"],
    )
    game.stop()
    events = game.end_turn()
    [row] = [e for e in events if isinstance(e, RowRedrawn)]
    assert row.row == (3, 4, 5) and row.names == ("Machine Gun", "Gas Attack", "Quiet Sector")
    assert row.automatic and row.cites(rules.GERMAN_ROW)
    assert [game.cards[game.spaces[s]].name for s in (3, 4, 5)] == ["Infantry", "Artillery Barrage", "Tank"]
    assert set(row.cards) <= set(game.discard)


def test_an_all_german_row_is_redrawn_from_the_discard_pile_when_the_draw_pile_has_no_british_card():
    """iff.rows with iff.d.full-row and iff.reshuffle: the redraw goes on while a British card is left in the draw
    pile OR the discard pile; here the draw pile holds only the three German cards the refill deals."""
    spaces = {"6": "Infantry", "7": "Tank", "8": "Infantry", "10": "Infantry", "11": "Infantry"}
    game = position(spaces=spaces, taken=["Reserves"], draw=["Machine Gun", "Gas Attack", "Quiet Sector"])
    assert any(game.cards[c].british for c in game.discard)  # every card not placed is in the discard pile
    game.stop()
    events = game.end_turn()
    kinds = [e.kind for e in events]
    assert "RowRedrawn" in kinds and "Reshuffled" in kinds and kinds.index("RowRedrawn") < kinds.index("Reshuffled")
    assert not all(game.cards[game.spaces[s]].german for s in (3, 4, 5))  # type: ignore[index]
    assert all_cards(game) == list(range(len(game.cards)))


def test_reshuffle_the_discard_pile_when_the_draw_pile_is_empty():
    """iff.reshuffle: the refill shuffles the discard pile into a new draw pile."""
    game = position(spaces={"3": "Infantry"}, draw=[], discard=["Tank"], taken=["Infantry"])
    before = len(game.discard)
    game.stop()
    events = game.end_turn()
    [reshuffled] = [e for e in events if isinstance(e, Reshuffled)]
    assert reshuffled.count == before + 1 and reshuffled.cites(rules.RESHUFFLE)
    assert all(game.spaces[s] is not None for s in CARD_SPACES)
    assert all_cards(game) == list(range(len(game.cards)))


def test_wrong_phase_actions_leave_the_state_unchanged():
    game = position()
    unchanged(game, WrongPhaseError, Take(7), "taking a card belongs to the choose phase")
    unchanged(game, WrongPhaseError, EndTurn(), "ending the turn belongs to the resolve phase")
    unchanged(game, WrongPhaseError, Play(0, 1), "playing a card belongs to the resolve phase")
    game.roll([1, 2, 3])
    unchanged(game, WrongPhaseError, Roll(), "rolling the dice belongs to the roll or roll again phase")


def test_the_setup_deal_is_done_once():
    """``Game.new`` deals through ``deal_start``; a second deal is refused and changes nothing."""
    game = Game.new(2, seed=5)
    before = game.to_dict()
    with pytest.raises(WrongPhaseError):
        game.deal_start()
    assert game.to_dict() == before
