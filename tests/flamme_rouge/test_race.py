"""``Race``: the phases and actions of a Flamme Rouge round (RULES.md section 1, Setup and A round), undo,
serialization and copying (``race.py`` module docstring)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tutor.flamme_rouge import (
    EXHAUSTION,
    TeamKind,
    CardNotInHandError,
    DeckError,
    Draw,
    Phase,
    Place,
    PlacementError,
    Play,
    Race,
    RiderOrderError,
    Step,
    UnknownRiderError,
    UnknownTeamError,
    WrongPhaseError,
    energy,
    simulate_race,
    starting_deck,
)
from tutor.flamme_rouge import rules
from tutor.flamme_rouge.bots import heuristic_bot, random_bot
from tutor.flamme_rouge.events import (
    Blocked,
    CardPlayed,
    CardsDrawn,
    CardsRecycled,
    CardsRemoved,
    CardsRevealed,
    Event,
    ExhaustionChecked,
    ExhaustionTaken,
    Finished,
    PacksFound,
    Reshuffled,
    RiderMoved,
    RiderPlaced,
    RoundStarted,
    Slipstreamed,
    TeamsHandedToBots,
)


def new_race(track="sprint-20", teams=2, seed=1, **kw) -> Race:
    return Race.new(track, teams, seed=seed, **kw)


def cards(*values):
    return [energy(v) for v in values]


def play_energy(race: Race, bot=heuristic_bot) -> list[Event]:
    events = []
    for rid in list(race.riders):
        events += race.draw(rid)
        events += race.play(rid, bot(race, rid))
    return events


def finished_race() -> Race:
    """Two riders a sprint from the line (sprint-20: finish 16): red-S plays 9 and crosses."""
    race = Race.from_positions(
        "sprint-20",
        [{"id": "red-S", "square": 10, "lane": 0}, {"id": "blue-S", "square": 3, "lane": 0}],
        cards={"red-S": energy(9), "blue-S": energy(2)},
    )
    race.finish_round()
    assert race.phase is Phase.FINISHED
    return race


def movement_race() -> Race:
    race = new_race()
    play_energy(race)
    assert race.phase is Phase.MOVEMENT
    return race


# ----- energy phase -----------------------------------------------------------------------------------------


def test_energy_draw_takes_four_from_the_top_of_the_deck():
    """RULES.md 1, Energy phase: "choose a rider, draw 4 from its deck"."""
    race = new_race()
    rider = race.riders["red-S"]
    before = list(rider.deck.face_down)
    assert len(before) == 15 and Counter(before) == Counter(starting_deck("sprinteur"))
    events = race.draw("red-S")
    assert Counter(rider.hand) == Counter(before[-4:])  # the top of the deck is the end of the list
    assert rider.deck.face_down == before[:-4]
    assert rider.recycled == [] and rider.played is None
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert len(drawn) == 1 and drawn[0].rider == "red-S" and list(drawn[0].cards) == rider.hand
    assert drawn[0].rules == (rules.DRAW,)


def test_energy_play_recycles_the_other_three():
    """RULES.md 1, Energy phase: "play 1 face down, put the other 3 face up at the bottom of that deck"."""
    race = new_race()
    rider = race.riders["red-R"]
    race.draw("red-R")
    hand = list(rider.hand)
    deck = list(rider.deck.face_down)
    chosen = hand[2]
    events = race.play("red-R", chosen)
    rest = list(hand)
    rest.remove(chosen)
    assert rider.played == chosen
    assert rider.hand == []
    assert Counter(rider.recycled) == Counter(rest) and len(rider.recycled) == 3
    assert rider.deck.face_down == deck
    kinds = [type(e) for e in events]
    assert kinds == [CardPlayed, CardsRecycled]
    assert events[0].card == chosen and Counter(events[1].cards) == Counter(rest)


def test_energy_play_accepts_a_card_value():
    """Playing by value picks a drawn card of that value."""
    race = new_race()
    race.draw("red-S")
    value = race.riders["red-S"].hand[0].value
    race.play("red-S", value)
    assert race.riders["red-S"].played.value == value


def test_energy_cannot_draw_second_rider_before_playing_first():
    """RULES.md 1, Energy phase: "You may not draw for the second rider before playing for the first"."""
    race = new_race()
    race.draw("red-S")
    before = race.to_dict()
    with pytest.raises(RiderOrderError) as err:
        race.draw("red-R")
    message = str(err.value)
    assert "play a card for red-S" in message and "red-R" in message
    assert race.to_dict() == before
    race.play("red-S", race.riders["red-S"].hand[0])
    race.draw("red-R")  # now allowed
    assert len(race.riders["red-R"].hand) == 4


def test_energy_players_act_simultaneously():
    """RULES.md 1, Energy phase: "players act simultaneously": another team may draw while red holds cards."""
    race = new_race()
    race.draw("red-S")
    race.draw("blue-R")
    assert len(race.riders["blue-R"].hand) == 4
    assert Draw("blue-S") not in race.legal_actions()
    assert Draw("red-R") not in race.legal_actions()


def test_energy_cannot_draw_twice_or_after_playing():
    """RULES.md 1, Energy phase: draw 4 and play 1 once per rider per round."""
    race = new_race()
    race.draw("blue-S")
    with pytest.raises(RiderOrderError, match="blue-S has already drawn"):
        race.draw("blue-S")
    race.play("blue-S", race.riders["blue-S"].hand[0])
    before = race.to_dict()
    with pytest.raises(RiderOrderError, match="blue-S has already played"):
        race.draw("blue-S")
    assert race.to_dict() == before


def test_energy_reshuffle_when_the_face_down_deck_runs_out():
    """RULES.md 1, Energy phase: "When the face-down part runs out, shuffle the recycled cards into a new
    face-down deck and keep drawing"."""
    race = new_race()
    rider = race.riders["red-R"]
    rider.deck.face_down = cards(6, 7)  # 7 is the top card
    rider.deck.recycled = cards(3, 3, 4, 5, 5)
    events = race.draw("red-R")
    assert rider.hand[:2] == cards(7, 6)
    reshuffles = [e for e in events if isinstance(e, Reshuffled)]
    assert len(reshuffles) == 1
    assert reshuffles[0].owner == "red-R" and reshuffles[0].count == 5
    assert reshuffles[0].rules == (rules.RESHUFFLE,)
    assert rider.recycled == []
    assert len(rider.hand) == 4 and len(rider.deck.face_down) == 3
    assert Counter(rider.hand[2:] + rider.deck.face_down) == Counter(cards(3, 3, 4, 5, 5))
    assert [type(e) for e in events] == [Reshuffled, CardsDrawn]


