"""Data, not code: the card set and the battlefield load, and malformed files raise errors naming file and entry."""

from __future__ import annotations

import json

import pytest

from tutor.core.errors import DataError
from tutor.flanders import BoardDataError, CardDataError, SpaceKind, load_battlefield, load_cards
from tutor.flanders.cards import DATA, EFFECTS

CARDS = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
BOARD = json.loads((DATA / "battlefield.json").read_text(encoding="utf-8"))


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_the_shipped_files_load_and_say_a_teacher_can_replace_them():
    cards, board = load_cards(), load_battlefield()
    assert "teacher can replace" in " ".join(CARDS["_doc"]) and "teacher can replace" in " ".join(BOARD["_doc"])
    assert cards.fixed.name == "Infantry" and cards.fixed.risk == 0 and cards.fixed.move == 1
    assert board.spaces[0].kind is SpaceKind.START and board.spaces[-1].kind is SpaceKind.OBJECTIVE
    assert any(board.lines)


def test_the_card_set_uses_the_whole_effect_vocabulary():
    cards = load_cards()
    used = {e for card in cards.kinds for e in EFFECTS if getattr(card, e)}
    assert used == set(EFFECTS)
    assert any(c.german for c in cards.kinds) and any(c.british for c in cards.kinds)


def test_bad_json(tmp_path):
    with pytest.raises(CardDataError, match=r"cards\.json: not valid JSON: .* line 1"):
        load_cards(write(tmp_path, "cards.json", "{oops"))


def card_set(tmp_path, **change):
    data = json.loads(json.dumps(CARDS))
    data["cards"][3].update(change)
    return write(tmp_path, "my_cards.json", data)


def test_unknown_key(tmp_path):
    with pytest.raises(CardDataError, match=r"my_cards\.json: cards\[3\] \('Tank'\): unknown key 'colour'"):
        load_cards(card_set(tmp_path, colour="green"))


def test_unknown_effect(tmp_path):
    with pytest.raises(CardDataError, match=r"my_cards\.json: cards\[3\] \('Tank'\): unknown effect 'fly'"):
        load_cards(card_set(tmp_path, effects={"move": 2, "fly": True}))


@pytest.mark.parametrize("count", [0, -1, "3", True, 1.5])
def test_count_not_a_positive_integer(tmp_path, count):
    with pytest.raises(CardDataError, match=r"my_cards\.json: cards\[3\] \('Tank'\): 'count': .* is not a positive"):
        load_cards(card_set(tmp_path, count=count))


def test_effect_counts_must_be_positive_integers_and_flags_true(tmp_path):
    with pytest.raises(CardDataError, match=r"cards\[3\] \('Tank'\): effect 'move': 0 is not a positive integer"):
        load_cards(card_set(tmp_path, effects={"move": 0}))
    with pytest.raises(CardDataError, match=r"cards\[3\] \('Tank'\): effect 'tank' must be true"):
        load_cards(card_set(tmp_path, effects={"move": 2, "tank": 1}))


def test_grey_symbols_are_british_and_black_symbols_german(tmp_path):
    with pytest.raises(CardDataError, match=r"cards\[3\] \('Tank'\): black symbols"):
        load_cards(card_set(tmp_path, effects={"losses": 1}))


def test_unknown_side_and_duplicate_name(tmp_path):
    with pytest.raises(CardDataError, match=r"cards\[3\] \('Tank'\): side 'french'"):
        load_cards(card_set(tmp_path, side="french"))
    with pytest.raises(CardDataError, match=r"cards\[3\] \('Infantry'\): the name is used twice"):
        load_cards(card_set(tmp_path, name="Infantry"))


def test_the_fixed_card_must_name_a_british_movement_card(tmp_path):
    data = dict(CARDS, fixed="Machine Gun")
    with pytest.raises(CardDataError, match=r"cards\.json: 'fixed': 'Machine Gun' must name a British card"):
        load_cards(write(tmp_path, "cards.json", data))


def test_a_map_without_an_objective_line(tmp_path):
    data = dict(BOARD, spaces=BOARD["spaces"][:-1])
    with pytest.raises(BoardDataError, match=r"field\.json: no space has kind 'objective'"):
        load_battlefield(write(tmp_path, "field.json", data))


def test_map_errors_name_the_space(tmp_path):
    spaces = [dict(s) for s in BOARD["spaces"]]
    spaces[4]["kind"] = "river"
    with pytest.raises(BoardDataError, match=r"field\.json: spaces\[4\]: unknown kind 'river'"):
        load_battlefield(write(tmp_path, "field.json", dict(BOARD, spaces=spaces)))
    spaces[4] = {"kind": "open", "height": 3}
    with pytest.raises(BoardDataError, match=r"field\.json: spaces\[4\]: unknown key 'height'"):
        load_battlefield(write(tmp_path, "field.json", dict(BOARD, spaces=spaces)))
    with pytest.raises(BoardDataError, match=r"field\.json: unknown key 'rivers'"):
        load_battlefield(write(tmp_path, "field.json", dict(BOARD, rivers=[])))


def test_data_errors_are_value_errors():
    assert issubclass(CardDataError, DataError) and issubclass(BoardDataError, ValueError)
