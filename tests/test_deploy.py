"""The deployment recipes agree: deploy/z2jh (an image and chart values that cannot be built here) sets the learner
servers up as deploy/jupyterhub does on one machine (tested in tests/browser/test_hub.py), and both as
``rules-tutor serve`` does (voila.json)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from traitlets.config.loader import PyFileConfigLoader

from tutor.server.process import template_dir

REPO = Path(__file__).resolve().parent.parent
HUB = REPO / "deploy" / "jupyterhub"
SINGLEUSER = HUB / "singleuser"
Z2JH = REPO / "deploy" / "z2jh"
SERVER_MIB, LESSON_MIB = 168, 92  # RSS measured by benchmarks/bench_hub.py
PASSWORD = "a class password"


def hub_config(monkeypatch, tmp_path: Path, **environment: str):
    """deploy/jupyterhub/jupyterhub_config.py as JupyterHub reads it, with the environment's settings."""
    lessons = tmp_path / "lessons"
    lessons.mkdir(exist_ok=True)
    (lessons / "index.ipynb").write_text("{}")
    defaults = {
        "RULES_TUTOR_HUB_PASSWORD": PASSWORD,
        "RULES_TUTOR_HUB_STATE": str(tmp_path / "state"),
        "RULES_TUTOR_LESSONS": str(lessons),
    }
    for name, value in {**defaults, **environment}.items():
        monkeypatch.setenv(name, value)
    return PyFileConfigLoader("jupyterhub_config.py", path=str(HUB)).load_config()


def dockerfile() -> str:
    return (Z2JH / "Dockerfile").read_text()


def values() -> dict:
    return yaml.safe_load((Z2JH / "values.yaml").read_text())


def copies(text: str) -> list[tuple[list[str], str]]:
    """The Dockerfile's COPY instructions as (sources, destination), options left out."""
    found = []
    for line in text.splitlines():
        if line.startswith("COPY "):
            words = [word for word in line.split()[1:] if not word.startswith("--")]
            found.append((words[:-1], words[-1]))
    return found


def mib(size: str) -> int:
    """A KubeSpawner size (K, M, G are powers of 1024) in MiB."""
    number, unit = re.fullmatch(r"(\d+)([KMG])", size).groups()
    return int(number) * {"K": 1, "M": 1024, "G": 1024**2}[unit] // 1024


def test_the_learner_servers_open_the_same_page(monkeypatch, tmp_path):
    config = hub_config(monkeypatch, tmp_path)
    assert values()["singleuser"]["defaultUrl"] == config.Spawner.default_url == "/voila/render/index.ipynb"
    assert (
        values()["hub"]["config"]["JupyterHub"]["implicit_spawn_seconds"]
        == config.JupyterHub.implicit_spawn_seconds
        > 0
    )


def test_the_image_carries_the_tested_config_files_and_template():
    config_copy = next(sources for sources, destination in copies(dockerfile()) if destination == "/etc/jupyter/")
    assert sorted(config_copy) == sorted(f"deploy/jupyterhub/singleuser/{path.name}" for path in SINGLEUSER.iterdir())
    assert re.search(r"^ENV JUPYTER_PATH=/etc/jupyter$", dockerfile(), re.M)
    template = json.loads((SINGLEUSER / "voila.json").read_text())["VoilaConfiguration"]["template"]
    source = template_dir() / "voila" / "templates" / template
    assert ([str(source.relative_to(REPO))], f"/etc/jupyter/voila/templates/{template}") in copies(dockerfile())


def test_the_local_hub_points_the_learner_servers_at_the_same_files(monkeypatch, tmp_path):
    environment = hub_config(monkeypatch, tmp_path).Spawner.environment
    assert Path(environment["JUPYTER_CONFIG_PATH"]) == SINGLEUSER
    template = json.loads((SINGLEUSER / "voila.json").read_text())["VoilaConfiguration"]["template"]
    assert (Path(environment["JUPYTER_PATH"]) / "voila" / "templates" / template / "index.html.j2").is_file()


def test_the_lessons_are_served_from_the_image_copy_without_storage():
    assert (["lessons"], "/srv/lessons") in copies(dockerfile())
    assert values()["singleuser"]["notebookDir"] == "/srv/lessons"
    assert values()["singleuser"]["storage"]["type"] == "none"


def test_one_jupyterhub_version_everywhere():
    pinned = re.search(r'"jupyterhub==([\d.]+)"', (REPO / "pyproject.toml").read_text()).group(1)
    assert re.search(r"^ARG JUPYTERHUB_VERSION=(\S+)$", dockerfile(), re.M).group(1) == pinned
    assert '"jupyterhub==${JUPYTERHUB_VERSION}"' in dockerfile()


def test_the_base_image_is_pinned():
    image = re.search(r"^FROM (\S+)$", dockerfile(), re.M).group(1)
    name, _, tag = image.rpartition(":")
    assert name == "quay.io/jupyter/base-notebook" and tag and tag != "latest"


