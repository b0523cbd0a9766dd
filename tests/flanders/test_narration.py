"""The narration states the numbers of the events it tells: symbols held and owed, troops lost and left."""

from __future__ import annotations

import re

import pytest

from tutor.core.events import Event
from tutor.flanders import FIXED, Busted, PawnMoved, PawnPlacedOnNine, PawnRemovedFromNine, Stopped, TroopsLost
from tutor.flanders.widgets.narration import narrate, sentence

from .helpers import ids, position
from .test_golden import GAMES, game_events


def told(events, game) -> list[str]:
    return [line.text for line in narrate(events, game.cards)]


def test_a_bust_tells_the_grey_symbols_held_and_the_troops_they_cost():
    """iff.bust.risk: Infantry (1 grey symbol) and Tank (2) held: 3 troop pieces lost."""
    game = position(taken=["Infantry", "Tank"])
    events = game.roll([1, 1, 1])
    [busted] = [e for e in events if isinstance(e, Busted)]
    assert busted.risk == 3
    lines = told(events, game)
    assert "Bust! No pair of 1-1-1 names a space with a card. p1 holds 3 grey symbols." in lines
    assert "p1 loses 3 troop pieces for the 3 grey symbols on its British cards (3 left)." in lines


def test_a_bust_with_no_grey_symbol_costs_nothing():
    game = position(taken=["Reserves"])
    lines = told(game.roll([1, 1, 1]), game)
    assert "p1 holds 0 grey symbols." in lines[1]
    assert "p1 holds no grey symbol: the bust costs no troop piece (6 left)." in lines


def test_a_machine_gun_drawn_with_its_black_symbol_says_so_when_no_troop_is_left_to_lose():
    """iff.bust.german: the grey symbols take p1's last troop pieces; the Machine Gun still has its black
    symbol (the narration once said "Machine Gun has no black symbol")."""
    game = position([{"id": "p1", "troops": 2}, {"id": "p2"}], taken=["Tank", "Machine Gun"])
    events = game.roll([1, 1, 1])
    german = [e for e in events if isinstance(e, TroopsLost) and e.cause == "german"]
    assert [(e.count, e.owed, e.troops) for e in german] == [(0, 1, 0)]
    text = sentence(german[0], game.cards)
    assert text == ("p1 would lose 1 troop piece for Machine Gun (German), with 1 black symbol, but has none left.")
    assert "no black symbol" not in " ".join(told(events, game))


def test_a_german_card_that_costs_more_than_is_left_says_both_numbers():
    game = position([{"id": "p1", "troops": 1}, {"id": "p2"}], taken=["Gas Attack"])
    game.stop()
    events = game.play(ids(game, "Gas Attack")[0])
    assert told(events, game) == [
        "p1 would lose 2 troop pieces for Gas Attack (German), with 2 black symbols, "
        "but has only 1: it loses its last one (0 left). p1 has no troop pieces left: it is "
        "out of the game and takes no more turns."
    ]


def test_a_german_card_with_no_black_symbol_and_one_with_one():
    game = position(taken=["Quiet Sector", "Machine Gun"])
    game.stop()
    quiet = told(game.play(ids(game, "Quiet Sector")[0]), game)
    gun = told(game.play(ids(game, "Machine Gun")[0]), game)
    assert quiet == ["Quiet Sector (German) has no black symbol: p1 loses nothing (6 left)."]
    assert gun == ["p1 loses 1 troop piece for Machine Gun (German), with 1 black symbol (5 left)."]


def test_mines_are_told_with_the_lines_they_cleared():
    """iff.mines: the pawn halted on the line at 3 spends one Mines card to move on."""
    game = position([{"id": "p1", "pawn": 2}, {"id": "p2"}], taken=["Infantry", "Artillery Barrage", "Mines"])
    game.stop()
    game.play(ids(game, "Infantry")[0], 1)  # into the line at 3: halted
    events = game.play(ids(game, "Artillery Barrage")[0], 2, ids(game, "Mines"))
    [moved] = [e for e in events if isinstance(e, PawnMoved)]
    assert moved.cleared == (3,) and moved.mines == tuple(ids(game, "Mines"))
    assert (
        "Artillery Barrage moves p1's pawn 2 spaces, from 3 to 5; 1 Mines card lets it go past the defensive line at 3."
    ) in told(events, game)


def numbers_of(event: Event) -> set[int]:
    """Every number the event's data holds (fields, tuples of them), and what follows from them."""
    found: set[int] = set()

    def add(value: object) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, tuple):
            for v in value:
                add(v)

    for name in event.__dataclass_fields__:
        if name != "rules":
            add(getattr(event, name))
    if isinstance(event, PawnMoved):
        found.add(event.to - event.frm)  # spaces moved
    on_nine = isinstance(event, (PawnPlacedOnNine, PawnRemovedFromNine)) or isinstance(event, Stopped) and event.on_nine
    if on_nine or FIXED in found:
        found.add(9)  # the fixed card on space 9
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_number_a_line_states_is_in_its_events_data(name):
    """Over whole bot games: no sentence states a number its event does not carry (a refill states spaces)."""
    game, events = game_events(name)
    checked = 0
    for event in events:
        text = sentence(event, game.cards)
        stated = {int(n) for n in re.findall(r"(?<!\w)\d+", text)}  # not the 1 of "p1"
        assert stated <= numbers_of(event), (text, event)
        checked += bool(stated)
    assert checked > 50
