"""What ``pen.Pen`` sends: an attribute only when it changes within a paint, and all of them again at each paint."""

from __future__ import annotations

from tests.flanders.helpers import position
from tutor.flanders import Roll
from tutor.flanders.render import Board, picture_of
from tutor.ui.testing import recorded_commands


def _sets(log):
    return [tuple(c.args[:2]) for c in log.commands if c.name == "set"]


def test_a_paint_sends_each_attribute_only_when_it_changes_and_the_next_paint_sends_them_again():
    game = position(2, spaces={"6": "Tank", "8": "Infantry"})
    game.apply(Roll((2, 4, 4)))
    board = Board(game.cards, game.battlefield, len(game.players))
    picture = picture_of(game)
    logs = []
    for _ in range(2):
        with recorded_commands() as log:
            board.draw(picture)
        logs.append(_sets(log))
    first, second = logs
    assert len(first) > 20
    assert second == first  # nothing remembered from the paint before
    last: dict[object, object] = {}
    for attribute, value in first:
        assert last.get(attribute, object()) != value, f"attribute {attribute} sent twice as {value!r}"
        last[attribute] = value
