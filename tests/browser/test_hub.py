"""The lessons on JupyterHub (deploy/jupyterhub), as a school runs them: two learners log in (one through a link to
a lesson), each opens one lesson of each game on a server of their own, and neither can reach the other's; a kernel
shut down through the API shows the "lesson has stopped" banner (here and on the standalone server); a stopped
learner server says so on its open pages and starts again from a link to a lesson; the hub stopped by its PID
leaves no process.

Needs JupyterHub and configurable-http-proxy (npm): without them the test is skipped, or fails in CI (CI set).
"""

from __future__ import annotations

import os
import time
import urllib.request

import pytest
from hub_page import Hub, api, log_in, missing
from voila_page import (
    ERROR_SELECTOR,
    canvas_fingerprint,
    error_outputs,
    kernel_id,
    kernel_pid,
    open_lesson,
    wait_for_canvas_change,
    wait_for_paint,
)

pytestmark = pytest.mark.browser

FLAMME_ROUGE = "flamme_rouge/02_energy_phase.ipynb"
FLANDERS = "flanders/02_a_turn.ipynb"
LEARNERS = ("alice", "bob")
BANNER = "#tutor-connection-lost"
BANNER_WITHIN_MS = 10_000
PAGE_TIMEOUT_MS = 120_000
CLICK_TIMEOUT_MS = 30_000  # generous: the machine may be busy
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


@pytest.fixture
def hub(tmp_path):
    problem = missing()
    if problem:
        if IN_CI:
            pytest.fail(f"{problem}: CI must run the hub test")
        pytest.skip(problem)
    hub = Hub(tmp_path / "state")
    yield hub
    hub.kill()  # what a failed test left running
    lines = [line for line in hub.log().splitlines(keepends=True) if "no_track_activity" not in line]
    print("".join(lines[-150:]))  # the pages' status polls left out: what a failure needs is the rest


def _learner(browser, hub: Hub, outside: list[str], errors: list[str]):
    """A browser context of its own (its own cookies and storage) that reaches only the hub."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def away(route) -> None:
        outside.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith(hub.url + "/"), away)
    context.on("page", lambda page: page.on("pageerror", lambda error: errors.append(f"pageerror: {error}")))
    return context


def _click_changes_the_board(page, lesson: str) -> bool:
    """Click the lesson's first move and whether the canvas changed."""
    from playwright.sync_api import expect

    if lesson == FLAMME_ROUGE:
        race = page.locator(".tutor-race").first
        race.get_by_role("button", name="Draw 4 for red-S").click()
        control = race.locator(".tutor-card-button").first
        expect(control).to_be_enabled(timeout=CLICK_TIMEOUT_MS)
    else:
        control = page.locator(".tutor-flanders").first.get_by_role("button", name="Roll the dice")
    before = canvas_fingerprint(page)
    control.click()
    return wait_for_canvas_change(page, before, timeout_ms=CLICK_TIMEOUT_MS) != before


def _kernel_owner(kernel: str) -> str | None:
    """The JupyterHub user whose server started the kernel process (from the environment it inherited)."""
    pid = kernel_pid(kernel)
    if pid is None:
        return None
    with open(f"/proc/{pid}/environ", "rb") as environ:
        variables = dict(item.split(b"=", 1) for item in environ.read().split(b"\0") if b"=" in item)
    return variables.get(b"JUPYTERHUB_USER", b"").decode() or None


