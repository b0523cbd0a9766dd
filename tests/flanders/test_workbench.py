"""Issue 30: the In Flanders Field teacher's workbench, headless: inputs are changed as a teacher changes them,
the board below plays the position, the code and the file open it again, a refused edit changes nothing, and a
file chosen in the page is checked as ``rules-tutor check`` checks it."""

from __future__ import annotations

import base64
import datetime
import json
import re
from pathlib import Path

import pytest

from tutor.flanders import position_code as pc
from tutor.flanders.game import Phase
from tutor.flanders.widgets import Workbench
from tutor.ui.share import CheckFileBox

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons" / "flanders" / "scenarios"


def upload(widget, content: bytes, name: str = "puzzle.json") -> None:
    widget.value = (
        {
            "name": name,
            "type": "application/json",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
        },
    )


def snapshot(bench: Workbench) -> tuple:
    return bench.position(), bench.code_output.value, bench.tutor.game.to_dict(), bench.editor.value()


@pytest.fixture
def bench():
    return Workbench()


def test_it_opens_with_three_players_on_the_starting_line_and_a_code(bench):
    data = bench.position()
    assert [p["id"] for p in data["players"]] == ["p1", "p2", "p3"]
    assert bench.code_output.value.startswith("IF1-") and len(bench.code_output.value) <= 40
    assert f"data-code='{bench.code_output.value}'" in bench.copy_button.value
    assert [p.pawn for p in bench.tutor.game.players] == [0, 0, 0]


def test_changing_the_inputs_changes_the_position_the_code_and_the_board_played(bench):
    code = bench.code_output.value
    bench.editor.count_input.value = 4
    bench.editor.player_rows[1].pawn.value = 5
    bench.editor.player_rows[1].troops.value = 3
    bench.editor.space_inputs[3].value = "Tank"
    bench.editor.hand_input.value = ["Infantry", "Bayonet Charge"]
    bench.editor.current_input.value = "p2"
    data = bench.position()
    assert len(data["players"]) == 4 and data["players"][1] == {"id": "p2", "pawn": 5, "troops": 3}
    assert data["spaces"]["3"] == "Tank" and data["taken"] == ["Infantry", "Bayonet Charge"]
    assert bench.code_output.value != code and len(bench.code_output.value) <= 80
    game = bench.tutor.game
    assert game.player.id == "p2" and game.get_player("p2").pawn == 5 and game.phase is Phase.AGAIN
    assert [game.cards[c].name for c in game.taken] == ["Infantry", "Bayonet Charge"]
    assert "Changed" in bench.status.text


def test_an_edit_the_rules_refuse_says_why_and_changes_nothing(bench):
    bench.editor.hand_input.value = ["Tank"]
    before = snapshot(bench)
    bench.editor.space_inputs[4].value = "Tank"  # spaces 6 and the hand hold two of the three Tanks: a third is ok
    assert bench.position()["spaces"]["4"] == "Tank"
    before = snapshot(bench)
    bench.editor.space_inputs[11].value = "Tank"  # a fourth Tank
    assert bench.status.kind == "warning" and "no copy of Tank is left" in bench.status.text
    assert "Nothing changed" in bench.status.text
    assert snapshot(bench) == before and bench.editor.space_inputs[11].value == "Gas Attack"
    # the space the teacher changed, in words (issue 37: it said spaces['11'])
    assert "Space 11: no copy of Tank is left" in bench.status.text and "spaces[" not in bench.status.text
    bench.editor.hand_input.value = ["Tank", "Tank"]
    assert "Card 2 of the hand: no copy of Tank is left" in bench.status.text and "taken[" not in bench.status.text


def test_a_change_of_a_space_names_the_space_and_its_card(bench):
    bench.editor.space_inputs[6].value = "Infantry"
    assert bench.status.text == "Space 6: Infantry. The board below shows the new position."
    bench.editor.space_inputs[6].value = ""
    assert bench.status.text == "Space 6: empty. The board below shows the new position."


def test_the_board_below_plays_the_position(bench):
    tutor = bench.tutor
    tutor.roll_button.click()
    assert tutor.game.phase is Phase.CHOOSE and "p1 rolls" in tutor.narration.value


def test_the_code_and_the_downloaded_file_open_the_same_position(bench):
    bench.editor.player_rows[0].retained.value = ["Mines"]
    bench.editor.player_rows[2].pawn.value = 7
    bench.editor.seed_input.value = 42
    bench.name_input.value = "Mines kept"
    data = bench.position()
    other = Workbench()
    assert other.open_box.open_code(bench.code_output.value)
    assert pc.position(other.position()) == pc.position(data)
    assert other.tutor.game.to_dict() == bench.tutor.game.to_dict()
    href = re.search(r"href='data:application/json;charset=utf-8;base64,([^']+)'", bench.download.value).group(1)
    assert json.loads(base64.b64decode(href)) == data and "download='mines_kept.json'" in bench.download.value
    third = Workbench()
    upload(third.upload, json.dumps(data).encode())
    assert third.position() == data and third.name_input.value == "Mines kept" and third.upload.value == ()


def test_a_lesson_file_keeps_its_actions_and_answer_until_an_edit():
    bench = Workbench(str(LESSONS / "lines_a.json"))
    assert "expect" in bench.position() and "actions" in bench.position()
    bench.editor.player_rows[0].pawn.value = 3
    assert "expect" not in bench.position() and bench.position()["name"] == "A defensive line"


