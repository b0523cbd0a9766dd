"""Connection lost: when a lesson's kernel dies or is culled, the page says so in plain words, with a Reload button
that brings back a working lesson (the rules-tutor Voila template, tutor/voila_template)."""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from voila_page import (
    LOAD_TIMEOUT_MS,
    NO_BEFOREUNLOAD_JS,
    canvas_fingerprint,
    error_outputs,
    kernel_id,
    kernel_pid,
    open_lesson,
    wait_for_canvas_change,
    wait_for_paint,
)

pytestmark = pytest.mark.browser

LESSON = "flamme_rouge/02_energy_phase.ipynb"
REPO_LESSONS = Path(__file__).resolve().parents[2] / "lessons"
BANNER = "#tutor-connection-lost"
SHOWN_WITHIN_MS = 30_000  # generous: the machine may be busy
REQUEST_TIMEOUT_S = 60


def _open(page, base_url: str) -> str:
    open_lesson(page, base_url, LESSON)
    assert wait_for_paint(page), "the lesson's board did not paint"
    return kernel_id(page)


def _kernel_model(base_url: str, kernel: str) -> dict:
    with urllib.request.urlopen(f"{base_url}/api/kernels/{kernel}", timeout=REQUEST_TIMEOUT_S) as response:
        return json.loads(response.read())


def test_killed_kernel_shows_the_message_and_reload_brings_a_working_lesson(page, voila_server):
    from playwright.sync_api import expect

    kernel = _open(page, voila_server)
    assert page.locator(BANNER).count() == 0
    pid = kernel_pid(kernel)
    assert pid is not None, f"no process for kernel {kernel}"
    os.kill(pid, signal.SIGKILL)

    banner = page.locator(BANNER)
    expect(banner).to_be_visible(timeout=SHOWN_WITHIN_MS)
    expect(banner).to_contain_text("This lesson has stopped")
    expect(banner).to_contain_text("Reload the page")
    reload = banner.get_by_role("button", name="Reload")
    expect(reload).to_be_focused()

    reload.click()
    page.wait_for_selector("#loading", state="hidden", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector("canvas", state="visible", timeout=LOAD_TIMEOUT_MS)
    assert wait_for_paint(page), "the reloaded lesson did not paint"
    assert page.locator(BANNER).count() == 0
    new_kernel = kernel_id(page)
    assert new_kernel != kernel and kernel_pid(new_kernel) is not None
    # Working: a click goes to the new kernel and comes back as a new picture.
    race = page.locator(".tutor-race").first
    race.get_by_role("button", name="Draw 4 for red-S").click()
    first_card = race.locator(".tutor-card-button").first
    expect(first_card).to_be_enabled()
    before = canvas_fingerprint(page)
    first_card.click()
    assert wait_for_canvas_change(page, before) != before, "the reloaded board did not answer a click"
    assert _kernel_model(voila_server, new_kernel)["connections"] == 1


def test_culled_kernel_shows_the_message(page, voila_server):
    """Culling shuts the kernel down through the kernel manager, as a DELETE of /api/kernels/<id> does."""
    from playwright.sync_api import expect

    kernel = _open(page, voila_server)
    request = urllib.request.Request(f"{voila_server}/api/kernels/{kernel}", method="DELETE")
    try:
        urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT_S).close()
    except urllib.error.HTTPError as error:  # a server that wants an XSRF token for DELETE: shut it down by pid
        assert error.code == 403, error
        os.kill(kernel_pid(kernel), signal.SIGTERM)
    banner = page.locator(BANNER)
    expect(banner).to_be_visible(timeout=SHOWN_WITHIN_MS)
    expect(banner).to_contain_text("This lesson has stopped")
    expect(banner.get_by_role("button", name="Reload")).to_be_visible()


def test_a_page_that_closes_frees_its_kernel_through_the_xsrf_check(browser, voila_factory, voila_server):
    """Voila's page asks the server to shut its kernel down when it goes away (a beacon carrying the ``_xsrf``
    cookie's value); the lesson page sets that cookie, so the request passes the server's XSRF check.

    Its own context: Playwright drops a leaving page's beacon when request routing is on (the ``page`` fixture
    routes every request to block other hosts)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        kernel = _open(page, voila_server)
        assert any(cookie["name"] == "_xsrf" for cookie in context.cookies()), "the lesson page set no _xsrf cookie"
        _leave_and_wait_for_shutdown(page, voila_factory, voila_server, kernel, within_s=60)
    finally:
        context.close()


def test_a_page_left_without_beforeunload_frees_its_kernel_on_pagehide(browser, voila_factory, voila_server):
    """A tablet leaving a lesson for the next: Voila's shutdown beacon waits for beforeunload, which Safari on
    iOS never fires; the page sends the same request on pagehide, so the kernel (a class place) is freed at once,
    not 30 minutes later."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.add_init_script(NO_BEFOREUNLOAD_JS)
    try:
        page = context.new_page()
        kernel = _open(page, voila_server)
        # well within the test server's culler (90 s without a connection)
        log = _leave_and_wait_for_shutdown(page, voila_factory, voila_server, kernel, within_s=30)
        assert not [line for line in log.splitlines() if "Culling" in line and kernel in line], "culled, not shut down"
    finally:
        context.close()


