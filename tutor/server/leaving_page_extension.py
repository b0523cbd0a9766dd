"""A Jupyter server extension (hub, Binder) that lets a closing lesson page free its kernel, and a lesson page
whose kernel fails to start say so instead of loading for ever (``voila_adapter.end_lesson_pages_that_fail_to_start``,
as ``rules-tutor serve`` does).

Voila's page, when it closes, asks the server to shut its kernel down with the ``_xsrf`` cookie as a form field;
Voila's page handler never sets that cookie, so under a Jupyter server the request is refused (403, "'_xsrf'
argument missing") and the kernel lives on until culled. ``rules-tutor serve`` sets the cookie in its own page
handler; this extension makes Voila's handler do the same (``voila_adapter``). Enabled by
``tutor.server.server_settings.SERVER_EXTENSIONS``.
"""

from __future__ import annotations

from typing import Any

from . import voila_adapter


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "tutor.server.leaving_page_extension"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    voila_adapter.set_xsrf_cookie_on_voila_lesson_pages()
    server_app.log.info("rules-tutor: lesson pages set the _xsrf cookie their closing request needs")
    voila_adapter.end_lesson_pages_that_fail_to_start()
    server_app.log.info("rules-tutor: a lesson page whose kernel fails to start asks to be reloaded")