def test_energy_reshuffle_at_the_start_of_a_draw():
    """RULES.md 1, Energy phase: an empty face-down deck is rebuilt from the recycled cards before drawing."""
    race = new_race()
    rider = race.riders["blue-S"]
    rider.deck.face_down = []
    rider.deck.recycled = cards(2, 3, 4, 5, 9, 9)
    events = race.draw("blue-S")
    assert isinstance(events[0], Reshuffled) and events[0].count == 6
    assert Counter(rider.hand + rider.deck.face_down) == Counter(cards(2, 3, 4, 5, 9, 9))
    assert len(rider.hand) == 4


def test_energy_fewer_than_four_cards_draws_them_all():
    """RULES.md 1, Energy phase: "With fewer than 4 cards in total, draw them all"."""
    race = new_race()
    rider = race.riders["red-S"]
    rider.deck.face_down = cards(9)
    rider.deck.recycled = cards(2, 5)
    events = race.draw("red-S")
    assert Counter(rider.hand) == Counter(cards(9, 2, 5))
    assert rider.deck.face_down == [] and rider.recycled == []
    drawn = events[-1]
    assert isinstance(drawn, CardsDrawn) and drawn.rules == (rules.DRAW_FEWER,)
    assert rider.exhaustion == 0


def test_energy_no_cards_at_all_plays_an_exhaustion_card():
    """RULES.md 1, Energy phase: "With no cards at all, play an exhaustion card (value 2)"."""
    race = Race.from_positions("sprint-20", [{"id": "red-S", "square": 4, "lane": 0}], cards={"red-S": energy(2)})
    race.finish_round()
    rider = race.riders["red-S"]
    assert race.phase is Phase.ENERGY
    rider.deck.face_down, rider.deck.recycled = [], []
    events = race.draw("red-S")
    assert rider.hand == [EXHAUSTION]
    assert rider.exhaustion == 1 + 1  # one from the end phase of round 1, one drawn now
    assert events[-1].rules == (rules.DRAW_NONE,)
    race.play("red-S", EXHAUSTION)
    square = rider.square
    race.step()  # reveal happened on play; this moves the only rider
    assert rider.square == square + 2


def test_stack_deck_gives_a_lesson_its_cards_top_card_first():
    """``stack_deck``: a lesson's deck through the engine (no edited state): the draw takes the given top cards,
    the recycled ones are reshuffled under the old ones as the rules say, and undo restores the shuffled deck."""
    race = new_race(seed=2)
    before = list(race.riders["red-S"].deck.face_down)
    assert race.stack_deck("red-S", [9, "5", energy(3), 2, 4], recycled=["E2"]) is None
    rider = race.riders["red-S"]
    assert rider.deck.face_down == cards(4, 2, 3, 5, 9) and rider.recycled == [EXHAUSTION]
    drawn = race.draw("red-S")
    assert drawn == [CardsDrawn("red-S", tuple(cards(9, 5, 3, 2)), rules=(rules.DRAW,))]
    race.undo()
    race.undo()
    assert race.riders["red-S"].deck.face_down == before


def test_stack_deck_uses_no_randomness():
    """Stacking draws nothing from the race's generator: the shuffles to come (a reshuffle) stay the race's."""
    stacked, plain = new_race(seed=2), new_race(seed=2)
    stacked.stack_deck("red-S", [5, 3], recycled=[2, 9, 4, 4, 3, 2])
    assert stacked.rng.getstate() == plain.rng.getstate()
    events = stacked.draw("red-S")
    assert [type(e) for e in events] == [Reshuffled, CardsDrawn] and events[0].count == 6
    assert events[1].cards[:2] == tuple(cards(5, 3)) and len(events[1].cards) == 4


