"""``rules-tutor serve``: the lessons as a Voila web app (settings in ``voila.json``).

Voila runs as a child process in its own session, so that a Ctrl+C in the terminal reaches only this parent,
which then stops Voila in order: SIGTERM (Voila shuts its kernels down and frees the port), a wait of
``STOP_GRACE_S``, then SIGKILL for Voila's process group and for any kernel it started that is still alive.
On Linux the child also gets SIGTERM when this parent dies without cleaning up (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import argparse
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
from pathlib import Path
from collections.abc import Callable
from typing import Any

DEFAULT_PORT = 8866
MAX_CLASS_SIZE = 200
"""Largest ``--class-size`` (each learner's kernel takes about 84 MiB)."""
PAGE_CONNECT_TIMEOUT_S = 30.0
"""In class mode, a kernel whose page has not connected this long after it was sent is shut down: a plain fetch
(curl, a chat app's link preview) never opens the page's websocket and must not hold a learner's place."""
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


def _let_closed_pages_free_their_kernels() -> None:
    """Accept the kernel shutdown that a closing (or reloading) page sends.

    Voila 0.5 sends it with ``navigator.sendBeacon``, which cannot carry the XSRF token, so the server refuses
    it (403, voila#1458) and every closed tab's kernel (84 MiB) lives on until it is culled. A shutdown names a
    random kernel id that only its own page knows, so skipping the XSRF check for this one handler is safe.
    """
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    VoilaShutdownKernelHandler.check_xsrf_cookie = lambda self: None


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


VoilaKernelManager = Any
"""Voila's kernel manager (Voila ships no type information)."""


def kernels_in_use(kernel_manager: VoilaKernelManager) -> int:
    """Kernels serving a page: all kernels minus the preheated ones still waiting in Voila's pools."""
    running = len(kernel_manager.list_kernel_ids())
    waiting = sum(1 for pool in getattr(kernel_manager, "_pools", {}).values()
                  for task in pool if task.done() and not task.cancelled() and task.exception() is None)
    return max(0, running - waiting)


def _one_kernel_at_a_time(kernel_manager: VoilaKernelManager) -> None:
    """Make Voila's pool start and run its preheated kernels one after the other.

    Voila starts every missing pool kernel at once: 20 kernels running a lesson take the whole CPU for ~20 s,
    and the learners already working see their clicks slow down. One at a time, a core stays free for them.
    """
    import asyncio

    initialize = kernel_manager._initialize
    lock = asyncio.Lock()

    async def one_at_a_time(*args: object, **kwargs: object) -> dict[str, Any]:
        async with lock:
            started: dict[str, Any] = await initialize(*args, **kwargs)
            await asyncio.wait([started["task"]])  # the lesson's cells have run (or failed: Voila reports it)
            return started

    kernel_manager._initialize = one_at_a_time


def _take_only_ready_kernels(kernel_manager: VoilaKernelManager) -> None:
    """A lesson request takes a pooled kernel only if one has already run the lesson; else it starts its own.

    Voila counts a pool's refills as soon as they are scheduled, so once a pool is used up, the next learner
    would wait for a refill's delay (``fill_delay``, 90 s here) instead of starting a kernel at once.
    """
    pools = kernel_manager._pools
    take = kernel_manager.get_rendered_notebook

    def ready(task: Any) -> bool:
        return bool(task.done() and not task.cancelled() and task.exception() is None)

    def get_pool_size(notebook_name: str) -> int:
        return sum(1 for task in pools.get(notebook_name, []) if ready(task))

    async def get_rendered_notebook(notebook_name: str, *args: Any, **kwargs: Any) -> Any:
        pools.get(notebook_name, []).sort(key=lambda task: not ready(task))  # ready ones first (stable)
        return await take(notebook_name, *args, **kwargs)

    kernel_manager.get_pool_size = get_pool_size
    kernel_manager.get_rendered_notebook = get_rendered_notebook


def _report_pool_progress(kernel_manager: object, say: Callable[[str], None]) -> None:
    """Tell the teacher how the preheated pools fill ("12/20 kernels ready for 02_energy_phase": the kernel has
    run the lesson) and, once every pool is full, that the class can come in. Later refills are not reported."""
    pools = kernel_manager._pools  # type: ignore[attr-defined]
    wanted = {name: len(pools.get(name, [])) for name in pools if pools.get(name)}
    ready = dict.fromkeys(wanted, 0)

    def rendered(name: str) -> None:
        ready[name] += 1
        say(f"{ready[name]}/{wanted[name]} kernels ready for {Path(name).stem}")
        if ready == wanted:
            say("The class can come in: every lesson is ready.")

    def started(name: str, task: Any) -> None:
        if not task.cancelled() and task.exception() is None:
            task.result()["task"].add_done_callback(lambda _: rendered(name))

    for name in wanted:
        for task in pools[name]:
            task.add_done_callback(lambda task, name=name: started(name, task))


def _release_pages_that_never_connect(kernel_manager: object, timeout_s: float) -> Callable[[str], None]:
    """``watch(kernel_id)``: shut the kernel down unless its page opens the kernel's websocket within
    ``timeout_s`` (see ``PAGE_CONNECT_TIMEOUT_S``)."""
    import asyncio

    from jupyter_core.utils import ensure_async

    connected: set[str] = set()
    notify_connect = kernel_manager.notify_connect  # type: ignore[attr-defined]

    def noting_connect(kernel_id: str) -> Any:
        connected.add(kernel_id)
        return notify_connect(kernel_id)

    kernel_manager.notify_connect = noting_connect  # type: ignore[attr-defined]

    async def release(kernel_id: str) -> None:
        await asyncio.sleep(timeout_s)
        if kernel_id in connected or kernel_id not in kernel_manager.list_kernel_ids():  # type: ignore[attr-defined]
            return
        await ensure_async(kernel_manager.shutdown_kernel(kernel_id))  # type: ignore[attr-defined]
        print(f"A page was fetched but never opened (no connection in {timeout_s:.0f} s): its place is free again.",
              flush=True)

    waiting: set[asyncio.Future[None]] = set()  # the loop keeps only weak references to tasks

    def watch(kernel_id: str) -> None:
        task = asyncio.ensure_future(release(kernel_id))
        waiting.add(task)
        task.add_done_callback(waiting.discard)

    return watch


_WAITING: "contextvars.ContextVar[tuple[set[Any], object] | None]" = contextvars.ContextVar("waiting", default=None)


def _count_pages_waiting_for_a_kernel(kernel_manager: VoilaKernelManager) -> None:
    """Let the class limit count the requests whose kernel is still starting (not yet in the kernel list).

    Twenty learners arriving together all ask before the first kernel is up: counting only running kernels
    would let every one of them in. A request waits from its arrival until Voila has its kernel (a new one,
    or one taken from a pool); the handler's context says which request is asking.
    """
    for name in ("start_kernel", "get_rendered_notebook"):
        original = getattr(kernel_manager, name, None)
        if original is None:
            continue

        async def got_kernel(*args: object, _original: Any = original, **kwargs: object) -> object:
            from jupyter_core.utils import ensure_async

            result = await ensure_async(_original(*args, **kwargs))
            waiting = _WAITING.get()
            if waiting is not None and waiting[1] in waiting[0]:  # this request's own kernel (not a refill)
                waiting[0].discard(waiting[1])
                kernel_id = result if isinstance(result, str) else result[2]  # start_kernel, get_rendered_notebook
                waiting[1].rules_tutor_kernel_id = kernel_id  # type: ignore[attr-defined]
            return result

        setattr(kernel_manager, name, got_kernel)


def classroom_voila_class() -> Any:
    """Voila with a limit on kernels (``ClassroomVoila.max_kernels`` in voila.json; 0 = none).

    Beyond the limit a lesson request gets the "class is full" page (HTTP 503, Retry-After: 60) at once,
    instead of a page that hangs while the machine runs out of memory or CPU.
    """
    from traitlets import Bool, Float, Int, Unicode
    from voila.app import Voila
    from voila.tornado.handler import TornadoVoilaHandler

    class ClassFullHandler(TornadoVoilaHandler):
        async def get(self, path: str | None = None) -> None:
            limit = self.settings.get("rules_tutor_max_kernels", 0)
            waiting: set[Any] = self.settings.setdefault("rules_tutor_waiting", set())
            if limit and kernels_in_use(self.kernel_manager) + len(waiting) >= limit:
                self.set_status(503)
                self.set_header("Retry-After", "60")
                self.set_header("Cache-Control", "no-store")
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                self.finish(CLASS_FULL_PAGE.replace("{limit}", str(limit)))
                return
            classroom = self.settings.get("rules_tutor_classroom")
            if classroom is not None:
                from .classroom.handlers import stamp_page
                stamp_page(self, classroom)
            waiting.add(self)
            token = _WAITING.set((waiting, self))
            try:
                await super().get(path)
            finally:
                waiting.discard(self)
                _WAITING.reset(token)
                watch = self.settings.get("rules_tutor_watch_page")
                kernel_id = getattr(self, "rules_tutor_kernel_id", None)
                if watch is not None and kernel_id is not None:
                    watch(kernel_id)

    class ClassroomVoila(Voila):
        max_kernels = Int(0, config=True, help="Most lesson pages served at once; 0 for no limit.")
        refill_one_at_a_time = Bool(True, config=True, help="Preheat pooled kernels one after the other.")
        class_db = Unicode("", config=True, help="Class mode: the class's SQLite file (see tutor.classroom).")
        teacher_token = Unicode("", config=True, help="Class mode: the teacher view's secret token.")
        page_connect_timeout = Float(PAGE_CONNECT_TIMEOUT_S, config=True,
                                     help="With a class limit: seconds a sent page has to connect to its kernel "
                                          "before the kernel is shut down; 0 to keep every kernel.")

        def init_settings(self) -> dict[str, Any]:
            settings: dict[str, Any] = super().init_settings()
            settings["rules_tutor_max_kernels"] = self.max_kernels
            settings["rules_tutor_waiting"] = set()
            if hasattr(self.kernel_manager, "_pools"):  # preheated pools
                _take_only_ready_kernels(self.kernel_manager)
                if self.refill_one_at_a_time:
                    _one_kernel_at_a_time(self.kernel_manager)
                if self.max_kernels:
                    _report_pool_progress(self.kernel_manager, lambda line: print(line, flush=True))
            _count_pages_waiting_for_a_kernel(self.kernel_manager)
            if self.class_db and self.teacher_token:
                from .classroom.database import ClassDatabase
                from .classroom.handlers import Classroom, lessons_of
                settings["rules_tutor_classroom"] = Classroom(
                    ClassDatabase(self.class_db, lessons_of(Path(self.root_dir))), self.teacher_token)
            if self.max_kernels and self.page_connect_timeout > 0:
                settings["rules_tutor_watch_page"] = _release_pages_that_never_connect(
                    self.kernel_manager, self.page_connect_timeout)
            return settings

        def init_handlers(self) -> list[Any]:
            from .classroom.handlers import routes

            classroom = self.app.settings.get("rules_tutor_classroom")
            return (routes(classroom, self.server_url or self.base_url) if classroom else []) + [
                (route[0], ClassFullHandler, *route[2:]) if route[1] is TornadoVoilaHandler else route
                for route in super().init_handlers()]

    return ClassroomVoila


def launch_voila(argv: list[str]) -> int:
    """Voila with ``argv``, the project's template on the data path and the class limit (``python -m tutor.serve``)."""
    os.environ.update(with_template_path(dict(os.environ)))
    _let_closed_pages_free_their_kernels()
    sys.argv = ["voila", *argv]
    classroom_voila_class().launch_instance()
    return 0


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


REFILL_DELAY_S = 90.0  # a pool refills after the class has arrived and painted, not during the rush


def classroom_settings(settings: dict[str, Any], class_size: int, lessons: list[str],
                       margin: int = 2) -> dict[str, Any]:
    """``settings`` (voila.json's) for a class of ``class_size`` learners opening ``lessons`` at about once.

    - Each of ``lessons`` (notebook paths below the served folder) gets a pool of ``class_size`` preheated
      kernels that have already run the lesson, so that opening it only sends the page and syncs the widgets;
      the other lessons start a kernel when opened (no pool). A used kernel is replaced after
      ``REFILL_DELAY_S``, one kernel at a time (``ClassroomVoila.refill_one_at_a_time``).
    - At most ``class_size + margin`` lesson pages run at once (``ClassroomVoila.max_kernels``); beyond it
      a learner gets the "class is full" page. The margin covers reloads and the teacher's own tab.
    """
    settings = dict(json.loads(json.dumps(settings)))
    if class_size <= 0:
        return settings
    settings.setdefault("ClassroomVoila", {})["max_kernels"] = class_size + margin
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
            print(f"A class of {class_size}: " + (f"{class_size} kernels preheated for {', '.join(lessons)}; "
                                                  if lessons else "") + f"at most {class_size + 2} pages at once",
                  flush=True)
            if lessons:
                print("Preparing the lessons: wait for \"The class can come in\" before the learners open them.",
                      flush=True)
        host = "localhost" if not ip or ip in ("127.0.0.1", "localhost") else ip
        print(f"Serving the lessons at http://{host}:{args.port}/  (Ctrl+C stops)", flush=True)
        if class_size:
            print(f"The class's results are kept in {class_db}", flush=True)
            print(f"Teacher view (keep this link to yourself): {teacher_link(host, args.port, teacher_token)}",
                  flush=True)
        return run(command, cwd=directory.parent)


if __name__ == "__main__":
    sys.exit(launch_voila(sys.argv[1:]))
