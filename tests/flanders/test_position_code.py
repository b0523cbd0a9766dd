"""Issue 30: the In Flanders Field position code (``IF1-``): at most 40 characters for every lesson position, at
most 80 for any position the workbench can make, refused with one line when malformed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tutor.flanders import position_code as pc
from tutor.flanders import scenario as sc
from tutor.flanders.errors import ScenarioError
from tutor.flanders.game import CARD_SPACES
from tutor.flanders.widgets.position_editor import AUTO, MAX_HAND, MAX_RETAINED, MAX_SEED, PHASE_CHOICES

ROOT = Path(__file__).resolve().parents[2]
LESSON_POSITIONS = sorted((ROOT / "lessons" / "flanders" / "scenarios").glob("*.json"))
ALPHABET = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


@pytest.mark.parametrize("path", LESSON_POSITIONS, ids=[p.stem for p in LESSON_POSITIONS])
def test_every_lesson_position_has_a_code_of_at_most_40_characters(path: Path):
    data = sc.load(path)
    code = pc.to_code(data)
    assert code is not None and code.startswith("IF1-") and set(code[4:]) <= ALPHABET
    assert len(code) <= 40, f"{path.name}: {len(code)} characters"
    assert pc.position(pc.from_code(code)) == pc.position(data)
    assert pc.position(pc.from_code(" " + code.lower() + "\n")) == pc.position(data)


def test_the_same_position_gives_the_same_game():
    data = sc.load(ROOT / "lessons" / "flanders" / "scenarios" / "push_your_luck.json")
    again = pc.from_code(pc.to_code(data))
    assert sc.build(again).to_dict() == sc.build(data).to_dict()  # the same draw pile: the shuffle number travels


@pytest.mark.parametrize(
    "code, words",
    [
        ("", "empty"),
        ("hello", "starts with IF1-"),
        ("FR3-0MHSR031MV", "Flamme Rouge code"),
        ("IF2-0000", r"\(IF2-\.\.\.\) comes from a newer version of the tutor than this one \(which reads IF1-"),
        ("IF1-!!", "contains '!'"),
        ("IF1-0", "too short"),
        ("IF1-" + "7" * 300, "far too long"),
    ],
)
def test_a_malformed_code_is_refused_with_one_line(code, words):
    with pytest.raises(ScenarioError, match=words) as caught:
        pc.from_code(code)
    assert "\n" not in str(caught.value)


def test_a_changed_character_is_caught_by_the_check_character():
    code = pc.to_code(sc.load(LESSON_POSITIONS[0]))
    assert code
    refused = 0
    for k in range(4, len(code) - 1):
        for c in "0123456789ABCDEFGHJKMNPQRSTVWXYZ":
            if c == code[k]:
                continue
            try:
                back = pc.from_code(code[:k] + c + code[k + 1 :])
            except ScenarioError:
                refused += 1
            else:
                assert pc.position(back) != pc.position(sc.load(LESSON_POSITIONS[0]))
    assert refused > 0.9 * (len(code) - 5) * 31


NAMES = st.sampled_from(pc.CARD_NAMES)
CARDS, BATTLEFIELD = sc.cards_and_battlefield({})
"""The tutor's data files, as the workbench's editor reads them (its pawns' range, the cards it lets a player keep)."""


@st.composite
def workbench_positions(draw: st.DrawFn) -> dict:
    """A position the workbench's inputs can make (position_editor: its ranges and limits)."""
    count = draw(st.integers(2, 4))
    players = [
        {
            "id": f"p{n}",
            "pawn": draw(st.integers(0, BATTLEFIELD.objective)),
            "troops": draw(st.integers(0, 6)),
            "retained": draw(st.lists(st.sampled_from(CARDS.retainable), max_size=MAX_RETAINED)),
        }
        for n in range(1, count + 1)
    ]
    data = {
        "game": "flanders",
        "players": players,
        "current": f"p{draw(st.integers(1, count))}",
        "spaces": {str(s): name for s in CARD_SPACES if (name := draw(st.none() | NAMES))},
        "taken": draw(st.lists(NAMES, max_size=MAX_HAND)),
        "on_nine": draw(st.booleans()),
        "seed": draw(st.integers(0, MAX_SEED)),
    }
    phase = draw(st.sampled_from([value for _, value in PHASE_CHOICES]))
    if phase != AUTO:
        data["phase"] = phase
    try:
        sc.build(data)
    except ScenarioError:
        assume(False)
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(workbench_positions())
def test_every_workbench_position_round_trips_in_at_most_80_characters(data: dict):
    code = pc.to_code(data)
    assert code is not None and len(code) <= 80, code
    assert pc.position(pc.from_code(code)) == pc.position(data)
