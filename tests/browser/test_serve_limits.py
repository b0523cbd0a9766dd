"""A class on one server: a lesson opened from a preheated pool, and the "class is full" page beyond the limit.

The server runs with `rules-tutor serve --class-size`'s settings (``tutor.serve.classroom_settings``), on a folder
with one small lesson, so that the test does not depend on how heavy the real lessons are.
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

from tutor.serve import classroom_settings, stop, voila_command, write_settings

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
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


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """A Voila for a class of 1 with the lesson preheated, at most 1 page at once; yields (url, log path)."""
    root = tmp_path_factory.mktemp("class")
    lessons = root / "lessons"
    lessons.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lessons / LESSON)
    settings = classroom_settings(json.loads((REPO / "voila.json").read_text()), 1, [LESSON])
    settings["ClassroomVoila"]["max_kernels"] = 1  # no margin, to reach the limit with two pages
    config = write_settings(settings, root / "config")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = root / "voila.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen([*voila_command(lessons, port), "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
                                    f"--Voila.config_file_paths={config}"], cwd=root, stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while "Kernel pool of" not in log_path.read_text():  # the pooled kernel has run the lesson
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, f"the pool did not fill:\n{log_path.read_text()}"
            time.sleep(0.2)
        yield url, log_path
    finally:
        stop(process)


def test_preheated_lesson_then_class_full_page(page, class_server):
    from playwright.sync_api import expect

    url, log_path = class_server
    page.goto(f"{url}/voila/render/{LESSON}")
    page.wait_for_selector("#loading", state="hidden", timeout=30_000)
    assert "Using pre-heated kernel" in log_path.read_text()
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_text("1 clicks")).to_be_visible(timeout=10_000)

    # A second learner: the one kernel of this "class" is in use, and the pool refills only later.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{url}/voila/render/{LESSON}", timeout=10)
    assert refused.value.code == 503
    assert refused.value.headers["Retry-After"] == "60"
    second = page.context.new_page()
    second.goto(f"{url}/voila/render/{LESSON}")
    expect(second.get_by_role("heading", name="The class is full")).to_be_visible()
    expect(second.get_by_text("try again in a minute")).to_be_visible()
    expect(second.get_by_role("link", name="Try again")).to_be_visible()
    # The file tree is not a lesson: it still opens.
    assert urllib.request.urlopen(f"{url}/", timeout=10).status == 200
