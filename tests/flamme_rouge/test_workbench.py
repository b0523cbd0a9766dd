"""The teacher's workbench, headless: the board is clicked through the canvas's own mouse handler, cards are chosen,
the round is stepped, the position is exported and opened again; a malformed file or code changes nothing."""

from __future__ import annotations

import base64
import datetime
import json
import re

import ipywidgets as widgets
import pytest

from tutor.flamme_rouge import Phase, TeamKind
from tutor.flamme_rouge import scenario as sc
from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.track import Track, stage
from tutor.flamme_rouge.widgets import PositionBox, Workbench
from tutor.flamme_rouge.widgets.workbench_editing import BoardEditor
from tutor.ui.controls import StatusLine
from tutor.ui.testing import recorded_commands
from tests.flamme_rouge.positions import BLOCKED


def click(bench: Workbench, square: int, lane: int) -> None:
    """A mouse press on the browser's canvas (2x canvas pixels), through ipycanvas's event handler."""
    view = bench.scene.view
    top = bench.scene.canvas._canvases[-1]
    top._handle_frontend_event(None, {"event": "mouse_down", "x": 2 * view.cx(square), "y": 2 * view.cy(lane)}, [])


def state(bench: Workbench) -> tuple:
    return (bench.position(), bench.race.to_dict(), bench.track_input.value, len(bench.scene.view.track))


def upload(bench: Workbench, content: bytes, name: str = "puzzle.json") -> None:
    bench.upload.value = (
        {
            "name": name,
            "type": "application/json",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
        },
    )


@pytest.fixture
def bench():
    return Workbench(track="sprint-20")


def test_an_empty_track_of_any_stage_or_teaching_track(bench):
    assert bench.riders == [] and bench.race.riders == {}
    assert len(bench.scene.view.track) == 20 and bench.race.track.finish == 16
    bench.track_input.value = "la-haute-montagne"
    bench.new_button.click()
    assert bench.race.track.spec.split()[-1] == "2u" and "La Haute Montagne" in bench.header.value
    assert "shuffle number 0" in bench.header.value
    assert bench.next_button.disabled and "Put a rider" in bench.download.value


def test_the_track_chooser_names_the_track_on_the_board_and_a_chosen_track_shows_at_once(bench):
    """Issue 37: the workbench opened on a position of its own track says so in the chooser (it said "Sprint (20
    flat squares)" over a 16-square board), and a track chosen on an empty board is on the board at once."""
    opened = Workbench("lessons/flamme_rouge/scenarios/movement_rulebook_example.json")
    assert len(opened.race.track) == 16
    assert opened.track_input.value == "" and opened.track_input.label == "This position's track (16 squares)"
    opened.new_button.click()  # the position's own track, empty
    assert len(opened.race.track) == 16 and opened.riders == [] and opened.track_input.value == ""
    assert "The position's track, empty (16 squares)" in opened.status.text
    opened.open_scenario(sc.load("lessons/flamme_rouge/scenarios/movement_rulebook_example.json"))
    opened.track_input.value = "la-haute-montagne"  # riders on the board: they stay until the teacher starts it
    assert len(opened.race.track) == 16 and len(opened.riders) == 3
    assert "Start from the empty track" in opened.status.value
    opened.new_button.click()
    assert "La Haute Montagne" in opened.header.value and opened.track_input.value == "la-haute-montagne"
    assert opened.race.track.spec == stage("la-haute-montagne").spec and opened.riders == []
    assert ("This position's track (16 squares)", "") not in opened.track_input.options  # no longer on the board

    assert bench.track_input.value == "sprint-20" and len(bench.scene.view.track) == 20
    bench.track_input.value = "la-haute-montagne"  # an empty board: the chosen track shows at once
    assert bench.race.track.spec == stage("la-haute-montagne").spec and "La Haute Montagne" in bench.header.value
    assert len(bench.scene.view.track) == len(stage("la-haute-montagne"))


def test_clicking_the_canvas_adds_picks_and_moves_riders(bench):
    click(bench, 3, 0)
    assert bench.position()["riders"] == [{"id": "red-R", "square": 3, "lane": 0, "team": "red", "kind": "rouleur"}]
    bench.team_input.value, bench.kind_input.value = "blue", "sprinteur"
    click(bench, 3, 1)
    assert [(r["id"], r["square"], r["lane"]) for r in bench.riders] == [("red-R", 3, 0), ("blue-S", 3, 1)]
    assert bench.race.positions() == {"red-R": (3, 0), "blue-S": (3, 1)}
    click(bench, 3, 0)  # a click on a rider picks it
    assert bench.selected == "red-R" and bench.rider_input.value == "red-R"
    assert (bench.team_input.value, bench.kind_input.value) == ("red", "rouleur")
    click(bench, 7, 0)  # ... and a click on a free lane moves it
    assert bench.race.positions()["red-R"] == (7, 0) and "red-R moved: square 7" in bench.status.text
    bench.remove_button.click()
    assert [r["id"] for r in bench.riders] == ["blue-S"] and bench.selected is None


