"""Pages without a board: rendered once per server start, then served to every learner without a kernel.

The landing page, the games' welcome pages, the rules summaries and the teachers' page show text, links and
progress badges (filled in by the page's own script from the browser's store), never a widget: the page is the
same for every learner. Started the usual way, each learner's visit would start a kernel (about 52 MiB, and seconds
of CPU while 20 learners arrive at once).

- A notebook says it needs no kernel in its metadata: ``{"tutor": {"kernel": false}}`` (``needs_no_kernel``).
- At server start, ``TextPages`` renders every such notebook below the served folder, one after another in the
  background, with Voila's own renderer and the server's template and settings (``voila_adapter.render_page_once``:
  one short-lived kernel per page). A page asked for while it waits is rendered next. A learner's own server
  (JupyterHub, Binder) renders each page when first asked for instead: it is opened by one learner, and its start
  must not cost a kernel per page.
- ``serve_text_page`` sends the rendered page (with the class mode's cookies when a class runs). The page names no
  kernel that exists, so it opens no kernel connection (and the connection banner has nothing to watch), and it
  does not count against a class's places. Until its page is ready (at most ``WAIT_S``), after an edit of the
  notebook (it is rendered again), or when a page shows a widget or an error after all (the server log says which),
  the request takes Voila's usual path, with a kernel.

Used by class mode's Voila (``tutor.server.class_mode``) and, behind JupyterHub and on Binder, by the server extension
``tutor.server.text_pages_extension``.
"""

from __future__ import annotations

import asyncio
import json
import posixpath
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import tornado.web

from . import voila_adapter as voila

SETTING = "rules_tutor_text_pages"
"""The web application's setting that holds the server's ``TextPages``."""
WAIT_S = 10.0
"""Longest a request waits for its page to be rendered before it takes Voila's path with a kernel."""
RENDER_TIMEOUT_S = 180.0
"""Longest a page may take to render (its kernel is then shut down, and the page served with a kernel)."""
LAZY_WAIT_S = 60.0
"""The same for a page rendered when first asked for: Voila's path would take as long, and start a kernel more."""
WIDGET_OUTPUT = "application/vnd.jupyter.widget-view+json"
ERROR_OUTPUT = re.compile(r'"output_type":\s*"error"')

Render = Callable[[str], Awaitable[str]]


def needs_no_kernel(notebook: dict[str, Any]) -> bool:
    """Whether a notebook (its JSON) is marked as a page without a board: ``metadata.tutor.kernel`` is false."""
    tutor = notebook.get("metadata", {}).get("tutor", {})
    return isinstance(tutor, dict) and tutor.get("kernel", True) is False


def text_pages_in(root: Path) -> list[str]:
    """The notebooks below ``root`` marked as needing no kernel, as paths relative to it ("flanders/00_..."), the
    top folder's first (the landing page is opened first)."""
    found = []
    for path in sorted(Path(root).rglob("*.ipynb"), key=lambda path: (len(path.parts), path)):
        relative = path.relative_to(root)
        if any(part.startswith((".", "_")) for part in relative.parts):  # checkpoints, drafts
            continue
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if needs_no_kernel(notebook):
            found.append(relative.as_posix())
    return found


def why_not_kernel_free(page: str) -> str | None:
    """Why a rendered page cannot be served without a kernel (it shows a widget, or a cell failed); None if it
    can."""
    if WIDGET_OUTPUT in page:
        return "it shows a widget, which needs a kernel"
    if ERROR_OUTPUT.search(page):
        return "one of its cells failed"
    return None