@pytest.mark.parametrize(
    "content, words",
    [
        (b"{not json", "not valid JSON"),
        (b'{"track": "2 2", "riders": []}', "not an In Flanders Field scenario"),
        (json.dumps({"game": "flanders", "players": [{"id": "p1"}]}).encode(), "2 to 4 players"),
        (b"[" * 5000, "nest"),
    ],
)
def test_a_malformed_file_or_code_shows_why_and_changes_nothing(bench, content, words):
    before = snapshot(bench)
    upload(bench.upload, content)
    assert bench.status.kind == "warning" and words in bench.status.text and "Nothing changed" in bench.status.text
    assert snapshot(bench) == before
    assert not bench.open_box.open_code("IF1-ZZZZ") and "does not open" in bench.open_box.status.text
    assert snapshot(bench) == before


# ----- Check a file: the check of ``rules-tutor check``, in the page --------------------------------------------


def _lesson(name: str) -> dict:
    return json.loads((LESSONS / name).read_text())


@pytest.mark.parametrize(
    "data, verdict, words",
    [
        (_lesson("lines_a.json"), "pass", "passes"),
        ({**_lesson("lines_a.json"), "expect": {"pawns": {"p1": 9}}}, "fail", "pawns"),
        ({k: v for k, v in _lesson("board_tour.json").items()}, "no expect", "no expected answer"),
        ({**_lesson("lines_a.json"), "actions": [{"take": 3}]}, "malformed", "cannot be used"),
        (
            json.loads((ROOT / "lessons" / "flamme_rouge" / "scenarios" / "finish_sprint.json").read_text()),
            "pass",
            "Flamme Rouge",
        ),
    ],
)
def test_check_a_file_says_what_rules_tutor_check_says_in_words(bench, data, verdict, words):
    upload(bench.check_box.upload, json.dumps(data).encode(), "mine.json")
    assert bench.check_box.verdict == verdict and words in bench.check_box.status.text
    assert bench.check_box.status.text.startswith("mine.json") and bench.check_box.upload.value == ()
    assert "Traceback" not in bench.check_box.status.text and "\n" not in bench.check_box.status.text


def test_check_a_file_refuses_a_file_over_the_size_limit_unread():
    box = CheckFileBox()
    box.check(b" " * (300 * 1024) + b"{}", "huge.json")
    assert box.verdict == "malformed" and "too large" in box.status.text


# ----- issue 40: what the inputs allow comes from the engine's data, which a teacher may replace -----------------


def _replace_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spaces: int, also_kept: str) -> None:
    """The tutor's data files replaced by a teacher's: a battlefield of ``spaces`` spaces, and a card set where
    ``also_kept`` may be retained too."""
    from tutor.flanders import battlefield, cards

    board = json.loads((cards.DATA / "battlefield.json").read_text("utf-8"))
    board["spaces"] = board["spaces"][: spaces - 1] + board["spaces"][-1:]
    card_set = json.loads((cards.DATA / "cards.json").read_text("utf-8"))
    for kind in card_set["cards"]:
        if kind["name"] == also_kept:
            kind["effects"]["may_retain"] = True
    (tmp_path / "battlefield.json").write_text(json.dumps(board), "utf-8")
    (tmp_path / "cards.json").write_text(json.dumps(card_set), "utf-8")
    monkeypatch.setattr(battlefield, "DATA", tmp_path)
    monkeypatch.setattr(cards, "DATA", tmp_path)


def test_a_replaced_battlefield_and_card_set_show_in_the_editor(tmp_path, monkeypatch):
    _replace_data(tmp_path, monkeypatch, 11, "Bayonet Charge")
    bench = Workbench()
    row = bench.editor.player_rows[1]
    assert row.pawn.max == 10 and "10 the Objective line" in row.pawn.tooltip
    assert row.retained.allowed_tags == ["Bayonet Charge", "Mines", "Reserves"]
    assert row.retained.tooltip == "Bayonet Charge or Mines or Reserves"
    row.pawn.value = 10
    row.retained.value = ["Bayonet Charge"]
    assert bench.tutor.game.get_player("p2").pawn == 10 == bench.tutor.game.battlefield.objective
    assert bench.position()["players"][1]["retained"] == ["Bayonet Charge"]
    row.pawn.value = 11  # past the teacher's Objective line: the input stops at it
    assert row.pawn.value == 10


def test_the_tutors_data_files_give_the_editor_its_objective_and_kept_cards(bench):
    row = bench.editor.player_rows[0]
    assert row.pawn.max == 14 == bench.tutor.game.battlefield.objective
    assert row.retained.allowed_tags == ["Mines", "Reserves"] and row.retained.tooltip == "Mines or Reserves"


def test_a_scenario_with_its_own_battlefield_sets_the_pawns_range_and_keeps_its_map_through_edits():
    from tutor.flanders.battlefield import load_battlefield

    spaces = load_battlefield().to_dict()["spaces"]
    own = {"name": "A short front", "spaces": spaces[:6] + spaces[-1:]}
    bench = Workbench({"game": "flanders", "players": [{"id": "p1", "pawn": 6}, {"id": "p2"}], "battlefield": own})
    row = bench.editor.player_rows[1]
    assert row.pawn.max == 6 and bench.editor.player_rows[0].pawn.value == 6
    row.troops.value = 4
    assert bench.tutor.game.get_player("p2").troops == 4 and bench.tutor.game.battlefield.objective == 6
    assert bench.position()["battlefield"] == own and bench.code_output.value == ""  # a map of its own: no code
    bench.open_scenario({"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}]})
    assert row.pawn.max == 14 and "battlefield" not in bench.position()