def test_choosing_cards_then_stepping_and_finishing_the_round(bench):
    click(bench, 2, 0)
    bench.kind_input.value = "sprinteur"
    click(bench, 4, 0)
    bench.card_inputs["red-R"].value = 5
    assert bench.race.phase is Phase.END_SLIPSTREAM, "until every rider has a card the position is after movement"
    assert "red-S" in bench.status.text and bench.next_button.disabled
    before = state(bench)
    bench._resolve(one=True)
    assert state(bench) == before and bench.status.kind == "warning" and "Choose a card for red-S" in bench.status.text
    bench.card_inputs["red-S"].value = 2
    assert bench.race.phase is Phase.MOVEMENT and not bench.next_button.disabled
    assert bench.position()["cards"] == {"red-R": 5, "red-S": 2}
    with recorded_commands() as log:
        bench.next_button.click()
    assert log.messages == 1 and log.sleeps(), "a step is animated in one message"
    assert bench.race.positions() == {"red-R": (2, 0), "red-S": (6, 0)}, "the frontmost rider moves first"
    assert "red-S moves 2 squares" in bench.story.html.value
    bench.finish_button.click()
    assert bench.race.phase is Phase.ENERGY and bench.race.round == 2
    after = sc.resolve_round(bench.position())["after_slipstream"]
    assert bench.race.positions() == {rid: tuple(spot) for rid, spot in after.items()}
    state_after = state(bench)
    click(bench, 10, 0)  # the board is not an editor while it shows the round being resolved
    assert state(bench) == state_after and "Restart" in bench.status.text
    bench.back_button.click()
    assert bench.race.positions() == {"red-R": (2, 0), "red-S": (6, 0)}, "Back undoes Finish round as one action"
    bench.restart_button.click()
    assert bench.race.positions() == {"red-R": (2, 0), "red-S": (4, 0)} and bench.race.phase is Phase.MOVEMENT
    bench.finish_button.click()
    bench.keep_button.click()
    assert bench.position()["riders"][0]["square"] == 7 and "cards" not in bench.position()


def test_the_export_is_a_code_and_a_downloadable_scenario_file_that_open_the_same_board(bench):
    click(bench, 2, 0)
    bench.team_input.value = "blue"
    click(bench, 2, 1)
    bench.card_inputs["red-R"].value = 4
    bench.card_inputs["blue-R"].value = 6
    bench.name_input.value = "Who leads?"
    data = bench.position()
    # The short code carries the position and its cards (not the name): short enough to read aloud.
    position = {k: data[k] for k in ("track", "finish", "riders", "cards") if k in data}
    assert bench.code_output.value.startswith("FR3-") and data["name"] == "Who leads?"
    assert {k: v for k, v in sc.from_code(bench.code_output.value).items()} == position
    href = re.search(r"href='data:application/json;charset=utf-8;base64,([^']+)'", bench.download.value).group(1)
    assert json.loads(base64.b64decode(href)) == data
    assert "download='who_leads.json'" in bench.download.value and "shuffle number 0" in bench.download.value
    other = Workbench()
    assert other.open_box.open_code(bench.code_output.value)
    assert {k: other.position()[k] for k in position} == position
    assert other.race.positions() == bench.race.positions()
    assert other.race.phase is bench.race.phase is Phase.MOVEMENT
    second = Workbench()
    upload(second, json.dumps(data).encode())
    assert second.position() == data and second.upload.value == ()


def test_a_loaded_file_keeps_its_expected_result_until_an_edit_changes_the_result():
    data = {**BLOCKED, "expect": sc.resolve_round(BLOCKED)}
    bench = Workbench(data)
    assert bench.position() == data and len(bench.scene.view.track) == 20
    click(bench, 3, 1)  # pick red-R ...
    click(bench, 12, 0)  # ... and move it ahead of everyone: the old result no longer holds
    assert "expect" not in bench.position()


