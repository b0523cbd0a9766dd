"""The In Flanders Field lessons: the scenario files beside them pass ``rules-tutor check`` and the notebooks use
them (``tests/test_lessons_execute.py`` executes every notebook under lessons/, these included)."""

from __future__ import annotations

import ast
import html
import json
import os
import re
from pathlib import Path

import nbformat
import pytest

from tutor.cli import main as rules_tutor
from tutor.flanders import rules as R
from tutor.flanders import scenario

LESSONS = Path(__file__).resolve().parents[2] / "lessons" / "flanders"
NOTEBOOKS = sorted(LESSONS.glob("[0-9]*.ipynb"))
"""The numbered lessons (a rules summary page may sit beside them)."""
SCENARIOS = sorted((LESSONS / "scenarios").glob("*.json"))
NAMES = re.compile(r"""["']([a-z0-9_]+)["']""")


def test_there_are_eight_notebooks_and_the_scenarios_they_use():
    assert [p.stem[:2] for p in NOTEBOOKS if p.stem[0].isdigit()] == ["00", "01", "02", "03", "04", "05", "06", "07"]
    names = {p.stem for p in SCENARIOS}
    used = set()
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                used |= {n for n in NAMES.findall(cell.source) if n in names}
    assert used and used <= names
    assert len(used) >= 20, sorted(names - used)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file_passes_rules_tutor_check(path: Path, capsys):
    data = json.loads(path.read_text())
    assert data["game"] == "flanders" and data.get("description")
    assert rules_tutor(["check", str(path)]) == 0, capsys.readouterr().out
    if "actions" in data:
        assert "expect" in data and scenario.check(data) is None


TAUGHT_IN = {
    R.LINE: 4,
    R.TANK: 4,
    R.MINES: 4,
    R.LINE_HALT: 4,
    R.SACRIFICE: 5,
    R.RETAIN: 5,
    R.RETAINED_IN_HAND: 5,
    R.BUST: 3,
    R.BUST_RISK: 3,
    R.BUST_GERMAN: 3,
    R.BUST_DISCARD: 3,
    R.BUST_NINE: 3,
    R.OBJECTIVE: 6,
    R.ONE_ARRIVAL: 6,
    R.SEVERAL_ARRIVALS: 6,
    R.EVERYONE_LOST: 6,
    R.TWO_PLAYERS: 6,
    R.TIE: 6,
}
"""The lesson that teaches each rule (a rule of lesson 1 or 2 is not listed)."""


def quizzes(path: Path) -> list:
    """The quiz widgets of a lesson, built as its cells build them (in the lesson's folder)."""
    found = []
    cwd = os.getcwd()
    os.chdir(LESSONS)
    try:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and "Quiz(" in cell.source:
                tree = ast.parse(cell.source)
                last = tree.body.pop()
                assert isinstance(last, ast.Expr)
                namespace: dict = {}
                exec(compile(tree, str(path), "exec"), namespace)
                found.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
    finally:
        os.chdir(cwd)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS[1:7], ids=[p.stem for p in NOTEBOOKS[1:7]])
def test_no_reveal_explains_a_rule_a_later_lesson_teaches(path: Path):
    lesson = int(path.stem[:2])
    later = [rule for rule, taught in TAUGHT_IN.items() if taught > lesson]
    shown = 0
    for quiz in quizzes(path):
        for _ in range(len(getattr(quiz, "positions", getattr(quiz, "pairs", [])))):
            quiz.choice.value = quiz.choice.options[0][1]
            quiz.reveal_button.click()
            text = quiz.feedback.value + quiz.narration.value
            assert quiz.is_right is not None and text
            assert [rule.text for rule in later if html.escape(rule.text) in text] == [], (path.stem, text)
            shown += 1
            quiz.retry_button.click()
    assert shown >= 2
