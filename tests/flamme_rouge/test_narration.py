"""The narration states what the events say: every number, every round, the reason for every terrain limit.

Issue 15: a supply zone told as "raised by the descent", a Muscle team's two flips told as one card, exhaustion
grouped across rounds (a round's "Round N begins" went missing), no test of "counted as 5" on ascents.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

import pytest

from tutor.flamme_rouge import Race, rules
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.cards import ATTACK, EXHAUSTION, Card
from tutor.flamme_rouge.events import (
    BidsRevealed,
    Blocked,
    BotDeckRefilled,
    BreakawayCost,
    BreakawayDecided,
    BreakawayStart,
    CardBid,
    CardPlayed,
    CardsDrawn,
    CardsFlipped,
    CardsRecycled,
    CardsRemoved,
    CardsRevealed,
    DecksReshuffled,
    Event,
    ExhaustionTaken,
    NoSlipstream,
    PacksFound,
    Reshuffled,
    RiderMoved,
    RiderPlaced,
    RoundStarted,
    Slipstreamed,
)
from tutor.flamme_rouge.race import Phase
from tutor.flamme_rouge.widgets import RaceTutor
from tutor.flamme_rouge.widgets.narration import narrate

SCENARIOS = Path(__file__).parent / "scenarios"


def moves(scenario_file: str) -> dict[str, str]:
    """The movement phase of a scenario file: each rider's narration line."""
    race = scenarios.build(scenarios.load(SCENARIOS / scenario_file))
    events = race.resolve(Phase.MOVEMENT)
    lines = narrate(events)
    return {
        e.rider: next(line.text for line in lines if line.text.startswith(e.rider))
        for e in events
        if isinstance(e, RiderMoved)
    }


def test_an_ascent_cap_is_told_as_counted_as_5():
    """Mountains (RULES.md 1): a 9 on an ascent moves 5, and the line says so and why."""
    lines = moves("ascent_cap_5.json")
    assert "(card 9, counted as 5: capped by the climb)" in lines["a"]
    assert "(card 7, counted as 5: capped by the climb)" in lines["b"]


def test_a_descent_minimum_is_told_as_raised_by_the_descent():
    lines = moves("descent_minimum_5.json")
    assert any("counted as 5: raised by the descent" in text for text in lines.values())


def test_a_supply_zone_minimum_names_the_supply_zone():
    """Peloton expansion: a 2 played in a supply zone moves 4; the line names the supply zone, not a descent."""
    lines = moves("supply_zone_minimum_4.json")
    assert "(card 2, counted as 4: raised by the supply zone)" in lines["a"]
    assert not any("descent" in text for text in lines.values())


def test_the_next_move_hint_names_the_supply_zone():
    tutor = RaceTutor.from_scenario(SCENARIOS / "supply_zone_minimum_4.json")
    assert tutor.race.to_move[0] == "a"
    assert "4 squares: its 2 is raised by the supply zone" in tutor.status.value
    assert "descent" not in tutor.status.value


def test_every_round_of_a_bot_race_is_narrated():
    """A bot race on hill-24 (seed 1): exhaustion lines never swallow the next round's "Round N begins"."""
    race = Race.new("hill-24", 3, bots=dict.fromkeys(("red", "blue", "green"), "random"), seed=1)
    events = autoplay(race)
    texts = [line.text for line in narrate(events)]
    rounds = [e.round for e in events if isinstance(e, RoundStarted)]
    assert rounds == list(range(2, race.round + 1))
    assert [t for t in texts if t.endswith(" begins.")] == [f"Round {n} begins." for n in rounds]
    # Each end phase tells its own exhaustion: one line per round in which someone took a card.
    taken_rounds = {n for n, group in _by_round(events).items() if any(isinstance(e, ExhaustionTaken) for e in group)}
    assert sum("takes an exhaustion card" in t for t in texts) == len(taken_rounds) > 1


def _by_round(events: Sequence[Event]) -> dict[int, list[Event]]:
    rounds: dict[int, list[Event]] = {1: []}
    current = 1
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round
            rounds[current] = []
        rounds[current].append(event)
    return rounds


# ----- every number a line states comes from its events ------------------------------------------------------


def _digits(card: Card) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", str(card))]


def _card_phrase(e: RiderMoved) -> list[int]:
    said = [e.value] if e.card is ATTACK else _digits(e.card)
    return said + ([e.distance] if e.distance != e.value else [])