@pytest.mark.parametrize(
    "face_down, recycled, said",
    [
        ([7], [], "no card 7"),
        ([9, 9], [9, 9], "4 cards 9"),
        (["A"], [], "no card A"),
        (["M5"], [], "no card M5"),
        (["x"], [], "not a card"),
        ([0], [], "not a card"),
    ],
)
def test_stack_deck_refuses_cards_the_rider_cannot_hold(face_down, recycled, said):
    race = new_race()
    before = race.to_dict()
    with pytest.raises(DeckError, match=said):
        race.stack_deck("red-S", face_down, recycled)
    assert race.to_dict() == before


def test_stack_deck_only_before_the_rider_draws_in_the_energy_phase():
    race = new_race()
    race.stack_deck("red-R", [3, 3, 3] + ["E2"] * 5)  # a rouleur's three 3s, and any number of exhaustion cards
    race.draw("red-S")
    with pytest.raises(DeckError, match="already drawn"):
        race.stack_deck("red-S", [9])
    race.play("red-S", race.riders["red-S"].hand[0])
    with pytest.raises(DeckError, match="already drawn"):
        race.stack_deck("red-S", [9])
    with pytest.raises(UnknownRiderError):
        race.stack_deck("nobody", [9])
    with pytest.raises(DeckError, match="movement phase"):
        movement_race().stack_deck("red-S", [9])
    peloton = Race.new("sprint-20", 1, peloton=True, seed=1)
    bot_rider = next(r.id for r in peloton.riders.values() if peloton.teams[r.team].kind is TeamKind.PELOTON)
    with pytest.raises(DeckError, match="bot team"):
        peloton.stack_deck(bot_rider, [5])


def test_exhaustion_card_goes_into_the_recycled_cards():
    """RULES.md 1, End phase (c): a rider with an empty square in front "takes an exhaustion card into its
    recycled cards"."""
    race = Race.from_positions(
        "sprint-20", [{"id": "a-S", "square": 2, "lane": 0}, {"id": "b-R", "square": 8, "lane": 0}]
    )
    assert race.phase is Phase.END_SLIPSTREAM
    race.step()
    events = race.step()
    taken = [e for e in events if isinstance(e, ExhaustionTaken)]
    assert sorted(e.rider for e in taken) == ["a-S", "b-R"]
    for rid in ("a-S", "b-R"):
        assert race.riders[rid].recycled == [EXHAUSTION]
        assert race.riders[rid].exhaustion == 1
    assert race.phase is Phase.ENERGY and race.round == 2


# ----- movement and end phase through Race ------------------------------------------------------------------


def test_movement_reveal_fixes_order_frontmost_first():
    """RULES.md 1, Movement: frontmost first, right lane ahead on the same square; "the order is fixed before
    anyone moves"."""
    riders = [
        {"id": "x", "square": 4, "lane": 1},
        {"id": "y", "square": 4, "lane": 0},
        {"id": "z", "square": 2, "lane": 0},
        {"id": "w", "square": 6, "lane": 0},
    ]
    race = Race.from_positions("sprint-20", riders, cards={r["id"]: energy(5) for r in riders})
    assert race.phase is Phase.MOVEMENT
    assert race.to_move == ["w", "y", "x", "z"]
    moved = []
    for _ in range(4):
        events = race.step()
        moved += [e.rider for e in events if isinstance(e, RiderMoved)]
    assert moved == ["w", "y", "x", "z"]


def test_movement_one_rider_per_step_with_blocked_event():
    """RULES.md 1, Movement: a rider that would end on a full square stops behind it (Blocked event)."""
    riders = [
        {"id": "a", "square": 6, "lane": 0},
        {"id": "b", "square": 6, "lane": 1},
        {"id": "c", "square": 3, "lane": 0},
    ]
    race = Race.from_positions("sprint-20", riders, cards={"a": energy(3), "b": energy(3), "c": energy(6)})
    race.step()
    race.step()
    events = race.step()
    assert [type(e) for e in events][:2] == [RiderMoved, Blocked]
    blocked = events[1]
    assert blocked.rider == "c" and blocked.target == 9 and blocked.full == (9,) and blocked.to == (8, 0)
    assert blocked.rules == (rules.FULL_SQUARE,) and blocked.automatic
    assert race.riders["c"].position == (8, 0)
    assert race.phase is Phase.END_CARDS


