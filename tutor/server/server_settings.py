"""The lesson server's settings, for every route that serves the lessons: one source of truth.

Three routes run the lessons, each reading its settings from a different place:

- ``rules-tutor serve`` (standalone Voila) reads the repository's ``voila.json``: ``standalone_settings()``;
- a school's JupyterHub: each learner's Jupyter server reads ``deploy/jupyterhub/singleuser/`` (Voila's part in
  ``voila.json``, the server's in ``jupyter_server_config.json``): ``jupyter_server_files()``;
- Binder: ``binder/postBuild`` writes the same two files into the environment's ``etc/jupyter``
  (``python -m tutor.server.server_settings <folder>``), where the Jupyter server repo2docker starts reads them.

What all three share: the lesson pages' Voila settings, and the same kernel life (an idle kernel is culled after
``CULL_IDLE_S``; a crashed kernel is not restarted blank but reported dead, so the page shows "This lesson has
stopped" with a Reload button). A Jupyter server (hub, Binder) also gets the extensions in ``SERVER_EXTENSIONS``
(Voila, and the one that lets a closing page free its kernel), no MathJax from a CDN, and no terminals.
The committed files are generated from here (``python -m tutor.server.server_settings --write-repository``);
tests/test_server_settings.py keeps them in step.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
CULL_IDLE_S = 1800
"""An idle kernel (no message, no page connected or not) is shut down after this long (half an hour)."""
CULL_INTERVAL_S = 60
SERVER_IDLE_SHUTDOWN_S = 3600
"""A Jupyter server (hub, Binder) with no activity stops after this long (JupyterHub and Binder cull it too)."""

SERVER_EXTENSIONS: list[str] = [
    "voila",  # the lesson pages (/voila/render/...)
    "tutor.server.leaving_page_extension",  # a closing page frees its kernel (the _xsrf cookie)
    "tutor.server.text_pages_extension",  # the pages without a board, rendered once and served without a kernel
]
"""The Jupyter server extensions a learner's server (hub, Binder) enables; add one per line."""

LESSON_PAGE_LAB_EXTENSIONS = [
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
    "ipycanvas",
    "jupyterlab_pygments",
]
"""The JupyterLab extensions a lesson page loads: the widgets and the canvas. Any other one installed beside them
(notebook 7's, or what repo2docker adds on Binder) is not loaded: notebook 7's logs an error in a Voila page."""

VOILA_CONFIGURATION: dict[str, Any] = {
    "template": "rules-tutor",
    "theme": "light",
    "classic_tree": True,
    "show_tracebacks": True,
    "file_allowlist": [r".*\.(png|jpg|gif|svg)", r"(.*/)?scenarios/[^/]+\.json"],
    "extension_allowlist": LESSON_PAGE_LAB_EXTENSIONS,
}

KERNEL_LIFE: dict[str, dict[str, Any]] = {
    "MappingKernelManager": {
        "cull_idle_timeout": CULL_IDLE_S,
        "cull_interval": CULL_INTERVAL_S,
        "cull_connected": False,
        "cull_busy": False,
    },
    "KernelRestarter": {"restart_limit": 0},
}
"""Culling, and no blank restart of a crashed kernel (its page shows the "This lesson has stopped" banner)."""

OFFLINE_TORNADO_SETTINGS: dict[str, Any] = {"mathjax_url": None, "mathjax_config": None}
"""Voila under a Jupyter server would point pages at MathJax on a CDN (3 outside requests per page); the
standalone Voila has no MathJax URL either."""


def _copy(settings: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(settings))
    return copied


def standalone_settings() -> dict[str, Any]:
    """``voila.json`` of ``rules-tutor serve``."""
    return _copy({"VoilaConfiguration": VOILA_CONFIGURATION, **KERNEL_LIFE})


def jupyter_server_settings() -> dict[str, Any]:
    """``jupyter_server_config.json`` of a learner's Jupyter server (hub, Binder)."""
    return _copy(
        {
            "ServerApp": {
                "terminals_enabled": False,
                "shutdown_no_activity_timeout": SERVER_IDLE_SHUTDOWN_S,
                "jpserver_extensions": dict.fromkeys(SERVER_EXTENSIONS, True),
                "tornado_settings": OFFLINE_TORNADO_SETTINGS,
            },
            **KERNEL_LIFE,
        }
    )


def jupyter_server_files() -> dict[str, dict[str, Any]]:
    """The files of a learner's Jupyter server config folder (the hub's singleuser/, Binder's etc/jupyter)."""
    return {
        "voila.json": {"VoilaConfiguration": _copy(VOILA_CONFIGURATION)},
        "jupyter_server_config.json": jupyter_server_settings(),
    }


def repository_files() -> dict[Path, dict[str, Any]]:
    """Every committed settings file, by path in the repository, with what it must hold."""
    files = {REPOSITORY / "voila.json": standalone_settings()}
    singleuser = REPOSITORY / "deploy" / "jupyterhub" / "singleuser"
    files.update({singleuser / name: settings for name, settings in jupyter_server_files().items()})
    return files


def as_text(settings: dict[str, Any]) -> str:
    return json.dumps(settings, indent=2) + "\n"


def write_jupyter_config(folder: Path) -> list[Path]:
    """Write a learner server's files into ``folder`` (Binder: ``$PREFIX/etc/jupyter``); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, settings in jupyter_server_files().items():
        (folder / name).write_text(as_text(settings))
        written.append(folder / name)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tutor.server.server_settings", description=__doc__.split("\n\n")[0]
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "folder", nargs="?", type=Path, help="write a Jupyter server's voila.json and jupyter_server_config.json here"
    )
    group.add_argument(
        "--write-repository",
        action="store_true",
        help="rewrite the committed settings files (voila.json, the hub's singleuser/)",
    )
    args = parser.parse_args(argv)
    if args.write_repository:
        for path, settings in repository_files().items():
            path.write_text(as_text(settings))
            print(path.relative_to(REPOSITORY))
    else:
        for path in write_jupyter_config(args.folder):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
