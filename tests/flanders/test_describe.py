"""The In Flanders Field board in words (``render.describe``): every number it states checked against the engine."""

from __future__ import annotations

import re

from tests.flanders.helpers import position
from tutor.flanders import Busted, CardTaken, DiceRolled, Roll, Take, TroopsLost
from tutor.flanders.game import NINE, Phase
from tutor.flanders.odds import PAIRS, ROLLS, SPACES
from tutor.flanders.render import frames_for, percent, picture_of
from tutor.flanders.render.describe import describe_picture


def _said(game, picture=None):
    return describe_picture(picture or picture_of(game), game.cards, game.battlefield)


def _line(lines, start):
    [line] = [line for line in lines if line.startswith(start)]
    return line


def test_the_card_on_each_space_is_the_engines():
    game = position(2, spaces={"3": "Infantry", "5": "Machine Gun", "11": "Tank"})
    told = _line(_said(game), "Cards on the spaces: ").removeprefix("Cards on the spaces: ").rstrip(".").split("; ")
    assert [int(words.split(":")[0]) for words in told] == list(SPACES)
    for space, words in zip(SPACES, told):
        card = game.spaces.get(space)
        if space == NINE:
            assert words == f"{NINE}: the fixed card"
        elif card is None:
            assert words == f"{space}: empty"
        else:
            kind = game.cards[card]
            assert words == f"{space}: {kind.name} ({'German' if kind.german else 'British'})"
    assert sum("empty" in w for w in told) == len(SPACES) - 1 - 3


def test_each_pawn_and_its_troops_are_the_engines_from_the_start_to_the_last_space_before_the_objective():
    last = len(position(2).battlefield.spaces) - 2
    game = position([{"id": "p1", "pawn": 0}, {"id": "p2", "pawn": last, "troops": 3}, {"id": "p3", "pawn": 3}])
    lines = _said(game)
    for player in game.players:
        space = game.battlefield.spaces[player.pawn]
        line = _line(lines, f"{player.id}: ")
        assert f"pawn on space {player.pawn} ({space.name})" in line, line
        troops = int(re.search(r"(\d+) troop pieces? of", line)[1])  # type: ignore[index]
        assert troops == player.troops, line
    assert "starting line" in _line(lines, "p1: ") and "Ridge crest" in _line(lines, "p2: ")


def test_the_dice_their_pairs_and_the_spaces_offered_are_the_rolls():
    game = position(2, spaces={"3": "Infantry", "6": "Tank", "8": "Infantry"})
    [rolled] = [e for e in game.apply(Roll((2, 4, 4))) if isinstance(e, DiceRolled)]
    line = _line(_said(game), "Dice: ")
    assert line.startswith(f"Dice: {', '.join(map(str, rolled.dice))}.")
    pairs = re.findall(r"(\d) \+ (\d) = (\d+)", line)
    assert [(int(a), int(b)) for a, b, _ in pairs] == [(rolled.dice[i], rolled.dice[j]) for i, j in PAIRS]
    assert sorted({int(total) for _, _, total in pairs}) == list(rolled.sums)
    offered = [int(s) for s in re.findall(r"\d+", line.split("Spaces offered")[1].split(":", 1)[1])]
    assert offered == list(rolled.available) == list(game.offered()) == [6, 8]
    quiz = _line(_said(game, picture_of(game, show_offers=False)), "Dice: ")
    assert quiz == f"Dice: {', '.join(map(str, rolled.dice))}."  # a quiz asks for the sums: none told


def test_the_pair_told_as_chosen_is_the_one_the_take_event_names():
    game = position(2, spaces={"6": "Tank", "8": "Infantry"})
    events = game.apply(Roll((4, 2, 4))) + game.apply(Take(8))
    [taken] = [e for e in events if isinstance(e, CardTaken)]
    assert taken.chosen == (0, 2)
    line = _line(
        _said(game, picture_of(game, chosen=taken.chosen, chosen_space=taken.space, last_dice=(4, 2, 4))), "Dice: "
    )
    pairs = line.split("Pairs: ")[1].split(".")[0].split(", ")
    assert [k for k, words in enumerate(pairs) if words.endswith("(chosen)")] == [PAIRS.index(taken.chosen)]
    assert game.cards[taken.card].name in _line(_said(game), "p1 holds: ")


def test_a_bust_and_the_troops_it_costs_are_the_engines():
    game = position([{"id": "p1", "retained": ["Mines", "Mines"]}, {"id": "p2"}], spaces={"3": "Infantry"})
    before = picture_of(game)
    events = game.apply(Roll((6, 6, 6)))
    [bust] = [e for e in events if isinstance(e, Busted)]
    [lost] = [e for e in events if isinstance(e, TroopsLost)]
    assert lost.count == bust.risk > 0
    frames = frames_for(before, events, [("step", "")] * len(events), picture_of(game))
    shown = next(p for p, _ in frames if p.bust and p.lost)
    lines = _said(game, shown)
    assert _line(lines, "Dice: ").endswith("No pair adds up to a space with a card: a bust.")
    assert f"{', '.join(map(str, bust.dice))}." in _line(lines, "Dice: ")
    assert f", just lost {lost.count}" in _line(lines, "p1: ")
    assert f"{lost.troops} troop pieces of 6" in _line(lines, "p1: ")


def test_the_odds_of_rolling_again_are_the_engines():
    game = position([{"id": "p1", "retained": ["Mines"]}, {"id": "p2"}])
    game.apply(Roll((2, 4, 4)))
    game.apply(Take(6))
    assert game.phase is Phase.AGAIN
    line = _line(_said(game), "If p1 rolls again")
    bust = game.bust_probability()
    assert f"chance of a bust {percent(float(bust))}" in line
    assert f"({bust * ROLLS} of the {ROLLS} rolls offer no card)" in line and (bust * ROLLS).denominator == 1
    assert line.endswith(f"; {game.at_stake()} troop pieces at stake.") and game.at_stake() > 1
