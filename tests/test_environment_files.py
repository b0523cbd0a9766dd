"""The conda environment files ask for the packages pyproject.toml declares, at the versions constraints.txt pins.

- environment.yml (conda users): exactly pyproject.toml's [project] dependencies, plus the package itself (-e .).
- binder/environment.yml (Binder): each of those dependencies pinned (==) to a version its pyproject.toml range
  allows; extra pins only for the widget front-end packages that decide whether canvases render.
- constraints.txt: the one set of versions the tests (scripts/test), the Docker image (deploy/z2jh/Dockerfile) and
  Binder (the same pins, repeated in binder/environment.yml) install; the test tools pinned in pyproject.toml too.
"""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
FRONT_END_PINS = {"jupyterlab-widgets"}  # ipywidgets' JupyterLab front end: pinned with it on Binder


PINNED_TEST_TOOLS = {"mypy", "ruff", "pytest", "hypothesis", "playwright"}


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


def constraints() -> dict[str, Requirement]:
    lines = (REPO / "constraints.txt").read_text().splitlines()
    found = [Requirement(line.split("#")[0]) for line in lines if line.split("#")[0].strip()]
    assert len({_name(r) for r in found}) == len(found), "constraints.txt names a package twice"
    return {_name(r): r for r in found}


def test_constraints_pin_every_dependency_and_test_requirement_within_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["test"]]
    pins = constraints()
    for requirement in wanted:
        pin = pins.get(_name(requirement))
        assert pin is not None, f"constraints.txt: no pin for {requirement}"
        (specifier,) = pin.specifier
        assert specifier.operator == "==", f"constraints.txt: {pin} is not pinned"
        assert requirement.specifier.contains(specifier.version), f"constraints.txt: {pin} outside {requirement}"


def test_the_test_tools_are_pinned_in_pyproject_as_in_the_constraints():
    test_extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    declared = {_name(r): Requirement(r) for r in test_extra}
    pins = constraints()
    for tool in sorted(PINNED_TEST_TOOLS):
        assert str(declared[tool].specifier) == str(pins[tool].specifier), f"{declared[tool]} but {pins[tool]}"
    for name, requirement in declared.items():
        if any(s.operator == "==" for s in requirement.specifier):
            assert str(requirement.specifier) == str(pins[name].specifier), f"{requirement} but {pins[name]}"


def test_binder_pins_are_the_constraints():
    pins = constraints()
    for requirement in pip_requirements(REPO / "binder" / "environment.yml"):
        pin = Requirement(requirement)
        assert _name(pin) in pins and str(pin.specifier) == str(pins[_name(pin)].specifier), (
            f"binder: {pin}, constraints.txt: {pins.get(_name(pin))}"
        )


def test_the_tests_and_the_image_install_with_the_constraints():
    assert re.search(
        r"^python3 -m pip install -e '\.\[test\]' -c constraints\.txt$", (REPO / "scripts" / "test").read_text(), re.M
    )
    dockerfile = (REPO / "deploy" / "z2jh" / "Dockerfile").read_text()
    assert re.search(r"^COPY .* \. /tmp/rules-tutor$", dockerfile, re.M)  # constraints.txt comes with the rest
    assert re.search(r"^RUN pip install .*-c /tmp/rules-tutor/constraints\.txt /tmp/rules-tutor ", dockerfile, re.M)
    ignored = (REPO / "deploy" / "z2jh" / "Dockerfile.dockerignore").read_text().split()
    assert "constraints.txt" not in ignored
