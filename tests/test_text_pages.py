"""Pages without a board (tutor.server.text_pages): marked in their metadata, rendered once, served without a kernel.

Each route is tried on a real server serving the repository's lessons: ``rules-tutor serve`` alone and with a class,
and Jupyter Server with the learner servers' settings (deploy/jupyterhub/singleuser, as on JupyterHub and Binder).
A kernel started is counted from the server's own log ("Kernel started"), before and after the pages are opened
at once; "the same page" is checked against the page Voila renders with a kernel (``?theme=light`` takes Voila's
own path), kernel ids aside.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tutor.server.text_pages import TextPages, needs_no_kernel, text_pages_in, why_not_kernel_free
from tutor.server.voila_adapter import NO_KERNEL_ID

REPO = Path(__file__).resolve().parents[1]
LESSONS = REPO / "lessons"
START_TIMEOUT_S = 240  # generous: the machine may be busy
GAME_TEXT_PAGES = [
    "flamme_rouge/00_welcome.ipynb",
    "flamme_rouge/rules_summary.ipynb",
    "flamme_rouge/rules_summary_peloton.ipynb",
    "flanders/00_welcome.ipynb",
    "flanders/rules_summary.ipynb",
]
TEXT_PAGES = [
    "index.ipynb",
    "teachers.ipynb",
    "ca/index.ipynb",
    "ca/teachers.ipynb",
    *GAME_TEXT_PAGES,
    *[f"ca/{page}" for page in GAME_TEXT_PAGES],
]
"""The English pages without a board, then the same pages in Catalan (lessons/ca/), the top folders' first."""
SERVED = text_pages_in(LESSONS)
"""What the route tests open: every marked page (the first test says which they are)."""
KERNEL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def test_the_landing_welcome_and_summary_pages_are_marked_and_no_lesson_is():
    assert text_pages_in(LESSONS) == TEXT_PAGES  # the landing page first: it is opened first
    for path in LESSONS.rglob("0[1-9]_*.ipynb"):
        assert not needs_no_kernel(json.loads(path.read_text())), path


