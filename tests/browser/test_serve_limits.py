"""A class on one server: a lesson opened from a preheated pool, and the "class is full" page beyond the limit.

The server runs with `rules-tutor serve --class-size`'s settings (``tutor.server.class_mode.classroom_settings``), on a
folder with one small lesson, so that the test does not depend on how heavy the real lessons are.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

from voila_page import NO_BEFOREUNLOAD_JS

from tutor.server.class_mode import PAGES_PER_CLIENT, classroom_settings

from tutor.server.process import stop, voila_command, write_settings

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 180  # generous: the machine may be busy
LESSON = "tiny.ipynb"
CODE = """import ipywidgets as widgets
button = widgets.Button(description="Count")
label = widgets.Label("0 clicks")
def count(_):
    label.value = f"{int(label.value.split()[0]) + 1} clicks"
button.on_click(count)
widgets.HBox([button, label])"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_class(root: Path, max_kernels: int, *extra: str):
    """A Voila for a class of 1 with the lesson preheated and at most ``max_kernels`` pages at once; a generator
    yielding (url, log path) once the pool has run the lesson, and stopping the server after."""
    lessons = root / "lessons"
    lessons.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lessons / LESSON)
    settings = classroom_settings(json.loads((REPO / "voila.json").read_text()), 1, [LESSON])
    settings["ClassroomVoila"]["max_kernels"] = max_kernels
    config = write_settings(settings, root / "config")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = root / "voila.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                *voila_command(lessons, port),
                "--Voila.ip=127.0.0.1",
                "--Voila.port_retries=0",
                f"--Voila.config_file_paths={config}",
                *extra,
            ],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + WAIT_S
        while "Kernel pool of" not in log_path.read_text():  # the pooled kernel has run the lesson
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, f"the pool did not fill:\n{log_path.read_text()}"
            time.sleep(0.2)
        yield url, log_path
    finally:
        stop(process)


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """A class of 1 and at most 1 page at once (no margin, to reach the limit with two pages)."""
    yield from _start_class(tmp_path_factory.mktemp("class"), 1)


CONNECT_TIMEOUT_S = 45  # long enough for a busy machine's browser to open the page and connect


@pytest.fixture
def door_server(tmp_path_factory):
    """Two pages at once; a page that has not connected within CONNECT_TIMEOUT_S frees its kernel."""
    yield from _start_class(
        tmp_path_factory.mktemp("door"), 2, f"--ClassroomVoila.page_connect_timeout={CONNECT_TIMEOUT_S}"
    )


def test_preheated_lesson_then_class_full_page(page, class_server):
    from playwright.sync_api import expect

    url, log_path = class_server
    page.goto(f"{url}/voila/render/{LESSON}")
    page.wait_for_selector("#loading", state="hidden", timeout=WAIT_S * 1000)
    assert "Using pre-heated kernel" in log_path.read_text()
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_text("1 clicks")).to_be_visible()

    # A second learner: the one kernel of this "class" is in use, and the pool refills only later.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{url}/voila/render/{LESSON}", timeout=WAIT_S)
    assert refused.value.code == 503
    assert refused.value.headers["Retry-After"] == "60"
    second = page.context.new_page()
    second.goto(f"{url}/voila/render/{LESSON}")
    expect(second.get_by_role("heading", name="The class is full")).to_be_visible()
    expect(second.get_by_text("try again in a minute")).to_be_visible()
    expect(second.get_by_role("link", name="Try again")).to_be_visible()
    # The file tree is not a lesson: it still opens.
    assert urllib.request.urlopen(f"{url}/", timeout=WAIT_S).status == 200


def test_a_fetch_that_never_connects_frees_its_place_and_a_real_page_keeps_its_own(page, door_server):
    """The classroom's door (issue 16): a plain fetch (curl, a link preview) holds a place only until the
    connection timeout; the learner's page, which connected, keeps its kernel past that time."""
    from playwright.sync_api import expect

    url, log_path = door_server
    lesson = f"{url}/voila/render/{LESSON}"
    page.goto(lesson)
    page.wait_for_selector("#loading", state="hidden", timeout=WAIT_S * 1000)
    expect(page.get_by_role("button", name="Count")).to_be_visible(timeout=WAIT_S * 1000)  # it has connected
    with urllib.request.urlopen(lesson, timeout=WAIT_S) as fetch:  # a fetch that reads the page, never connects
        assert fetch.status == 200 and fetch.read()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(lesson, timeout=WAIT_S)
    assert refused.value.code == 503  # both places are taken ...
    deadline = time.monotonic() + CONNECT_TIMEOUT_S + WAIT_S
    while "never opened" not in log_path.read_text():  # ... until the fetch's kernel is released
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.5)
    assert log_path.read_text().count("never opened") == 1  # the browser's page (fetched first) kept its kernel
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_text("1 clicks")).to_be_visible()
    assert urllib.request.urlopen(lesson, timeout=WAIT_S).status == 200  # the freed place takes a learner again


@pytest.fixture
def roomy_class(tmp_path_factory):
    """Room for twice a device's share of pages: only the device's own limit can refuse one."""
    yield from _start_class(tmp_path_factory.mktemp("roomy"), 2 * PAGES_PER_CLIENT)


def test_a_tablet_going_from_lesson_to_lesson_is_never_told_its_device_is_full(browser, roomy_class):
    """Safari on an iPad never fires beforeunload, where Voila frees a left page's kernel; the page frees it on
    pagehide instead. Without that, the tablet's next lesson beyond its share of pages was refused (the
    device-full page) until the left kernels were culled, 30 minutes later."""
    from playwright.sync_api import expect

    url, _ = roomy_class
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.add_init_script(NO_BEFOREUNLOAD_JS)
    try:
        page = context.new_page()
        for visit in range(PAGES_PER_CLIENT + 2):
            page.goto(f"{url}/voila/render/{LESSON}")
            page.wait_for_selector("#loading", state="hidden", timeout=WAIT_S * 1000)
            count = page.get_by_role("button", name="Count")
            expect(count, f"visit {visit + 1}: {page.locator('h1').all_inner_texts()}").to_be_visible(
                timeout=WAIT_S * 1000
            )
            count.click()
            expect(page.get_by_text("1 clicks")).to_be_visible()  # a live lesson, with a kernel of its own
    finally:
        context.close()
