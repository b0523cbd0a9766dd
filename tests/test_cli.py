"""``rules-tutor check``: exit 0 and "pass" when a scenario's expect block holds, 1 and the first difference
when it does not, 2 and a clear message when the file is malformed (tutor/cli.py, SCENARIOS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main

REPO = Path(__file__).parents[1]
SCENARIOS = REPO / "tests" / "flamme_rouge" / "scenarios"
SUBPROCESS_TIMEOUT_S = 180
"""How long a fresh interpreter may take to start and answer (generous: the machine may be busy)."""

# RULES.md 1, Movement: blue (right lane) moves 5 first to the empty square 8, right lane; red moves 5 too
# and takes the free left lane of square 8. End phase: both are exhausted (square 9 is empty).
GOOD = {
    "name": "two riders, one square",
    "track": " ".join(["2"] * 16),
    "riders": [{"id": "blue-S", "square": 3, "lane": 0}, {"id": "red-R", "square": 3, "lane": 1}],
    "cards": {"blue-S": 5, "red-R": 5},
    "expect": {
        "after_movement": {"blue-S": [8, 0], "red-R": [8, 1]},
        "after_slipstream": {"blue-S": [8, 0], "red-R": [8, 1]},
        "exhausted": ["blue-S", "red-R"],
        "winner": None,
    },
}


def write(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def variant(**changes) -> dict:
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


def test_check_pass_exits_0_and_prints_pass(tmp_path, capsys):
    """A scenario whose expect block matches prints "<file>: pass" and exits 0."""
    path = write(tmp_path, "good.json", GOOD)
    assert main(["check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == f"{path}: pass"
    assert err == ""


def test_check_every_rule_scenario_file_passes(capsys):
    """All the rule scenarios in tests/flamme_rouge/scenarios pass through the command too."""
    files = sorted(str(p) for p in SCENARIOS.glob("*.json"))
    assert main(["check", *files]) == 0
    out = capsys.readouterr().out
    assert out.count(": pass") == len(files)


def test_check_wrong_expect_exits_1_and_prints_first_difference(tmp_path, capsys):
    """A wrong expect block exits 1 and names the first differing rider, the expected and the actual value."""
    wrong = variant()
    wrong["expect"]["after_movement"]["red-R"] = [7, 0]
    wrong["expect"]["after_slipstream"]["red-R"] = [7, 0]
    path = write(tmp_path, "wrong.json", wrong)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out
    assert "after_movement: red-R expected [7, 0], got [8, 1]" in out
    assert "after_slipstream" not in out  # only the first difference


def test_check_wrong_exhausted_list_exits_1(tmp_path, capsys):
    """A wrong `exhausted` list is reported with the expected and actual lists."""
    wrong = variant()
    wrong["expect"]["exhausted"] = ["blue-S"]
    path = write(tmp_path, "wrong.json", wrong)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert 'exhausted: expected ["blue-S"], got ["blue-S", "red-R"]' in out


def test_check_without_expect_block_is_valid_and_exits_0(tmp_path, capsys):
    """A valid scenario without expect: nothing to check, exit 0."""
    data = variant()
    del data["expect"]
    path = write(tmp_path, "puzzle.json", data)
    assert main(["check", str(path)]) == 0
    assert "no expect block" in capsys.readouterr().out


MALFORMED = {
    "bad_json": ('{"track": "2 2",\n "riders": [}', ["not valid JSON", "line 2"]),
    "lane_the_square_lacks": (
        variant(
            track="2 2 2 1 2 2 2 2 2 2 2 2 2 2 2 2",
            riders=[{"id": "blue-S", "square": 3, "lane": 1}, {"id": "red-R", "square": 2, "lane": 0}],
        ),
        ["'blue-S'", "lane 1 does not exist on square 3", "1 lane"],
    ),
    "two_riders_in_one_lane": (
        variant(riders=[{"id": "blue-S", "square": 3, "lane": 0}, {"id": "red-R", "square": 3, "lane": 0}]),
        ["'red-R'", "square 3, lane 0 is already taken by 'blue-S'"],
    ),
    "unknown_key": (variant(finnish=12), ["unknown key 'finnish'"]),
    "unknown_expect_key": (variant(expect={"after_move": {}}), ["unknown key 'after_move'"]),
    "not_an_object": ("[1, 2, 3]", ["JSON object"]),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_check_malformed_exits_2_with_clear_message(tmp_path, capsys, case):
    """A malformed file exits 2; stderr names the file and what is wrong; nothing claims it passed."""
    data, fragments = MALFORMED[case]
    path = write(tmp_path, f"{case}.json", data)
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "pass" not in out
    assert str(path) in err and "malformed" in err
    for fragment in fragments:
        assert fragment in err, f"{fragment!r} not in {err!r}"


def test_check_missing_file_exits_2(tmp_path, capsys):
    """A file that does not exist is reported, exit 2."""
    path = tmp_path / "nowhere.json"
    assert main(["check", str(path)]) == 2
    assert "nowhere.json" in capsys.readouterr().err


def test_check_file_that_is_not_utf8_exits_2(tmp_path, capsys):
    """A malformed file (not UTF-8 text) is reported as malformed, exit 2, not as a failing scenario."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'\xff\xfe{"track": "2 2"}')
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "latin1.json" in err and "malformed" in err


def test_check_several_files_worst_status_wins(tmp_path, capsys):
    """Every file is checked; the exit status is the worst one (2 malformed > 1 fail > 0 pass)."""
    good = write(tmp_path, "good.json", GOOD)
    wrong_data = variant()
    wrong_data["expect"]["winner"] = "red-R"
    wrong = write(tmp_path, "wrong.json", wrong_data)
    bad = write(tmp_path, "bad.json", "{")
    assert main(["check", str(good), str(wrong)]) == 1
    assert main(["check", str(bad), str(good), str(wrong)]) == 2
    out = capsys.readouterr().out
    assert out.count(f"{good}: pass") == 2
    assert out.count(f"{wrong}: FAIL") == 2


