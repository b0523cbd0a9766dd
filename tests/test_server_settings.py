"""One source of truth for the lesson server's settings (tutor/server/server_settings.py) on all three routes:
``rules-tutor serve`` (voila.json), a school's JupyterHub (deploy/jupyterhub/singleuser/) and Binder (what
binder/postBuild writes into the environment's etc/jupyter)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

from jupyter_server.extension.utils import get_metadata

from tutor.server import server_settings

REPO = Path(__file__).resolve().parents[1]
SINGLEUSER = REPO / "deploy" / "jupyterhub" / "singleuser"


def _binder_files(tmp_path: Path) -> dict[str, dict]:
    """What postBuild's settings line writes, run as postBuild runs it (a module of the installed package)."""
    line = next(
        line
        for line in (REPO / "binder" / "postBuild").read_text().splitlines()
        if "tutor.server.server_settings" in line
    )
    assert re.fullmatch(r'python -m tutor\.server\.server_settings "\$prefix/etc/jupyter"', line.strip()), line
    subprocess.run(
        [sys.executable, "-m", "tutor.server.server_settings", str(tmp_path)], check=True, cwd=REPO, capture_output=True
    )
    return {path.name: json.loads(path.read_text()) for path in tmp_path.iterdir()}


def test_the_committed_settings_files_are_generated_from_the_settings_module():
    for path, settings in server_settings.repository_files().items():
        assert path.read_text() == server_settings.as_text(settings), (
            f"{path.relative_to(REPO)} differs: run python -m tutor.server.server_settings --write-repository"
        )


def test_binder_gets_the_same_server_config_as_the_hubs_learner_servers(tmp_path):
    hub = {path.name: json.loads(path.read_text()) for path in SINGLEUSER.glob("*.json")}
    assert _binder_files(tmp_path) == hub


def test_all_three_routes_have_the_same_kernel_life_and_lesson_pages(tmp_path):
    standalone = json.loads((REPO / "voila.json").read_text())
    hub = {path.name: json.loads(path.read_text()) for path in SINGLEUSER.glob("*.json")}
    binder = _binder_files(tmp_path)
    for route in (hub, binder):
        assert route["voila.json"]["VoilaConfiguration"] == standalone["VoilaConfiguration"]
        for section in ("MappingKernelManager", "KernelRestarter"):
            assert route["jupyter_server_config.json"][section] == standalone[section]
    # Idle kernels are culled; a crashed kernel is reported dead (the page's banner), not restarted blank.
    assert standalone["MappingKernelManager"]["cull_idle_timeout"] > 0
    assert standalone["KernelRestarter"]["restart_limit"] == 0


def test_learner_servers_enable_every_server_extension_and_each_can_load():
    enabled = json.loads((SINGLEUSER / "jupyter_server_config.json").read_text())["ServerApp"]["jpserver_extensions"]
    assert enabled == dict.fromkeys(server_settings.SERVER_EXTENSIONS, True)
    assert "voila" in enabled and "tutor.server.leaving_page_extension" in enabled
    for name in enabled:
        _, points = get_metadata(name)  # how the Jupyter server finds an extension's modules
        for point in points:
            module = importlib.import_module(point["module"])
            assert hasattr(module, "_load_jupyter_server_extension") or "app" in point, name


def test_lesson_pages_load_only_the_widget_and_canvas_lab_extensions():
    from voila.utils import filter_extension

    installed = [
        {"name": name}
        for name in [
            *server_settings.LESSON_PAGE_LAB_EXTENSIONS,
            "@jupyter-notebook/lab-extension",
            "jupyter-offlinenotebook",
        ]
    ]
    allowlist = server_settings.VOILA_CONFIGURATION["extension_allowlist"]
    loaded = [item["name"] for item in filter_extension(installed, extension_allowlist=allowlist)]
    assert loaded == server_settings.LESSON_PAGE_LAB_EXTENSIONS
