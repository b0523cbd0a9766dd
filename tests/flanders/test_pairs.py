"""Issue 40: the pairs of a roll come from one engine query, ``Game.pairs`` (built on ``odds.dice_pairs``), which
``offered``, ``legal_actions`` and ``take`` use too; the dice panel, its description and the pair buttons draw what
it says and judge nothing again."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.flanders.helpers import position
from tutor.flanders import Game, Phase, Roll, Take
from tutor.flanders.events import CardTaken, DiceRolled, PawnPlacedOnNine
from tutor.flanders.odds import PAIRS, dice_pairs
from tutor.flanders.render import Board, picture_of
from tutor.flanders.render.describe import describe_picture
from tutor.ui.testing import recorded_commands

DIE = st.integers(1, 6)


def _random_position(seed: int, steps: int) -> Game:
    """A game after ``steps`` random legal actions (empty spaces, a pawn on 9, cards held: whatever comes)."""
    game = Game.new(2 + seed % 3, seed=seed, history=False)
    agent = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[int(agent.random() * len(legal))])
    return game


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), dice=st.tuples(DIE, DIE, DIE))
def test_the_pairs_query_agrees_with_legal_actions_and_the_take_over_any_roll(seed, steps, dice):
    game = _random_position(seed, steps)
    if game.phase not in (Phase.ROLL, Phase.AGAIN):
        return
    before = game.pairs(dice)  # what these dice would offer now
    assert [p.dice for p in before] == list(PAIRS)
    assert [p.values for p in before] == [(dice[i], dice[j]) for i, j in PAIRS]
    assert all(p.total == sum(p.values) for p in before)
    assert [p.repeat for p in before] == [p.total in [q.total for q in before[:k]] for k, p in enumerate(before)]
    [rolled] = [e for e in game.apply(Roll(dice)) if isinstance(e, DiceRolled)]
    assert rolled.sums == tuple(sorted(p.total for p in before if not p.repeat))
    assert rolled.available == tuple(sorted(p.total for p in before if p.offered))
    if game.phase is not Phase.CHOOSE:  # a bust: no pair was offered
        assert not any(p.offered for p in before) and game.pairs() == ()
        return
    assert game.pairs() == before
    offered = [p for p in game.pairs() if p.offered]
    assert sorted(game.legal_actions(), key=lambda a: a.space) == [
        Take(p.total)
        for p in sorted(offered, key=lambda p: p.total)  # type: ignore[union-attr]
    ]
    assert game.offered() == tuple(sorted(p.total for p in offered))
    for p in game.pairs():
        assert game.is_legal(Take(p.total)) == (p.offered or p.repeat and any(q.total == p.total for q in offered))
    for p in offered:  # each take uses the pair the query offered
        [event] = [
            e for e in game.copy_without_history().apply(Take(p.total)) if isinstance(e, (CardTaken, PawnPlacedOnNine))
        ]
        assert (event.chosen, event.pair) == (p.dice, p.values)


def test_dice_pairs_marks_a_repeated_sum_and_offers_only_the_spaces_given():
    pairs = dice_pairs((2, 4, 4), 1 << 6 | 1 << 8)
    assert [(p.total, p.repeat, p.offered, p.space) for p in pairs] == [
        (6, False, True, True),
        (6, True, False, True),
        (8, False, True, True),
    ]
    assert [p.offered for p in dice_pairs((6, 6, 6), 0xFFF)] == [False, False, False]  # 12 names no space
    assert not any(p.offered for p in dice_pairs((1, 2, 3)))


def test_the_dice_panel_and_its_description_draw_the_engines_verdict_and_judge_nothing_again():
    """A picture whose pairs say another verdict than the spaces would: the panel follows the pairs."""
    game = position(2, spaces={"3": "Infantry", "7": "Machine Gun"})
    game.apply(Roll((1, 2, 6)))
    pic = picture_of(game)
    assert [(p.total, p.offered) for p in pic.pairs] == [(3, True), (7, True), (8, False)] and pic.available == (3, 7)
    board = Board(game.cards, game.battlefield, len(game.players))
    with recorded_commands() as log:
        board.draw(pic)
    assert "✓ 1 + 6 = 7: Machine Gun" in log.texts() and "✗ 2 + 6 = 8: empty space" in log.texts()
    other = replace(pic, pairs=tuple(replace(p, offered=p.total == 3) for p in pic.pairs))
    with recorded_commands() as log:
        board.draw(other)
    assert "✓ 1 + 2 = 3: Infantry" in log.texts() and "✗ 1 + 6 = 7: Machine Gun" in log.texts()
    assert other.available == (3,)
    words = " ".join(describe_picture(other, game.cards, game.battlefield))
    assert (
        "1 + 2 = 3, 1 + 6 = 7, 2 + 6 = 8" in words
        and "Spaces offered (a pair of dice adds up to them and they hold a card): 3." in words
    )


def test_after_a_take_and_at_a_bust_the_picture_offers_no_pair():
    game = position(2, spaces={"6": "Tank", "8": "Infantry"})
    game.apply(Roll((2, 4, 4)))
    game.apply(Take(6))
    pic = picture_of(game, last_dice=(2, 4, 4), chosen=(0, 1))
    assert [p.total for p in pic.pairs] == [6, 6, 8] and pic.available == ()
    game = position(2, spaces={"6": "Tank"})
    game.apply(Roll((1, 1, 1)))
    assert game.phase is Phase.ROLL and game.pairs() == ()