def test_two_learners_each_on_their_own_server(browser, hub, tmp_path):
    from playwright.sync_api import expect

    outside: list[str] = []
    errors: list[str] = []
    contexts = {name: _learner(browser, hub, outside, errors) for name in LEARNERS}
    pages = {}
    try:
        # alice logs in at the hub's front door and lands on the lessons page; bob follows a teacher's link to
        # a lesson, logs in, and his server starts by itself (implicit_spawn_seconds) and opens that lesson.
        alice = contexts["alice"].new_page()
        log_in(alice, hub.url, "alice")
        assert alice.url == f"{hub.url}/user/alice/voila/render/index.ipynb"
        bob = contexts["bob"].new_page()
        log_in(bob, hub.url, "bob", path=f"hub/user-redirect/voila/render/{FLANDERS}")
        assert bob.url == f"{hub.url}/user/bob/voila/render/{FLANDERS}"
        pages[("bob", FLANDERS)] = bob
        for name, lesson in [("alice", FLAMME_ROUGE), ("alice", FLANDERS), ("bob", FLAMME_ROUGE)]:
            page = contexts[name].new_page()
            page.goto(f"{hub.url}/user/{name}/voila/render/{lesson}", wait_until="commit")
            pages[(name, lesson)] = page

        kernels = {}
        for (name, lesson), page in pages.items():
            expect(page.locator("#loading"), f"{name}'s {lesson} is still loading").to_be_hidden(
                timeout=PAGE_TIMEOUT_MS
            )
            page.wait_for_selector(f"canvas, {ERROR_SELECTOR}", state="visible", timeout=PAGE_TIMEOUT_MS)
            assert error_outputs(page) == [], (name, lesson)
            assert wait_for_paint(page, timeout_ms=30_000), f"{name}'s {lesson} did not paint"
            assert _click_changes_the_board(page, lesson), f"{name}'s {lesson}: a click did not change the board"
            kernels[(name, lesson)] = kernel_id(page)
        pages[("alice", FLAMME_ROUGE)].screenshot(path=tmp_path / "alice-flamme-rouge.png")

        # Each lesson has a kernel of its own, started by its learner's server.
        assert len(set(kernels.values())) == len(kernels), kernels
        for (name, lesson), kernel in kernels.items():
            status, listed = api(pages[(name, lesson)], f"/user/{name}/api/kernels")
            assert status == 200 and kernel in [model["id"] for model in listed], (name, lesson, status)
            assert _kernel_owner(kernel) == name, (name, lesson)

        # Neither learner reaches the other's server, by page or by API.
        bob_lesson = pages[("bob", FLAMME_ROUGE)]
        assert api(bob_lesson, "/user/alice/api/kernels")[0] == 403
        snooping = contexts["bob"].new_page()
        assert snooping.goto(f"{hub.url}/user/alice/voila/render/index.ipynb").status == 403
        snooping.close()

        # Progress is kept per learner's server.
        alice_lesson = pages[("alice", FLAMME_ROUGE)]
        alice_lesson.wait_for_function("() => 'rules-tutor-progress /user/alice/' in localStorage", timeout=10_000)

        # A kernel shut down through the API (as culling does) shows the banner; the other lessons go on.
        assert api(alice_lesson, f"/user/alice/api/kernels/{kernels[('alice', FLAMME_ROUGE)]}", "DELETE")[0] == 204
        banner = alice_lesson.locator(BANNER)
        expect(banner).to_be_visible(timeout=BANNER_WITHIN_MS)
        expect(banner).to_contain_text("This lesson has stopped")
        expect(banner.get_by_role("button", name="Reload")).to_be_visible()
        for key, page in pages.items():
            if key != ("alice", FLAMME_ROUGE):
                assert page.locator(BANNER).count() == 0, key

        # A learner whose server has stopped (culled, or stopped on the hub's home page) follows a link to a lesson
        # at their own address: the hub starts the server by itself (implicit_spawn_seconds) and opens the lesson.
        home = contexts["bob"].new_page()
        home.goto(f"{hub.url}/hub/home")
        home.click("#stop")
        lesson_url = f"{hub.url}/user/bob/voila/render/{FLAMME_ROUGE}"
        stopped = f"{hub.url}/hub/user/bob/voila/render/{FLAMME_ROUGE}"  # 424 once the server has stopped
        deadline = time.monotonic() + 60
        while home.evaluate("url => fetch(url, {redirect: 'manual'}).then(r => r.status)", stopped) != 424:
            assert time.monotonic() < deadline, "bob's server did not stop within 60 s"
            home.wait_for_timeout(250)
        expect(bob_lesson.locator(BANNER)).to_contain_text("cannot be reached", timeout=BANNER_WITHIN_MS)
        home.goto(lesson_url)
        home.wait_for_url(lambda url: url.startswith(lesson_url), timeout=PAGE_TIMEOUT_MS, wait_until="commit")
        home.wait_for_selector("canvas", state="visible", timeout=PAGE_TIMEOUT_MS)
        assert wait_for_paint(home, timeout_ms=30_000), "the lesson opened by its link did not paint"

        assert outside == [], "requests that left the hub"
        assert errors == []
    finally:
        for context in contexts.values():
            context.close()

    left = hub.stop()  # SIGTERM to its PID; fails if it has not exited within STOP_TIMEOUT_S
    assert left == {}, f"still running after the hub stopped: {sorted(left)}"


def test_a_kernel_shut_down_through_the_api_shows_the_banner_standalone(page, voila_server):
    """The same shutdown on ``rules-tutor serve``'s Voila (no hub)."""
    from playwright.sync_api import expect

    open_lesson(page, voila_server, FLAMME_ROUGE)
    assert wait_for_paint(page), "the lesson did not paint"
    kernel = kernel_id(page)
    assert kernel_pid(kernel) is not None
    # The page has no XSRF cookie here: send a matching cookie and header, as any API client may.
    request = urllib.request.Request(
        f"{voila_server}/api/kernels/{kernel}",
        method="DELETE",
        headers={"Cookie": "_xsrf=test-token", "X-XSRFToken": "test-token"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 204
    banner = page.locator(BANNER)
    expect(banner).to_be_visible(timeout=BANNER_WITHIN_MS)
    expect(banner).to_contain_text("This lesson has stopped")
    expect(banner.get_by_role("button", name="Reload")).to_be_visible()
    assert kernel_pid(kernel) is None  # shut down, not merely disconnected
