"""Real-browser harness: Voila serves notebooks, Playwright drives Debian's Chromium against them.

Without Chromium or Playwright these tests are skipped, except in CI (CI set), where they fail.
Helpers for reading the page are in voila_page.py.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tutor.server.process import voila_command

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT_S = 180  # generous: the machine may be busy
EXPECT_TIMEOUT_MS = 30_000
"""Playwright's ``expect`` waits this long for the state it checks (its default, 5 s, is short on a busy machine)."""
ACTION_TIMEOUT_MS = 60_000
"""A page's clicks, fills and waits without a timeout of their own (Playwright's default: 30 s)."""
# Requests to any other host are aborted: a lesson must not need the internet (Voila asks a CDN for fonts).
NOT_LOCAL = re.compile(r"^https?://(?!(localhost|127\.0\.0\.1)(:\d+)?/)")
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")
FREE_CLOSED_PAGES = ["--MappingKernelManager.cull_idle_timeout=90", "--MappingKernelManager.cull_interval=15"]
"""A closed test page's kernel is culled after 90 s without a connection (voila.json: 30 min, as for a learner).

Playwright closes a context without ``beforeunload``, and drops the page's leaving beacon where requests are
routed, so no test page asks Voila to shut its kernel down. A whole run starts about 220 kernels on the lessons'
server, of about 110 MB each: kept to the end, they fill this 24 GB machine, and lessons stop loading until the
30-minute culler frees them (a CI run lost 14 minutes of tests so). With this, at most about 40 run at once. A
page still open keeps its kernel: a connected kernel is never culled."""


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}: CI must run the browser tests")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class VoilaServers:
    """One Voila per served directory, started on first use with the repository's voila.json."""

    def __init__(self, log_dir: Path) -> None:
        self._log_dir = log_dir
        self._running: dict[Path, tuple[str, subprocess.Popen[bytes], Path]] = {}

    def __call__(self, directory: str | os.PathLike[str], environment: dict[str, str] | None = None) -> str:
        """The base URL (no trailing slash) of a Voila serving ``directory``, started with ``environment`` added
        to this process's (the first call for a directory decides)."""
        directory = Path(directory).resolve()
        if directory not in self._running:
            self._running[directory] = self._start(directory, environment or {})
        return self._running[directory][0]

    def log(self, url: str) -> str:
        """What the Voila at ``url`` and its kernels printed so far (tracebacks of widget callbacks land here)."""
        return next(log.read_text() for u, _, log in self._running.values() if u == url)

    def _start(self, directory: Path, environment: dict[str, str]) -> tuple[str, subprocess.Popen[bytes], Path]:
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        log_path = self._log_dir / f"voila-{port}.log"
        # The command of `rules-tutor serve`, made hermetic: only the repository's voila.json is read.
        command = [
            *voila_command(directory, port),
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            f"--Voila.config_file_paths={REPO}",
            *FREE_CLOSED_PAGES,
        ]
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command,
                cwd=REPO,
                env={**os.environ, **environment},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"Voila exited with {process.returncode}:\n{log_path.read_text()}")
            try:
                urllib.request.urlopen(url + "/", timeout=5).close()
                return url, process, log_path
            except OSError:
                if time.monotonic() > deadline:
                    self._stop(process)
                    raise RuntimeError(f"Voila did not answer in {START_TIMEOUT_S} s:\n{log_path.read_text()}")
                time.sleep(0.2)

    @staticmethod
    def _stop(process: subprocess.Popen[bytes]) -> None:
        process.terminate()  # on SIGTERM Voila shuts its kernels down
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop_all(self) -> None:
        for _, process, _ in self._running.values():
            self._stop(process)
        self._running.clear()


@pytest.fixture(scope="session")
def voila_factory(tmp_path_factory: pytest.TempPathFactory):
    """Call it with a directory to get the base URL of a Voila serving it; all are stopped at the end."""
    servers = VoilaServers(tmp_path_factory.mktemp("voila-logs"))
    yield servers
    servers.stop_all()


@pytest.fixture(scope="session")
def voila_server(voila_factory: VoilaServers) -> str:
    """Base URL of a Voila serving the repository's lessons/."""
    return voila_factory(LESSONS)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page_errors() -> list[str]:
    """JavaScript errors and console errors of the test's page, filled while the test runs."""
    return []


@pytest.fixture
def page(browser, page_errors: list[str]):
    """A fresh page that reaches only this machine and records its errors in ``page_errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    blocked: set[str] = set()

    def abort(route) -> None:
        blocked.add(route.request.url)
        route.abort()

    def on_console(message) -> None:
        # A blocked request shows up as a console error about that URL: not the page's fault.
        if message.type == "error" and message.location.get("url") not in blocked:
            page_errors.append(f"console: {message.text}")

    context.route(NOT_LOCAL, abort)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error}"))
    page.on("console", on_console)
    yield page
    context.close()  # closing does not run the page's unload handler: its kernel lives until its server stops