@pytest.mark.parametrize(
    "content, words",
    [
        (b"{not json", "not valid JSON: "),
        (b"\xff\xfe\x00", "not UTF-8 text"),
        (b"[1, 2]", "a JSON object, not list"),
        (
            json.dumps({"track": "2 2", "riders": [{"id": "a", "square": 0, "lane": 5}]}).encode(),
            "lane 5 does not exist",
        ),
        (json.dumps({**BLOCKED, "expect": {"winer": None}}).encode(), "unknown key 'winer'"),
    ],
)
def test_a_malformed_file_shows_why_and_changes_nothing(bench, content, words):
    click(bench, 2, 0)
    before = state(bench)
    upload(bench, content, "bad.json")
    assert state(bench) == before
    assert bench.status.kind == "warning" and "bad.json" in bench.status.text and words in bench.status.text
    assert "Nothing changed" in bench.status.text


@pytest.mark.parametrize(
    "code, words",
    [
        ("hello", "starts with FR3-"),
        ("FR3-abc", "damaged"),
        ("", "empty"),
        ("FR2-09FN-2015-M1H4-DGA9-801G-A108-2GA", "older kind of position code"),
    ],
)
def test_a_malformed_code_shows_why_and_changes_nothing(bench, code, words):
    click(bench, 2, 0)
    before = state(bench)
    bench.open_box.text.value = code
    bench.open_box.button.click()
    assert state(bench) == before
    assert bench.open_box.status.kind == "warning" and words in bench.open_box.status.text


def test_an_edit_the_format_refuses_changes_nothing(bench):
    click(bench, 2, 0)
    bench.card_inputs["red-R"].value = "attack"  # Attack! moves a Peloton pair: not a red rider alone
    assert bench.card_inputs["red-R"].value == "", "the input shows the position's card again"
    assert bench.status.kind == "warning" and "attack" in bench.status.text
    bench.card_inputs["red-R"].value = 3
    click(bench, 2, 0)  # pick red-R
    before = state(bench)
    click(bench, 17, 0)  # past the finish line (16) with a card: refused
    assert bench.status.kind == "warning" and "past the finish" in bench.status.text
    assert state(bench) == before


def test_a_peloton_pair_plays_attack_and_takes_no_exhaustion(bench):
    bench.team_input.value = "peloton"
    click(bench, 5, 0)
    click(bench, 4, 0)
    assert all(r["exhaustion"] is False and r["team_kind"] == "peloton" for r in bench.riders)
    assert bench.race.teams["peloton"].kind is TeamKind.PELOTON  # by its kind, not by its name
    for box in bench.card_inputs.values():
        box.value = "attack"
    assert bench.race.phase is Phase.MOVEMENT and bench.position()["cards"] == {
        "peloton-R": "attack",
        "peloton-R2": "attack",
    }


def test_a_position_with_riders_named_otherwise_has_no_code_and_says_to_share_the_file():
    bench = Workbench({"track": "2 2 2 2 2 2", "riders": [{"id": "Alice", "team": "red", "square": 1, "lane": 0}]})
    assert bench.code_output.value == "" and bench.copy_button.value == ""
    assert "this position has no code: a rider or team has a name of its own; share the file" in bench.download.value
    assert "tutor-download" in bench.download.value
    click(bench, 3, 0)  # a new red rider: still no code while Alice is on the board
    assert bench.code_output.value == ""


def test_the_position_box_calls_back_with_the_scenario_and_says_when_the_board_refuses_it():
    got: list[dict] = []
    box = PositionBox(got.append)
    code = sc.to_code(BLOCKED)
    assert code and box.open_code(code) and box.status.kind == "success"
    assert len(got) == 1 and "name" not in got[0]  # the name stays in the file
    assert sc.build(got[0]).positions() == sc.build(BLOCKED).positions() and got[0]["cards"] == BLOCKED["cards"]

    def refuse(_):
        raise ValueError("this lesson shows two-lane tracks only")

    box = PositionBox(refuse)
    assert not box.open_code(code) and "two-lane tracks only" in box.status.text


def test_a_lesson_board_opens_a_pasted_code_on_its_own_track_and_restart_comes_back_to_it():
    from tutor.flamme_rouge.widgets import RaceTutor

    tutor = RaceTutor.from_scenario(BLOCKED)
    three_lanes = {
        "track": "3 3 3 3 3 3 3 3 3 3",
        "cards": {"red-R": 4, "blue-S": 5},
        "riders": [
            {"id": "red-R", "square": 2, "lane": 2, "team": "red"},
            {"id": "blue-S", "square": 1, "lane": 0, "team": "blue", "kind": "sprinteur"},
        ],
    }
    before = tutor.race.to_dict()
    assert not tutor.open_box.open_code("FR3-nonsense") and tutor.race.to_dict() == before
    code = sc.to_code(three_lanes)
    assert code and tutor.open_box.open_code(code)
    assert tutor.race.positions() == {"red-R": (2, 2), "blue-S": (1, 0)} and tutor.race.phase is Phase.MOVEMENT
    assert tutor.scene.view.max_lanes == 3 and tutor.scene.canvas.height == 2 * tutor.scene.view.height
    tutor.finish_button.click()
    tutor.restart_button.click()
    assert tutor.race.positions() == {"red-R": (2, 2), "blue-S": (1, 0)}


