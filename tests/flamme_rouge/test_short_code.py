"""Issues 15, 30 and 40: the short position code a teacher reads aloud or writes on the board (``FR3-``, the only
version the tutor reads): at most 40 characters for a lesson's position, 80 for any workbench position; a code of
an older tutor is refused in one sentence and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tutor.flamme_rouge import scenario as sc
from tutor.flamme_rouge.errors import ScenarioError
from tutor.flamme_rouge.track import stage
from tutor.flamme_rouge.widgets import RaceTutor, Workbench
from tutor.flamme_rouge.widgets.workbench import TRACK_NAMES
from tutor.flamme_rouge.widgets.workbench_editing import BOT_TEAMS, CARD_CHOICES, MAX_RIDERS, TEAMS

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge" / "scenarios").glob("*.json"))
POSITION_KEYS = ("track", "finish", "start", "riders", "cards")
ALPHABET = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def position(data: dict) -> dict:
    """The keys a code carries, riders in board order (the order a code gives them back)."""
    found = {k: data[k] for k in POSITION_KEYS if k in data}
    found["riders"] = sorted(found["riders"], key=lambda r: (r["square"], r["lane"]))
    return found


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_lesson_position_has_a_code_of_at_most_40_characters_typed_in_any_case(path: Path):
    data = sc.load(path)
    code = sc.to_code(data)
    assert code is not None and code.startswith("FR3-") and set(code[4:]) <= ALPHABET
    assert len(code) <= 40, f"{path.name}: {len(code)} characters"
    assert position(sc.from_code(code)) == position(data)
    spaced = " " + " ".join(code[k : k + 4] for k in range(0, len(code), 4)).lower() + "\n"
    assert position(sc.from_code(spaced)) == position(data)


FR2_CODE = "FR2-09FN-2015-M1H4-DGA9-801G-A108-2GA"
"""The version 2 code of the first lesson position, as the tutor wrote it until issue 40."""
REFUSAL = (
    "That code does not open: this is an older kind of position code (FR2-...) that this version of the "
    "tutor no longer reads; ask for a new code (open the position in this version's workbench and copy its "
    "code). Nothing changed."
)


def test_an_old_code_typed_into_a_lesson_says_what_to_do_and_changes_nothing():
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue"), seed=1)
    before, header = tutor.race.to_dict(), tutor.header.value
    tutor.open_box.text.value = FR2_CODE
    tutor.open_box.button.click()
    assert tutor.status.text == REFUSAL and tutor.status.kind == "warning"
    assert tutor.race.to_dict() == before and tutor.header.value == header


def test_an_old_code_typed_into_the_workbench_says_what_to_do_and_changes_nothing():
    bench = Workbench(str(SCENARIOS[1]))
    before, code = bench.position(), bench.code_output.value
    bench.open_box.text.value = FR2_CODE.lower()
    bench.open_box.button.click()
    assert bench.open_box.status.text == REFUSAL and bench.open_box.status.kind == "warning"
    assert bench.position() == before and bench.code_output.value == code


def test_the_refusal_is_said_in_the_learners_language():
    from tutor.i18n import use_language

    use_language("ca")
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue"), seed=1)
    before = tutor.race.to_dict()
    tutor.open_box.text.value = FR2_CODE
    tutor.open_box.button.click()
    assert tutor.status.text == (
        "Aquest codi no s'obre: aquest és un tipus antic de codi de posició (FR2-...) que aquesta versió del tutor ja "
        "no llegeix; demana un codi nou (obre la posició al taller d'aquesta versió i copia'n el codi). No ha canviat "
        "res."
    )
    assert tutor.race.to_dict() == before


def test_a_second_red_rouleur_keeps_the_code_short():
    """The report of issue 30: a second red rouleur made a 30-character code about 400 long."""
    bench = Workbench(track="sprint-20")
    view = bench.scene.view
    for square in (2, 4):
        bench.scene.canvas._canvases[-1]._handle_frontend_event(
            None, {"event": "mouse_down", "x": 2 * view.cx(square), "y": 2 * view.cy(0)}, []
        )
    assert [r["id"] for r in bench.riders] == ["red-R", "red-R2"]
    code = bench.code_output.value
    assert code.startswith("FR3-") and len(code) <= 20
    assert position(sc.from_code(code)) == position(bench.position())


def test_a_mistyped_code_is_refused_with_one_line_and_the_board_does_not_change():
    code = sc.to_code(sc.load(SCENARIOS[0]))
    assert code
    changed = code[:-3] + ("0" if code[-3] != "0" else "1") + code[-2:]
    for bad, words in [
        (changed, "damaged"),
        (code[:8], "damaged"),
        ("FR3-!!", "contains"),
        ("FR3-", "short"),
        (code + "0000", "damaged"),
        ("FR3-" + "0" * 30, "damaged"),
        ("IF1-84210QCHSHH34", "In Flanders Field position code"),
    ]:
        with pytest.raises(ScenarioError, match=words) as caught:
            sc.from_code(bad)
        assert "\n" not in str(caught.value)
    bench = Workbench(str(SCENARIOS[1]))
    before = bench.position()
    assert not bench.open_box.open_code(changed)
    assert "damaged" in bench.open_box.status.text and bench.position() == before


def test_the_workbench_shows_the_short_code_with_a_copy_button_and_a_lesson_opens_it_with_title_and_log():
    bench = Workbench(str(SCENARIOS[0]))
    code = bench.code_output.value
    assert code.startswith("FR3-") and f"data-code='{code}'" in bench.copy_button.value
    assert "Copy" in bench.copy_button.value and "clipboard" in bench.copy_button.value
    tutor = RaceTutor.new_race("sprint-20", teams=("red", "blue"), seed=1)
    assert tutor.open_box.open_code(code)
    assert "A shared position" in tutor.header.value
    assert "Opened A shared position" in tutor.narration.value
    assert tutor.race.positions() == sc.build(sc.from_code(code)).positions()


@st.composite
def workbench_positions(draw: st.DrawFn) -> dict:
    """A position the workbench can make: a track of its list, up to MAX_RIDERS riders of its teams on free lanes,
    named as it names them (``red-R``, ``red-R2``, ... the first free), every card or none."""
    track = stage(draw(st.sampled_from(TRACK_NAMES)))
    cells = [(s, lane) for s, lanes in enumerate(track.lanes) for lane in range(lanes)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=MAX_RIDERS, unique=True))
    riders: list[dict] = []
    for square, lane in chosen:
        team, kind = draw(st.sampled_from(TEAMS)), draw(st.sampled_from(["rouleur", "sprinteur"]))
        base = f"{team}-{kind[0].upper()}"
        taken = {r["id"] for r in riders}
        free = [rid for rid in (base, *(f"{base}{n}" for n in range(2, MAX_RIDERS + 1))) if rid not in taken]
        rider = {"id": draw(st.sampled_from(free[:3])), "square": square, "lane": lane, "team": team, "kind": kind}
        riders.append({**rider, **BOT_TEAMS.get(team, {})})
    data: dict = {"track": track.spec, "finish": track.finish, "riders": riders}
    if draw(st.booleans()):
        data["cards"] = {r["id"]: draw(st.sampled_from([v for _, v in CARD_CHOICES[1:]])) for r in riders}
    try:
        sc.build(data)
    except ScenarioError:
        assume(False)
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(workbench_positions())
def test_every_workbench_position_round_trips_in_at_most_80_characters(data: dict):
    code = sc.to_code(data)
    assert code is not None and len(code) <= 80, code
    assert position(sc.from_code(code)) == position(data)


def test_the_workbench_takes_at_most_twelve_riders():
    bench = Workbench(track="avenue-corso-paseo")
    view = bench.scene.view
    for n in range(MAX_RIDERS + 1):
        bench.scene.canvas._canvases[-1]._handle_frontend_event(
            None, {"event": "mouse_down", "x": 2 * view.cx(2 + n), "y": 2 * view.cy(0)}, []
        )
    assert len(bench.riders) == MAX_RIDERS and "remove one" in bench.status.text
    assert len(bench.code_output.value) <= 80
