"""The harness on a throwaway notebook: Voila runs it, Chromium paints its canvas and a click redraws it."""

from __future__ import annotations

from urllib.parse import urlsplit

import nbformat
import pytest
from voila_page import (
    canvas_fingerprint,
    canvas_painted_pixels,
    error_outputs,
    open_lesson,
    wait_for_canvas_change,
    wait_for_paint,
)

pytestmark = pytest.mark.browser

CANVAS_NOTEBOOK = """\
from ipycanvas import Canvas
from ipywidgets import Button, Layout

canvas = Canvas(width=300, height=200, layout=Layout(width="300px", height="200px"))
step = Button(description="Step")

def draw(*_):
    canvas.fill_style = "red"
    canvas.fill_rect(50, 50, 100, 80)

def draw_more(_):
    canvas.fill_style = "blue"
    canvas.fill_rect(200, 20, 20, 20)

canvas.on_client_ready(draw)  # drawn directly here, during Voila's run, the canvas would stay blank
step.on_click(draw_more)
display(canvas, step)
"""


def write_notebook(path, source: str) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, path)


@pytest.fixture(scope="module")
def site(voila_factory, tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("harness")
    write_notebook(root / "canvas.ipynb", CANVAS_NOTEBOOK)
    write_notebook(root / "failing.ipynb", "1 / 0")
    (root / "scenarios").mkdir()
    (root / "scenarios" / "demo.json").write_text('{"name": "demo"}')
    return voila_factory(root)


def test_canvas_drawn_on_client_ready_is_painted(page, page_errors, site):
    open_lesson(page, site, "canvas.ipynb")
    assert wait_for_paint(page) == 100 * 80
    assert error_outputs(page) == []
    assert page_errors == []


def test_a_click_redraws_the_canvas(page, page_errors, site):
    open_lesson(page, site, "canvas.ipynb")
    wait_for_paint(page)
    before = canvas_fingerprint(page)
    page.get_by_role("button", name="Step").click()
    assert wait_for_canvas_change(page, before) != before
    assert canvas_painted_pixels(page) == 100 * 80 + 20 * 20
    assert page_errors == []


def test_home_page_links_each_notebook_to_its_render_url(page, site):
    page.goto(site + "/")
    hrefs = [urlsplit(href).path for href in page.locator("a").evaluate_all("links => links.map(a => a.href)")]
    assert {"/voila/render/canvas.ipynb", "/voila/render/failing.ipynb"} <= set(hrefs)


def test_voila_json_is_honoured(page, site):
    open_lesson(page, site, "failing.ipynb", wait_for=None)
    # show_tracebacks: the error itself, not Voila's notice to rerun with --show_tracebacks.
    assert "ZeroDivisionError" in "\n".join(error_outputs(page))
    # file_allowlist: scenario files are served, notebooks are not.
    assert page.request.get(site + "/voila/files/scenarios/demo.json").json() == {"name": "demo"}
    assert page.request.get(site + "/voila/files/canvas.ipynb").status == 403
