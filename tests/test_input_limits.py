"""Bad input never crashes and never hangs (issue 16): malformed scenario files of both games, position codes,
uploads and pasted codes get one clear line naming the problem, exit 2 from ``rules-tutor check``, and change
nothing in a widget. Limits (``tutor.core.schema``, ``MAX_TRACK_SQUARES``, ``MAX_CODE_CHARS``) are checked
before parsing; the figures of the largest refused inputs are printed (``-s``)."""

from __future__ import annotations

import base64
import datetime
import json
import time
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.cli import main
from tutor.core.schema import MAX_FILE_BYTES
from tutor.flamme_rouge import scenario as fr
from tutor.flamme_rouge.errors import ScenarioError as FRScenarioError
from tutor.flamme_rouge.widgets.workbench import PositionBox, Workbench
from tutor.flanders import scenario as ff
from tutor.flanders.errors import ScenarioError as FFScenarioError

FR_GOOD = {
    "name": "two riders",
    "track": " ".join(["2"] * 16),
    "riders": [{"id": "blue-S", "square": 3, "lane": 0}, {"id": "red-R", "square": 3, "lane": 1}],
    "cards": {"blue-S": 5, "red-R": 5},
}
FF_GOOD = {"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}], "spaces": {"3": "Tank"}}
BIG = 50 << 20
"""The largest refused file of the issue: 50 MB."""


def fr_with(**changes: Any) -> str:
    return json.dumps({**FR_GOOD, **changes})


def ff_with(**changes: Any) -> str:
    return json.dumps({**FF_GOOD, **changes})


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# (file text, words the one-line message must hold); every file is malformed
FR_FILES: dict[str, tuple[str, str]] = {
    "deep_nesting": (nested(100_000), "nested 100000 levels deep"),
    "deep_nesting_in_a_key": (
        fr_with(expect={"winner": None}).replace('"winner": null', '"winner": ' + nested(50)),
        "nested",
    ),
    "5000_digit_integer": (fr_with().replace('"square": 3', '"square": ' + "9" * 5000, 1), "5000 digits"),
    "5000_digit_float": (fr_with().replace('"square": 3', '"square": 1.' + "5" * 5000, 1), "characters"),
    "nan": (fr_with().replace('"square": 3', '"square": NaN', 1), "NaN"),
    "game_as_a_list": (fr_with(game=["flanders"]), "unknown game"),
    "game_as_an_object": (fr_with(game={"id": "flanders"}), "unknown game"),
    "name_a_number": (fr_with(name=7), "key 'name' must be a string"),
    "description_a_list": (fr_with(description=["a", "b"]), "key 'description' must be a string"),
    "lone_surrogate_in_a_rider_id": (fr_with().replace('"blue-S"', '"blue\\ud800"'), "lone surrogate"),
    "key_given_twice": ('{"track": "2 2 2", "track": "2 2", "riders": []}', "'track' is given twice"),
    "track_of_520000_squares": (fr_with(track=" ".join(["2"] * 520_000)), "too large (1016 KB"),
    "track_of_5000_squares": (fr_with(track=" ".join(["2"] * 5000)), "too long (9999 characters; at most 1200)"),
    "track_of_400_squares": (fr_with(track=" ".join(["2"] * 400)), "at most 300"),
    "31_riders": (
        fr_with(riders=[{"id": f"r{i}", "square": i % 16, "lane": i // 16} for i in range(31)]),
        "too many entries (31; at most 30)",
    ),
    "rider_id_of_1000_characters": (fr_with().replace('"blue-S"', '"' + "b" * 1000 + '"'), "too long"),
    "card_a_list": (fr_with(cards={"blue-S": [5], "red-R": 5}), "rider 'blue-S' has card [5]"),
    "a_list_not_an_object": ("[1, 2]", "a JSON object, not list"),
    "empty_file": ("", "not valid JSON"),
    "over_the_size_limit": (" " * (MAX_FILE_BYTES + 1), "too large"),
}
FF_FILES: dict[str, tuple[str, str]] = {
    "deep_nesting": ('{"game": "flanders", "players": ' + nested(100_000) + "}", "nested"),
    "5000_digit_seed": (ff_with(seed=0).replace('"seed": 0', '"seed": ' + "1" * 5000), "5000 digits"),
    "game_as_a_list": (ff_with(game=["flanders"]), "unknown game"),
    "name_a_number": (ff_with(name=7), "key 'name' must be a string"),
    "description_a_list": (ff_with(description=["a"]), "key 'description' must be a string"),
    "superscript_space_key": (ff_with(spaces={"³": "Tank"}), "'³' is not a card space"),
    "space_3_and_03": (ff_with(spaces={"3": "Tank", "03": "Infantry"}), "'03' is not a card space"),
    "space_key_given_twice": (
        '{"game": "flanders", "players": [{"id": "p1"}, {"id": "p2"}], "spaces": {"3": "Tank", "3": "Infantry"}}',
        "'3' is given twice",
    ),
    "lone_surrogate_in_a_player_id": (ff_with().replace('"p1"', '"p\\udc00"'), "lone surrogate"),
    "five_players": (ff_with(players=[{"id": f"p{i}"} for i in range(5)]), "2 to 4 players"),
    "3000_actions": (ff_with(actions=["roll"] * 3000), "too many entries (3000; at most 2000)"),
    "dice_not_numbers": (ff_with(actions=[{"roll": ["a", "b", "c"]}]), "actions[0]"),
    "infinity_troops": (ff_with().replace('{"id": "p1"}', '{"id": "p1", "troops": Infinity}'), "Infinity"),
    "over_the_size_limit": ('{"game": "flanders"' + " " * MAX_FILE_BYTES + "}", "too large"),
}


def _check(tmp_path: Path, text: str | bytes, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "scenario.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: malformed: "), err
    return lines[0]


@pytest.mark.parametrize("case", list(FR_FILES), ids=list(FR_FILES))
def test_a_malformed_flamme_rouge_file_gets_one_line_and_exit_2(tmp_path, capsys, case):
    text, words = FR_FILES[case]
    assert words in _check(tmp_path, text, capsys)


@pytest.mark.parametrize("case", list(FF_FILES), ids=list(FF_FILES))
def test_a_malformed_flanders_file_gets_one_line_and_exit_2(tmp_path, capsys, case):
    text, words = FF_FILES[case]
    assert words in _check(tmp_path, text, capsys)


def test_a_file_that_is_not_utf8_gets_one_line(tmp_path, capsys):
    assert "not UTF-8 text" in _check(tmp_path, b'{"track": "\xff"}', capsys)


def test_a_50_mb_file_is_refused_unread(tmp_path, capsys):
    """The issue's 50 MB file took 45-64 s and 3.6 GiB; it is now refused from its size, before reading."""
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.write(b'{"track": "' + b"2 " * (BIG // 2) + b'"}')
    tracemalloc.start()
    start = time.perf_counter()
    assert main(["check", str(path)]) == 2
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "too large (50.0 MB; a scenario is at most 256 KB)" in capsys.readouterr().err
    assert peak < 1 << 20, f"{peak} bytes allocated to refuse it"
    print(f"\n50 MB scenario file refused in {elapsed * 1000:.1f} ms, peak Python memory {peak / 1024:.0f} KiB")


# ----- position codes ---------------------------------------------------------------------------------------


def code_of(payload: bytes) -> str:
    """A code of the tutor before issue 40 (``FR1-``: JSON, zlib, base64url) holding ``payload``."""
    deflater = zlib.compressobj(9)
    return "FR1-" + base64.urlsafe_b64encode(deflater.compress(payload) + deflater.flush()).decode().rstrip("=")


CODES: dict[str, tuple[str, str]] = {
    "old_code_of_deep_nesting": (code_of(nested(50_000).encode()), "older kind of position code"),
    "old_code_of_a_track_of_520000_squares": (
        code_of(fr_with(track=" ".join(["2"] * 520_000)).encode()),
        "older kind of position code",
    ),
    "old_code_of_a_key_given_twice": (
        code_of(b'{"track": "2 2", "track": "2 2 2", "riders": []}'),
        "older kind of position code",
    ),
    "30_mb_paste": ("FR3-" + "A" * (30 << 20), "far too long"),
    "30_mb_old_paste": ("FR1-" + "A" * (30 << 20), "older kind of position code"),
}
"""A code now holds no JSON: an old ``FR1-`` code, whatever it holds, is refused from its first characters."""


@pytest.mark.parametrize("case", list(CODES), ids=list(CODES))
def test_a_malformed_position_code_says_what_is_wrong(case):
    code, words = CODES[case]
    with pytest.raises(FRScenarioError) as err:
        fr.from_code(code)
    assert words in str(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize("case", ["30_mb_paste", "30_mb_old_paste"])
def test_a_30_mb_pasted_code_is_refused_before_it_is_read(case):
    """The issue's 30 MB paste grew memory by ~400 MiB before it was refused."""
    code = CODES[case][0]
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(FRScenarioError, match=CODES[case][1]):
        fr.from_code(code)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 << 10
    print(f"\n30 MB pasted code refused in {elapsed * 1000:.2f} ms, peak Python memory {peak / 1024:.1f} KiB")


def test_to_code_refuses_a_rider_id_that_is_not_unicode():
    data = json.loads(fr_with())
    data["riders"][0]["id"] = "blue\ud800"
    data["cards"] = {"blue\ud800": 5, "red-R": 5}
    with pytest.raises(FRScenarioError, match="lone surrogate"):
        fr.to_code(data)


# ----- the workbench: uploads and pasted codes change nothing ---------------------------------------------


def _state(bench: Workbench) -> str:
    return json.dumps([bench.position(), bench.name_input.value, bench.rider_input.value], sort_keys=True)


UPLOADS: dict[str, tuple[bytes, str]] = {
    "12_mb_file": (b" " * (12 << 20), "too large (12.0 MB"),
    "description_a_list": (fr_with(description=["a"]).encode(), "key 'description' must be a string"),
    "name_a_number": (fr_with(name=7).encode(), "key 'name' must be a string"),
    "deep_nesting": (nested(100_000).encode(), "nested"),
    "lone_surrogate": (fr_with().replace('"blue-S"', '"b\\ud800"').encode(), "lone surrogate"),
    "huge_track": (fr_with(track=" ".join(["2"] * 400)).encode(), "at most 300"),
}


@pytest.mark.parametrize("case", list(UPLOADS), ids=list(UPLOADS))
def test_a_malformed_upload_shows_why_and_leaves_the_board(case):
    content, words = UPLOADS[case]
    bench = Workbench(json.loads(fr_with()))
    before = _state(bench)
    bench.upload.value = (
        {
            "name": "bad.json",
            "type": "application/json",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
        },
    )
    assert _state(bench) == before
    assert bench.status.kind == "warning" and words in bench.status.text and "Nothing changed" in bench.status.text
    assert bench.upload.value == ()


def test_the_upload_and_code_box_tell_the_page_their_limits():
    bench = Workbench(json.loads(fr_with()))
    assert f"tutor-max-bytes-{MAX_FILE_BYTES}" in bench.upload._dom_classes
    assert f"tutor-max-chars-{fr.MAX_CODE_CHARS}" in bench.open_box.text._dom_classes


def test_a_30_mb_code_in_the_position_box_opens_nothing():
    opened: list[dict] = []
    box = PositionBox(opened.append)
    assert not box.open_code(CODES["30_mb_paste"][0])
    assert opened == [] and box.status.kind == "warning" and "far too long" in box.status.text


# ----- whatever the values, a scenario is accepted or refused with the game's own error --------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _replace(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


FR_PATHS = [[k] for k in ("name", "description", "track", "finish", "riders", "cards", "expect", "kind")] + [
    ["riders", 0],
    *(["riders", 1, k] for k in ("id", "square", "lane", "team", "kind", "exhaustion")),
    ["cards", "blue-S"],
    ["cards", "nobody"],
]
FF_PATHS = [
    [k]
    for k in (
        "game",
        "name",
        "players",
        "current",
        "spaces",
        "taken",
        "on_nine",
        "phase",
        "draw",
        "discard",
        "round",
        "seed",
        "battlefield",
        "actions",
        "expect",
    )
] + [
    ["players", 0],
    *(["players", 1, k] for k in ("id", "pawn", "troops", "retained")),
    ["spaces", "3"],
    ["spaces", "7"],
    ["actions"],
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(FR_PATHS), value=JSON_VALUES)
def test_any_value_anywhere_in_a_flamme_rouge_scenario_is_refused_cleanly(path, value):
    data = _replace({**FR_GOOD, "expect": {}}, path, value)
    try:
        fr.check(data)
        fr.to_code(data)
    except FRScenarioError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(FF_PATHS),
    value=JSON_VALUES
    | st.lists(
        st.sampled_from(
            [
                "roll",
                "stop",
                "end_turn",
                {"roll": [1, 2, 3]},
                {"take": 3},
                {"roll": ["1", 2, 3]},
                {"roll": [9, 0, -1]},
                {"play": "Tank", "spaces": "x"},
                {"end_turn": [3]},
            ]
        ),
        max_size=5,
    ),
)
def test_any_value_anywhere_in_a_flanders_scenario_is_refused_cleanly(path, value):
    data = _replace({**FF_GOOD, "expect": {}}, path, value)
    try:
        ff.check(data)
    except FFScenarioError:
        pass
