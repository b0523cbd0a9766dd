"""Issue 37: "Try another position" in every lesson with two prepared positions (FR 03-06), played as a learner
plays it: the second position is shown (its riders, teams, draw buttons, track and title), is played to where
the lesson stops, Restart and Back come back to it, and a second press goes back to the first."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tutor.flamme_rouge import Phase
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.widgets import RaceTutor

FR = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge"


@pytest.fixture(autouse=True)
def clicks_at_any_pace(monkeypatch):
    monkeypatch.setattr(RaceTutor, "debounce_s", 0)


def lesson_boards(path: Path, pattern: str = r"^RaceTutor\.from_scenario\(\[") -> list[RaceTutor]:
    """The lesson's boards whose cell matches ``pattern`` (at first: prepared positions with more than one
    scenario), built as Voila runs its cells."""
    boards = []
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        namespace: dict = {"RaceTutor": RaceTutor}
        for cell in nbformat.read(path, as_version=4).cells:
            source = cell.source.strip()
            if cell.cell_type == "code" and re.search(pattern, source, flags=re.M):
                code = re.sub(r"^RaceTutor", "__board = RaceTutor", source, flags=re.M)
                exec(compile(code, path.name, "exec"), namespace)
                board = namespace.pop("__board")
                board.scenarios = [scenarios.load(p) for p in re.findall(r'"(scenarios/[^"]+)"', source)]
                boards.append(board)
    finally:
        os.chdir(here)
    return boards


LESSONS = [p for p in sorted(FR.glob("0[0-9]_*.ipynb")) if "RaceTutor.from_scenario([" in p.read_text()]


def play_to_the_stop(tutor: RaceTutor) -> None:
    """Click what the prompt names until the position is done (a card for each drawn hand, else Finish round)."""
    for _ in range(40):
        if tutor.done:
            return
        if tutor.paused:
            tutor.next_round_button.click()
        elif tutor.race.phase.choosing:
            if tutor.active_rider is None:
                tutor.draw_buttons[tutor.hand.free[0]].click()
            tutor.card_buttons[0].click()
        else:
            tutor.finish_button.click()
        assert tutor.status.kind != "warning", tutor.status.text
    raise AssertionError(f"{tutor.title}: never done")


def shows(tutor: RaceTutor, data: dict) -> None:
    """The board shows ``data``'s position, as from_scenario shows it, and nothing of another."""
    built = scenarios.build(data)
    assert tutor.title == data["name"] and data["name"] in tutor.header.value
    assert tutor.race.positions() == built.positions() and set(tutor.race.riders) == set(built.riders)
    assert tutor.race.phase is built.phase and not tutor.done
    assert tutor.scene.view.track == built.track and tutor.scene.height == tutor.scene.view.height
    assert set(tutor.draw_buttons) <= set(built.riders)
    assert set(tutor.human_teams) == {name for name, team in built.teams.items() if team.bot is None}
    assert tutor._panel().columns(tutor.race), "the card panel shows this position's riders"


def test_every_lesson_with_two_positions_is_found():
    assert [p.name[:2] for p in LESSONS] == ["03", "04", "05", "06"]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_try_another_position_shows_the_next_one_plays_it_restarts_it_and_cycles_back(path: Path):
    boards = lesson_boards(path)
    assert boards, f"{path.name}: no board with two positions"
    for tutor in boards:
        first, second = tutor.scenarios
        shows(tutor, first)
        play_to_the_stop(tutor)
        tutor.another_button.click()
        assert tutor.status.kind != "warning" and "A new position." in tutor.narration_lines[0].text
        shows(tutor, second)
        tutor.back_button.click()  # nothing done yet on this position: Back has nothing to undo
        assert tutor.status.kind == "warning"
        shows(tutor, second)
        if tutor.race.phase is Phase.MOVEMENT:  # one step, and Back takes it back
            tutor.next_button.click()
            assert tutor.race.positions() != scenarios.build(second).positions()
            tutor.back_button.click()
            shows(tutor, second)
        play_to_the_stop(tutor)
        assert tutor.status.kind == "success"
        tutor.restart_button.click()
        assert "Back to the starting position." in tutor.narration_lines[0].text
        shows(tutor, second)
        play_to_the_stop(tutor)
        tutor.another_button.click()
        shows(tutor, first)
        play_to_the_stop(tutor)


PREPARED = [p for p in sorted(FR.glob("[01][0-9]_*.ipynb")) if "RaceTutor.from_scenario(" in p.read_text()]


@pytest.mark.parametrize("path", PREPARED, ids=[p.stem for p in PREPARED])
def test_the_log_opens_onto_what_happened_on_every_prepared_position(path: Path):
    """FR 04 starts in the end phase: its log was empty, and "Log" opened onto nothing (0 px high)."""
    boards = lesson_boards(path, r"^RaceTutor\.from_scenario\(")
    assert boards
    for tutor in boards:
        for _ in range(len(tutor.positions.scenarios)):
            assert tutor.story.toggle.value is False and tutor.story.toggle.description.startswith("▸")
            tutor.story.toggle.value = True  # "▸ Log"
            assert tutor.narration.layout.display is None and "<li" in tutor.narration.value, tutor.title
            tutor.story.toggle.value = False
            play_to_the_stop(tutor)
            tutor.another_button.click()


def test_an_empty_log_says_so_when_opened():
    from tutor.ui.narration import Line, NarrationLog

    log = NarrationLog("Log", open_=False)
    log.toggle.value = True
    assert "Nothing has happened yet" in log.html.value
    log.add([Line("red-S moves 5 squares.")], "Round 1")
    assert "Nothing has happened" not in log.html.value and "red-S moves" in log.html.value
    log.clear()
    assert "Nothing has happened yet" in log.html.value
