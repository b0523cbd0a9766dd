"""Class mode, inside the Voila process (``python -m tutor.server``): Voila with the tutor's lesson pages.

A limit on lesson pages with a "class is full" page beyond it (``ClassMode``, the lesson page handler), preheated
kernel pools that tell the teacher when the class can come in (``PoolPreparation``), and a door that frees the
kernel of a page that never connects (``PageDoor``). Its lesson page handler also serves a single learner, and
gives the page the ``_xsrf`` cookie a closing page needs to shut its kernel down. Its uses of Voila's internals
are all in ``voila_adapter``; the one other tie to Voila is the ``Voila`` application it subclasses
(``classroom_voila_class``: its traits, and its ``init_settings`` and ``init_handlers``).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async

from . import bounds, pupil_requests
from ..classroom.guard import device_of
from . import voila_adapter as voila
from .kernel_launcher import LIMIT_VARIABLE as KERNEL_LIMIT_VARIABLE
from .next_lesson import NextLesson
from .process import with_template_path
from .voila_adapter import VoilaKernelManager

MAX_CLASS_SIZE = 200
"""Largest ``--class-size`` (each learner's kernel takes about 84 MiB)."""
CLASS_MARGIN = 2
"""Lesson pages served beyond the class size: reloads and the teacher's own tab."""
PAGES_PER_CLIENT = CLASS_MARGIN
"""In class mode, lesson pages one device (``tutor.classroom.guard.device_of``: an IPv4 address, an IPv6 /64) may
run at once: a learner's lesson and the next one (a closed or reloaded page gives its place back at once with its
unload beacon, a crashed one after ``PAGE_GONE_AFTER_S``); at most the class's margin, never a learner's place."""
THE_SERVERS_OWN = ("127.0.0.1", "::1", "::ffff:127.0.0.1")
"""The machine the server runs on (the teacher's): its pages count in the class's limit, not in a device's share."""
UNCONNECTED_PER_CLIENT = 2
"""Of those, pages not yet connected to their kernel (a browser connects within seconds; a ``curl`` loop never
does): such a loop holds at most this many places, within ``CLASS_MARGIN``."""
PAGE_CONNECT_TIMEOUT_S = 30.0
"""In class mode, a kernel whose page has not connected this long after it was sent is shut down: a plain fetch
(curl, a chat app's link preview) never opens the page's websocket and must not hold a learner's place."""
PAGE_GONE_AFTER_S = 90.0
"""In class mode, a kernel whose every websocket has been closed this long is shut down and its place given back:
a browser that crashed or lost its network (no unload beacon), a script that exited. A page that reconnects
within it (a short network cut, a laptop's lid) keeps its kernel."""
PREPARE_TIMEOUT_S = 180.0
"""In class mode, a pooled kernel that has not started and run its lesson this long after it began is reported
as not ready, and a refill holding the turn passes it on (one stuck lesson must not stop every refill)."""
PREPARE_AT_ONCE = max(1, min(4, os.cpu_count() or 1))
"""Pooled kernels that start and run their lesson at once before the class comes in: one per core (at most 4).
All 25 at once on two cores took the CPU for a minute; the server then read their output so late that Voila's
executor gave up waiting for it, and the lesson's board was missing from the page (issue 37)."""
IOPUB_TIMEOUT_S = 60
"""In class mode, how long Voila's executor waits for a cell's output after the cell has run (nbclient's
``iopub_timeout``, 4 s by default, then it goes on without it); a cell whose output does not come by then is an
error (``raise_on_iopub_timeout``), so the lesson is known not to have run to its end."""
REFILL_DELAY_S = 90.0  # a pool refills after the class has arrived and painted, not during the rush


CLASS_FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="60">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>The class is full</title>
<style>body{font-family:sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#1a1a1a;line-height:1.5}
a{display:inline-block;margin-top:1em;padding:.5em 1.2em;background:#1f4e9c;color:#fff;border-radius:4px;
text-decoration:none}</style></head>
<body><h1>The class is full</h1>
<p>This lesson server is already running a lesson for {limit} learners, as many as it was set up for.
Please try again in a minute: this page tries again by itself.</p>
<p>Teacher: close lesson tabs nobody uses, or start the server with a larger class size.</p>
<a href="">Try again</a></body></html>
"""


def kernels_in_use(kernel_manager: VoilaKernelManager) -> int:
    """Kernels serving a page: all kernels minus the preheated ones still waiting in Voila's pools."""
    running = len(kernel_manager.list_kernel_ids())
    waiting = sum(
        1 for pool in voila.kernel_pools(kernel_manager).values() for item in pool if voila.pool_item_ready(item)
    )
    return max(0, running - waiting)


class LessonNotReady(Exception):
    """A pooled kernel did not start, or did not run its lesson in time (the message says which and why)."""


async def _prepared(preparing: Awaitable[voila.PreparedKernel]) -> voila.PreparedKernel:
    """A pooled kernel once it has started and run its whole lesson; LessonNotReady when it did not start, its
    lesson's run failed, or a cell did not run (timed out, lost its output, raised)."""
    try:
        prepared = await preparing
    except Exception as error:
        raise LessonNotReady(f"its kernel did not start ({type(error).__name__}: {error})") from error
    run = voila.lesson_run(prepared)
    await asyncio.wait([run])
    if not run.cancelled() and run.exception() is not None:
        failure = run.exception()
        raise LessonNotReady(f"the lesson did not run ({type(failure).__name__}: {failure})") from failure
    problem = voila.lesson_problem(prepared)
    if problem:
        raise LessonNotReady(f"the lesson did not run to its end ({problem})")
    return prepared


def restarts_for(pool_size: int) -> int:
    """How many pooled kernels of a lesson that did not get ready are started again (then the learners wait for a
    kernel of their own): a quarter of the pool, at least one."""
    return max(1, pool_size // 4)


class PoolPreparation:
    """Class mode's preheated pools: every pooled kernel starts and runs its lesson through ``prepare`` (Voila's
    kernel manager calls it for its first fill and each refill, see ``voila_adapter.set_pool_preparation``).

    - At most ``at_once`` kernels prepare at once for the first fill, ``refill_at_once`` for the refills during
      the lesson: 25 kernels started together on two cores took the CPU for a minute, the server's loop read
      their output late, and Voila's executor gave up waiting for it (``iopub_timeout``): the pages showed the
      lesson's text without its board.
    - Each has ``timeout_s`` to start and run its whole lesson (``_prepared``); one that does not is stopped, taken
      out of its pool (a page never gets it) and, within ``restarts_for(pool size)`` per lesson, started again.
    - ``report_first_fill`` tells the teacher how the pools fill ("12/20 kernels ready for 02_energy_phase") and,
      once every pooled kernel is ready or has failed for good, always says so: "The class can come in", with the
      lessons that failed and why.
    """

    def __init__(
        self,
        kernel_manager: VoilaKernelManager,
        timeout_s: float,
        say: Callable[[str], None],
        at_once: int = 1,
        refill_at_once: int = 1,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.timeout_s = timeout_s
        self.say = say
        self.wanted: dict[str, int] = {}
        self.ready: dict[str, int] = {}
        self.failed: dict[str, list[str]] = {}
        self.restarts_left = {
            name: restarts_for(len(items)) for name, items in voila.kernel_pools(kernel_manager).items() if items
        }
        self.first_fill = True
        self.reporting = False
        self._first_turns = asyncio.Semaphore(max(1, at_once))
        self._refill_turns = asyncio.Semaphore(max(1, refill_at_once))
        self._discarding: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks
        voila.set_pool_preparation(kernel_manager, self.prepare)

    async def _within_timeout(self, preparing: asyncio.Future[voila.PreparedKernel]) -> voila.PreparedKernel:
        try:
            return await asyncio.wait_for(asyncio.shield(preparing), self.timeout_s)
        except TimeoutError:
            preparing.cancel()
            raise LessonNotReady(
                f"it has not run its lesson after {self.timeout_s:.0f} s (a cell may be stuck or the machine too busy)"
            ) from None

    def report_first_fill(self) -> None:
        """Report each pooled kernel of the first fill, and the end of it (Voila has just scheduled it)."""
        pools = voila.kernel_pools(self.kernel_manager)
        self.wanted = {name: len(items) for name, items in pools.items() if items}
        self.ready = dict.fromkeys(self.wanted, 0)
        self.failed = {name: [] for name in self.wanted}
        self.reporting = True
        if not self.wanted:
            self.first_fill = False

    async def prepare(
        self, prepare: voila.Prepare, notebook_name: str, *args: Any, **kwargs: Any
    ) -> voila.PreparedKernel:
        """Start a pooled kernel for ``notebook_name`` with Voila's ``prepare``, in turn; its prepared kernel once
        it has run its whole lesson, else LessonNotReady (the kernel stopped, another one started)."""
        turns = self._first_turns if self.first_fill else self._refill_turns
        async with turns:
            started = asyncio.ensure_future(prepare(notebook_name, *args, **kwargs))
            try:
                prepared = await self._within_timeout(asyncio.ensure_future(_prepared(started)))
            except LessonNotReady as why:
                self._not_ready(notebook_name, str(why))
                if started.done() and not started.cancelled() and started.exception() is None:
                    await voila.discard_prepared_kernel(self.kernel_manager, started.result())
                elif not started.done():
                    started.cancel()
                raise
        self._ready(notebook_name)
        return prepared

    def _ready(self, name: str) -> None:
        if self.reporting and self.first_fill and name in self.wanted:
            self.ready[name] += 1
            self.say(f"{self.ready[name]}/{self.wanted[name]} kernels ready for {Path(name).stem}")
            self._end_of_first_fill()

    def _not_ready(self, name: str, why: str) -> None:
        lesson = Path(name).stem
        again = self.restarts_left.get(name, 0) > 0
        if again:
            self.restarts_left[name] -= 1
            self.say(f"A kernel for {lesson} is not ready: {why}; another one starts")
        else:
            self.say(f"A kernel for {lesson} is not ready: {why}")
            if self.reporting and self.first_fill and name in self.wanted:
                self.failed[name].append(why)
        task = asyncio.current_task()
        if task is not None:  # once this pool item has failed: out of its pool, and another one in its place
            task.add_done_callback(lambda _: self._replace(name, again))
        if not again:
            self._end_of_first_fill()

    def _replace(self, name: str, again: bool) -> None:
        voila.drop_failed_pool_items(self.kernel_manager)
        if again:
            voila.fill_pool(self.kernel_manager, name)

    def _end_of_first_fill(self) -> None:
        if (
            self.reporting
            and self.first_fill
            and all(self.ready[n] + len(self.failed[n]) >= self.wanted[n] for n in self.wanted)
        ):
            self.first_fill = False
            self.say(self.verdict())

    def verdict(self) -> str:
        """The line that ends the first fill: the class can come in, and which lessons failed and why."""
        failed = [
            f"{Path(name).stem}: {len(whys)} of {self.wanted[name]} kernels not ready ({whys[0]})"
            for name, whys in self.failed.items()
            if whys
        ]
        if not failed:
            return "The class can come in: every lesson is ready."
        return (
            "The class can come in, but not every lesson is ready; its learners wait for a kernel of their "
            "own. " + "; ".join(failed)
        )


def _take_only_ready_kernels(kernel_manager: VoilaKernelManager) -> None:
    """A lesson request takes a pooled kernel only if one has run the whole lesson and is still running; else it
    starts its own.

    Voila counts a pool's refills as soon as they are scheduled, so once a pool is used up, the next learner
    would wait for a refill's delay (``fill_delay``, 90 s here) instead of starting a kernel at once. A pool item
    is done once ``PoolPreparation.prepare`` has checked its lesson: done without an error, it is ready.
    """
    pools = voila.kernel_pools(kernel_manager)

    def ready(item: asyncio.Future[voila.PreparedKernel]) -> bool:
        return (
            voila.pool_item_ready(item) and voila.prepared_kernel_id(item.result()) in kernel_manager.list_kernel_ids()
        )

    def ready_kernels(notebook_name: str) -> int:
        return sum(1 for item in pools.get(notebook_name, []) if ready(item))

    def wrap(take: voila.TakePooled) -> voila.TakePooled:
        async def take_a_ready_kernel(notebook_name: str, *args: Any, **kwargs: Any) -> Any:
            pools.get(notebook_name, []).sort(key=lambda item: not ready(item))  # stable
            return await take(notebook_name, *args, **kwargs)

        return take_a_ready_kernel

    voila.set_pool_size(kernel_manager, ready_kernels)
    voila.wrap_take_pooled_kernel(kernel_manager, wrap)


class PageDoor:
    """Shuts a page's kernel down unless the page opens the kernel's websocket within ``timeout_s`` of being
    sent (see ``PAGE_CONNECT_TIMEOUT_S``), and once every websocket of a kernel has been closed for
    ``gone_after_s`` (a crashed browser sends no unload beacon; a script exits): its place comes back (see
    ``PAGE_GONE_AFTER_S``). It keeps only the pages still within those times."""

    def __init__(self, kernel_manager: VoilaKernelManager, timeout_s: float, gone_after_s: float = 0.0) -> None:
        self.kernel_manager = kernel_manager
        self.timeout_s = timeout_s
        self.gone_after_s = gone_after_s
        self.opened: dict[str, bool] = {}  # kernel id -> whether its page has connected, until the timeout
        self.gone: dict[str, float] = {}  # kernel id -> when its last websocket closed, until it reconnects
        self._timers: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks
        voila.on_page_connect(kernel_manager, self._connected)
        if gone_after_s > 0:
            voila.on_page_disconnect(kernel_manager, self._disconnected)

    def expect(self, kernel_id: str) -> None:
        """A page request got ``kernel_id`` (its page may connect before the page is fully sent)."""
        self.opened.setdefault(kernel_id, False)

    def forget(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` will not connect (it went before it was sent): wait for nothing."""
        self.opened.pop(kernel_id, None)

    def _connected(self, kernel_id: str) -> None:
        self.gone.pop(kernel_id, None)
        if kernel_id in self.opened:
            self.opened[kernel_id] = True

    def _disconnected(self, kernel_id: str, connections: int) -> None:
        if connections > 0 or kernel_id not in self.kernel_manager.list_kernel_ids():
            return
        since = self.gone[kernel_id] = asyncio.get_running_loop().time()
        self._later(self._release_gone(kernel_id, since))

    def _later(self, work: Awaitable[None]) -> None:
        timer = asyncio.ensure_future(work)
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)

    def watch(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` has been sent: start its ``timeout_s``."""
        self.expect(kernel_id)
        self._later(self._release(kernel_id))

    async def _release(self, kernel_id: str) -> None:
        await asyncio.sleep(self.timeout_s)
        if self.opened.pop(kernel_id, True) or kernel_id not in self.kernel_manager.list_kernel_ids():
            return
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        print(
            f"A page was fetched but never opened (no connection in {self.timeout_s:.0f} s): its place is free again.",
            flush=True,
        )

    async def _release_gone(self, kernel_id: str, since: float) -> None:
        await asyncio.sleep(self.gone_after_s)
        if self.gone.get(kernel_id) != since:
            return  # it reconnected (and maybe went again: that later going has its own timer)
        del self.gone[kernel_id]
        if voila.connections(self.kernel_manager, kernel_id) or kernel_id not in self.kernel_manager.list_kernel_ids():
            return
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        print(
            f"A page went away without closing (no connection for {self.gone_after_s:.0f} s): its kernel is "
            "stopped and its place is free again.",
            flush=True,
        )


_PAGE_REQUEST: contextvars.ContextVar[Any] = contextvars.ContextVar("page_request", default=None)
"""The lesson page request being served (``LessonPageHandler``), seen by the kernel manager's hooks."""


class ClassMode:
    """What class mode keeps while Voila runs (in the Tornado settings, ``rules_tutor_class``): the limit on
    lesson pages, the pages waiting for their kernel, the pools' preparation, the door for pages that never
    connect, and, for a learner alone, the next lesson's kernel (``tutor.server.next_lesson``)."""

    def __init__(
        self,
        kernel_manager: VoilaKernelManager,
        max_kernels: int,
        preparation: PoolPreparation | None,
        door: PageDoor | None,
        pages_per_client: int = PAGES_PER_CLIENT,
        next_lesson: NextLesson | None = None,
    ) -> None:
        self.kernel_manager = kernel_manager
        self.next_lesson = next_lesson
        self.max_kernels = max_kernels
        self.preparation = preparation
        self.door = door
        self.pages_per_client = pages_per_client
        self.waiting: set[Any] = set()  # requests whose kernel is still starting (not yet in the kernel list)
        self.client_of: dict[str, str] = {}  # kernel id -> the address of the client its page was sent to
        self._count_pages_waiting_for_a_kernel()

    def is_full(self) -> bool:
        """Whether one more lesson page would go beyond ``max_kernels`` (0: no limit)."""
        in_use = kernels_in_use(self.kernel_manager) + len(self.waiting)
        return bool(self.max_kernels) and in_use >= self.max_kernels

    def client_is_full(self, client: str) -> bool:
        """With a class limit: whether the device of address ``client`` (``device_of``) already has
        ``pages_per_client`` lesson pages (running, or waiting for their kernel), or ``UNCONNECTED_PER_CLIENT``
        pages that have not connected (yet), so that one device cannot hold the class's places."""
        if not self.max_kernels or not self.pages_per_client or client in THE_SERVERS_OWN:
            return False
        client = device_of(client)
        running = set(self.kernel_manager.list_kernel_ids())
        for kernel_id in [k for k in self.client_of if k not in running]:
            del self.client_of[kernel_id]
        mine = [kernel_id for kernel_id, address in self.client_of.items() if address == client]
        waiting = sum(1 for request in self.waiting if device_of(request.request.remote_ip) == client)
        opened = self.door.opened if self.door is not None else {}
        unconnected = waiting + sum(1 for kernel_id in mine if opened.get(kernel_id) is False)
        return len(mine) + waiting >= self.pages_per_client or unconnected >= UNCONNECTED_PER_CLIENT

    async def stop_unsent_page(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` went before it was all sent (a reload, a closed tab, a fetch that reads only
        the start): nothing will connect to its kernel, so it stops now, not at the door's timeout or the idle
        cull (30 minutes), and a learner alone reloading a page does not pile up kernels."""
        if self.door is not None:
            self.door.forget(kernel_id)
        if kernel_id in self.kernel_manager.list_kernel_ids():
            await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))

    def _count_pages_waiting_for_a_kernel(self) -> None:
        """Let the limit count the requests whose kernel is still starting.

        Twenty learners arriving together all ask before the first kernel is up: counting only running kernels
        would let every one of them in. A request waits from its arrival until Voila has its kernel (a new one,
        or one taken from a pool); the request's context says which request is asking.
        """

        def wrap(get_kernel: Callable[..., Any], kernel_id_of: Callable[[Any], str]) -> Callable[..., Any]:
            async def got_kernel(*args: Any, **kwargs: Any) -> Any:
                result = await ensure_async(get_kernel(*args, **kwargs))
                request = _PAGE_REQUEST.get()
                if request is not None and request in self.waiting:  # this request's own kernel (not a refill)
                    self.waiting.discard(request)
                    request.kernel_id = kernel_id_of(result)
                    self.client_of[request.kernel_id] = device_of(request.request.remote_ip)
                    if getattr(request, "given_kernel", None) is not None:
                        request.given_kernel(request.kernel_id)  # the class: this page's kernel
                    if self.door is not None:
                        self.door.expect(request.kernel_id)
                return result

            return got_kernel

        voila.wrap_start_kernel(self.kernel_manager, lambda start: wrap(start, str))
        if voila.has_kernel_pools(self.kernel_manager):
            voila.wrap_take_pooled_kernel(self.kernel_manager, lambda take: wrap(take, voila.taken_kernel_id))


def _closed_by_pace(handler: Any, path: str | None) -> bool:
    """Whether the teacher has closed the lesson at ``path`` (Pace), in whatever language its address names."""
    from ..i18n.lesson_languages import lesson_key

    classroom = handler.settings.get("rules_tutor_classroom")
    return classroom is not None and lesson_key((path or "").strip("/")) in classroom.db.settings()["closed"]


def paced_handler(page_handler: type, lesson_handler: type) -> type:
    """``page_handler`` (the text pages' handler over ``lesson_handler``) sending a lesson Pace has closed, in any
    language, to ``lesson_handler`` (which says "Not open yet"), in class mode serving every page with the
    server's own template and theme (``?template=``, ``?theme=`` dropped), and for a learner alone preparing the
    lesson after the page sent (``ClassMode.next_lesson``)."""

    class PacedPageHandler(page_handler):
        async def get(self, path: str | None = None) -> None:
            if self.settings["rules_tutor_class"].max_kernels:
                for name in ("template", "theme"):
                    self.request.arguments.pop(name, None)
                    self.request.query_arguments.pop(name, None)
            if _closed_by_pace(self, path):
                await lesson_handler.get(self, path)  # type: ignore[attr-defined]
                return
            await super().get(path)
            following = self.settings["rules_tutor_class"].next_lesson
            if following is not None and not self.dropped:  # a learner alone, still on the page
                following.opened(path or "")

    return PacedPageHandler


def _refusal(handler: Any, path: str | None) -> tuple[int, str, str] | None:
    """(status, Retry-After, page) when a lesson page is not served: a lesson the teacher has not opened yet, a
    device with its share of pages, a full class; None when it is."""
    from ..classroom.pages import device_full_page, not_open_page
    from ..i18n import SOURCE_LANGUAGE, language_of_path

    class_mode: ClassMode = handler.settings["rules_tutor_class"]
    page = (path or "").strip("/")
    if _closed_by_pace(handler, path):
        language = language_of_path(page)  # the page's own language: a Catalan lesson says it in Catalan
        folder = "" if language == SOURCE_LANGUAGE else language + "/"
        return 200, "", not_open_page(handler.base_url + f"voila/render/{folder}index.ipynb", page)
    if class_mode.client_is_full(handler.request.remote_ip):
        return 503, "30", device_full_page(page)
    if class_mode.is_full():
        return 503, "60", CLASS_FULL_PAGE.replace("{limit}", str(class_mode.max_kernels))
    return None


def lesson_page_handler_class() -> type:
    """Voila's lesson page handler, refusing pages beyond the class limit (``_refusal``), counting a page while
    its kernel starts, then watching it until it connects (``PageDoor``)."""

    class LessonPageHandler(voila.lesson_page_handler()):  # type: ignore[misc]
        kernel_id: str | None = None
        given_kernel: Callable[[str], None] | None = None
        dropped = False  # the browser closed the connection before the whole page was sent

        def on_connection_close(self) -> None:
            self.dropped = True
            super().on_connection_close()

        async def get(self, path: str | None = None) -> None:
            voila.set_xsrf_cookie_for_the_unload_request(self)
            refused = _refusal(self, path)
            if refused is not None:
                return self._refuse(*refused)  # no kernel started
            class_mode: ClassMode = self.settings["rules_tutor_class"]
            classroom = self.settings.get("rules_tutor_classroom")
            if classroom is not None:
                from ..classroom.handlers import stamp_page

                page_key = stamp_page(self, classroom)
                self.given_kernel = lambda kernel_id: classroom.page_served(page_key, kernel_id, path or "")
            class_mode.waiting.add(self)
            token = _PAGE_REQUEST.set(self)
            try:
                await super().get(path)
            finally:
                class_mode.waiting.discard(self)
                _PAGE_REQUEST.reset(token)
                if self.dropped and self.kernel_id is not None:
                    await class_mode.stop_unsent_page(self.kernel_id)
                elif class_mode.door is not None and self.kernel_id is not None:
                    class_mode.door.watch(self.kernel_id)

        def _refuse(self, status: int, retry_after: str, page: str) -> None:
            """A short page instead of the lesson, with no kernel started."""
            self.set_status(status)
            if retry_after:
                self.set_header("Retry-After", retry_after)
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(page)

    return LessonPageHandler


def class_mode_state(app: Any) -> dict[str, Any]:
    """The Tornado settings class mode adds for the Voila application ``app`` (a ``ClassroomVoila``): its
    ``ClassMode`` (with the pools' preparation and the door when they are on) and, with a class file and a
    teacher token, the class (``tutor.classroom``)."""
    manager = app.kernel_manager
    preparation = None
    if voila.has_kernel_pools(manager):
        _take_only_ready_kernels(manager)
        preparation = PoolPreparation(
            manager,
            app.prepare_timeout,
            lambda line: print(line, flush=True),
            at_once=app.prepare_at_once,
            refill_at_once=1 if app.refill_one_at_a_time else MAX_CLASS_SIZE,
        )
        if app.max_kernels:
            preparation.report_first_fill()
    door = (
        PageDoor(manager, app.page_connect_timeout, app.page_gone_after)
        if (app.max_kernels and app.page_connect_timeout > 0)
        else None
    )
    following = (
        NextLesson(manager, Path(app.root_dir), app.log.info)
        if (preparation is not None and app.prepare_next_lesson and not app.max_kernels)
        else None
    )
    state: dict[str, Any] = {
        "rules_tutor_class": ClassMode(manager, app.max_kernels, preparation, door, app.pages_per_client, following)
    }
    if app.class_db and app.teacher_token:
        from ..classroom.database import ClassDatabase
        from ..classroom.handlers import Classroom, lessons_of, print_new_links_on_signal, verdicts_url

        state["rules_tutor_classroom"] = classroom = Classroom(
            ClassDatabase(app.class_db, lessons_of(Path(app.root_dir))), app.teacher_token, app.teacher_address
        )
        print_new_links_on_signal(classroom)
        classroom.kernel_verdicts = True
        url = verdicts_url(app.ip, app.port, app.base_url)
        voila.add_kernel_environment(manager, lambda kernel_id: classroom.kernel_environment(kernel_id, url))
    return state


def class_mode_routes(app: Any, voila_routes: list[Any], handler: type) -> list[Any]:
    """Voila's routes with the lesson pages served by ``handler`` (the pages without a board first, without a
    kernel: ``tutor.server.text_pages``; a lesson closed by Pace in any language by ``handler``, which says "Not open
    yet"), the kernel websockets bounded (``bounded_routes``), every route quiet about what a pupil sends
    (``pupil_requests``), and the class's endpoints (``tutor.classroom``) when the teacher view is on."""
    from ..classroom.endpoints import routes
    from .text_pages import start_text_pages, with_text_pages

    classroom = app.app.settings.get("rules_tutor_classroom")
    own = routes(classroom, app.server_url or app.base_url) if classroom else []
    start_text_pages(app.app.settings, voila.lesson_page_route_arguments(voila_routes), Path(app.root_dir), app.log)
    lessons = voila.with_lesson_page_handler(voila_routes, paced_handler(with_text_pages(handler), handler))
    return own + pupil_requests.quiet_routes(bounded_routes(lessons, app.log.warning))


def bounded_settings(log: Callable[[str], None]) -> dict[str, Any]:
    """The Tornado settings that bound what a page sends on its kernel's websocket (``tutor.server.bounds``)."""
    return {
        "kernel_websocket_connection_class": bounds.lesson_channels_class(log),
        "websocket_max_message_size": bounds.PAGE_MESSAGE_MAX_BYTES,
        "log_function": pupil_requests.log_request,
    }


def bounded_routes(routes: list[Any], log: Callable[[str], None]) -> list[Any]:
    """``routes`` with the kernel websockets bounded (``tutor.server.bounds``) and without the login pages (the
    server has no login; Voila's would fail to render)."""
    replaced: dict[type, type | None] = {
        voila.kernel_channels_handler(): bounds.bounded_channels_class(log),
        voila.request_info_handler(): bounds.bounded_request_info_class(log),
    }
    replaced.update(dict.fromkeys(voila.login_handlers()))
    return voila.with_route_handlers(routes, replaced)


def classroom_voila_class() -> Any:
    """Voila with class mode: a limit on lesson pages, preheated pools that say when the class can come in,
    and a door for pages that never connect (settings: ``ClassroomVoila.*`` in voila.json).

    Beyond the limit a lesson request gets the "class is full" page (HTTP 503, Retry-After: 60) at once,
    instead of a page that hangs while the machine runs out of memory or CPU. Without a limit and pools it is
    plain Voila with the project's lesson page handler (which also lets a closed page free its kernel).
    """
    from tornado.ioloop import IOLoop
    from traitlets import Bool, Float, Int, Unicode
    from voila.app import Voila

    handler = lesson_page_handler_class()

    class ClassroomVoila(Voila):
        max_kernels = Int(0, config=True, help="Most lesson pages served at once; 0 for no limit.")
        refill_one_at_a_time = Bool(True, config=True, help="Preheat pooled kernels one after the other.")
        prepare_at_once = Int(
            PREPARE_AT_ONCE,
            config=True,
            help="Pooled kernels preparing at once before the class comes in (one per core).",
        )
        prepare_timeout = Float(
            PREPARE_TIMEOUT_S,
            config=True,
            help="Seconds a pooled kernel has to start and run its lesson before it is "
            "reported as not ready (and a refill passes its turn on).",
        )
        pages_per_client = Int(
            PAGES_PER_CLIENT,
            config=True,
            help="With a class limit: lesson pages one client address may run at once; 0 for no limit.",
        )
        prepare_next_lesson = Bool(
            False,
            config=True,
            help="Without a class limit and with preheat_kernel: a kernel runs the lesson "
            "after the one a learner opened, so that Next shows its board at once.",
        )
        class_db = Unicode("", config=True, help="Class mode: the class's SQLite file (see tutor.classroom).")
        teacher_token = Unicode("", config=True, help="Class mode: the teacher view's secret token.")
        teacher_address = Unicode("", config=True, help="Class mode: the teacher view's address, for new links.")
        page_connect_timeout = Float(
            PAGE_CONNECT_TIMEOUT_S,
            config=True,
            help="With a class limit: seconds a sent page has to connect to its kernel "
            "before the kernel is shut down; 0 to keep every kernel.",
        )

        page_gone_after = Float(
            PAGE_GONE_AFTER_S,
            config=True,
            help="With a class limit: seconds a page that connected may stay with no websocket "
            "to its kernel before the kernel is shut down and its place given back; 0 to "
            "keep it (until the unload beacon or the cull).",
        )

        def init_settings(self) -> dict[str, Any]:
            voila.prepare_pooled_kernels_through_a_hook()  # before Voila makes its kernel manager
            voila.note_lessons_that_do_not_run_to_their_end()
            IOLoop.current().add_callback(
                lambda: bounds.quiet_closed_websocket_writes(asyncio.get_running_loop(), self.log.info)
            )
            settings: dict[str, Any] = super().init_settings()
            return {**settings, **class_mode_state(self), **bounded_settings(self.log.warning)}

        def init_handlers(self) -> list[Any]:
            voila.end_lesson_pages_that_fail_to_start()
            return class_mode_routes(self, super().init_handlers(), handler)

    return ClassroomVoila


def launch_voila(argv: list[str]) -> int:
    """Voila with ``argv``, the project's template on the data path and class mode (``python -m tutor.server``)."""
    os.environ.update(with_template_path(dict(os.environ)))
    os.environ.setdefault(KERNEL_LIMIT_VARIABLE, str(bounds.KERNEL_DATA_LIMIT_MIB))
    bounds.raise_open_file_limit()
    voila.accept_connections_without_spinning(lambda line: print(line, file=sys.stderr, flush=True))
    if hasattr(signal, "SIGUSR1"):  # "a new teacher link", forwarded by rules-tutor serve: only a class answers it
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    sys.argv = ["voila", *argv]
    classroom_voila_class().launch_instance()
    return 0


def classroom_settings(settings: dict[str, Any], class_size: int, lessons: list[str]) -> dict[str, Any]:
    """``settings`` (voila.json's) for a class of ``class_size`` learners opening ``lessons`` at about once.

    - Each of ``lessons`` (notebook paths below the served folder) gets a pool of ``class_size`` preheated
      kernels that have already run the lesson, so that opening it only sends the page and syncs the widgets;
      the other lessons start a kernel when opened (no pool). A used kernel is replaced after
      ``REFILL_DELAY_S``, one kernel at a time (``ClassroomVoila.refill_one_at_a_time``).
    - At most ``class_size + CLASS_MARGIN`` lesson pages run at once (``ClassroomVoila.max_kernels``); beyond
      it a learner gets the "class is full" page.
    """
    settings = dict(json.loads(json.dumps(settings)))
    if class_size <= 0:
        return settings
    settings.setdefault("ClassroomVoila", {})["max_kernels"] = class_size + CLASS_MARGIN
    configuration = settings.setdefault("VoilaConfiguration", {})
    configuration["allow_template_override"] = configuration["allow_theme_override"] = "NO"  # no ?template=
    executor = settings.setdefault("VoilaExecutor", {})
    executor["iopub_timeout"] = max(IOPUB_TIMEOUT_S, executor.get("iopub_timeout", 0))
    executor["raise_on_iopub_timeout"] = True
    if lessons:
        settings.setdefault("VoilaConfiguration", {})["preheat_kernel"] = True
        pools = {"default": {"pool_size": 0}}
        pools.update({lesson: {"pool_size": class_size} for lesson in lessons})
        manager = settings.setdefault("VoilaKernelManager", {})
        manager["kernel_pools_config"] = pools
        manager["fill_delay"] = REFILL_DELAY_S
    return settings