def test_end_phase_steps_in_rule_order():
    """RULES.md 1, End phase: (a) played cards leave the game, (b) slipstream, (c) exhaustion."""
    riders = [{"id": "a", "square": 2, "lane": 0}, {"id": "b", "square": 5, "lane": 0}]
    race = Race.from_positions("sprint-20", riders, cards={"a": energy(2), "b": energy(2)})
    race.step(), race.step()  # a on 4 (b moved first to 7)
    assert race.phase is Phase.END_CARDS
    events = race.step()
    assert isinstance(events[0], CardsRemoved) and events[0].cards == {"a": energy(2), "b": energy(2)}
    assert race.riders["a"].removed == [energy(2)] and race.riders["a"].played is None
    assert race.phase is Phase.END_SLIPSTREAM
    events = race.step()
    assert isinstance(events[0], PacksFound) and events[0].packs == ((4, 4), (7, 7))
    slip = [e for e in events if isinstance(e, Slipstreamed)]
    assert len(slip) == 0 and events[0].behind == ()  # two empty squares (5, 6): no slipstream
    assert race.phase is Phase.END_EXHAUSTION
    events = race.step()
    assert sorted(e.rider for e in events if isinstance(e, ExhaustionTaken)) == ["a", "b"]
    assert isinstance(events[-1], RoundStarted) and events[-1].round == 2
    assert race.phase is Phase.ENERGY


def test_each_slipstream_carries_the_packs_it_leaves():
    """RULES.md 1, End phase (b): a pack that moves joins the pack ahead, and the merged pack is checked again;
    ``Slipstreamed.packs`` (what the canvas outlines) is every pack after that move, the last one ``after``."""
    riders = [
        {"id": "a", "square": 2, "lane": 1},
        {"id": "b", "square": 4, "lane": 0},
        {"id": "c", "square": 6, "lane": 0},
        {"id": "d", "square": 6, "lane": 1},
        {"id": "e", "square": 10, "lane": 0},
    ]
    race = Race.from_positions("sprint-20", riders)  # at the end phase: slipstream is next
    assert race.phase is Phase.END_SLIPSTREAM
    events = race.step()
    found = events[0]
    assert isinstance(found, PacksFound) and found.packs == ((2, 2), (4, 4), (6, 6), (10, 10))
    assert found.behind == ((2, 2), (3, 4))  # a, then a and b together (6 and 10: three empty squares)
    slip = [e for e in events if isinstance(e, Slipstreamed)]
    assert [(e.frm, e.packs) for e in slip] == [((2, 2), ((3, 4), (6, 6), (10, 10))), ((3, 4), ((4, 6), (10, 10)))]
    assert slip[-1].packs == found.after


def test_finish_ends_the_race():
    """RULES.md 1, Finish: the race ends in the round a rider crosses; the end phase is skipped."""
    race = finished_race()
    assert race.winner == "red-S"
    assert race.ranking == ["red-S"]
    assert race.riders["red-S"].square == 19  # 10 + 9
    assert race.riders["red-S"].played == energy(9)  # the end phase (card removal) was skipped
    assert race.legal_actions() == []
    assert race.is_over


# ----- illegal actions --------------------------------------------------------------------------------------


def _assert_unchanged(race: Race, action, error, *fragments):
    before = race.to_dict()
    with pytest.raises(error) as err:
        action()
    for fragment in fragments:
        assert fragment in str(err.value), f"{fragment!r} not in {str(err.value)!r}"
    assert race.to_dict() == before


def test_illegal_step_during_energy_phase():
    """RULES.md 1, A round: movement waits until every rider has played (WrongPhaseError names them)."""
    race = new_race()
    race.draw("red-S")
    race.play("red-S", race.riders["red-S"].hand[0])
    _assert_unchanged(race, race.step, WrongPhaseError, "energy phase", "red-R, blue-S, blue-R still to play")


def test_illegal_play_and_draw_during_movement():
    """RULES.md 1, A round: cards are drawn and played in the energy phase only."""
    race = movement_race()
    _assert_unchanged(race, lambda: race.play("red-S", 2), WrongPhaseError, "cannot play a card now", "movement phase")
    _assert_unchanged(race, lambda: race.draw("red-S"), WrongPhaseError, "cannot draw cards now", "movement phase")
    _assert_unchanged(race, lambda: race.place("red-S", 0, 0), WrongPhaseError, "cannot place riders now")


def test_illegal_place_during_energy_phase():
    """RULES.md 1, Setup: riders are placed before the first round only."""
    race = new_race()
    _assert_unchanged(race, lambda: race.place("red-S", 0, 0), WrongPhaseError, "cannot place riders", "energy phase")


def test_illegal_card_not_in_hand():
    """RULES.md 1, Energy phase: the played card is one of the 4 drawn."""
    race = new_race()
    race.riders["red-R"].deck.face_down = cards(3, 3, 4, 4, 5)
    race.draw("red-R")  # draws 5, 4, 4, 3
    _assert_unchanged(race, lambda: race.play("red-R", energy(7)), CardNotInHandError, "red-R has no 7", "5, 4, 4, 3")
    _assert_unchanged(race, lambda: race.play("red-R", 9), CardNotInHandError, "red-R has no 9")
    _assert_unchanged(race, lambda: race.play("red-R", EXHAUSTION), CardNotInHandError, "no E2")


def test_illegal_play_before_drawing():
    """RULES.md 1, Energy phase: draw 4, then play 1."""
    race = new_race()
    _assert_unchanged(race, lambda: race.play("blue-S", 2), CardNotInHandError, "blue-S has not drawn cards yet")