@pytest.mark.parametrize("page", SERVED)
def test_a_marked_page_shows_no_widget_and_no_error(page):
    """What the page shows once its cells have run: HTML only, so the same page serves every learner."""
    notebook = nbformat.read(LESSONS / page, as_version=4)
    NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str((LESSONS / page).parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    if any(cell.cell_type == "code" for cell in notebook.cells):  # the teachers' page is markdown only
        assert outputs, "the page's lists and links are outputs"
    for output in outputs:
        assert output.output_type in ("display_data", "execute_result"), output
        assert "application/vnd.jupyter.widget-view+json" not in output.get("data", {}), output
        assert "text/html" in output.get("data", {})


def test_a_page_with_a_widget_or_an_error_is_refused_and_said_so(tmp_path):
    widget = (
        '<script type="application/vnd.voila.cell-output+json">{"data": '
        '{"application/vnd.jupyter.widget-view+json": {"model_id": "1"}}}</script>'
    )
    error = '<script type="application/vnd.voila.cell-output+json">{"ename": "X", "output_type": "error"}</script>'
    assert "widget" in (why_not_kernel_free(widget) or "")
    assert "failed" in (why_not_kernel_free(error) or "")
    assert why_not_kernel_free("<p>text</p>") is None

    for name in ("text", "widget"):
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {name}")])
        notebook.metadata["tutor"] = {"kernel": False}
        nbformat.write(notebook, tmp_path / f"{name}.ipynb")
    said: list[str] = []

    async def render(path: str) -> str:
        return widget if path == "widget.ipynb" else f"<p>{path}</p>"

    async def scenario() -> tuple[str | None, str | None, str | None]:
        pages = TextPages(tmp_path, render, said.append, wait_s=5)
        pages.start()
        return await pages.page("text.ipynb"), await pages.page("widget.ipynb"), await pages.page("other.ipynb")

    assert asyncio.run(scenario()) == ("<p>text.ipynb</p>", None, None)
    assert said == [
        "widget.ipynb is marked as needing no kernel, but it shows a widget, which needs a kernel: it is "
        "served with a kernel.",
        "Pages without a board ready, served without a kernel: 1",
    ]


def test_a_page_asked_for_is_rendered_next_and_an_edited_page_again(tmp_path):
    for name in ("a", "b", "c"):
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {name}")])
        notebook.metadata["tutor"] = {"kernel": False}
        nbformat.write(notebook, tmp_path / f"{name}.ipynb")
    order: list[str] = []

    async def render(path: str) -> str:
        order.append(path)
        await asyncio.sleep(0.05)
        return f"<p>{path} {(tmp_path / path).read_text().count('edited')}</p>"

    async def scenario() -> list[str | None]:
        pages = TextPages(tmp_path, render, lambda line: None, wait_s=5)
        pages.start()
        await asyncio.sleep(0)
        shown = [await pages.page("c.ipynb")]
        notebook = nbformat.read(tmp_path / "a.ipynb", as_version=4)
        notebook.cells[0].source = "# edited"
        nbformat.write(notebook, tmp_path / "a.ipynb")
        os.utime(tmp_path / "a.ipynb", (time.time() + 5, time.time() + 5))
        shown.append(await pages.page("a.ipynb"))
        return shown

    assert asyncio.run(scenario()) == ["<p>c.ipynb 0</p>", "<p>a.ipynb 1</p>"]
    assert order[:2] == ["a.ipynb", "c.ipynb"] and order.count("a.ipynb") == 2


def test_a_page_whose_rendering_hangs_is_given_up_and_served_with_a_kernel(tmp_path, monkeypatch):
    import tutor.server.text_pages

    monkeypatch.setattr(tutor.server.text_pages, "RENDER_TIMEOUT_S", 0.2)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("while True: pass")])
    notebook.metadata["tutor"] = {"kernel": False}
    nbformat.write(notebook, tmp_path / "stuck.ipynb")
    said: list[str] = []
    cancelled: list[str] = []

    async def render(path: str) -> str:
        try:
            await asyncio.sleep(60)
        finally:
            cancelled.append(path)  # where render_page_once shuts its kernel down
        return ""

    async def scenario() -> str | None:
        pages = TextPages(tmp_path, render, said.append, wait_s=5)
        pages.start()
        return await pages.page("stuck.ipynb")

    assert asyncio.run(scenario()) is None
    assert cancelled == ["stuck.ipynb"]
    assert said == [
        "stuck.ipynb is marked as needing no kernel, but it was not rendered in 0 s (a cell may be "
        "stuck): it is served with a kernel."
    ]


# ----- The routes, on real servers ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(condition, what: str, timeout_s: float = START_TIMEOUT_S):
    deadline = time.monotonic() + timeout_s
    while not (result := condition()):
        assert time.monotonic() < deadline, f"{what} did not happen in {timeout_s} s"
        time.sleep(0.3)
    return result


class Server:
    """A server process with its log, stopped by ``stop``."""

    def __init__(self, command: list[str], log_path: Path, url: str, env: dict[str, str] | None = None) -> None:
        self.log_path = log_path
        self.url = url
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kernels_started(self) -> int:
        return self.log().count("Kernel started")

    def get(self, path: str, opener=None) -> tuple[int, str, float]:
        """Status, page and seconds of a GET of ``path``."""
        start = time.monotonic()
        with (opener or urllib.request.build_opener()).open(self.url + path, timeout=START_TIMEOUT_S) as reply:
            return reply.status, reply.read().decode(), time.monotonic() - start

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _rules_tutor_serve(tmp_path: Path, *options: str) -> Server:
    port = _free_port()
    server = Server(
        [sys.executable, "-m", "tutor", "serve", str(LESSONS), f"--port={port}", *options],
        tmp_path / "serve.log",
        f"http://127.0.0.1:{port}",
    )
    _wait_for(
        lambda: "Pages without a board ready" in server.log() or server.process.poll() is not None,
        "the pages without a board rendered at start",
    )
    assert server.process.poll() is None, server.log()
    return server


