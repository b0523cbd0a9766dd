"""`rules-tutor serve` stops with its server: SIGTERM, Ctrl+C (SIGINT) or the parent's death stop Voila and its
kernels and free the port within 10 s."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tests.test_classroom_serve import wait_for
from tutor.server.process import descendants

REPO = Path(__file__).resolve().parents[1]
STOP_WITHIN_S = 10  # the promise (README): stopped, port free, within 10 s
START_TIMEOUT_S = 180  # generous: the machine may be busy

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _processes_naming(text: str) -> list[int]:
    """Pids of the processes whose command line contains ``text``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if text.encode() in command:
                found.append(int(entry))
    return found


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A served folder with one tiny notebook, and the repository's voila.json beside it."""
    shutil.copy(REPO / "voila.json", tmp_path / "voila.json")
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('ready')")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lessons / "tiny.ipynb")
    return lessons


def _serve(site: Path, tmp_path: Path, *, open_page: bool) -> tuple[subprocess.Popen[bytes], int, list[int]]:
    """Start `python -m tutor serve` on a free port; return it, the port and Voila's kernels (after a page load)."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "tutor", "serve", str(site), f"--port={port}"],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        assert process.poll() is None, (tmp_path / "serve.log").read_text()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
            break
        except OSError:
            assert time.monotonic() < deadline, f"no answer in {START_TIMEOUT_S} s"
            time.sleep(0.2)
    kernels: list[int] = []
    if open_page:  # the page is rendered once its cells have run: a kernel now runs below Voila
        page = urllib.request.urlopen(
            f"http://127.0.0.1:{port}/voila/render/tiny.ipynb", timeout=START_TIMEOUT_S
        ).read()
        assert b"ready" in page
        kernels = sorted(set(descendants(process.pid)) & set(_processes_naming("kernel_launcher")))
        assert kernels, "no kernel process below the server"
    return process, port, kernels


def _assert_all_stopped(process: subprocess.Popen[bytes] | None, port: int, kernels: list[int]) -> None:
    deadline = time.monotonic() + STOP_WITHIN_S
    while time.monotonic() < deadline:
        running = process is not None and process.poll() is None
        if (
            not running
            and not _answers(port)
            and not _processes_naming(f"--port={port}")
            and not any(Path(f"/proc/{pid}").exists() for pid in kernels)
        ):
            return
        time.sleep(0.1)
    assert process is None or process.poll() is not None, "rules-tutor serve still runs"
    assert not _answers(port), f"port {port} still answers"
    assert _processes_naming(f"--port={port}") == [], "a Voila of that port still runs"
    assert [pid for pid in kernels if Path(f"/proc/{pid}").exists()] == [], "a kernel still runs"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_stops_voila_and_frees_the_port(site, tmp_path, signum):
    process, port, kernels = _serve(site, tmp_path, open_page=signum == signal.SIGTERM)
    try:
        assert _processes_naming(f"--port={port}"), "no Voila process found for the port"
        process.send_signal(signum)
        _assert_all_stopped(process, port, kernels)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()
        for pid in _processes_naming(f"--port={port}"):
            os.kill(pid, signal.SIGKILL)


def test_voila_stops_when_serve_is_killed(site, tmp_path):
    """SIGKILL leaves the parent no chance to clean up: Linux's parent-death signal stops Voila."""
    process, port, _ = _serve(site, tmp_path, open_page=False)
    try:
        process.kill()
        process.wait()
        _assert_all_stopped(None, port, [])
    finally:
        for pid in _processes_naming(f"--port={port}"):
            os.kill(pid, signal.SIGKILL)


def _kernels_below(process: subprocess.Popen[bytes]) -> list[int]:
    return sorted(set(descendants(process.pid)) & set(_processes_naming("kernel_launcher")))


