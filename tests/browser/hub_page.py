"""A JupyterHub for tests and benchmarks: deploy/jupyterhub's config on free ports with a scratch state folder, and
helpers to log a learner in with Playwright and to see which processes the hub started.

The hub needs JupyterHub (the test extras) and configurable-http-proxy from npm (``scripts/test`` installs it
where npm is present); ``missing()`` says what is not there.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
HUB_CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PASSWORD = "lesson-time-42"
PROXY = "configurable-http-proxy"
PROXY_VERSION = "5.3.0"
PROXY_HINT = (
    f"install Node.js 20 and npm (apt-get install nodejs npm), then `npm install -g {PROXY}@{PROXY_VERSION}` "
    "(scripts/test does it when npm is present)"
)
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 40  # JupyterHub stops each learner server with SIGINT, then SIGTERM after 10 s
LOGIN_TIMEOUT_MS = 150_000  # the learner's server starts (a few seconds) and its first page runs a kernel


def proxy_command() -> str | None:
    """configurable-http-proxy on PATH, or where ``scripts/test`` puts it without root (~/.local/bin)."""
    return shutil.which(PROXY, path=os.pathsep.join([os.environ.get("PATH", ""), str(Path.home() / ".local/bin")]))


def missing() -> str | None:
    """What the hub cannot start without (with how to install it), or None."""
    if importlib.util.find_spec("jupyterhub") is None:
        return "JupyterHub is not installed: pip install -e '.[test]'"
    if shutil.which("node") is None or proxy_command() is None:
        return f"{PROXY} (Node.js) is not installed: {PROXY_HINT}"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def running(pid: int, started: bytes) -> bool:
    """Whether ``pid`` is still the process that started at ``started`` and has not exited (zombies have)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == started and fields[0] != b"Z"


class Hub:
    """``deploy/jupyterhub/jupyterhub_config.py`` run as a school would run it, on free ports of 127.0.0.1."""

    def __init__(self, state: Path, lessons: Path = REPO / "lessons") -> None:
        self.state = state
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = state.parent / f"{state.name}.log"
        self.left: dict[int, bytes] = {}
        command = [
            sys.executable,
            str(HUB_CONFIG),
            "--ip",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--hub-port",
            str(free_port()),
            "--proxy-api-port",
            str(free_port()),
            "--state",
            str(state),
            "--lessons",
            str(lessons),
            f"--ConfigurableHTTPProxy.command={proxy_command()}",
        ]
        environment = {**os.environ, "RULES_TUTOR_HUB_PASSWORD": PASSWORD}
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=state.parent,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited with {self.process.returncode}:\n{self.log()}")
            try:
                urllib.request.urlopen(f"{self.url}/hub/health", timeout=5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"the hub did not answer in {START_TIMEOUT_S} s:\n{self.log()}")
                time.sleep(0.2)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def processes(self) -> dict[int, bytes]:
        """Every process the hub started and that still runs (proxy, learner servers, kernels): pid -> start."""
        from tutor.server.process import descendants

        return descendants(self.process.pid)

    def stop(self) -> dict[int, bytes]:
        """SIGTERM to the hub's PID; returns the processes it started that were still running once it exited."""
        started = self.processes()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=STOP_TIMEOUT_S)
        deadline = time.monotonic() + 5  # a kernel notices its server is gone within a second or two
        while (left := {p: s for p, s in started.items() if running(p, s)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.left = left
        return left

    def kill(self) -> None:
        """Whatever is still running, by PID: the hub and what it started (after a failure; else nothing)."""
        targets = {**self.left, **(self.processes() if self.process.poll() is None else {})}
        if self.process.poll() is None:
            self.process.kill()
        for pid, started in targets.items():
            if running(pid, started):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()


def log_in(page: Page, hub_url: str, name: str, path: str = "hub/login") -> None:
    """Open ``hub_url/path`` and log in as ``name`` with the class's password; returns once the learner's server
    has sent its first page (the lessons' landing page, or where ``path`` leads after login)."""
    page.goto(f"{hub_url}/{path}")
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{name}/voila/render/**", timeout=LOGIN_TIMEOUT_MS)
    page.wait_for_selector("#loading", state="hidden", timeout=LOGIN_TIMEOUT_MS)


API_JS = """async ([url, method]) => {
    const token = /(?:^|;\\s*)_xsrf=([^;]*)/.exec(document.cookie);
    const response = await fetch(url, {method, headers: token ? {'X-XSRFToken': token[1]} : {}});
    return [response.status, response.status === 200 ? await response.json() : null];
}"""


def api(page: Page, url: str, method: str = "GET") -> tuple[int, object]:
    """[status, JSON body] of a Jupyter API request made by the page, as its own scripts make it (cookie and
    XSRF token)."""
    status, body = page.evaluate(API_JS, [url, method])
    return status, body
