"""The Peloton expansion (RULES.md 2 and its "Tutor decisions for the expansion"): bot teams, the breakaway bid,
single riders, the start area, terrain checks, and properties over random races of every kind."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.flamme_rouge import (
    ATTACK,
    EXHAUSTION,
    MUSCLE,
    Phase,
    Race,
    RiderOrderError,
    TeamKind,
    TrackError,
    rules,
    simulate_race,
    starting_deck,
)
from tutor.flamme_rouge.bots import autoplay, get_bot
from tutor.flamme_rouge.breakaway import ranking, select, size, tie_at_cut
from tutor.flamme_rouge.cards import energy
from tutor.flamme_rouge.events import (
    BidsRevealed,
    BotDeckRefilled,
    BreakawayCost,
    BreakawayDecided,
    CardsFlipped,
    ExhaustionTaken,
    RiderMoved,
)
from tutor.flamme_rouge.track import Track, stage


# ----- breakaway.select ---------------------------------------------------------------------------------------


def test_breakaway_size_one_for_two_to_four_bidders_two_from_five():
    """RULES.md 2: the top one with 2-4 players, the top two with 5-6; tutor decision: 5-12 bidders, top two."""
    assert [size(n) for n in (2, 3, 4, 5, 6, 12)] == [1, 1, 1, 2, 2, 2]


def test_breakaway_highest_total_wins():
    assert select({"a": (5, 4), "b": (9, 2), "c": (3, 3)}, ["a", "b", "c"]) == ["b"]


def test_breakaway_tie_goes_to_the_rider_further_back_on_the_grid():
    """RULES.md 2: a tie goes to the rider further back on the grid (and so on down the ranking)."""
    bids = {"front": (5, 4), "middle": (7, 2), "back": (6, 3), "last": (2, 2), "other": (9, 0)}
    grid = ["front", "middle", "back", "other", "last"]
    assert ranking(bids, grid) == ["other", "back", "middle", "front", "last"]
    assert select(bids, grid) == ["other", "back"]


def test_breakaway_bidder_missing_from_the_grid_is_an_error():
    with pytest.raises(ValueError, match="'x' is not on the grid"):
        select({"x": (2, 2)}, ["y"])


# ----- tracks ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        ("2 3c 2", "square 1: cobblestones have 1 or 2 lanes, not 3"),
        ("2 2s 2", "square 1: a supply zone has 3 lanes, not 2"),
        ("1s", "square 0: a supply zone has 3 lanes, not 1"),
    ],
)
def test_the_track_parser_rejects_what_the_expansion_does_not_allow(spec, message):
    with pytest.raises(TrackError, match=message):
        Track.parse(spec)


def test_the_tutors_own_stage_has_cobbles_a_narrow_stretch_and_a_supply_zone():
    track = stage("paves-du-nord")
    assert len(track) == 78 and track.finish is not None and track.start == 5
    assert any(track.cobbles) and 1 in track.lanes and any(track.supply)


def test_a_start_area_too_small_extends_backwards():
    """RULES.md 2, tutor decision: extra squares of the start's width behind the start area."""
    race = Race.new("la-classicissima", 6, seed=1)  # 12 riders, 8 lanes behind the A start line
    assert (
        race.track.start == 4 + 2
        and len(race.track) == 78 + 2
        and race.track.finish == stage("la-classicissima").finish + 2
    )
    assert all(r.square is not None and r.square < race.track.start for r in race.riders.values())


# ----- bot teams --------------------------------------------------------------------------------------------------


def bot_race(**options) -> Race:
    return Race.new("sprint-20", ("red", "blue"), seed=2, peloton=True, muscle=1, **options)


def test_bot_teams_have_their_decks_and_never_tire():
    """RULES.md 2: the Peloton owns one Rouleur deck plus two Attack!; a Muscle team has both decks of its colour
    with a Muscle card (5) in the sprinteur's. Neither takes exhaustion."""
    race = bot_race()
    p1, p2 = (race.riders[r] for r in race.teams["peloton"].riders)
    assert race.teams["peloton"].kind is TeamKind.PELOTON and p1.deck is p2.deck
    assert Counter(p1.deck.face_down) == Counter(starting_deck("rouleur") + [ATTACK, ATTACK])
    ms, mr = (race.riders[r] for r in race.teams["muscle-1"].riders)
    assert Counter(ms.deck.face_down) == Counter(starting_deck("sprinteur") + [MUSCLE])
    assert Counter(mr.deck.face_down) == Counter(starting_deck("rouleur"))
    assert not any(r.takes_exhaustion for r in (p1, p2, ms, mr))