def test_illegal_play_twice():
    """RULES.md 1, Energy phase: one card per rider per round."""
    race = new_race()
    race.draw("blue-S")
    race.play("blue-S", race.riders["blue-S"].hand[0])
    _assert_unchanged(race, lambda: race.play("blue-S", 2), CardNotInHandError, "blue-S has already played")


@pytest.mark.parametrize("call", ["draw", "play", "place"])
def test_illegal_unknown_rider(call):
    """An unknown rider id raises UnknownRiderError naming it and the riders of the race."""
    race = new_race(place="manual") if call == "place" else new_race()
    action = {
        "draw": lambda: race.draw("pink-S"),
        "play": lambda: race.play("pink-S", 2),
        "place": lambda: race.place("pink-S", 0, 0),
    }[call]
    _assert_unchanged(race, action, UnknownRiderError, "'pink-S'", "red-S, red-R, blue-S, blue-R")


def test_illegal_actions_after_the_finish():
    """RULES.md 1, Finish: the race is over; nothing more can be drawn, played or resolved."""
    race = finished_race()
    _assert_unchanged(race, race.step, WrongPhaseError, "the race is over", "red-S won")
    _assert_unchanged(race, race.finish_round, WrongPhaseError, "the race is over")
    _assert_unchanged(race, lambda: race.draw("blue-S"), WrongPhaseError, "cannot draw", "the race is over")
    _assert_unchanged(race, lambda: race.play("blue-S", 2), WrongPhaseError, "cannot play", "the race is over")


def test_apply_rejects_a_non_action():
    """apply() accepts Place, Draw, Play and Step only."""
    race = new_race()
    _assert_unchanged(race, lambda: race.apply("draw red-S"), TypeError, "not an action")


def test_errors_are_value_errors():
    """errors.py: every rule error is a ValueError subclass."""
    for error in (WrongPhaseError, UnknownRiderError, CardNotInHandError, RiderOrderError, PlacementError):
        assert issubclass(error, ValueError)


# ----- legal actions ----------------------------------------------------------------------------------------


def _check_legal(race: Race) -> list:
    actions = race.legal_actions()
    for action in actions:
        trial = race.copy()
        trial.apply(action)  # must not raise
    for action in actions:
        if isinstance(action, Play):
            assert action.card in race.riders[action.rider].hand
    return actions


def test_legal_actions_setup_phase():
    """RULES.md 1, Setup: free lanes behind the start line, right lane on an empty square, teams in turn."""
    race = new_race(place="manual")
    actions = _check_legal(race)
    assert actions and all(isinstance(a, Place) for a in actions)
    assert {a.rider for a in actions} == {"red-S", "red-R"}
    assert {(a.square, a.lane) for a in actions} == {(s, 0) for s in range(4)}
    race.place("red-S", 3, 0)
    actions = _check_legal(race)
    assert {a.rider for a in actions} == {"red-R"}
    assert {(a.square, a.lane) for a in actions} == {(3, 1), (2, 0), (1, 0), (0, 0)}


def test_legal_actions_energy_phase():
    """RULES.md 1, Energy phase: Draw for riders that have not played; once drawn, Play one of the drawn cards."""
    race = new_race()
    assert set(_check_legal(race)) == {Draw(r) for r in race.riders}
    race.draw("red-S")
    actions = _check_legal(race)
    hand = race.riders["red-S"].hand
    assert {a for a in actions if isinstance(a, Play)} == {Play("red-S", c) for c in hand}
    assert {a for a in actions if isinstance(a, Draw)} == {Draw("blue-S"), Draw("blue-R")}
    not_in_hand = next(c for c in cards(2, 3, 4, 5, 9) if c not in hand)
    assert Play("red-S", not_in_hand) not in actions


def test_legal_actions_automatic_phases_and_finish():
    """Movement and end phases are automatic: the only action is Step(); a finished race has none."""
    race = movement_race()
    seen = set()
    while race.phase is not Phase.ENERGY:
        seen.add(race.phase)
        assert _check_legal(race) == [Step()]
        race.step()
    assert seen == {Phase.MOVEMENT, Phase.END_CARDS, Phase.END_SLIPSTREAM, Phase.END_EXHAUSTION}
    assert finished_race().legal_actions() == []


def test_legal_actions_through_a_whole_race():
    """Every listed action applies without error at every point of a race, and following them ends it."""
    race = new_race(seed=5, place="manual")
    choose = random.Random(5)
    for _ in range(2000):
        actions = _check_legal(race)
        if not actions:
            break
        plays = [a for a in actions if isinstance(a, Play)]
        race.apply(choose.choice(plays or actions))
    assert race.phase is Phase.FINISHED


# ----- setup placement --------------------------------------------------------------------------------------


