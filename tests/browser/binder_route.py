"""The Binder route, simulated: binder/environment.yml's pins in a scratch environment, binder/postBuild, then
``jupyter lab`` from the repository's top folder under a ``/user/<name>/`` base URL, as mybinder.org starts it.

There is no conda here: the environment is a venv of this Python with pip and the same pins, plus notebook 7 and
JupyterLab 4, which repo2docker adds to every environment. It is kept between runs in ``$RULES_TUTOR_BINDER_CACHE``
(default ``~/.cache/rules-tutor/binder``), one folder per hash of the pins, and built again when they change.
Used by tests/browser/test_binder.py and benchmarks/bench_course.py.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENVIRONMENT_YML = REPO / "binder" / "environment.yml"
ADDED_BY_REPO2DOCKER = ["notebook>=7,<8", "jupyterlab>=4,<5"]
USER = "learner"
BASE_URL = f"/user/{USER}/"
INSTALL_TIMEOUT_S = 900
START_TIMEOUT_S = 180
BADGE = re.compile(r"\(https://mybinder\.org/v2/gh/[^)]*\?urlpath=([^)\s]+)\)")


def pins() -> list[str]:
    """binder/environment.yml's pip requirements (``name==version``)."""
    found = re.findall(r"^\s*-\s*([A-Za-z0-9_.\-\[\]]+==[^\s#]+)", ENVIRONMENT_YML.read_text(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"no pins found in {ENVIRONMENT_YML}")
    return found


def badge_urlpath() -> str:
    """The path the README's Binder badge opens (its ``urlpath``), e.g. ``voila/render/lessons/index.ipynb``."""
    match = BADGE.search((REPO / "README.md").read_text())
    if match is None:
        raise RuntimeError("no Binder badge with a urlpath in README.md")
    return urllib.parse.unquote(match.group(1)).lstrip("/")


def cache_root() -> Path:
    return Path(os.environ.get("RULES_TUTOR_BINDER_CACHE") or Path.home() / ".cache" / "rules-tutor" / "binder")


def environment_key() -> str:
    text = "\n".join([sys.version.split()[0], *pins(), *ADDED_BY_REPO2DOCKER])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def clean_environment(prefix: Path | None = None) -> dict[str, str]:
    """This process's environment without what would make the scratch one import another tree or config."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONHOME")
    }
    if prefix is not None:
        env["VIRTUAL_ENV"] = str(prefix)
        env["PATH"] = f"{prefix / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(command: list[str], env: dict[str, str], log: Path, timeout_s: float) -> None:
    with log.open("ab") as out:
        out.write(f"$ {' '.join(command)}\n".encode())
        out.flush()
        done = subprocess.run(
            command,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=timeout_s,
            check=False,
        )
    if done.returncode:
        tail = "".join(log.read_text().splitlines(keepends=True)[-40:])
        raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}:\n{tail}")


def binder_environment(log: Path) -> Path:
    """The scratch environment's prefix with the Binder pins installed (built once per set of pins)."""
    prefix = cache_root() / environment_key()
    if (prefix / "complete").is_file():
        return prefix
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    env = clean_environment()
    _run([sys.executable, "-m", "venv", str(prefix)], env, log, INSTALL_TIMEOUT_S)
    python = str(prefix / "bin" / "python")
    _run([python, "-m", "pip", "install", "--no-input", *pins(), *ADDED_BY_REPO2DOCKER], env, log, INSTALL_TIMEOUT_S)
    _run([python, "-m", "pip", "check"], env, log, 120)
    (prefix / "complete").write_text("\n".join([*pins(), *ADDED_BY_REPO2DOCKER]) + "\n")
    return prefix


def post_build(prefix: Path, log: Path) -> None:
    """binder/postBuild, run from the repository's top folder with the scratch environment first on PATH."""
    _run(["bash", str(REPO / "binder" / "postBuild")], clean_environment(prefix), log, INSTALL_TIMEOUT_S)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class BinderServer:
    """``jupyter lab`` as Binder starts it (a token, a ``/user/<name>/`` base URL, the repository as its root),
    started in its own session and stopped by its PID (``stop``: SIGTERM, then SIGKILL for what is left)."""

    def __init__(self, prefix: Path, work: Path) -> None:
        self.prefix = prefix
        self.token = secrets.token_hex(16)
        self.port = _free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.url = self.origin + BASE_URL.rstrip("/")
        self.log_path = work / f"jupyter-lab-{self.port}.log"
        env = clean_environment(prefix)
        # A fresh user config folder and runtime folder: only the environment's settings (what postBuild wrote).
        env["JUPYTER_CONFIG_DIR"] = str(work / "user-config")
        env["JUPYTER_RUNTIME_DIR"] = str(work / "runtime")
        command = [
            str(prefix / "bin" / "jupyter"),
            "lab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.base_url={BASE_URL}",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={REPO}",
        ]
        if os.geteuid() == 0:  # CI runs as root; Binder does not
            command.append("--allow-root")
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.process.returncode}:\n{self.log()}")
            try:
                self.api("status")
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"jupyter lab did not answer in {START_TIMEOUT_S} s:\n{self.log()}") from None
                time.sleep(0.3)

    def link(self, path: str) -> str:
        """The address of ``path`` under the base URL, with the token (Binder's first link carries it)."""
        return f"{self.url}/{path.lstrip('/')}?token={self.token}"

    def api(self, path: str, method: str = "GET") -> object:
        import json

        request = urllib.request.Request(
            f"{self.url}/api/{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def kernels(self) -> list[str]:
        listed = self.api("kernels")
        assert isinstance(listed, list)
        return [str(model["id"]) for model in listed]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> dict[int, bytes]:
        """Stop the server (it shuts its kernels down) and whatever it started; returns what was still alive."""
        from tutor.server.process import descendants, stop

        started = descendants(self.process.pid)
        if self.process.poll() is None:
            stop(self.process)
        return {pid: began for pid, began in started.items() if _alive(pid, began)}


def _alive(pid: int, began: bytes) -> bool:
    from tutor.server.process import _start_time

    return _start_time(pid) == began


def start_binder(work: Path, server_settings: bool = True) -> BinderServer:
    """Build (or reuse) the environment, run postBuild, and start the server; logs go to ``work``.

    ``server_settings=False`` removes what postBuild wrote from tutor/server/server_settings.py (to compare with the
    Binder route before those settings: no culling, no kernel freed by a closing page)."""
    work.mkdir(parents=True, exist_ok=True)
    log = work / "binder-build.log"
    prefix = binder_environment(log)
    post_build(prefix, log)
    if not server_settings:
        from tutor.server.server_settings import jupyter_server_files

        for name in jupyter_server_files():
            (prefix / "etc" / "jupyter" / name).unlink(missing_ok=True)
    return BinderServer(prefix, work)