def test_bot_teams_place_first_at_the_front_second_rider_behind_the_first():
    """RULES.md 2, tutor decision: Peloton and Muscle place first, at the front; the Peloton's riders one in front
    of the other, the Muscle sprinteur ahead of its rouleur."""
    race = bot_race()
    pos = race.positions()
    front = race.track.start - 1
    assert pos["peloton-1"] == (front, 0) and pos["peloton-2"][0] < front
    assert pos["muscle-1-S"][0] > pos["muscle-1-R"][0] and pos["muscle-1-S"][0] == front
    players = [pos[r] for r in ("red-S", "red-R", "blue-S", "blue-R")]
    assert all(p[0] <= pos["peloton-2"][0] for p in players)


def test_bot_team_riders_never_draw():
    race = bot_race()
    before = race.to_dict()
    with pytest.raises(RiderOrderError, match="peloton-1 rides for a bot team"):
        race.draw("peloton-1")
    assert race.to_dict() == before
    assert "peloton-1" not in race.waiting_riders()


def play_players(race: Race, card_for=lambda race, rid: race.riders[rid].hand[0]) -> None:
    for rid in race.waiting_riders():
        race.draw(rid)
        race.play(rid, card_for(race, rid))


def test_the_flip_is_an_automatic_step_the_peloton_card_moves_both_riders():
    """RULES.md 2: the Peloton flips one card in the movement phase and moves both riders with it; each Muscle
    rider flips its own."""
    race = bot_race()
    top = race.riders["peloton-1"].deck.face_down[-1]
    play_players(race)
    assert race.phase is Phase.FLIP
    events = race.step()
    flips = {e.team: e for e in events if isinstance(e, CardsFlipped)}
    assert flips["peloton"].cards == {"peloton-1": top, "peloton-2": top}
    assert flips["peloton"].automatic and rules.PELOTON_FLIP in flips["peloton"].rules
    assert set(flips["muscle-1"].cards) == {"muscle-1-S", "muscle-1-R"}
    assert race.phase is Phase.MOVEMENT
    race.resolve(Phase.END_CARDS)
    assert race.riders["peloton-1"].removed == [top]  # the one card leaves the game once


def test_an_empty_bot_deck_is_refilled_from_its_played_cards():
    """RULES.md 2, tutor decision: when a bot deck runs out, its played cards are shuffled into a new deck."""
    race = bot_race()
    deck = race.riders["peloton-1"].deck
    deck.removed, deck.face_down = deck.face_down[:-1], deck.face_down[-1:]
    for _ in range(2):
        play_players(race)
        events = race.step()
        race.resolve()
    refills = [e for e in events if isinstance(e, BotDeckRefilled)]
    assert refills and refills[0].team == "peloton" and refills[0].count == 17  # every card of the deck


def test_attack_moves_the_front_rider_2_and_the_back_rider_9_in_a_race():
    race = bot_race()
    race.riders["peloton-1"].deck.face_down.append(ATTACK)
    play_players(race)
    events = race.step() + race.resolve(Phase.MOVEMENT)
    moves = {e.rider: e for e in events if isinstance(e, RiderMoved)}
    assert moves["peloton-1"].value == 2 and moves["peloton-2"].value == 9
    assert rules.ATTACK in moves["peloton-2"].rules


def test_a_supply_zone_start_with_an_exhaustion_card_moves_four():
    """RULES.md 2: a rider starting in a supply zone moves at least 4, even with an exhaustion card (2)."""
    race = Race.new("supply-22", ("red",), seed=1, single_riders=True)
    rider = race.riders["red-S"]
    rider.square = 8
    rider.deck.face_down, rider.deck.recycled = [], []
    race.draw("red-S")
    assert rider.hand == [EXHAUSTION]
    race.play("red-S", EXHAUSTION)
    move = next(e for e in race.resolve(Phase.MOVEMENT) if isinstance(e, RiderMoved))
    assert move.distance == 4 and rules.SUPPLY in move.rules and rider.square == 12


# ----- the breakaway in a race ------------------------------------------------------------------------------------