def test_setup_placement_rules():
    """RULES.md 1, Setup: "players in turn ... place both riders in free lanes behind the start line. A rider
    on an empty square always takes the right lane"."""
    race = new_race(place="manual")
    assert race.phase is Phase.SETUP and race.placing_team.name == "red"
    events = race.place("red-S", 3, 0)
    assert isinstance(events[0], RiderPlaced) and events[0].to == (3, 0) and events[0].rules == (rules.SETUP_PLACE,)
    _assert_unchanged(race, lambda: race.place("red-R", 3, 0), PlacementError, "square 3, lane 0", "that lane is taken")
    _assert_unchanged(race, lambda: race.place("red-R", 4, 0), PlacementError, "start area is squares 0 to 3")
    _assert_unchanged(
        race,
        lambda: race.place("red-R", 2, 1),
        PlacementError,
        "square 2, lane 1",
        "on an empty square a rider takes the right-hand lane",
    )
    _assert_unchanged(race, lambda: race.place("red-R", 3, 2), PlacementError, "square 3 has 2 lanes")
    _assert_unchanged(race, lambda: race.place("blue-S", 2, 0), PlacementError, "red's turn", "not blue's")
    _assert_unchanged(race, lambda: race.place("red-S", 2, 0), PlacementError, "red-S is already placed")
    race.place("red-R", 3, 1)  # the left lane of a square whose right lane is taken
    assert race.placing_team.name == "blue"
    race.place("blue-R", 2, 0)
    events = race.place("blue-S", 0, 0)
    assert isinstance(events[-1], RoundStarted) and events[-1].round == 1
    assert race.phase is Phase.ENERGY and race.placing_team is None
    assert race.positions() == {"red-S": (3, 0), "red-R": (3, 1), "blue-R": (2, 0), "blue-S": (0, 0)}


def test_setup_start_area_of_an_A_stage():
    """RULES.md 1: start side `A` has 4 squares behind the line (squares 0-3)."""
    race = Race.new("la-classicissima", 2, place="manual")
    _assert_unchanged(race, lambda: race.place("red-S", 4, 0), PlacementError, "start area is squares 0 to 3")
    race.place("red-S", 3, 0)


@pytest.mark.parametrize(
    "track, teams", [("avenue-corso-paseo", 4), ("la-classicissima", 4), ("sprint-20", 3), ("cobbles-24", 2)]
)
def test_setup_auto_placement_is_legal(track, teams):
    """RULES.md 1, Setup: auto placement puts every rider in a free lane of the start area, right lane first."""
    race = Race.new(track, teams, seed=3)
    positions = race.positions()
    assert len(positions) == 2 * teams and len(set(positions.values())) == 2 * teams
    for square, lane in positions.values():
        assert 0 <= square < race.track.start and 0 <= lane < race.track.lanes[square]
        if lane > 0:
            assert (square, lane - 1) in positions.values()
    assert race.phase is Phase.ENERGY and race.round == 1


# ----- events -----------------------------------------------------------------------------------------------


def test_every_event_cites_its_rules():
    """STYLE.md: every action returns events, each citing the rules it applied (Rule references, not prose)."""
    race = new_race(teams=3, seed=2, place="manual")
    kinds = set()
    while race.phase is Phase.SETUP:
        events = race.apply(race.legal_actions()[0])
        assert events
        kinds |= {type(e) for e in events}
        assert all(e.rules and all(isinstance(r, rules.Rule) for r in e.rules) for e in events)
    while not race.is_over:
        for rid in race.riders:
            for events in (race.draw(rid), race.play(rid, random_bot(race, rid))):
                assert events and all(e.rules and all(isinstance(r, rules.Rule) for r in e.rules) for e in events)
                kinds |= {type(e) for e in events}
        while race.phase not in (Phase.ENERGY, Phase.FINISHED):
            events = race.step()
            assert events and all(e.rules and all(isinstance(r, rules.Rule) for r in e.rules) for e in events)
            kinds |= {type(e) for e in events}
    assert {
        RiderPlaced,
        RoundStarted,
        CardsDrawn,
        CardPlayed,
        CardsRecycled,
        CardsRevealed,
        RiderMoved,
        CardsRemoved,
        PacksFound,
        ExhaustionTaken,
        Finished,
    } <= kinds


def test_event_to_dict_is_json_ready():
    """events.py: events carry the data a renderer needs; to_dict gives plain values (cards as tokens)."""
    event = CardPlayed("red-S", energy(5), rules=(rules.PLAY,))
    data = event.to_dict()
    assert data == {
        "kind": "CardPlayed",
        "rules": ["fr.energy.play"],
        "automatic": False,
        "rider": "red-S",
        "card": "5",
    }
    json.dumps(data)


def test_event_to_dict_without_cards():
    """events.py: to_dict names the event kind and keeps plain fields."""
    data = Blocked("c", 9, (9, 8), (7, 0), rules=(rules.FULL_SQUARE,), automatic=True).to_dict()
    assert data == {
        "kind": "Blocked",
        "rules": ["fr.move.full-square"],
        "automatic": True,
        "rider": "c",
        "target": 9,
        "full": [9, 8],
        "to": [7, 0],
    }
    assert json.loads(json.dumps(data)) == data


# ----- undo, copy, JSON -------------------------------------------------------------------------------------


