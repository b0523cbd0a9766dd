"""``ruff check`` is clean on the whole project (its settings: ``[tool.ruff]`` in pyproject.toml, lines of 120
characters at most, pycodestyle's errors and warnings and pyflakes' findings), and the code is laid out as
``ruff format`` lays it out (the lessons' notebooks excepted: ``[tool.ruff.format]``). ``ruff format .`` fixes a
layout; the commit that first applied it is in ``.git-blame-ignore-revs``.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    if subprocess.run([sys.executable, "-m", "ruff", "--version"], capture_output=True).returncode:
        pytest.fail("ruff is missing: pip install -e '.[test]' -c constraints.txt")
    return subprocess.run([sys.executable, "-m", "ruff", *arguments], cwd=cwd, capture_output=True, text=True)


def test_ruff_check_is_clean():
    result = _ruff("check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_finds_nothing_to_change():
    result = _ruff("format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr + "\nrun: ruff format ."


def test_ruff_format_reports_a_file_laid_out_otherwise(tmp_path):
    """The format gate can fail: a call laid out by hand across lines it fits on."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "loose.py").write_text("print(1,\n      2)\n", encoding="utf-8")
    result = _ruff("format", "--check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1 and "loose.py" in result.stdout, result.stdout


def test_ruff_reports_a_long_line_and_an_unused_import(tmp_path):
    """The gate can fail: the project's settings applied to a file with one line of 121 characters and an import
    nothing uses."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.py").write_text("import os\n\nX = '" + "x" * 115 + "'\n", encoding="utf-8")
    result = _ruff("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert sorted(re.findall(r"bad\.py:\d+:\d+: (\w+)", result.stdout)) == ["E501", "F401"], result.stdout


def test_the_pinned_ruff_is_the_one_running():
    """A new ruff may find what the pinned one did not: the test extra pins it, and this is that version."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pinned = next(spec.split("==")[1] for spec in extras["test"] if spec.startswith("ruff=="))
    assert _ruff("--version").stdout.split() == ["ruff", pinned]
