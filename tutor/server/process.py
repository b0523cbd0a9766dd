"""The server process, seen from ``rules-tutor serve``: Voila's command line, its start and its stop.

Voila runs as a child process in its own session, so that a Ctrl+C in the terminal reaches only this parent,
which then stops Voila in order (``run``, ``stop``): SIGTERM (Voila shuts its kernels down and frees the port), a
wait of ``STOP_GRACE_S``, then SIGKILL for Voila's process group and for any kernel it started that is still
alive. On Linux the child also gets SIGTERM when this parent dies without cleaning up (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8866
STOP_GRACE_S = 6.0  # Voila's own shutdown (kernels included) takes 1-2 s; the port must be free within 10 s
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))


def lessons_dir() -> Path:
    """The lessons folder of a source checkout (the working directory's, else the package's parent's)."""
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        if (base / "lessons").is_dir():
            return base / "lessons"
    raise SystemExit("rules-tutor serve: no lessons/ folder found; run it from the repository's top folder")


def template_dir() -> Path:
    """The folder holding the ``rules-tutor`` Voila template (named in voila.json)."""
    return Path(__file__).resolve().parents[1] / "voila_template"


def voila_command(directory: Path, port: int, open_browser: bool = False) -> list[str]:
    """The Voila command line serving ``directory`` with the settings of ``voila.json`` in its parent folder.

    It runs Voila through ``python -m tutor.server`` (``class_mode.launch_voila``), which puts the project's
    template on Jupyter's data path first.
    """
    directory = directory.resolve()
    command = [
        sys.executable,
        "-m",
        "tutor.server",
        str(directory),
        f"--port={port}",
        f"--Voila.config_file_paths={directory.parent}",
    ]
    if not open_browser:
        command.append("--no-browser")
    return command


def kernel_data_dir() -> Path:
    """The folder holding the lessons' kernel spec (``kernels/python3``: ``tutor.server.kernel_launcher``, a
    kernel with a memory limit)."""
    return Path(__file__).resolve().parent / "jupyter_data"


def with_template_path(environment: dict[str, str]) -> dict[str, str]:
    """``environment`` with the project's template folder and the lessons' kernel spec first on Jupyter's data
    path (``JUPYTER_PATH``).

    Voila finds a template named ``T`` in ``<data path>/voila/templates/T``; ``tutor/voila_template`` holds
    ``voila/templates/rules-tutor``, the template voila.json names. A notebook's kernel ``python3`` is found in
    ``<data path>/kernels/python3``: ``tutor/server/jupyter_data`` holds the one that limits its memory.
    """
    environment = dict(environment)
    paths = [p for p in environment.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    for extra in (str(kernel_data_dir()), str(template_dir())):
        if extra not in paths:
            paths.insert(0, extra)
    environment["JUPYTER_PATH"] = os.pathsep.join(paths)
    return environment


def write_settings(settings: dict[str, Any], folder: Path) -> Path:
    """Write ``settings`` as ``folder/voila.json``; returns ``folder`` (for ``--Voila.config_file_paths``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "voila.json").write_text(json.dumps(settings, indent=2) + "\n")
    return folder


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
    process = subprocess.Popen(
        command, cwd=cwd, env=env, start_new_session=posix, preexec_fn=_die_with_parent if posix else None
    )
    try:
        for signum in STOP_SIGNALS:
            signal.signal(signum, _raise_stop)
        if hasattr(signal, "SIGUSR1"):  # a new link for the teacher's view (tutor.classroom): Voila prints it
            previous.setdefault(signal.SIGUSR1, signal.getsignal(signal.SIGUSR1))
            signal.signal(signal.SIGUSR1, lambda signum, frame: process.send_signal(signum))
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
