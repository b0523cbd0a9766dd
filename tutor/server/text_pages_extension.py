"""A Jupyter server extension: the pages without a board (``tutor.server.text_pages``) without a kernel, where Voila
runs as a Jupyter server extension (JupyterHub's single-user servers, Binder: ``/voila/render/...``).

Enable it with ``jupyter server extension enable tutor.server.text_pages_extension`` (Binder's postBuild) or in the
server's configuration, ``{"ServerApp": {"jpserver_extensions": {"tutor.server.text_pages_extension": true}}}``
(deploy/jupyterhub/singleuser/jupyter_server_config.json). It serves ``/voila/render/<page>`` for the marked pages
and hands every other notebook to Voila's own handler. Jupyter loads extensions in alphabetical order and Tornado
tries routes in the order they were added, so this route (``tutor...``) comes before Voila's (``voila``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join

from . import voila_adapter as voila
from .text_pages import SETTING, TextPages, start_text_pages, with_text_pages

ROUTE_ARGUMENTS = "rules_tutor_text_pages_route"
"""The web application's setting holding the lesson page route's arguments, from loading to starting."""


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.server.text_pages_extension"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    """Route ``/voila/render/...`` to Voila's lesson page handler serving the pages without a board first."""
    web_app = server_app.web_app
    arguments = voila.server_extension_route_arguments(server_app)
    handler = with_text_pages(voila.lesson_page_handler())
    web_app.add_handlers(
        ".*$", [(url_path_join(web_app.settings["base_url"], "/voila/render/(.*)"), handler, arguments)]
    )
    web_app.settings[ROUTE_ARGUMENTS] = arguments
    server_app.log.info("rules-tutor: pages without a board are served without a kernel")


async def _start_jupyter_server_extension(server_app: Any) -> None:
    """The server's pages without a board, each rendered when first asked for (one learner's server)."""
    web_app = server_app.web_app
    if SETTING not in web_app.settings:
        start_text_pages(
            web_app.settings,
            web_app.settings[ROUTE_ARGUMENTS],
            Path(server_app.root_dir),
            server_app.log,
            at_start=False,
        )


def text_pages_of(server_app: Any) -> TextPages | None:
    """The running server's pages without a board (for tests)."""
    pages: TextPages | None = server_app.web_app.settings.get(SETTING)
    return pages