def test_a_page_left_before_it_was_sent_stops_its_kernel_and_a_page_read_whole_keeps_it(site, tmp_path):
    """A learner alone who reloads or closes a lesson while it is still coming (here: its head read, then the
    connection closed) leaves no kernel behind: it stops once Voila is done with the page, not at the 30-minute
    idle cull. A page read to its end keeps its kernel, for the page to connect to."""
    go_on = tmp_path / "go-on"  # the lesson runs until the test says so: the page is left while it still comes
    cell = (
        f"import pathlib, time\nwhile not pathlib.Path({str(go_on)!r}).exists():\n    time.sleep(0.05)\nprint('ready')"
    )
    slow = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    slow.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(slow, site / "slow.ipynb")
    process, port, _ = _serve(site, tmp_path, open_page=False)
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/voila/render/slow.ipynb", timeout=START_TIMEOUT_S
        ) as page:
            head = b""
            while b"</title>" not in head:  # the head comes once the page's kernel has started
                chunk = page.read1(1 << 16)
                assert chunk, head
                head += chunk
            assert _kernels_below(process), "no kernel for the page"
        go_on.touch()  # the page is gone: its lesson ends, and its kernel with it
        wait_for(lambda: not _kernels_below(process), "the left page's kernel stopping", START_TIMEOUT_S)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb", timeout=START_TIMEOUT_S).read()
        assert _kernels_below(process), "the page read whole lost its kernel"
        assert "Traceback" not in (tmp_path / "serve.log").read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_voila_json_names_the_project_template():
    """The template exists where serve puts it on Jupyter's data path (the browser tests check what it does)."""
    from tutor.server.process import template_dir

    name = json.loads((REPO / "voila.json").read_text())["VoilaConfiguration"]["template"]
    assert (template_dir() / "voila" / "templates" / name / "index.html.j2").is_file()


def test_classroom_settings_pool_the_named_lessons_and_limit_the_class():
    from tutor.server.class_mode import REFILL_DELAY_S, classroom_settings

    base = json.loads((REPO / "voila.json").read_text())
    assert classroom_settings(base, 0, ["a.ipynb"]) == base
    settings = classroom_settings(base, 25, ["flamme_rouge/02_energy_phase.ipynb"])
    assert settings["ClassroomVoila"]["max_kernels"] == 27
    assert settings["VoilaConfiguration"]["preheat_kernel"] is True
    assert settings["VoilaConfiguration"]["template"] == base["VoilaConfiguration"]["template"]
    pools = settings["VoilaKernelManager"]["kernel_pools_config"]
    assert pools == {"default": {"pool_size": 0}, "flamme_rouge/02_energy_phase.ipynb": {"pool_size": 25}}
    assert settings["VoilaKernelManager"]["fill_delay"] == REFILL_DELAY_S
    assert "preheat_kernel" not in classroom_settings(base, 25, [])["VoilaConfiguration"]
    assert "VoilaKernelManager" not in base  # the shipped settings are not changed in place