def test_undo_restores_the_exact_previous_state_for_every_action():
    """race.py: undo restores the state before the last action (place, draw, play and every step)."""
    race = new_race(seed=4, place="manual")
    choose = random.Random(4)
    count = 0
    while not race.is_over:
        actions = race.legal_actions()
        plays = [a for a in actions if isinstance(a, Play)]
        action = choose.choice(plays or actions)
        before = race.to_dict()
        first = race.apply(action)
        after = race.to_dict()
        race.undo()
        assert race.to_dict() == before
        again = race.apply(action)  # the restored rng replays the same draws
        assert race.to_dict() == after
        assert again == first  # events are values: the same events again
        count += 1
    assert count > 30
    while race.can_undo:
        race.undo()
    assert race.phase is Phase.SETUP and race.positions() == {}
    with pytest.raises(WrongPhaseError, match="nothing to undo"):
        race.undo()


def test_no_history_means_no_undo():
    """race.py: history=False is the fast path without undo."""
    race = new_race(history=False)
    race.draw("red-S")
    assert not race.can_undo
    _assert_unchanged(race, race.undo, WrongPhaseError, "nothing to undo")


def _advance(race: Race, bot, rounds: int) -> None:
    for _ in range(rounds):
        if race.is_over:
            return
        play_energy(race, bot)
        race.finish_round()


@pytest.mark.parametrize("bot", [heuristic_bot, random_bot], ids=["heuristic", "random"])
def test_json_round_trip_and_identical_continuation(bot):
    """race.py: to_dict -> JSON -> from_dict gives the same race, and the restored race continues
    identically (same draws, thanks to the stored rng state)."""
    race = new_race("avenue-corso-paseo", 3, seed=11)
    _advance(race, bot, 3)
    race.draw("red-S")  # mid energy phase, with a hand drawn
    data = json.loads(json.dumps(race.to_dict()))
    restored = Race.from_dict(data)
    assert restored.to_dict() == race.to_dict()
    for r in (race, restored):
        r.play("red-S", r.riders["red-S"].hand[0])
    drawn = [r.draw("blue-R")[-1].cards for r in (race, restored)]
    assert drawn[0] == drawn[1]
    for r in (race, restored):
        r.play("blue-R", r.riders["blue-R"].hand[-1])
        for rid in r.riders:
            if r.riders[rid].played is None:
                r.draw(rid)
                r.play(rid, bot(r, rid))
        r.finish_round()
        _advance(r, bot, 200)
    assert race.is_over and restored.is_over
    assert restored.to_dict() == race.to_dict()


def test_json_round_trip_mid_movement():
    """race.py: a race serialized during the movement phase keeps its fixed movement order."""
    race = movement_race()
    race.step()
    restored = Race.from_dict(json.loads(json.dumps(race.to_dict())))
    assert restored.to_move == race.to_move and restored.phase is Phase.MOVEMENT
    race.finish_round()
    restored.finish_round()
    assert restored.to_dict() == race.to_dict()


def test_copy_is_independent():
    """race.py: copy() is a separate value; changing one leaves the other alone."""
    race = new_race(seed=9)
    twin = race.copy()
    assert twin.to_dict() == race.to_dict()
    before = race.to_dict()
    twin.draw("red-S")
    twin.riders["blue-S"].deck.face_down.clear()
    twin.riders["blue-R"].square = 3
    assert race.to_dict() == before
    race.draw("red-S")
    assert race.riders["red-S"].hand == twin.riders["red-S"].hand  # same rng state, same draw
    race.riders["red-S"].hand.pop()
    assert len(twin.riders["red-S"].hand) == 4


def test_simulated_race_result():
    """simulate.py: a whole bot race returns the winner among the riders past the line."""
    result = simulate_race("sprint-20", teams=2, bot="heuristic", seed=0)
    assert result.winner == result.ranking[0] == result.race.winner
    assert result.race.riders[result.winner].square >= result.race.track.finish


def test_handicap_shuffles_exhaustion_cards_into_the_experienced_team_decks():
    """RULES.md 1, Finish: handicap variant: an experienced player starts with extra exhaustion cards."""
    race = Race.new("sprint-20", ("red", "blue"), handicap={"red": 3}, seed=5)
    for rid in ("red-S", "red-R"):
        rider = race.riders[rid]
        assert len(rider.deck.face_down) == 18 and rider.deck.face_down.count(EXHAUSTION) == 3
        assert rider.handicap == 3 and rider.exhaustion == 0
    assert all(
        r.deck.face_down.count(EXHAUSTION) == 0 and len(r.deck.face_down) == 15
        for r in map(race.riders.get, ("blue-S", "blue-R"))
    )
    with pytest.raises(ValueError, match="handicap: 'green'"):
        Race.new("sprint-20", ("red", "blue"), handicap={"green": 1})


@pytest.mark.parametrize("teams", [-1, 0, 7])
def test_a_race_needs_one_to_six_teams(teams):
    """RULES.md 1, Components: 4 colours in the base game, 6 with the expansion."""
    with pytest.raises(ValueError, match=f"a race has 1 to 6 teams, not {teams}"):
        Race.new("sprint-20", teams)


