"""The conda environment files (Binder's and the top-level one) ask for the same packages as pyproject.toml."""

import tomllib
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]


def pip_requirements(environment_file: Path) -> list[str]:
    dependencies = yaml.safe_load(environment_file.read_text())["dependencies"]
    return next(entry["pip"] for entry in dependencies if isinstance(entry, dict))


@pytest.mark.parametrize("environment_file", ["environment.yml", "binder/environment.yml"])
def test_environment_file_matches_pyproject(environment_file):
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    requirements = [r for r in pip_requirements(REPO / environment_file) if not r.startswith("-e")]
    assert sorted(requirements) == sorted(dependencies)