def _status(url: str) -> int:
    """The status of a plain fetch of ``url`` (a link preview, curl): the whole page read, nothing run."""
    try:
        with urllib.request.urlopen(url, timeout=START_TIMEOUT_S) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_a_class_says_when_it_is_ready_and_plain_fetches_do_not_hold_places(site, tmp_path):
    """Class mode prints its preparation ("1/2 kernels ready for tiny") and when the class can come in; page
    fetches that never connect (curl, link previews) fill a class of 2 (2 + 2 pages) only until
    PAGE_CONNECT_TIMEOUT_S has passed: then a learner gets the lesson again, not the "class is full" page."""
    from tutor.server.class_mode import PAGE_CONNECT_TIMEOUT_S

    settings = json.loads((site.parent / "voila.json").read_text())
    settings["ClassroomVoila"] = {"pages_per_client": 0}  # the fetches stand for different devices
    (site.parent / "voila.json").write_text(json.dumps(settings))
    port = _free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tutor",
                "serve",
                str(site),
                f"--port={port}",
                "--class-size=2",
                "--lesson=tiny.ipynb",
                f"--class-db={tmp_path / 'class.sqlite3'}",
            ],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(
            lambda: "The class can come in:" in log_path.read_text() or process.poll() is not None,
            "the class preparation",
            START_TIMEOUT_S,
        )
        lines = [
            line for line in log_path.read_text().splitlines() if "ready for" in line or line.startswith("The class")
        ]
        assert lines == [
            "1/2 kernels ready for tiny",
            "2/2 kernels ready for tiny",
            "The class can come in: every lesson is ready.",
        ]
        lesson = f"http://127.0.0.1:{port}/voila/render/tiny.ipynb"
        assert _status(lesson) == 200
        first_sent = time.monotonic()  # the first page's connection time runs from (just before) here
        assert [_status(lesson) for _ in range(4)] == [200, 200, 200, 503]
        wait_for(lambda: _status(lesson) == 200, "a free place", PAGE_CONNECT_TIMEOUT_S + 120)
        assert time.monotonic() - first_sent >= PAGE_CONNECT_TIMEOUT_S - 1
        assert "never opened" in log_path.read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_a_class_hears_which_lesson_is_not_ready_and_why(site, tmp_path):
    """A lesson whose kernel cannot start (its program is missing) and a lesson that hangs: "The class can come
    in" is still said, naming both lessons and why; the good lesson is served."""
    kernel = tmp_path / "jupyter" / "kernels" / "missing"
    kernel.mkdir(parents=True)
    (kernel / "kernel.json").write_text(
        json.dumps(
            {"argv": ["/no/such/python", "-f", "{connection_file}"], "display_name": "Missing", "language": "python"}
        )
    )
    lessons = (
        ("broken", "missing", "print('ready')"),
        ("hung", "python3", "import threading\nthreading.Event().wait()"),
    )
    for name, kernel_name, code in lessons:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
        notebook.metadata["kernelspec"] = {"name": kernel_name, "display_name": kernel_name, "language": "python"}
        nbformat.write(notebook, site / f"{name}.ipynb")
    settings = json.loads((site.parent / "voila.json").read_text())
    settings["ClassroomVoila"] = {"prepare_timeout": 30}  # a hung lesson is reported after 30 s
    (site.parent / "voila.json").write_text(json.dumps(settings))
    port = _free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tutor",
                "serve",
                str(site),
                f"--port={port}",
                "--class-size=1",
                "--lesson=tiny.ipynb",
                "--lesson=broken.ipynb",
                "--lesson=hung.ipynb",
                f"--class-db={tmp_path / 'class.sqlite3'}",
            ],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")},
        )
    try:

        def verdicts() -> list[str]:
            return [line for line in log_path.read_text().splitlines() if line.startswith("The class can come in")]

        wait_for(lambda: verdicts() or process.poll() is not None, "the class preparation", START_TIMEOUT_S)
        lines = log_path.read_text().splitlines()
        assert "1/1 kernels ready for tiny" in lines
        assert any(line.startswith("A kernel for broken is not ready: its kernel did not start") for line in lines)
        assert (
            "A kernel for hung is not ready: it has not run its lesson after 30 s (a cell may be stuck or the "
            "machine too busy)" in lines
        )
        [verdict] = verdicts()
        assert verdict.startswith("The class can come in, but not every lesson is ready"), verdict
        assert "broken: 1 of 1 kernels not ready (its kernel did not start" in verdict
        assert "hung: 1 of 1 kernels not ready (it has not run its lesson after 30 s" in verdict
        assert "tiny" not in verdict
        assert _status(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb") == 200
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


# ----- class mode's pool preparation, on a stand-in for Voila's kernel manager ------------------------------


class _Renderer:
    """What ``_initialize`` returns as its renderer: the note ``voila_adapter`` leaves when cells did not run."""

    def __init__(self, unfinished: str | None) -> None:
        self.tutor_unfinished = unfinished


class _Manager:
    """Voila's kernel manager as the pool preparation sees it: pools of tasks, each starting a kernel with
    ``_initialize`` (a stand-in: ``outcomes[notebook]`` says, kernel after kernel, "ok", "hung" (its lesson
    never ends), "lost" (a cell's output never came), "broken" (the kernel does not start)), ``fill_if_needed``
    topping a pool up, and the kernels that run."""

    def __init__(self, loop, outcomes: dict[str, list[str]], sizes: dict[str, int]) -> None:
        self.loop, self.outcomes, self.sizes = loop, outcomes, sizes
        self.kernels: list[str] = []
        self.stopped: list[str] = []
        self.running_at_once = self.most_at_once = 0
        self._pools: dict[str, list] = {}

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        self.kernels.remove(kernel_id)
        self.stopped.append(kernel_id)

    hooks_pool_preparation = True  # as the class voila_adapter.prepare_pooled_kernels_through_a_hook makes
    tutor_prepare_pooled = None

    async def _initialize(self, notebook_name: str, kernel_id=None, **kwargs):
        if self.tutor_prepare_pooled is None:
            return await self._start(notebook_name)
        return await self.tutor_prepare_pooled(self._start, notebook_name)

    async def _start(self, notebook_name: str, kernel_id=None, **kwargs):
        outcome = self.outcomes[notebook_name].pop(0)
        self.running_at_once += 1
        self.most_at_once = max(self.most_at_once, self.running_at_once)
        try:
            await asyncio.sleep(0.05)
            if outcome == "broken":
                raise RuntimeError("Kernel died before replying to kernel_info")
            kernel = f"{notebook_name}-{len(self.kernels) + len(self.stopped) + 1}"
            self.kernels.append(kernel)
            run = self.loop.create_future()
            if outcome != "hung":
                run.set_result(([], None))
            renderer = _Renderer("cell 3 of 7 failed (TimeoutError)" if outcome == "lost" else None)
            return {"kernel_id": kernel, "task": run, "renderer": renderer}
        finally:
            self.running_at_once -= 1

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs) -> None:
        pool = self._pools.setdefault(notebook_name, [])
        for _ in range(self.sizes[notebook_name] - len(pool)):
            pool.append(self.loop.create_task(self._initialize(notebook_name)))