def _open_at_once(server: Server, pages: list[str], learners: int) -> list[tuple[int, str, float]]:
    with concurrent.futures.ThreadPoolExecutor(learners) as pool:
        return list(pool.map(lambda page: server.get(f"/voila/render/{page}"), pages * learners))


def _assert_served_without_kernel(server: Server, learners: int = 5) -> dict[str, str]:
    """Every text page opened by ``learners`` at once: all served, the template's and the page's own parts there,
    and no kernel started. Returns each page once."""
    before = server.kernels_started()
    replies = _open_at_once(server, SERVED, learners)
    assert [status for status, _, _ in replies] == [200] * len(replies)
    assert server.kernels_started() == before, server.log()
    pages = dict(zip(SERVED, (page for _, page, _ in replies)))
    for name, page in pages.items():
        config = json.loads(re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)[1])
        assert config["kernelId"] == NO_KERNEL_ID, name
        assert "tutor-connection-lost" in page and "tutorConnection" in page, name  # the rules-tutor template
        if not name.endswith("teachers.ipynb"):  # markdown only (in Catalan too): nothing to record
            assert "rules-tutor-progress" in page, name  # the progress script
    for name in ("index.ipynb", "flamme_rouge/00_welcome.ipynb", "flanders/00_welcome.ipynb"):
        assert "data-lesson=" in pages[name] and "not started" in pages[name], name  # progress badges
    return pages


CONFIG = re.compile(r'(<script id="jupyter-config-data"[^>]*>)(.*?)(</script>)', re.S)


def same_page_but_the_kernel(served: str, own: str) -> None:
    """``served`` (rendered once) is Voila's ``own`` page (rendered with a kernel) but for the kernel it names and the
    JupyterLab extensions it loads (none: they are for widgets, which need a kernel)."""
    served_config, own_config = (json.loads(CONFIG.search(page)[2]) for page in (served, own))
    assert served_config.pop("kernelId") == NO_KERNEL_ID and served_config.pop("federated_extensions") == []
    assert KERNEL_ID.fullmatch(own_config.pop("kernelId")) and own_config.pop("federated_extensions")
    assert served_config == own_config
    assert CONFIG.sub("", served) == CONFIG.sub("", own)


def _assert_same_as_voilas_own(server: Server, page: str, served: str) -> None:
    """The page Voila renders with a kernel (its own path: ``?theme=light``)."""
    _, own, _ = server.get(f"/voila/render/{page}?theme=light")
    same_page_but_the_kernel(served, own)


def test_rules_tutor_serve_sends_the_pages_without_a_kernel(tmp_path):
    server = _rules_tutor_serve(tmp_path, "--no-next-lesson")  # kernels counted here are the pages' own
    try:
        assert server.kernels_started() == len(SERVED)  # one each, at start, shut down once rendered
        pages = _assert_served_without_kernel(server)
        _assert_same_as_voilas_own(server, "index.ipynb", pages["index.ipynb"])
        assert "RULES_TUTOR_CLASS" not in pages["index.ipynb"]
        before = server.kernels_started()
        status, lesson, _ = server.get("/voila/render/flamme_rouge/01_track_and_setup.ipynb")  # a board: a kernel
        assert status == 200 and NO_KERNEL_ID not in lesson and server.kernels_started() == before + 1
    finally:
        server.stop()