class TextPages:
    """The pages of ``root`` that need no kernel, each rendered once by ``render(path)``.

    ``start`` begins rendering in the background (on the running event loop); ``page(path)`` is the rendered
    page, None for a page that is not one of them, was refused, or is not ready within ``wait_s``.
    ``say`` reports to the server's log (a page refused, and when all are ready).
    """

    def __init__(self, root: Path, render: Render, say: Callable[[str], None], wait_s: float = WAIT_S) -> None:
        self.root = Path(root)
        self.render = render
        self.say = say
        self.wait_s = wait_s
        self.paths = text_pages_in(self.root)
        self.pages: dict[str, str] = {}
        self.refused: dict[str, str] = {}
        self._rendered_at: dict[str, float] = {}  # path -> the notebook's modification time when rendered
        self._queue: list[str] = []
        self._done: dict[str, asyncio.Event] = {}
        self._worker: asyncio.Future[None] | None = None
        self._announce = False  # say when the pages rendered at start are all ready

    def start(self) -> None:
        """Render every page in the background, one at a time (call on the server's event loop)."""
        self._announce = True
        for path in self.paths:
            self._enqueue(path)

    def _enqueue(self, path: str, first: bool = False) -> None:
        if path in self._queue:
            self._queue.remove(path)
        if first:
            self._queue.insert(0, path)
        else:
            self._queue.append(path)
        self._done.setdefault(path, asyncio.Event()).clear()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.ensure_future(self._render_queue())

    async def _render_queue(self) -> None:
        while self._queue:
            path = self._queue.pop(0)
            modified = self._modified(path)
            why: str | None
            try:
                page = await asyncio.wait_for(self.render(path), RENDER_TIMEOUT_S)
            except TimeoutError:
                page, why = "", f"it was not rendered in {RENDER_TIMEOUT_S:.0f} s (a cell may be stuck)"
            except Exception as error:  # a notebook that cannot be rendered: Voila's path will say why
                page, why = "", f"it could not be rendered ({type(error).__name__}: {error})"
            else:
                why = why_not_kernel_free(page)
            if why is None:
                self.pages[path] = page
                self.refused.pop(path, None)
            else:
                self.pages.pop(path, None)
                self.refused[path] = why
                self.say(f"{path} is marked as needing no kernel, but {why}: it is served with a kernel.")
            self._rendered_at[path] = modified
            self._done[path].set()
        if self._announce and self.pages:
            self._announce = False
            self.say(f"Pages without a board ready, served without a kernel: {len(self.pages)}")

    def _modified(self, path: str) -> float:
        try:
            return (self.root / path).stat().st_mtime
        except OSError:
            return -1.0

    async def page(self, path: str) -> str | None:
        """The rendered page of ``path`` (relative to the served folder), waiting up to ``wait_s`` for it."""
        path = posixpath.normpath(path).lstrip("/")
        if path not in self.paths:
            return None
        if path not in self._done:  # not rendered at start (``start`` not called): render it now
            self._enqueue(path, first=True)
        elif self._done[path].is_set() and self._rendered_at.get(path) != self._modified(path):
            self._enqueue(path, first=True)  # edited since: render it again
        elif not self._done[path].is_set() and path in self._queue:
            self._enqueue(path, first=True)
        try:
            await asyncio.wait_for(asyncio.shield(self._done[path].wait()), self.wait_s)
        except TimeoutError:
            return None
        return self.pages.get(path)


def _page_overrides(handler: tornado.web.RequestHandler) -> bool:
    """Whether the request asks for another template or theme (``?template=``, ``?theme=``): Voila's path."""
    return any(name in handler.request.arguments for name in ("template", "theme"))


async def serve_text_page(handler: tornado.web.RequestHandler, path: str | None) -> bool:
    """Send the rendered page of ``path`` if it is a page without a board that is ready; False (nothing sent)
    otherwise, or when the teacher has closed it (class mode's Pace). In class mode the page gets the class's
    cookies, as every lesson page does."""
    pages: TextPages | None = handler.settings.get(SETTING)
    if pages is None or not path or _page_overrides(handler):
        return False
    classroom = handler.settings.get("rules_tutor_classroom")
    if classroom is not None and path.strip("/") in classroom.db.settings()["closed"]:
        return False  # closed by the teacher's Pace: the lesson page handler says "Not open yet"
    page = await pages.page(path)
    if page is None:
        return False
    voila.set_xsrf_cookie_for_the_unload_request(handler)
    if classroom is not None:
        from ..classroom.handlers import stamp_page

        stamp_page(handler, classroom)
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
    handler.finish(page)
    return True


def with_text_pages(page_handler: type) -> type:
    """``page_handler`` (a Voila lesson page handler) serving the pages without a board first."""

    class TextPageHandler(page_handler):  # type: ignore[misc]
        @tornado.web.authenticated
        async def get(self, path: str | None = None) -> None:
            if not await serve_text_page(self, path):
                await super().get(path)

    return TextPageHandler


def start_text_pages(
    settings: dict[str, Any], route_arguments: dict[str, Any], root: Path, log: Any, at_start: bool = True
) -> TextPages:
    """The server's ``TextPages`` for the folder ``root`` (kept in ``settings``, the web application's), rendering
    with Voila's lesson page route arguments. ``at_start``: all of them once the event loop runs (a server for a
    class); else each when first asked for (a learner's own server), waiting up to ``LAZY_WAIT_S`` for it."""
    existing: TextPages | None = settings.get(SETTING)
    if existing is not None:
        return existing

    def render(path: str) -> Awaitable[str]:
        return voila.render_page_once(settings, route_arguments, path, log)

    pages = TextPages(root, render, lambda line: print(line, flush=True), WAIT_S if at_start else LAZY_WAIT_S)
    settings[SETTING] = pages
    if at_start:
        asyncio.get_event_loop().call_soon(pages.start)
    return pages
