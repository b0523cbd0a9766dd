"""``rules-tutor serve``: the lessons as a Voila web app (settings in ``voila.json``), for one learner or a class.

In three sections:

- Class mode, inside the Voila process (``python -m tutor.serve``, ``classroom_voila_class``): a limit on
  lesson pages with a "class is full" page beyond it (``ClassMode``, ``LessonPageHandler``), preheated kernel
  pools that tell the teacher when the class can come in (``PoolPreparation``), and a door that frees the
  kernel of a page that never connects (``PageDoor``). Its lesson page handler also serves a single learner,
  and gives the page the ``_xsrf`` cookie a closing page needs to shut its kernel down. Its uses of Voila's
  internals are all in ``voila_adapter``.
- The server process: Voila runs as a child process in its own session, so that a Ctrl+C in the terminal
  reaches only this parent, which then stops Voila in order (``run``, ``stop``): SIGTERM (Voila shuts its
  kernels down and frees the port), a wait of ``STOP_GRACE_S``, then SIGKILL for Voila's process group and for
  any kernel it started that is still alive. On Linux the child also gets SIGTERM when this parent dies without
  cleaning up (``PR_SET_PDEATHSIG``).
- The command (``cmd_serve``): checks its options (``serve_problem``), writes class mode's settings
  (``classroom_settings``) and runs the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jupyter_core.utils import ensure_async

from . import voila_adapter as voila
from .voila_adapter import VoilaKernelManager

DEFAULT_PORT = 8866
MAX_CLASS_SIZE = 200
"""Largest ``--class-size`` (each learner's kernel takes about 84 MiB)."""
CLASS_MARGIN = 2
"""Lesson pages served beyond the class size: reloads and the teacher's own tab."""
PAGES_PER_CLIENT = 4
"""In class mode, lesson pages one device (source address) may run at once: a learner's lesson, the next one and
a reload; never the class's places."""
UNCONNECTED_PER_CLIENT = 2
"""Of those, pages not yet connected to their kernel (a browser connects within seconds; a ``curl`` loop never
does): such a loop holds at most this many places, within ``CLASS_MARGIN``."""
PAGE_CONNECT_TIMEOUT_S = 30.0
"""In class mode, a kernel whose page has not connected this long after it was sent is shut down: a plain fetch
(curl, a chat app's link preview) never opens the page's websocket and must not hold a learner's place."""
PREPARE_TIMEOUT_S = 180.0
"""In class mode, a pooled kernel that has not started and run its lesson this long after it began is reported
as not ready, and a refill holding the turn passes it on (one stuck lesson must not stop every refill)."""
REFILL_DELAY_S = 90.0  # a pool refills after the class has arrived and painted, not during the rush
STOP_GRACE_S = 6.0  # Voila's own shutdown (kernels included) takes 1-2 s; the port must be free within 10 s
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))


def lessons_dir() -> Path:
    """The lessons folder of a source checkout (the working directory's, else the package's parent's)."""
    for base in (Path.cwd(), Path(__file__).resolve().parent.parent):
        if (base / "lessons").is_dir():
            return base / "lessons"
    raise SystemExit("rules-tutor serve: no lessons/ folder found; run it from the repository's top folder")


def template_dir() -> Path:
    """The folder holding the ``rules-tutor`` Voila template (named in voila.json)."""
    return Path(__file__).resolve().parent / "voila_template"


def voila_command(directory: Path, port: int, open_browser: bool = False) -> list[str]:
    """The Voila command line serving ``directory`` with the settings of ``voila.json`` in its parent folder.

    It runs Voila through this module (``python -m tutor.serve``), which puts the project's template on
    Jupyter's data path first (see ``launch_voila``).
    """
    directory = directory.resolve()
    command = [sys.executable, "-m", "tutor.serve", str(directory), f"--port={port}",
               f"--Voila.config_file_paths={directory.parent}"]
    if not open_browser:
        command.append("--no-browser")
    return command