def _first_fill(outcomes: dict[str, list[str]], sizes: dict[str, int], at_once: int = 2, timeout_s: float = 1.0):
    """The class's preparation on the stand-in: the lines said, and the manager once "The class can come in"."""
    from tutor.server.class_mode import PoolPreparation

    lines: list[str] = []

    async def scenario():
        loop = asyncio.get_running_loop()
        manager = _Manager(loop, outcomes, sizes)
        for name in sizes:  # as Voila's constructor does: every pool is scheduled before the loop runs it
            manager.fill_if_needed(delay=0, notebook_name=name)
        preparation = PoolPreparation(manager, timeout_s, lines.append, at_once=at_once)
        preparation.report_first_fill()
        deadline = loop.time() + 60
        while not any(line.startswith("The class can come in") for line in lines) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        # The failed items' replacements and the stopped kernels' shutdowns: every other task has ended.
        while (pending := asyncio.all_tasks() - {asyncio.current_task()}) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        assert not pending, f"still running after the class came in: {pending}"
        return manager

    return asyncio.run(scenario()), lines


def test_a_pooled_kernel_whose_lesson_lost_its_output_is_stopped_and_another_one_prepared():
    """Issue 37: a class of 25 on a busy machine: a kernel whose cell's output came too late ran the lesson without
    its board. It is never handed to a page: it is stopped, and another kernel prepares in its place."""
    manager, lines = _first_fill({"a/lesson.ipynb": ["ok", "lost", "ok", "ok", "ok"]}, {"a/lesson.ipynb": 4})
    assert (
        "A kernel for lesson is not ready: the lesson did not run to its end (cell 3 of 7 failed "
        "(TimeoutError)); another one starts" in lines
    )
    assert lines[-1] == "The class can come in: every lesson is ready."
    assert "4/4 kernels ready for lesson" in lines
    assert manager.stopped == ["a/lesson.ipynb-2"]
    pool = manager._pools["a/lesson.ipynb"]
    assert len(pool) == 4 and all(item.done() and item.exception() is None for item in pool)
    assert "a/lesson.ipynb-2" not in [item.result()["kernel_id"] for item in pool]


def test_the_first_fill_prepares_as_many_kernels_at_once_as_it_is_told():
    """25 kernels started at once took two cores for a minute (issue 37): they take turns, ``at_once`` at a time."""
    manager, lines = _first_fill({"a/lesson.ipynb": ["ok"] * 6}, {"a/lesson.ipynb": 6}, at_once=2)
    assert manager.most_at_once == 2
    assert lines[-1] == "The class can come in: every lesson is ready."


def test_the_class_can_come_in_is_said_even_when_a_lesson_hangs_or_its_kernel_fails():
    """Each failing lesson is tried again once (a quarter of its pool, at least one), then reported with why; a
    hung kernel is stopped, and a failed one never stays in a pool (it would break Voila's shutdown_kernel)."""
    manager, lines = _first_fill(
        {"a/ok.ipynb": ["ok"], "b/hung.ipynb": ["hung", "hung"], "c/broken.ipynb": ["broken", "broken"]},
        {"a/ok.ipynb": 1, "b/hung.ipynb": 1, "c/broken.ipynb": 1},
    )
    assert "1/1 kernels ready for ok" in lines
    broken = (
        "A kernel for broken is not ready: its kernel did not start (RuntimeError: Kernel died before "
        "replying to kernel_info)"
    )
    assert lines.count(broken + "; another one starts") == 1 and lines.count(broken) == 1
    hung = (
        "A kernel for hung is not ready: it has not run its lesson after 1 s (a cell may be stuck or the "
        "machine too busy)"
    )
    assert lines.count(hung + "; another one starts") == 1 and lines.count(hung) == 1
    assert lines[-1].startswith("The class can come in, but not every lesson is ready")
    assert "hung: 1 of 1 kernels not ready" in lines[-1] and "broken: 1 of 1" in lines[-1] and "ok:" not in lines[-1]
    assert manager._pools["c/broken.ipynb"] == [] and manager._pools["b/hung.ipynb"] == []
    assert sorted(manager.stopped) == ["b/hung.ipynb-2", "b/hung.ipynb-3"]


