"""``ruff check`` is clean on the whole project (its settings: ``[tool.ruff]`` in pyproject.toml, lines of 120
characters at most, pycodestyle's errors and warnings and pyflakes' findings).

The format check (``ruff format --check``) is not part of the gate: the code was never laid out by a formatter, and
formatting it would rewrite most of the files at once.
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