def with_template_path(environment: dict[str, str]) -> dict[str, str]:
    """``environment`` with the project's template folder first on Jupyter's data path (``JUPYTER_PATH``).

    Voila finds a template named ``T`` in ``<data path>/voila/templates/T``; ``tutor/voila_template`` holds
    ``voila/templates/rules-tutor``, the template voila.json names.
    """
    environment = dict(environment)
    extra = str(template_dir())
    paths = [p for p in environment.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if extra not in paths:
        environment["JUPYTER_PATH"] = os.pathsep.join([extra, *paths])
    return environment


# ----- Class mode, inside Voila's process (python -m tutor.serve) ------------------------------------------


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
    waiting = sum(1 for pool in voila.kernel_pools(kernel_manager).values() for item in pool
                  if voila.pool_item_ready(item))
    return max(0, running - waiting)


class LessonNotReady(Exception):
    """A pooled kernel did not start, or did not run its lesson in time (the message says which and why)."""


async def _prepared(preparing: Awaitable[voila.PreparedKernel]) -> voila.PreparedKernel:
    """A pooled kernel once it has started and run its lesson; LessonNotReady when either failed."""
    try:
        prepared = await preparing
    except Exception as error:
        raise LessonNotReady(f"its kernel did not start ({type(error).__name__}: {error})") from error
    run = voila.lesson_run(prepared)
    await asyncio.wait([run])
    if not run.cancelled() and run.exception() is not None:
        failure = run.exception()
        raise LessonNotReady(f"the lesson did not run ({type(failure).__name__}: {failure})") from failure
    return prepared


class PoolPreparation:
    """Class mode's preheated pools: each pooled kernel has ``timeout_s`` to start and run its lesson.

    ``report_first_fill`` tells the teacher how the pools fill ("12/20 kernels ready for 02_energy_phase") and,
    once every pooled kernel is ready or has failed, always says so: "The class can come in", with the lessons
    that failed and why. ``refill_one_at_a_time`` makes the refills during the lesson start one after another.
    """

    def __init__(self, kernel_manager: VoilaKernelManager, timeout_s: float, say: Callable[[str], None]) -> None:
        self.kernel_manager = kernel_manager
        self.timeout_s = timeout_s
        self.say = say
        self.wanted: dict[str, int] = {}
        self.ready: dict[str, int] = {}
        self.failed: dict[str, list[str]] = {}
        self._watching: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks

    async def _within_timeout(self, preparing: asyncio.Future[voila.PreparedKernel]) -> voila.PreparedKernel:
        try:
            return await asyncio.wait_for(asyncio.shield(preparing), self.timeout_s)
        except TimeoutError:
            raise LessonNotReady(f"it has not run its lesson after {self.timeout_s:.0f} s (a cell may be stuck "
                                 "or the machine too busy)") from None

    def report_first_fill(self) -> None:
        """Watch the pools Voila has just started filling, and report each kernel and the end."""
        pools = voila.kernel_pools(self.kernel_manager)
        self.wanted = {name: len(items) for name, items in pools.items() if items}
        self.ready = dict.fromkeys(self.wanted, 0)
        self.failed = {name: [] for name in self.wanted}
        for name in self.wanted:
            for item in list(pools[name]):
                task = item.get_loop().create_task(self._report(name, item))
                self._watching.add(task)
                task.add_done_callback(self._watching.discard)

    async def _report(self, name: str, item: asyncio.Future[voila.PreparedKernel]) -> None:
        lesson = Path(name).stem
        try:
            await self._within_timeout(asyncio.ensure_future(_prepared(item)))
        except LessonNotReady as why:
            self.failed[name].append(str(why))
            self.say(f"A kernel for {lesson} is not ready: {why}")
            voila.drop_failed_pool_items(self.kernel_manager)
        else:
            self.ready[name] += 1
            self.say(f"{self.ready[name]}/{self.wanted[name]} kernels ready for {lesson}")
        if all(self.ready[n] + len(self.failed[n]) == self.wanted[n] for n in self.wanted):
            self.say(self.verdict())

    def verdict(self) -> str:
        """The line that ends the first fill: the class can come in, and which lessons failed and why."""
        failed = [f"{Path(name).stem}: {len(whys)} of {self.wanted[name]} kernels not ready ({whys[0]})"
                  for name, whys in self.failed.items() if whys]
        if not failed:
            return "The class can come in: every lesson is ready."
        return ("The class can come in, but not every lesson is ready; its learners wait for a kernel of their "
                "own. " + "; ".join(failed))

    def refill_one_at_a_time(self) -> None:
        """Make Voila prepare its refills one after the other, each holding the turn at most ``timeout_s``.

        Voila starts every missing pool kernel at once: 20 kernels running a lesson take the whole CPU for ~20 s,
        and the learners already working see their clicks slow down. One at a time, a core stays free for them.
        A kernel whose lesson hangs passes the turn on after ``timeout_s`` (and says so), so that one stuck lesson
        does not stop every other refill.
        """
        turn = asyncio.Lock()

        def wrap(prepare: voila.Prepare) -> voila.Prepare:
            async def prepare_in_turn(notebook_name: str, *args: Any, **kwargs: Any) -> voila.PreparedKernel:
                async with turn:
                    started = asyncio.ensure_future(prepare(notebook_name, *args, **kwargs))
                    try:
                        await self._within_timeout(asyncio.ensure_future(_prepared(started)))
                    except LessonNotReady as why:
                        self.say(f"A new kernel for {Path(notebook_name).stem} is not ready: {why}; the next "
                                 "kernel starts preparing anyway")
                        asyncio.get_running_loop().call_soon(voila.drop_failed_pool_items, self.kernel_manager)
                return await started  # outside the turn (Voila's pool item: the kernel, or why it did not start)

            return prepare_in_turn

        voila.wrap_prepare_pooled_kernel(self.kernel_manager, wrap)


def _take_only_ready_kernels(kernel_manager: VoilaKernelManager) -> None:
    """A lesson request takes a pooled kernel only if one has already run the lesson; else it starts its own.

    Voila counts a pool's refills as soon as they are scheduled, so once a pool is used up, the next learner
    would wait for a refill's delay (``fill_delay``, 90 s here) instead of starting a kernel at once.
    """
    pools = voila.kernel_pools(kernel_manager)

    def ready_kernels(notebook_name: str) -> int:
        return sum(1 for item in pools.get(notebook_name, []) if voila.pool_item_ready(item))

    def wrap(take: voila.TakePooled) -> voila.TakePooled:
        async def take_a_ready_kernel(notebook_name: str, *args: Any, **kwargs: Any) -> Any:
            pools.get(notebook_name, []).sort(key=lambda item: not voila.pool_item_ready(item))  # stable
            return await take(notebook_name, *args, **kwargs)

        return take_a_ready_kernel

    voila.set_pool_size(kernel_manager, ready_kernels)
    voila.wrap_take_pooled_kernel(kernel_manager, wrap)


class PageDoor:
    """Shuts a page's kernel down unless the page opens the kernel's websocket within ``timeout_s`` of being
    sent (see ``PAGE_CONNECT_TIMEOUT_S``). It keeps only the pages still within that time."""

    def __init__(self, kernel_manager: VoilaKernelManager, timeout_s: float) -> None:
        self.kernel_manager = kernel_manager
        self.timeout_s = timeout_s
        self.opened: dict[str, bool] = {}  # kernel id -> whether its page has connected, until the timeout
        self._timers: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks
        voila.on_page_connect(kernel_manager, self._connected)

    def expect(self, kernel_id: str) -> None:
        """A page request got ``kernel_id`` (its page may connect before the page is fully sent)."""
        self.opened.setdefault(kernel_id, False)

    def _connected(self, kernel_id: str) -> None:
        if kernel_id in self.opened:
            self.opened[kernel_id] = True

    def watch(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` has been sent: start its ``timeout_s``."""
        self.expect(kernel_id)
        timer = asyncio.ensure_future(self._release(kernel_id))
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)

    async def _release(self, kernel_id: str) -> None:
        await asyncio.sleep(self.timeout_s)
        if self.opened.pop(kernel_id, True) or kernel_id not in self.kernel_manager.list_kernel_ids():
            return
        await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        print(f"A page was fetched but never opened (no connection in {self.timeout_s:.0f} s): its place is free "
              "again.", flush=True)


_PAGE_REQUEST: contextvars.ContextVar[Any] = contextvars.ContextVar("page_request", default=None)
"""The lesson page request being served (``LessonPageHandler``), seen by the kernel manager's hooks."""


class ClassMode:
    """What class mode keeps while Voila runs (in the Tornado settings, ``rules_tutor_class``): the limit on
    lesson pages, the pages waiting for their kernel, the pools' preparation, the door for pages that never
    connect."""

    def __init__(self, kernel_manager: VoilaKernelManager, max_kernels: int,
                 preparation: PoolPreparation | None, door: PageDoor | None,
                 pages_per_client: int = PAGES_PER_CLIENT) -> None:
        self.kernel_manager = kernel_manager
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
        """With a class limit: whether ``client`` already has ``pages_per_client`` lesson pages (running, or
        waiting for their kernel), or ``UNCONNECTED_PER_CLIENT`` pages that have not connected (yet), so that one
        device cannot hold the class's places."""
        if not self.max_kernels or not self.pages_per_client:
            return False
        running = set(self.kernel_manager.list_kernel_ids())
        for kernel_id in [k for k in self.client_of if k not in running]:
            del self.client_of[kernel_id]
        mine = [kernel_id for kernel_id, address in self.client_of.items() if address == client]
        waiting = sum(1 for request in self.waiting if request.request.remote_ip == client)
        opened = self.door.opened if self.door is not None else {}
        unconnected = waiting + sum(1 for kernel_id in mine if opened.get(kernel_id) is False)
        return len(mine) + waiting >= self.pages_per_client or unconnected >= UNCONNECTED_PER_CLIENT

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
                    self.client_of[request.kernel_id] = request.request.remote_ip
                    if self.door is not None:
                        self.door.expect(request.kernel_id)
                return result

            return got_kernel

        voila.wrap_start_kernel(self.kernel_manager, lambda start: wrap(start, str))
        if voila.has_kernel_pools(self.kernel_manager):
            voila.wrap_take_pooled_kernel(self.kernel_manager, lambda take: wrap(take, voila.taken_kernel_id))


def classroom_voila_class() -> Any:
    """Voila with class mode: a limit on lesson pages, preheated pools that say when the class can come in,
    and a door for pages that never connect (settings: ``ClassroomVoila.*`` in voila.json).

    Beyond the limit a lesson request gets the "class is full" page (HTTP 503, Retry-After: 60) at once,
    instead of a page that hangs while the machine runs out of memory or CPU. Without a limit and pools it is
    plain Voila with the project's lesson page handler (which also lets a closed page free its kernel).
    """
    from traitlets import Bool, Float, Int, Unicode
    from voila.app import Voila

    class LessonPageHandler(voila.lesson_page_handler()):  # type: ignore[misc]
        """A lesson page: refused beyond the class limit, counted while its kernel starts, then watched until
        it connects."""

        kernel_id: str | None = None

        async def get(self, path: str | None = None) -> None:
            voila.set_xsrf_cookie_for_the_unload_request(self)
            class_mode: ClassMode = self.settings["rules_tutor_class"]
            classroom = self.settings.get("rules_tutor_classroom")
            from .classroom.pages import DEVICE_FULL_PAGE, NOT_OPEN_PAGE

            if classroom is not None and (path or "").strip("/") in classroom.db.settings()["closed"]:
                contents = self.base_url + "voila/render/index.ipynb"
                return self._refuse(200, "", NOT_OPEN_PAGE.replace("{contents}", contents))  # no kernel started
            if class_mode.client_is_full(self.request.remote_ip):
                return self._refuse(503, "30", DEVICE_FULL_PAGE)
            if class_mode.is_full():
                return self._refuse(503, "60", CLASS_FULL_PAGE.replace("{limit}", str(class_mode.max_kernels)))
            if classroom is not None:
                from .classroom.handlers import stamp_page
                stamp_page(self, classroom)
            class_mode.waiting.add(self)
            token = _PAGE_REQUEST.set(self)
            try:
                await super().get(path)
            finally:
                class_mode.waiting.discard(self)
                _PAGE_REQUEST.reset(token)
                if class_mode.door is not None and self.kernel_id is not None:
                    class_mode.door.watch(self.kernel_id)

        def _refuse(self, status: int, retry_after: str, page: str) -> None:
            """A short page instead of the lesson, with no kernel started."""
            self.set_status(status)
            if retry_after:
                self.set_header("Retry-After", retry_after)
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(page)

    class ClassroomVoila(Voila):
        max_kernels = Int(0, config=True, help="Most lesson pages served at once; 0 for no limit.")
        refill_one_at_a_time = Bool(True, config=True, help="Preheat pooled kernels one after the other.")
        prepare_timeout = Float(PREPARE_TIMEOUT_S, config=True,
                                help="Seconds a pooled kernel has to start and run its lesson before it is "
                                     "reported as not ready (and a refill passes its turn on).")
        pages_per_client = Int(PAGES_PER_CLIENT, config=True,
                               help="With a class limit: lesson pages one client address may run at once; 0 for "
                                    "no limit.")
        class_db = Unicode("", config=True, help="Class mode: the class's SQLite file (see tutor.classroom).")
        teacher_token = Unicode("", config=True, help="Class mode: the teacher view's secret token.")
        page_connect_timeout = Float(PAGE_CONNECT_TIMEOUT_S, config=True,
                                     help="With a class limit: seconds a sent page has to connect to its kernel "
                                          "before the kernel is shut down; 0 to keep every kernel.")

        def init_settings(self) -> dict[str, Any]:
            settings: dict[str, Any] = super().init_settings()
            manager = self.kernel_manager
            preparation = None
            if voila.has_kernel_pools(manager):
                _take_only_ready_kernels(manager)
                preparation = PoolPreparation(manager, self.prepare_timeout, lambda line: print(line, flush=True))
                if self.refill_one_at_a_time:
                    preparation.refill_one_at_a_time()
                if self.max_kernels:
                    preparation.report_first_fill()
            door = PageDoor(manager, self.page_connect_timeout) \
                if self.max_kernels and self.page_connect_timeout > 0 else None
            settings["rules_tutor_class"] = ClassMode(manager, self.max_kernels, preparation, door,
                                                      self.pages_per_client)
            if self.class_db and self.teacher_token:
                from .classroom.database import ClassDatabase
                from .classroom.handlers import Classroom, lessons_of

                settings["rules_tutor_classroom"] = Classroom(
                    ClassDatabase(self.class_db, lessons_of(Path(self.root_dir))), self.teacher_token)
            return settings

        def init_handlers(self) -> list[Any]:
            """Voila's routes with the lesson pages served by ``LessonPageHandler`` (the pages without a board
            first, without a kernel: ``tutor.text_pages``), and the class's endpoints (``tutor.classroom``) when the
            teacher view is on."""
            from .classroom.handlers import routes
            from .text_pages import start_text_pages, with_text_pages

            classroom = self.app.settings.get("rules_tutor_classroom")
            own = routes(classroom, self.server_url or self.base_url) if classroom else []
            voila_routes = super().init_handlers()
            start_text_pages(self.app.settings, voila.lesson_page_route_arguments(voila_routes), Path(self.root_dir),
                             self.log)
            return own + voila.with_lesson_page_handler(voila_routes, with_text_pages(LessonPageHandler))

    return ClassroomVoila


def launch_voila(argv: list[str]) -> int:
    """Voila with ``argv``, the project's template on the data path and class mode (``python -m tutor.serve``)."""
    os.environ.update(with_template_path(dict(os.environ)))
    sys.argv = ["voila", *argv]
    classroom_voila_class().launch_instance()
    return 0


# ----- The server process, seen from `rules-tutor serve` ---------------------------------------------------


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask Linux to send this (child) process SIGTERM when its parent dies; elsewhere do nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before prctl: nobody is left to stop us
        os.kill(os.getpid(), signal.SIGTERM)


def _proc_children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc (empty where there is no /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return children
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def _start_time(pid: int) -> bytes | None:
    """The start time of ``pid`` (to tell it from a later process with the same pid), None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def descendants(pid: int) -> dict[int, bytes]:
    """Every process below ``pid`` (Voila's kernels run in sessions of their own), with its start time."""
    children, found, todo = _proc_children(), {}, [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            started = _start_time(child)
            if started is not None and child not in found:
                found[child] = started
                todo.append(child)
    return found


def _kill_leftovers(processes: dict[int, bytes]) -> None:
    for pid, started in processes.items():
        if _start_time(pid) == started:
            try:
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except OSError:
                pass


def stop(process: subprocess.Popen[bytes], grace_s: float = STOP_GRACE_S) -> int:
    """Stop Voila and everything it started: SIGTERM, wait up to ``grace_s``, then SIGKILL what is left."""
    below = descendants(process.pid)
    if process.poll() is None:
        try:
            os.kill(process.pid, signal.SIGTERM)
        except OSError:
            pass
    try:
        returncode = process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        below.update(descendants(process.pid))
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (OSError, AttributeError):  # AttributeError: no process groups (Windows)
            process.kill()
        returncode = process.wait()
    # Kernels shut down with Voila (or, orphaned, within a second by ipykernel's parent poller); make sure.
    deadline = time.monotonic() + 1.0
    while any(_start_time(pid) == started for pid, started in below.items()) and time.monotonic() < deadline:
        time.sleep(0.05)
    _kill_leftovers(below)
    return returncode


class _StopRequested(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum: int, frame: object) -> None:
    raise _StopRequested(signum)


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> int:
    """Run Voila's ``command`` until it exits, or until this process gets SIGTERM, SIGINT or SIGHUP.

    Returns Voila's exit status, or 0 after a requested stop.
    """
    previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    posix = os.name == "posix"  # elsewhere (Windows) neither sessions nor preexec_fn exist
    process = subprocess.Popen(command, cwd=cwd, env=env, start_new_session=posix,
                               preexec_fn=_die_with_parent if posix else None)
    try:
        for signum in STOP_SIGNALS:
            signal.signal(signum, _raise_stop)
        return process.wait()
    except (_StopRequested, KeyboardInterrupt):
        for signum in STOP_SIGNALS:  # a second Ctrl+C must not interrupt the cleanup
            signal.signal(signum, signal.SIG_IGN)
        print("\nStopping the lessons server ...", file=sys.stderr, flush=True)
        stop(process)
        return 0
    finally:
        if process.poll() is None:  # an unexpected error above: do not leave Voila behind
            stop(process)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# ----- The command: rules-tutor serve -------------------------------------------------------------------


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
    if lessons:
        settings.setdefault("VoilaConfiguration", {})["preheat_kernel"] = True
        pools = {"default": {"pool_size": 0}}
        pools.update({lesson: {"pool_size": class_size} for lesson in lessons})
        manager = settings.setdefault("VoilaKernelManager", {})
        manager["kernel_pools_config"] = pools
        manager["fill_delay"] = REFILL_DELAY_S
    return settings


def write_settings(settings: dict[str, Any], folder: Path) -> Path:
    """Write ``settings`` as ``folder/voila.json``; returns ``folder`` (for ``--Voila.config_file_paths``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "voila.json").write_text(json.dumps(settings, indent=2) + "\n")
    return folder


def serve_problem(directory: Path, ip: str | None, port: int, lessons: list[str]) -> str | None:
    """Why ``serve`` cannot start with these options (missing folder or lesson, bad address, port taken); None
    when it can."""
    if not directory.is_dir():
        return f"no lessons folder {directory}"
    for lesson in lessons:
        if not (directory / lesson).is_file():
            return f"no lesson {lesson} in {directory}"
    host = ip or "127.0.0.1"
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return f"--ip {ip!r} is not an IP address (such as 0.0.0.0 for a classroom network, or 127.0.0.1)"
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        return f"cannot listen on {host} port {port} ({exc.strerror}): another server uses it, or the address " \
               "is not this machine's"
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    """``rules-tutor serve [DIR] [--port P] [--open]``; with the (optional) options ``--ip ADDRESS``,
    ``--class-size N`` and ``--lesson NOTEBOOK`` (repeatable), it serves a class (see ``classroom_settings``).
    Options it cannot serve with (see ``serve_problem``) exit 2 with a message."""
    directory = (Path(args.directory) if args.directory else lessons_dir()).resolve()
    ip = args.ip
    class_size = args.class_size
    lessons = [str(Path(lesson)) for lesson in args.lesson]
    problem = serve_problem(directory, ip, args.port, lessons)
    if problem:
        print(f"rules-tutor serve: {problem}", file=sys.stderr)
        return 2
    command = [*voila_command(directory, args.port, args.open), "--Voila.port_retries=0"]
    if ip:
        command.append(f"--Voila.ip={ip}")
    with tempfile.TemporaryDirectory(prefix="rules-tutor-serve-") as tmp:
        if class_size:
            config_file = directory.parent / "voila.json"
            base = json.loads(config_file.read_text()) if config_file.is_file() else {}
            from .classroom.database import default_path
            from .classroom.handlers import class_mode_settings, new_teacher_token, teacher_link

            class_db = Path(args.class_db).resolve() if getattr(args, "class_db", None) else default_path()
            teacher_token = new_teacher_token()
            folder = write_settings(class_mode_settings(classroom_settings(base, class_size, lessons), class_db,
                                                        teacher_token), Path(tmp))
            command.append(f"--Voila.config_file_paths={folder}")
            preheated = f"{class_size} kernels preheated for {', '.join(lessons)}; " if lessons else ""
            print(f"A class of {class_size}: {preheated}at most {class_size + CLASS_MARGIN} pages at once", flush=True)
            if lessons:
                print("Preparing the lessons: wait for \"The class can come in\" before the learners open them.",
                      flush=True)
        host = "localhost" if not ip or ip in ("127.0.0.1", "localhost") else ip
        print(f"Serving the lessons at http://{host}:{args.port}/  (Ctrl+C stops)", flush=True)
        if class_size:
            print(f"Results of this class are kept in {class_db}", flush=True)
            print(f"Teacher view (keep this link to yourself): {teacher_link(host, args.port, teacher_token)}",
                  flush=True)
        return run(command, cwd=directory.parent)


if __name__ == "__main__":
    sys.exit(launch_voila(sys.argv[1:]))