def test_refills_take_turns_and_a_hung_lesson_passes_its_turn_on_after_the_timeout():
    from tutor.server.class_mode import PoolPreparation

    lines: list[str] = []
    started: list[tuple[str, float]] = []

    async def scenario():
        loop = asyncio.get_running_loop()
        manager = _Manager(loop, {"hung.ipynb": ["hung"], "ok.ipynb": ["ok", "ok"]}, {})
        start = manager._start

        async def noted(notebook_name, *args, **kwargs):
            started.append((notebook_name, loop.time()))
            return await start(notebook_name, *args, **kwargs)

        manager._start = noted
        preparation = PoolPreparation(manager, 1.0, lines.append, at_once=4, refill_at_once=1)
        preparation.first_fill = False  # the class has come in: these are refills
        began = loop.time()
        results = await asyncio.wait_for(
            asyncio.gather(
                *(asyncio.ensure_future(manager._initialize(name)) for name in ("hung.ipynb", "ok.ipynb", "ok.ipynb")),
                return_exceptions=True,
            ),
            30,
        )
        return began, results

    began, results = asyncio.run(scenario())
    assert type(results[0]).__name__ == "LessonNotReady"  # the hung kernel is never handed on
    assert [kernel["kernel_id"] for kernel in results[1:]] == ["ok.ipynb-2", "ok.ipynb-3"]
    assert [name for name, _ in started] == ["hung.ipynb", "ok.ipynb", "ok.ipynb"]
    assert started[1][1] - began >= 1.0  # the second waited for the first's timeout ...
    assert started[2][1] - started[1][1] >= 0.05  # ... and the third for the second's lesson
    assert lines == [
        (
            "A kernel for hung is not ready: it has not run its lesson after 1 s (a cell may be stuck "
            "or the machine too busy)"
        )
    ]


def test_the_door_keeps_only_the_pages_still_within_their_connection_time():
    """A page that connected keeps its kernel, one that never did loses it; afterwards the door keeps nothing
    (connections of kernels it does not watch are not kept either)."""
    from types import SimpleNamespace

    from tutor.server.class_mode import PageDoor

    shut_down: list[str] = []
    manager = SimpleNamespace(
        notify_connect=lambda kernel_id: None,
        list_kernel_ids=lambda: ["opened", "never"],
        shutdown_kernel=shut_down.append,
    )

    async def scenario():
        door = PageDoor(manager, 0.2)
        door.expect("opened")
        door.expect("never")
        manager.notify_connect("opened")  # a page may connect before it is fully sent
        manager.notify_connect("elsewhere")  # a kernel the door does not watch (a reconnect, say)
        door.watch("opened")
        door.watch("never")
        assert door.opened == {"opened": True, "never": False}
        deadline = asyncio.get_running_loop().time() + 30
        while (door.opened or not shut_down) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        return door

    door = asyncio.run(scenario())
    assert shut_down == ["never"]
    assert door.opened == {}


def test_a_page_left_before_it_was_sent_frees_its_place_at_once_and_the_door_forgets_it():
    """In a class, a pupil reloading a lesson while it still comes does not hold a place until the door's
    timeout: its kernel stops as soon as Voila is done with the page, and the door waits for no connection."""
    from types import SimpleNamespace

    from tutor.server.class_mode import ClassMode, PageDoor

    running, shut_down = ["left", "kept"], []

    def shutdown_kernel(kernel_id: str) -> None:
        shut_down.append(kernel_id)
        running.remove(kernel_id)

    manager = SimpleNamespace(
        notify_connect=lambda kernel_id: None,
        list_kernel_ids=lambda: list(running),
        shutdown_kernel=shutdown_kernel,
        start_kernel=lambda **kwargs: None,
    )

    async def scenario():
        door = PageDoor(manager, 60)
        class_mode = ClassMode(manager, max_kernels=2, preparation=None, door=door)
        door.expect("left")
        door.expect("kept")
        await class_mode.stop_unsent_page("left")
        await class_mode.stop_unsent_page("gone already")  # a kernel that stopped on its own: nothing to do
        return door, class_mode

    door, class_mode = asyncio.run(scenario())
    assert shut_down == ["left"] and running == ["kept"]
    assert door.opened == {"kept": False} and not class_mode.is_full()