def test_memory_covers_a_server_with_its_open_lessons():
    memory = values()["singleuser"]["memory"]
    assert mib(memory["guarantee"]) >= SERVER_MIB + 2 * LESSON_MIB  # the landing page and a lesson
    assert mib(memory["limit"]) >= SERVER_MIB + 4 * LESSON_MIB
    assert mib(memory["guarantee"]) <= mib(memory["limit"])


def test_hub_culling_and_pre_puller_are_on():
    settings = values()
    assert settings["cull"]["enabled"] and settings["cull"]["timeout"] > 30 * 60  # after the kernels' cull
    assert settings["prePuller"]["hook"]["enabled"]


def test_learner_servers_keep_the_standalone_server_settings():
    """voila.json of ``rules-tutor serve``, split as a Jupyter server needs it: Voila's part in voila.json, the
    kernel manager's in jupyter_server_config.json."""
    standalone = json.loads((REPO / "voila.json").read_text())
    voila = json.loads((SINGLEUSER / "voila.json").read_text())
    server = json.loads((SINGLEUSER / "jupyter_server_config.json").read_text())
    assert voila == {"VoilaConfiguration": standalone["VoilaConfiguration"]}
    for section in ("MappingKernelManager", "KernelRestarter"):
        assert server[section] == standalone[section]
    assert server["ServerApp"]["terminals_enabled"] is False
    # MathJax from its CDN would be 3 outside requests per page.
    assert server["ServerApp"]["tornado_settings"] == {"mathjax_url": None, "mathjax_config": None}


def test_the_local_hub_keeps_its_state_in_one_folder_and_its_apis_on_this_machine(monkeypatch, tmp_path):
    state = tmp_path / "state"
    config = hub_config(
        monkeypatch,
        tmp_path,
        RULES_TUTOR_HUB_PORT="8123",
        RULES_TUTOR_HUB_API_PORT="8124",
        RULES_TUTOR_PROXY_API_PORT="8125",
    )
    assert config.JupyterHub.bind_url == "http://:8123"
    assert config.JupyterHub.hub_bind_url == "http://127.0.0.1:8124"
    assert config.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:8125"
    for path in (
        config.JupyterHub.db_url.removeprefix("sqlite:///"),
        config.JupyterHub.cookie_secret_file,
        config.ConfigurableHTTPProxy.pid_file,
        config.SimpleLocalProcessSpawner.home_dir_template,
    ):
        assert Path(path).is_relative_to(state), path
    assert config.JupyterHub.authenticator_class == "shared-password"
    assert config.SharedPasswordAuthenticator.user_password == PASSWORD
    assert config.JupyterHub.spawner_class == "simple"


def test_each_learner_gets_a_copy_of_the_lessons_refreshed_at_each_start(monkeypatch, tmp_path):
    config = hub_config(monkeypatch, tmp_path)
    (tmp_path / "lessons" / "flanders").mkdir()
    (tmp_path / "lessons" / "flanders" / "01.ipynb").write_text("first")
    folder = config.Spawner.notebook_dir

    def spawner(name: str) -> SimpleNamespace:
        return SimpleNamespace(notebook_dir=folder, format_string=lambda text: text.format(username=name))

    config.Spawner.pre_spawn_hook(spawner("alice"))
    alice = Path(folder.format(username="alice"))
    assert (alice / "flanders" / "01.ipynb").read_text() == "first"
    (alice / "notes.txt").write_text("mine")
    (tmp_path / "lessons" / "flanders" / "01.ipynb").write_text("updated")
    config.Spawner.pre_spawn_hook(spawner("alice"))
    assert (alice / "flanders" / "01.ipynb").read_text() == "updated"
    assert (alice / "notes.txt").read_text() == "mine"
    assert not Path(folder.format(username="bob")).exists()
    shutil.rmtree(alice)


def test_a_learner_copy_gets_the_lessons_in_each_language_made_from_the_english_ones(monkeypatch, tmp_path):
    """Issue 38: the lessons in Catalan are not committed; the hub makes them in each learner's copy."""
    config = hub_config(monkeypatch, tmp_path)
    (tmp_path / "lessons" / "flamme_rouge").mkdir()
    shutil.copy(REPO / "lessons" / "flamme_rouge" / "02_energy_phase.ipynb", tmp_path / "lessons" / "flamme_rouge")
    folder = config.Spawner.notebook_dir
    config.Spawner.pre_spawn_hook(
        SimpleNamespace(notebook_dir=folder, format_string=lambda text: text.format(username="ona"))
    )
    catalan = Path(folder.format(username="ona")) / "ca" / "flamme_rouge" / "02_energy_phase.ipynb"
    assert "# 2. La fase d'energia" in catalan.read_text(encoding="utf-8")
    assert not (tmp_path / "lessons" / "ca").exists()  # the hub's own lessons stay as they are


@pytest.mark.parametrize("password", ["", "short"])
def test_the_local_hub_refuses_to_start_without_a_real_password(monkeypatch, tmp_path, password):
    with pytest.raises(SystemExit, match="8 characters at least"):
        hub_config(monkeypatch, tmp_path, RULES_TUTOR_HUB_PASSWORD=password)
