"""The conda environment files ask for the packages pyproject.toml declares.

- environment.yml (conda users): exactly pyproject.toml's [project] dependencies, plus the package itself (-e .).
- binder/environment.yml (Binder): each of those dependencies pinned (==) to a version its pyproject.toml range
  allows; extra pins only for the widget front-end packages that decide whether canvases render.
"""

import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
FRONT_END_PINS = {"jupyterlab-widgets"}  # ipywidgets' JupyterLab front end: pinned with it on Binder


def pip_requirements(environment_file: Path) -> list[str]:
    dependencies = yaml.safe_load(environment_file.read_text())["dependencies"]
    return next(entry["pip"] for entry in dependencies if isinstance(entry, dict))


def project_dependencies() -> dict[str, Requirement]:
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    return {_name(r): Requirement(r) for r in dependencies}


def _name(requirement: str | Requirement) -> str:
    name = requirement.name if isinstance(requirement, Requirement) else Requirement(requirement).name
    return name.lower().replace("_", "-")


def test_environment_yml_is_pyproject_dependencies_and_the_package():
    requirements = pip_requirements(REPO / "environment.yml")
    assert "-e ." in requirements
    listed = [r for r in requirements if not r.startswith("-e")]
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert sorted(listed) == sorted(declared)


def test_binder_pins_every_dependency_within_pyproject_ranges():
    declared = project_dependencies()
    pins = {_name(r): Requirement(r) for r in pip_requirements(REPO / "binder" / "environment.yml")}
    assert sorted(set(pins) - FRONT_END_PINS) == sorted(declared)
    for name, pin in pins.items():
        (specifier,) = pin.specifier
        assert specifier.operator == "==", f"binder: {pin} is not pinned"
        if name in declared:
            assert declared[name].specifier.contains(specifier.version), f"binder: {pin} outside {declared[name]}"


@pytest.mark.parametrize("environment_file", ["environment.yml", "binder/environment.yml"])
def test_python_version_matches_requires_python(environment_file):
    dependencies = yaml.safe_load((REPO / environment_file).read_text())["dependencies"]
    python = next(d for d in dependencies if isinstance(d, str) and d.startswith("python="))
    requires = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    assert Requirement(f"python{requires}").specifier.contains(python.split("=", 1)[1] + ".0")


def test_binder_post_build_installs_the_package_and_template():
    post_build = (REPO / "binder" / "postBuild").read_text()
    assert "pip install" in post_build and " -e ." in post_build
    assert "voila/templates/rules-tutor" in post_build
    assert (REPO / "tutor" / "voila_template" / "voila" / "templates" / "rules-tutor").is_dir()
