"""Issue 15: the short position code (``FR2-``) a teacher reads aloud or writes on the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.flamme_rouge import scenario as sc
from tutor.flamme_rouge.errors import ScenarioError
from tutor.flamme_rouge.widgets import RaceTutor, Workbench

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "lessons" / "flamme_rouge" / "scenarios").glob("*.json"))
POSITION_KEYS = ("track", "finish", "riders", "cards")


def position(data: dict) -> dict:
    return {k: data[k] for k in POSITION_KEYS if k in data}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_lesson_position_opens_from_its_short_code_typed_in_any_case(path: Path):
    data = sc.load(path)
    code = sc.short_code(data)
    if code is None:  # riders named otherwise than <team>-S / <team>-R: the long code keeps them
        assert any(r["id"] != f"{r.get('team')}-{r.get('kind', ' ')[0].upper()}" for r in data["riders"])
        return
    assert code.startswith("FR2-") and set(code[4:]) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ-")
    assert sc.from_code(code) == position(data)
    assert sc.from_code(" " + code.lower().replace("-", " ") + "\n") == position(data)


def test_a_lesson_sized_position_is_a_few_dozen_characters():
    lengths = sorted(len(c) for c in map(sc.short_code, map(sc.load, SCENARIOS)) if c)
    assert lengths[len(lengths) // 2] <= 40 and lengths[-1] <= 90
    print(f"short codes: {lengths[0]} to {lengths[-1]} characters, median {lengths[len(lengths) // 2]}")


def test_a_mistyped_short_code_is_refused_with_a_reason():
    code = sc.short_code(sc.load(SCENARIOS[0]))
    assert code
    changed = code[:-3] + ("0" if code[-3] != "0" else "1") + code[-2:]
    for bad, words in [(changed, "damaged"), (code[:8], "damaged"), ("FR2-!!", "contains"), ("FR2-", "short")]:
        with pytest.raises(ScenarioError, match=words):
            sc.from_code(bad)


def test_the_workbench_shows_the_short_code_with_a_copy_button_and_a_lesson_opens_it_with_title_and_log():
    bench = Workbench(str(SCENARIOS[0]))
    code = bench.code_output.value
    assert code.startswith("FR2-") and f"data-code='{code}'" in bench.copy_button.value
    assert "Copy" in bench.copy_button.value and "clipboard" in bench.copy_button.value
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue"), seed=1)
    assert tutor.open_box.open_code(code)
    assert "A shared position" in tutor.header.value
    assert "Opened A shared position" in tutor.narration.value
    assert tutor.race.positions() == sc.build(sc.from_code(code)).positions()