def test_a_class_gets_the_pages_without_a_kernel_and_beyond_its_places(tmp_path):
    """A class of 1 has 3 lesson pages at most; 5 learners opening every text page at once all get them, with the
    class's script and page cookie."""
    server = _rules_tutor_serve(tmp_path, "--class-size=1", f"--class-db={tmp_path / 'class.sqlite3'}")
    try:
        pages = _assert_served_without_kernel(server)
        assert all("RULES_TUTOR_CLASS" in page for page in pages.values())  # the name prompt, the pause overlay
        cookies = http.cookiejar.CookieJar()
        server.get(
            "/voila/render/flanders/00_welcome.ipynb",
            urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies)),
        )
        assert "rules_tutor_page" in {cookie.name for cookie in cookies}
        before = server.kernels_started()  # a pupil's ?theme= is dropped in class mode: the same page, no kernel
        _, themed, _ = server.get("/voila/render/flanders/00_welcome.ipynb?theme=dark")
        assert NO_KERNEL_ID in themed and server.kernels_started() == before

        # Closed by the teacher's Pace: not the page rendered once (the lesson page handler answers)
        token = re.search(r"teacher\?token=(\S+)", server.log())[1]
        closing = urllib.request.Request(
            f"{server.url}/rules-tutor/teacher/action",
            method="POST",
            data=json.dumps({"action": "pace", "closed": ["flamme_rouge/rules_summary.ipynb"]}).encode(),
            headers={"X-Teacher-Token": token},
        )
        urllib.request.urlopen(closing, timeout=60).close()
        _, closed, _ = server.get("/voila/render/flamme_rouge/rules_summary.ipynb")
        assert NO_KERNEL_ID not in closed
        assert NO_KERNEL_ID in server.get("/voila/render/flanders/rules_summary.ipynb")[1]
    finally:
        server.stop()


def test_a_learner_server_behind_jupyterhub_or_binder_sends_the_pages_without_a_kernel(tmp_path):
    """Jupyter Server with Voila as its extension and the learner servers' settings: each page is rendered when
    first asked for (one short-lived kernel, shut down), then served without one."""
    port = _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_PATH": str(REPO / "deploy/jupyterhub/singleuser"),
        "JUPYTER_PATH": str(REPO / "tutor/voila_template"),
    }
    server = Server(
        [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            f"--ServerApp.root_dir={LESSONS}",
        ],
        tmp_path / "server.log",
        f"http://127.0.0.1:{port}",
        env,
    )
    try:
        _wait_for(
            lambda: (
                "successfully loaded" in server.log()
                and "Jupyter Server" in server.log()
                and _answers(server.url + "/api/status")
            ),
            "the learner server",
        )
        assert "tutor.server.text_pages_extension | extension was successfully loaded" in server.log()
        _open_at_once(server, SERVED, 2)  # first asked for: rendered
        assert server.kernels_started() == len(SERVED)
        assert json.loads(server.get("/api/kernels")[1]) == []  # each shut down once its page was rendered
        pages = _assert_served_without_kernel(server)
        _assert_same_as_voilas_own(server, "index.ipynb", pages["index.ipynb"])
    finally:
        server.stop()


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=5).close()
        return True
    except OSError:
        return False


def test_binder_and_the_learner_servers_enable_the_server_extension(tmp_path):
    """Behind JupyterHub and on Binder, Voila is a Jupyter server extension: ours must be enabled beside it
    (binder/postBuild writes tutor.server.server_settings' files, the hub's singleuser folder holds the same)."""
    from tutor.server.server_settings import write_jupyter_config

    config = json.loads((REPO / "deploy/jupyterhub/singleuser/jupyter_server_config.json").read_text())
    assert config["ServerApp"]["jpserver_extensions"]["tutor.server.text_pages_extension"] is True
    assert "python -m tutor.server.server_settings" in (REPO / "binder/postBuild").read_text()
    write_jupyter_config(tmp_path)
    binder = json.loads((tmp_path / "jupyter_server_config.json").read_text())
    assert binder["ServerApp"]["jpserver_extensions"]["tutor.server.text_pages_extension"] is True