def expected_numbers(group: Sequence[Event]) -> list[int]:
    """The numbers the narration of ``group`` must state, in order, worked out from the events' fields."""
    first = group[0]
    if isinstance(first, RiderMoved) and len(group) == 2:
        blocked = group[1]
        assert isinstance(blocked, Blocked)
        return [*_card_phrase(first), blocked.target, *blocked.full, first.to[0]]
    if isinstance(first, RiderMoved):
        return [first.to[0] - first.frm[0], *_card_phrase(first), first.frm[0], first.to[0]]
    if isinstance(first, (CardPlayed, CardBid)):
        recycled = group[1]
        assert isinstance(recycled, CardsRecycled)
        tail = [n for c in recycled.cards for n in _digits(c)] + [recycled.pile] if recycled.cards else []
        return _digits(first.card) + tail
    if isinstance(first, BreakawayCost):
        return [first.exhaustion, *_digits(EXHAUSTION)]  # "2 exhaustion cards (E2)"
    if isinstance(first, ExhaustionTaken):
        return [e.square for e in group if isinstance(e, ExhaustionTaken)] + _digits(EXHAUSTION)
    if isinstance(first, (RiderPlaced, BreakawayStart)):
        return [first.to[0]]
    if isinstance(first, RoundStarted):
        return [first.round]
    if isinstance(first, (Reshuffled, BotDeckRefilled)):
        return [first.count]
    if isinstance(first, (CardsDrawn,)):
        return [n for c in first.cards for n in _digits(c)]
    if isinstance(first, (CardsRevealed, CardsRemoved)):
        return [n for c in first.cards.values() for n in _digits(c)]
    if isinstance(first, PacksFound):
        return [n for lo, hi in first.packs for n in ((lo,) if lo == hi else (lo, hi))]
    if isinstance(first, Slipstreamed):
        lo, hi = first.frm
        return [lo] if lo == hi else [lo, hi]
    if isinstance(first, NoSlipstream):
        lo, hi = first.pack
        return [lo] if lo == hi else [lo, hi]
    if isinstance(first, BidsRevealed):
        return [first.bid, *[n for c in first.cards.values() for n in _digits(c)]]
    if isinstance(first, BreakawayDecided):
        numbers = [first.totals[rid] for rid in first.ranking] + [len(first.totals)]
        numbers += [len(first.winners)] if len(first.winners) > 1 else []
        cut = first.totals[first.winners[-1]]
        tie_lost = any(first.totals[rid] == cut and rid not in first.winners for rid in first.ranking)
        return numbers + ([cut] if tie_lost else [])  # "... all total 14: the tie goes to ..."
    if isinstance(first, DecksReshuffled):
        return [len(first.owners)]
    if isinstance(first, CardsFlipped):
        if first.flips[0].card is ATTACK:
            return [rules.ATTACK_FRONT, rules.ATTACK_BACK]
        return [n for flip in first.flips for n in _digits(flip.card)]
    return []


def groups(events: Sequence[Event]) -> list[list[Event]]:
    """The events one narration line (or two, for packs) tells, as ``narrate`` groups them."""
    result: list[list[Event]] = []
    for event in events:
        last = result[-1] if result else None
        if last and (
            isinstance(event, Blocked)
            and isinstance(last[0], RiderMoved)
            or isinstance(event, CardsRecycled)
            and isinstance(last[0], (CardPlayed, CardBid))
            or isinstance(event, (ExhaustionTaken, BreakawayCost))
            and type(event) is type(last[-1])
        ):
            last.append(event)
        else:
            result.append([event])
    return result


def stated_numbers(text: str, names: Sequence[str]) -> list[int]:
    for name in sorted(names, key=len, reverse=True):  # rider and team ids such as "muscle-1-S" are not numbers
        text = text.replace(name, "·")
    return [int(n) for n in re.findall(r"\d+", text)]


RACES = {
    "peloton race with breakaway": dict(
        stage="paves-du-nord", teams=("red", "blue", "green"), peloton=True, muscle=2, breakaway=True, seed=4
    ),
    "mountain race": dict(stage="la-haute-montagne", teams=("red", "blue", "green"), seed=1),
}


@pytest.mark.parametrize("name", sorted(RACES))
def test_every_number_a_line_states_is_in_its_events(name):
    spec = dict(RACES[name])
    teams = spec.pop("teams")
    race = Race.new(spec.pop("stage"), list(teams), bots=dict.fromkeys(teams, "heuristic"), **spec)
    events = autoplay(race)
    names = [*race.riders, *race.teams]
    told = 0
    lines = []
    for group in groups(events):
        said = narrate(group)
        lines += said
        numbers = [n for line in said for n in stated_numbers(line.text, names)]
        assert numbers == expected_numbers(group), f"{[line.text for line in said]} from {group}"
        told += bool(numbers)
    # The whole race narrated at once says the same lines (no grouping across steps or rounds).
    assert [line.text for line in narrate(events)] == [line.text for line in lines]
    assert told > 100
    kinds = {type(e) for e in events}
    assert {RiderMoved, ExhaustionTaken, PacksFound, CardsRevealed} <= kinds
    if race.breakaway:
        assert {BreakawayDecided, BreakawayCost, BreakawayStart, BidsRevealed, CardsFlipped, DecksReshuffled} <= kinds
    assert any(e.distance != e.value for e in events if isinstance(e, RiderMoved))  # terrain limits were told


def test_the_breakaway_tie_is_told_from_the_event_fields():
    """The tie's sentence names who tied and who won it from ``BreakawayDecided.tied`` and ``tie_won``."""
    decided = BreakawayDecided(
        {"a": 9, "b": 9, "c": 4},
        ("b", "a", "c"),
        ("a", "b", "c"),
        ("b",),
        ("b", "a"),
        ("b",),
        rules=(rules.BREAKAWAY_RANK, rules.BREAKAWAY_TIE),
    )
    text = narrate([decided])[0].text
    assert "b and a both total 9: the tie goes to b, further back on the grid (from the front: a, b, c)." in text
    untied = BreakawayDecided({"a": 11, "b": 9}, ("a", "b"), ("b", "a"), ("a",), rules=(rules.BREAKAWAY_RANK,))
    assert "tie" not in narrate([untied])[0].text


def test_handing_teams_to_bots_is_told():
    race = Race.new("sprint-20", ("red", "blue", "green"), seed=1)
    assert narrate(race.hand_to_bots(keep=("red",)))[0].text == "The computer plays blue and green from now on."
