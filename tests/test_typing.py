"""``mypy tutor`` is clean: the package ships ``py.typed``, so its annotations are part of its API."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_tutor_is_clean():
    if shutil.which("mypy") is None and subprocess.run([sys.executable, "-m", "mypy", "--version"],
                                                       capture_output=True).returncode:
        pytest.fail("mypy is missing: pip install -e '.[test]'")
    result = subprocess.run([sys.executable, "-m", "mypy", "tutor"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