def rig(race: Race, rid: str, *top: int) -> None:
    """Put these cards on top of the rider's deck (the first is drawn first)."""
    race.riders[rid].deck.face_down += [energy(v) for v in reversed(top)]


def test_the_breakaway_bids_then_places_and_charges_the_winner():
    """RULES.md 2: two bids, ranking by total, the winner's bid cards leave the game and it takes 2 exhaustion
    cards; the others recycle their bids; every deck is reshuffled; the winner starts past the start line."""
    race = Race.new("sprint-20", ("red", "blue", "green"), seed=5, breakaway=True)
    assert race.phase is Phase.BID_1
    rig(race, "red-S", 9, 2, 2, 2, 9, 2, 2, 2)
    rig(race, "blue-R", 5, 3, 3, 3, 4, 3, 3, 3)
    revealed = []
    for rid, card in (("red-S", 9), ("blue-R", 5), ("green-S", None)):
        revealed += race.draw(rid)
        revealed += race.play(rid, card or race.riders[rid].hand[0])
    with pytest.raises(RiderOrderError, match="red-S bids for its team in the breakaway, not red-R"):
        race.draw("red-R")
    assert race.phase is Phase.BID_2 and isinstance(revealed[-1], BidsRevealed)
    for rid, card in (("red-S", 9), ("blue-R", 4), ("green-S", None)):
        race.draw(rid)
        race.play(rid, card or min(race.riders[rid].hand, key=lambda c: c.value))
    assert race.phase is Phase.BREAKAWAY
    red = race.riders["red-S"]
    cards_before = Counter(red.deck.cards())
    events = race.step()
    decided = next(e for e in events if isinstance(e, BreakawayDecided))
    assert decided.winners == ("red-S",) and decided.totals["red-S"] == 18 and decided.totals["blue-R"] == 9
    assert red.removed == [energy(9), energy(9)] and red.exhaustion == 2
    assert Counter(red.deck.face_down) == cards_before + Counter([EXHAUSTION, EXHAUSTION])
    assert red.recycled == [] and race.riders["blue-R"].recycled == []
    assert red.position == (race.track.start, 0)
    assert [(e.rider, e.exhaustion) for e in events if isinstance(e, BreakawayCost)] == [("red-S", 2)]
    assert not any(isinstance(e, ExhaustionTaken) for e in events)  # end-phase exhaustion is another event
    assert race.phase is Phase.ENERGY and race.round == 1


def test_a_breakaway_tie_in_a_race_goes_to_the_rider_further_back():
    race = Race.new("sprint-20", ("red", "blue"), seed=5, breakaway=True, single_riders=True)
    front_id, back_id = rules.movement_order(race.positions())  # the grid, front to back
    for rid in (front_id, back_id):
        rig(race, rid, 5, 5, 5, 5, 5, 5, 5, 5)
    for _ in range(2):
        for rid in (front_id, back_id):
            race.draw(rid)
            race.play(rid, 5)
    decided = next(e for e in race.step() if isinstance(e, BreakawayDecided))
    assert decided.winners == (back_id,) and rules.BREAKAWAY_TIE in decided.rules
    assert decided.tied == (back_id, front_id) and decided.tie_won == (back_id,)  # the narration reads these


def test_the_tie_at_the_cut_names_who_tied_and_who_joined():
    bids = {"front": (5, 4), "middle": (7, 2), "back": (6, 3), "last": (2, 2), "other": (9, 0)}
    grid = ["front", "middle", "back", "other", "last"]
    assert tie_at_cut(bids, grid) == (["other", "back", "middle", "front"], ["other", "back"])  # four 9s, top two
    assert tie_at_cut({"a": (5, 4), "b": (9, 2), "c": (3, 3)}, ["a", "b", "c"]) == ([], [])  # no tie at the cut
    assert tie_at_cut({"a": (5, 4), "b": (5, 4), "c": (9, 2)}, ["a", "b", "c"]) == ([], [])  # a tie below it


# ----- properties over random races of every kind -----------------------------------------------------------------