def test_check_needs_a_file(capsys):
    """`rules-tutor check` without files is a usage error (argparse exits 2)."""
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2
    assert "FILE" in capsys.readouterr().err


def test_python_m_tutor_check_subprocess(tmp_path):
    """`python -m tutor check` runs the same command in a fresh interpreter."""
    good = write(tmp_path, "good.json", GOOD)
    wrong_data = variant()
    wrong_data["expect"]["after_movement"]["blue-S"] = [9, 0]
    wrong = write(tmp_path, "wrong.json", wrong_data)
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(good)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=SUBPROCESS_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    assert f"{good}: pass" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", str(wrong)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=SUBPROCESS_TIMEOUT_S,
    )
    assert done.returncode == 1
    assert "after_movement: blue-S expected [9, 0], got [8, 0]" in done.stdout


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--teams", "7"], "a race has 1 to 6 teams, not 7"),
        (["simulate", "--teams", "13", "--single-riders"], "a race has 1 to 12 single riders, not 13"),
        (["simulate", "--muscle", "3"], "muscle is the number of Muscle teams, 0 to 2, not 3"),
        (["simulate", "--teams", "1", "--breakaway"], "the breakaway needs at least 2 players"),
        (["simulate", "--teams", "-1"], "a race has 1 to 6 teams, not -1"),
    ],
)
def test_simulate_with_impossible_teams_prints_a_message_not_a_traceback(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_check_rejects_a_file_of_an_unknown_game(tmp_path, capsys):
    path = tmp_path / "chess.json"
    path.write_text('{"game": "chess", "track": "2 2"}')
    assert main(["check", str(path)]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_simulate_a_peloton_race_with_twelve_single_riders(capsys):
    """RULES.md 2: 12 single riders with the Peloton, a Muscle team and the breakaway; six teams fit an A stage
    because the start area extends backwards (tutor decision)."""
    assert (
        main(
            [
                "simulate",
                "--stage",
                "paves-du-nord",
                "--teams",
                "12",
                "--single-riders",
                "--peloton",
                "--muscle",
                "1",
                "--breakaway",
                "--bot",
                "random",
            ]
        )
        == 0
    )
    assert "wins after" in capsys.readouterr().out
    assert main(["simulate", "--teams", "6", "--stage", "la-classicissima"]) == 0


def test_the_command_line_serves_in_flanders_field_too(capsys):
    """Games are picked by --game (simulate) and by a file's "game" key (check); Flamme Rouge stays the default."""
    assert main(["simulate", "--game", "flanders", "--players", "2", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("wins after") + out.count("win after") + out.count("share") >= 2
    assert main(["simulate", "--game", "flanders", "--players", "5"]) == 2
    assert "2 to 4 players" in capsys.readouterr().err
    files = sorted(str(p) for p in (Path(__file__).parent / "flanders" / "scenarios").glob("*.json"))
    assert files and main(["check", *files]) == 0
    assert capsys.readouterr().out.count(": pass") == len(files)


# ----- options out of range, the other game's options, Ctrl+C (issue 16) -----------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--races", "0"], "argument --races: 0 is not from 1 to"),
        (["simulate", "--races", "-5"], "argument --races: -5 is not from 1 to"),
        (["simulate", "--races", "many"], "argument --races: 'many' is not a whole number"),
        (["simulate", "--game", "flanders", "--games", "0"], "argument --games: 0 is not from 1 to"),
        (["serve", "--port", "99999"], "argument --port: 99999 is not from 1 to 65535"),
        (["serve", "--port", "-1"], "argument --port: -1 is not from 1 to 65535"),
        (["serve", "--class-size", "-3"], "argument --class-size: -3 is not from 0 to 200"),
    ],
)
def test_an_option_out_of_range_exits_2_with_a_message(capsys, argv, words):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--players", "3"], "--players is not an option of Flamme Rouge (--game flamme-rouge)"),
        (["simulate", "--games", "2"], "--games is not an option of Flamme Rouge"),
        (["simulate", "--game", "flanders", "--stage", "sprint-20"], "--stage is not an option of In Flanders Field"),
        (["simulate", "--game", "flanders", "--races", "2"], "--races is not an option of In Flanders Field"),
        (["simulate", "--game", "flanders", "--peloton"], "--peloton is not an option of In Flanders Field"),
    ],
)
def test_an_option_of_the_other_game_is_refused(capsys, argv, words):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["serve", "/no/such/folder"], "no lessons folder /no/such/folder"),
        (["serve", "--ip", "not-an-address"], "--ip 'not-an-address' is not an IP address"),
        (["serve", "--ip", "999.1.1.1"], "is not an IP address"),
        (["serve", "--ip", "203.0.113.7"], "cannot listen on 203.0.113.7"),  # a documentation address, not ours
    ],
)
def test_serve_refuses_what_it_cannot_serve(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1


def test_serve_refuses_a_port_in_use(capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in capsys.readouterr().err


def test_ctrl_c_prints_one_line_and_exits_130():
    import signal
    import threading

    process = subprocess.Popen(
        [sys.executable, "-m", "tutor", "simulate", "--races", "100000", "--bot", "random"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first_line: list[str] = []
        reader = threading.Thread(target=lambda: first_line.append(process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(SUBPROCESS_TIMEOUT_S)
        assert first_line, f"no race finished in {SUBPROCESS_TIMEOUT_S} s"
        assert "wins after" in first_line[0]  # it is racing
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=SUBPROCESS_TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert err.strip() == "rules-tutor simulate: stopped (Ctrl+C)"