def test_check_a_file_checks_a_chosen_puzzle_file_as_rules_tutor_check_does_and_leaves_the_board(bench):
    """Issue 30: the teacher checks a file in the page, not in a terminal."""
    from pathlib import Path

    puzzle = json.loads(
        (
            Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge" / "scenarios" / "finish_sprint.json"
        ).read_text()
    )
    before = state(bench)
    for data, verdict, words in [
        (puzzle, "pass", "passes"),
        ({**puzzle, "expect": {**puzzle["expect"], "winner": "nobody"}}, "fail", "winner"),
        ({k: v for k, v in puzzle.items() if k != "expect"}, "no expect", "no expected"),
        ({**puzzle, "track": "2 9"}, "malformed", "cannot be used"),
    ]:
        bench.check_box.upload.value = (
            {
                "name": "mine.json",
                "type": "application/json",
                "size": 1,
                "content": memoryview(json.dumps(data).encode()),
                "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
            },
        )
        assert bench.check_box.verdict == verdict and words in bench.check_box.status.text, bench.check_box.status.text
        assert bench.check_box.upload.value == ()
    assert state(bench) == before  # checking a file does not open it


def test_the_board_editor_is_a_part_that_keeps_the_pick_and_reads_the_position_through_public_names(bench):
    """Issue 40, "Composition, not mixins": ``bench.editing`` (``BoardEditor``) holds the picked rider and the
    inputs; the workbench's ``selected`` and ``card_inputs`` are the part's, its ``cards`` a copy."""
    click(bench, 3, 0)
    click(bench, 5, 1)
    assert bench.editing.selected is None and [r["id"] for r in bench.riders] == ["red-R", "red-R2"]
    bench.editing.pick("red-R2")
    assert bench.selected == "red-R2" == bench.rider_input.value and "red-R2 picked" in bench.status.text
    assert bench.card_inputs is bench.editing.card_inputs and list(bench.card_inputs) == ["red-R", "red-R2"]
    bench.card_inputs["red-R"].value = 4
    shown = bench.cards
    shown["red-R2"] = 9  # a copy: the position keeps its own cards
    assert bench.cards == {"red-R": 4} and "cards" not in bench.position() and bench.missing_cards() == ["red-R2"]
    bench.open_scenario(sc.load("lessons/flamme_rouge/scenarios/movement_rulebook_example.json"))
    assert bench.selected is None and bench.rider_input.value == "" and bench.name_input.value


class StubBench:
    """A host with only ``EditorView``'s public names: the editor needs nothing else of a workbench."""

    def __init__(self, scene):
        self.scene, self.riders, self.cards, self.warnings = scene, [], {}, []
        self.restart_button, self.keep_button = widgets.Button(description="Restart"), widgets.Button(description="K")

    def missing_cards(self):
        return []

    def warn(self, text):
        self.warnings.append(text)


def test_the_board_editor_works_on_any_host_with_the_public_names():
    host = StubBench(Scene(Track.parse("2 2 2 2 2 2"), cards=False))
    shown: list[str] = []
    resolving = type("Control", (), {"can_back": False})()

    def edit(riders=None, cards=None):
        if riders is not None and any(r["square"] == 5 for r in riders):
            return False  # the host refuses: nothing changes
        host.riders = riders if riders is not None else host.riders
        host.cards = cards if cards is not None else host.cards
        return True

    editor = BoardEditor(host, control=resolving, status=StatusLine(), edit=edit, show=shown.append)
    view = host.scene.view
    editor.team_input.value = "blue"
    editor.on_board(view.cx(2), view.cy(1))
    assert host.riders == [{"id": "blue-R", "square": 2, "lane": 1, "team": "blue", "kind": "rouleur"}]
    assert shown[-1].startswith("blue-R added: square 2") and editor.rider_input.options[-1] == ("blue-R", "blue-R")
    editor.on_board(view.cx(2), view.cy(1))  # a click on the rider picks it
    assert editor.selected == "blue-R" and shown[-1].startswith("blue-R picked")
    editor.on_board(view.cx(5), view.cy(0))  # refused by the host: the rider stays
    assert host.riders[0]["square"] == 2
    resolving.can_back = True
    editor.remove_button.click()
    assert host.riders and host.warnings[-1] == "Choose 'Restart' first: the board shows the round being resolved."
    resolving.can_back = False
    editor.remove_button.click()
    assert host.riders == [] and editor.selected is None and shown[-1] == "blue-R removed."