def check_cards_per_owner(race: Race) -> None:
    """Cards are conserved per deck owner (the Peloton team's one deck counts once)."""
    decks = {}
    for r in race.riders.values():
        decks.setdefault(r.deck.owner, []).append(r)
    for owner, riders in decks.items():
        deck = riders[0].deck
        team = race.teams[riders[0].team]
        if team.kind is TeamKind.PELOTON:
            expected = Counter(starting_deck("rouleur") + [ATTACK, ATTACK])
        elif team.kind is TeamKind.MUSCLE:
            expected = Counter(starting_deck(riders[0].kind) + ([MUSCLE] if riders[0].kind == "sprinteur" else []))
        else:
            expected = Counter(starting_deck(riders[0].kind))
            expected[EXHAUSTION] += riders[0].exhaustion + riders[0].handicap
        held = deck.cards() + deck.removed + riders[0].bids
        played = {r.played for r in riders if r.played is not None}
        held += list(played) if team.kind is TeamKind.PELOTON else [r.played for r in riders if r.played]
        assert Counter(held) == expected, owner


@settings(max_examples=25, deadline=None, database=None)
@given(
    seed=st.integers(0, 10**6),
    singles=st.booleans(),
    players=st.integers(2, 12),
    peloton=st.booleans(),
    muscle=st.integers(0, 2),
    breakaway=st.booleans(),
    bot=st.sampled_from(["random", "heuristic"]),
    track=st.sampled_from(["paves-du-nord", "cobbles-24", "narrow-22", "supply-22", "la-haute-montagne"]),
)
def test_random_races_of_every_kind(seed, singles, players, peloton, muscle, breakaway, bot, track):
    """Cards are conserved per deck owner after every action; bot teams never take exhaustion; the breakaway
    riders each took exactly 2 exhaustion cards; every race (up to 12 single riders) ends."""
    players = players if singles else min(players, 6)
    names = ("red", "blue", "green", "black", "white", "pink", "yellow", "orange", "purple", "teal", "brown", "grey")[
        :players
    ]
    race = Race.new(
        track,
        players,
        bots=dict.fromkeys(names, bot),
        seed=seed,
        single_riders=singles,
        peloton=peloton,
        muscle=muscle,
        breakaway=breakaway,
        history=False,
    )
    check_cards_per_owner(race)
    breakaway_riders: tuple[str, ...] = ()
    while not race.is_over:
        assert race.round <= 200
        events = autoplay(race, steps=False) if race.phase.choosing else race.step()
        check_cards_per_owner(race)
        for e in events:
            if isinstance(e, BreakawayDecided):
                breakaway_riders = e.winners
                assert all(race.riders[r].exhaustion == 2 for r in e.winners)
                assert all(race.riders[r].exhaustion == 0 for r in e.ranking if r not in e.winners)
            if isinstance(e, ExhaustionTaken):
                assert race.teams[race.riders[e.rider].team].kind is TeamKind.PLAYER
    assert all(r.exhaustion == 0 for r in race.riders.values() if race.teams[r.team].kind.flips)
    assert bool(breakaway_riders) == breakaway
    assert race.winner in race.riders


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), peloton=st.booleans(), muscle=st.integers(0, 2), singles=st.booleans())
def test_the_fast_path_equals_step_by_step_with_bot_teams(seed, peloton, muscle, singles):
    """Race.play_round with Peloton and Muscle teams (flips, Attack!, refills) equals draw/play/step."""
    options = dict(
        bots={"red": "random", "blue": "random", "green": "random"},
        seed=seed,
        history=False,
        peloton=peloton,
        muscle=muscle,
        single_riders=singles,
    )
    fast = Race.new("paves-du-nord", ("red", "blue", "green"), **options)
    slow = Race.new("paves-du-nord", ("red", "blue", "green"), **options)
    autoplay(fast, fast=True)
    autoplay(slow)
    assert fast.to_dict() == slow.to_dict()


def test_a_twelve_rider_race_with_every_option_ends_and_reports_riders():
    result = simulate_race(
        "paves-du-nord", teams=12, bot="heuristic", seed=3, single_riders=True, peloton=True, muscle=1, breakaway=True
    )
    kinds = Counter(r["team_kind"] for r in result.riders)
    assert kinds == {"player": 12, "peloton": 2, "muscle": 2}
    assert all(r["exhaustion_taken"] == 0 for r in result.riders if r["team_kind"] != "player")
    assert sum(r["exhaustion_taken"] >= 2 for r in result.riders) >= 2  # the two breakaway riders at least
    assert get_bot("heuristic") and result.winner in {r["id"] for r in result.riders}