def test_identity_is_data_not_read_from_ids():
    """A rider's kind, team and colour are fields; a scenario team named after a colour takes that colour."""
    race = Race.from_positions(
        "sprint-20",
        [
            {"id": "x", "square": 3, "lane": 0, "team": "blue", "kind": "sprinteur"},
            {"id": "red-S", "square": 2, "lane": 0},
        ],
    )
    x, other = race.riders["x"], race.riders["red-S"]
    assert (x.kind, x.team, x.colour, x.letter) == ("sprinteur", "blue", "blue", "S")
    assert other.kind == "rouleur" and other.colour == "red" and other.team == "red-S"  # first unused colour
    assert race.teams["blue"].kind is TeamKind.PLAYER and race.teams["blue"].controller is None


def test_bots_draw_from_their_own_random_stream():
    """race.py: a bot's random choice never shifts a later shuffle (bot_rng is not the shuffles' rng)."""
    race = Race.new("sprint-20", 2, seed=3)
    shuffles = race.rng.getstate()
    race.draw("red-S")
    race.play("red-S", random_bot(race, "red-S"))
    assert race.rng.getstate() == shuffles


# ----- resolving steps for a canvas -----------------------------------------------------------------------------


def test_resolve_steps_yields_each_step_with_the_positions_and_cards_before_it():
    """The engine resolves the steps (the scene only animates them): one rider's move per step, frontmost first,
    each with the positions before it and the revealed cards still to move."""
    riders = [{"id": "a", "square": 2, "lane": 0}, {"id": "b", "square": 5, "lane": 0}]
    race = Race.from_positions("sprint-20", riders, cards={"a": energy(2), "b": energy(3)})
    first = next(race.resolve_steps(one=True))
    assert first.before == {"a": (2, 0), "b": (5, 0)}
    assert first.moves == {"b": (energy(3), 3), "a": (energy(2), 2)}
    assert [e.rider for e in first.events if isinstance(e, RiderMoved)] == ["b"]
    rest = list(race.resolve_steps())  # to the end of the round
    assert rest[0].before == {"a": (2, 0), "b": (8, 0)} and rest[0].moves == {"a": (energy(2), 2)}
    assert [type(step.events[0]) for step in rest[1:]] == [CardsRemoved, PacksFound, ExhaustionChecked]
    assert all(step.moves == {} for step in rest[1:])
    assert race.phase is Phase.ENERGY and race.round == 2


def test_resolve_steps_stops_when_asked_and_raises_a_refused_step():
    riders = [{"id": "a", "square": 2, "lane": 0}, {"id": "b", "square": 5, "lane": 0}]
    race = Race.from_positions("sprint-20", riders, cards={"a": energy(2), "b": energy(3)})
    steps = list(race.resolve_steps(stop=lambda race: race.phase is not Phase.MOVEMENT))
    assert len(steps) == 2 and race.phase is Phase.END_CARDS
    race = new_race()
    with pytest.raises(WrongPhaseError, match="energy phase"):
        next(race.resolve_steps())


# ----- handing teams to bots ---------------------------------------------------------------------------------------


def test_hand_to_bots_is_an_action_with_an_event_and_back_undoes_it():
    race = new_race(teams=3)  # red, blue and green, all played by people
    before = race.to_dict(history=False)
    events = race.hand_to_bots(keep=("red",))
    assert [(type(e), e.teams, e.bot) for e in events] == [(TeamsHandedToBots, ("blue", "green"), "heuristic")]
    assert race.teams["red"].bot is None and race.teams["blue"].bot == race.teams["green"].bot == "heuristic"
    race.undo()
    assert race.to_dict(history=False) == before and race.teams["blue"].bot is None


@pytest.mark.parametrize(
    "keep, bot, message",
    [(("purple",), "heuristic", "no team 'purple' in this race"), ((), "genius", "no bot 'genius'")],
)
def test_hand_to_bots_refuses_an_unknown_team_or_bot(keep, bot, message):
    race = new_race()
    _assert_unchanged(race, lambda: race.hand_to_bots(keep, bot), UnknownTeamError, message)


def test_the_bots_a_race_names_are_the_bots_that_play():
    """The race knows the bots by name only (``BOT_NAMES``: the bots import the race); each is one of ``BOTS``."""
    from tutor.flamme_rouge.bots import BOTS
    from tutor.flamme_rouge.race_model import BOT_NAMES

    assert tuple(BOTS) == BOT_NAMES


def test_the_start_of_a_race_is_dealt_and_placed_once():
    """The steps ``Race.new`` and ``from_positions`` take are public, and each is refused once the race has moved on
    (changing nothing)."""
    from tutor.flamme_rouge.errors import WrongPhaseError

    race = Race.new("sprint-20", ["red", "blue"], seed=3)
    before = race.to_dict()
    for step in (race.deal_starting_decks, race.place_automatically, lambda: race.start_at(None)):
        with pytest.raises(WrongPhaseError):
            step()
        assert race.to_dict() == before
