"""docs/rule_decisions.md lists every rule the tutor decided (``Rule.decision``), and nothing else as one."""

from __future__ import annotations

import re
from pathlib import Path

from tutor.core.events import Rule
from tutor.core.games import GAMES

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rule_decisions.md"


def _rules() -> dict[str, Rule]:
    """Every ``Rule`` of every registered game's ``rules`` module (README, "Adding a game")."""
    modules = [game.module("rules") for game in GAMES.values()]
    assert {module.__name__ for module in modules} >= {"tutor.flamme_rouge.rules", "tutor.flanders.rules"}
    return {rule.id: rule for module in modules for rule in vars(module).values() if isinstance(rule, Rule)}


def test_every_decision_is_on_the_teachers_page_and_every_id_there_is_a_decision():
    listed = set(re.findall(r"^\| `([a-z0-9.\-]+)` \|", PAGE.read_text(encoding="utf-8"), re.MULTILINE))
    decisions = {rule_id for rule_id, rule in _rules().items() if rule.decision}
    assert decisions, "no Rule is marked as a decision: the engines' rules were not found"
    assert decisions - listed == set(), f"decisions missing from {PAGE.name}"
    assert listed - decisions == set(), f"{PAGE.name} lists ids that are not decisions in the code"
