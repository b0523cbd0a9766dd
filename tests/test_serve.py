"""`rules-tutor serve` stops with its server: SIGTERM, Ctrl+C (SIGINT) or the parent's death stop Voila and its
kernels and free the port within 10 s."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tutor.serve import descendants

REPO = Path(__file__).resolve().parents[1]
STOP_WITHIN_S = 10
START_TIMEOUT_S = 60

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
    process = subprocess.Popen([sys.executable, "-m", "tutor", "serve", str(site), f"--port={port}"],
                               cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
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
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb", timeout=60).read()
        assert b"ready" in page
        kernels = sorted(set(descendants(process.pid)) & set(_processes_naming("ipykernel")))
        assert kernels, "no kernel process below the server"
    return process, port, kernels


def _assert_all_stopped(process: subprocess.Popen[bytes] | None, port: int, kernels: list[int]) -> None:
    deadline = time.monotonic() + STOP_WITHIN_S
    while time.monotonic() < deadline:
        running = process is not None and process.poll() is None
        if not running and not _answers(port) and not _processes_naming(f"--port={port}") \
                and not any(Path(f"/proc/{pid}").exists() for pid in kernels):
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


def test_voila_json_names_the_project_template():
    """The template exists where serve puts it on Jupyter's data path (the browser tests check what it does)."""
    from tutor.serve import template_dir

    name = json.loads((REPO / "voila.json").read_text())["VoilaConfiguration"]["template"]
    assert (template_dir() / "voila" / "templates" / name / "index.html.j2").is_file()


def test_classroom_settings_pool_the_named_lessons_and_limit_the_class():
    from tutor.serve import REFILL_DELAY_S, classroom_settings

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
