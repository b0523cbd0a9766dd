"""``mypy --strict tutor`` is clean: the package ships ``py.typed``, so its annotations are part of its API.

pyproject.toml sets ``strict = true`` too, so a plain ``mypy tutor`` checks the same; the only relaxations there
are for the untyped UI and server libraries (ipywidgets, ipycanvas, voila).
"""

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_tutor_is_clean():
    if (
        shutil.which("mypy") is None
        and subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode
    ):
        pytest.fail("mypy is missing: pip install -e '.[test]' -c constraints.txt")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "tutor"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_plain_mypy_is_strict():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config.get("strict") is True


def _imported_top_level_modules() -> set[str]:
    names = set()
    for path in (ROOT / "tutor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"tutor"}


def test_every_imported_library_is_a_declared_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {re.split(r"[<>=!~\[ ;]", spec)[0].lower().replace("_", "-") for spec in project["dependencies"]}
    providers = importlib.metadata.packages_distributions()
    undeclared = {
        module
        for module in _imported_top_level_modules()
        if not {d.lower().replace("_", "-") for d in providers.get(module, [module])} & declared
    }
    assert not undeclared, f"imported by tutor/ but not in [project] dependencies: {sorted(undeclared)}"