def _leave_and_wait_for_shutdown(page, voila_factory, base_url: str, kernel: str, within_s: float) -> str:
    """Leave the page for a blank one (its leaving request goes), wait until its kernel is gone, and check that
    the request passed the XSRF check; returns the server's log."""
    page.goto("about:blank")
    deadline = time.monotonic() + within_s
    while _kernel_exists(base_url, kernel):
        assert time.monotonic() < deadline, f"the left page's kernel still runs:\n{voila_factory.log(base_url)}"
        time.sleep(0.2)
    log = voila_factory.log(base_url)
    assert f"403 POST /voila/api/shutdown/{kernel}" not in log
    return log


def _kernel_exists(base_url: str, kernel: str) -> bool:
    try:
        _kernel_model(base_url, kernel)
    except urllib.error.HTTPError as error:
        assert error.code == 404, error
        return False
    return True


# A kernel that dies before it answers (a port another process took, a machine out of memory): Voila's page handler
# loses that error and would keep the page on "loading" for ever.
FAILS_ONCE = """import os, sys
flag = sys.argv.pop(1)
if os.path.exists(flag):
    os.remove(flag)
    sys.exit(1)
from ipykernel import kernelapp
kernelapp.launch_new_instance()
"""
COULD_NOT_START = "could not start"


@pytest.fixture(scope="module")
def failing_kernels(tmp_path_factory, voila_factory):
    """A Voila serving the lesson twice: with a kernel that dies at its first start only, and with one that never
    starts. Returns its base URL and the flag whose removal shows that the first kernel died."""
    import sys

    root = tmp_path_factory.mktemp("failing-kernels")
    flag = root / "fail-the-next-start"
    script = root / "fails_once.py"
    script.write_text(FAILS_ONCE)
    kernels = {
        "fails-once": [sys.executable, str(script), str(flag), "-f", "{connection_file}"],
        "never-starts": [sys.executable, "-c", "raise SystemExit(1)", "{connection_file}"],
    }
    lessons = root / "lessons"
    notebook = json.loads((REPO_LESSONS / LESSON).read_text())
    for name, argv in kernels.items():
        spec = root / "jupyter" / "kernels" / name
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": name, "language": "python"}))
        notebook["metadata"]["kernelspec"] = {"name": name, "display_name": name, "language": "python"}
        (lessons / name).mkdir(parents=True)
        (lessons / name / Path(LESSON).name).write_text(json.dumps(notebook))
    url = voila_factory(lessons, {"JUPYTER_PATH": str(root / "jupyter")})
    return url, flag


def _failures(voila_factory, base_url: str, lesson: str) -> int:
    return sum(COULD_NOT_START in line and lesson in line for line in voila_factory.log(base_url).splitlines())


def test_a_lesson_whose_kernel_dies_before_answering_reloads_by_itself_and_works(page, voila_factory, failing_kernels):
    base_url, flag = failing_kernels
    flag.touch()
    page.goto(f"{base_url}/voila/render/fails-once/{Path(LESSON).name}", wait_until="commit")
    page.wait_for_selector("canvas", state="visible", timeout=LOAD_TIMEOUT_MS)
    assert wait_for_paint(page), "the reloaded lesson did not paint"
    assert error_outputs(page) == []
    assert not flag.exists(), "the first kernel did not die: the test tried nothing"
    assert _failures(voila_factory, base_url, "fails-once") == 1
    assert page.locator(BANNER).count() == 0
    assert page.evaluate("() => Object.keys(sessionStorage).filter(k => k.startsWith('rules-tutor-reloaded'))") == []


def test_a_lesson_that_cannot_start_says_so_after_one_reload(page, voila_factory, failing_kernels):
    from playwright.sync_api import expect

    base_url, _ = failing_kernels
    page.goto(f"{base_url}/voila/render/never-starts/{Path(LESSON).name}", wait_until="commit")
    banner = page.locator(BANNER)
    expect(banner).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(banner).to_contain_text("This lesson could not start")
    expect(banner).to_contain_text("tell your teacher")
    expect(banner.get_by_role("button", name="Reload")).to_be_focused()
    expect(page.locator("#loading")).to_be_hidden()  # no spinner saying the lesson is getting ready
    assert _failures(voila_factory, base_url, "never-starts") == 2  # the page's own start, then one reload
    log = voila_factory.log(base_url)
    failed = re.findall(r"starting new kernel client for kernel ([0-9a-f-]{36})", log)
    assert failed and all(f"Kernel shutdown: {kernel}" in log for kernel in failed), "a failed kernel was kept"
