"""The Binder route in a real browser (issue 29): the README badge's page under ``jupyter lab`` as Binder runs it.

binder_route.py builds a scratch environment from binder/environment.yml's pins (plus notebook 7 and JupyterLab 4,
as repo2docker adds them; cached between runs), runs binder/postBuild from the repository's top folder and starts
``jupyter lab`` with a ``/user/<name>/`` base URL. The pages must then behave as under ``rules-tutor serve``: a
lesson of each game paints where the renderer's geometry puts its pieces and a click moves them as the engine
does, a page that is left frees its kernel, a killed kernel shows the banner within 10 s, no request leaves
127.0.0.1 and the console shows no error. Everything started is stopped by its PID.

What this cannot check: the real repo2docker build (conda, its own base environment) and mybinder.org's launch.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from binder_route import BASE_URL, badge_urlpath, start_binder
from test_board_keeps_up import both
from test_flanders import close, laid_out, pixels
from test_flanders_board import _replayed_game, lesson_tutor
from test_lessons import lesson_widgets, wait_for_riders
from voila_page import LOAD_TIMEOUT_MS, error_outputs, kernel_id, kernel_pid, wait_for_paint

from tutor.flanders.render import PLAYER_COLOURS
from tutor.ui.drawing import hex_to_rgb

pytestmark = pytest.mark.browser

FLAMME_ROUGE = "flamme_rouge/02_energy_phase.ipynb"
FLANDERS = "flanders/02_a_turn.ipynb"
FLANDERS_CLICKS = [
    "Roll the dice",
    "1 + 2 = 3: take Infantry",
    "Roll again",
    "1 + 6 = 7: take Machine Gun",
    "Stop and carry out my cards",
    "Play Infantry: move 1",
]
BANNER = "#tutor-connection-lost"
BANNER_WITHIN_MS = 10_000
FREED_WITHIN_S = 30
MOVE_TIMEOUT_MS = 60_000  # a whole round's animation on a busy machine
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


@pytest.fixture(scope="module")
def binder(tmp_path_factory):
    """``jupyter lab`` on the Binder environment; stopped (with its kernels) by PID at the end."""
    work = tmp_path_factory.mktemp("binder")
    try:
        server = start_binder(work)
    except (OSError, RuntimeError) as error:  # no network for pip, most likely
        if IN_CI:
            raise
        pytest.skip(f"the Binder environment could not be built: {error}")
    yield server
    left = server.stop()
    print("".join(server.log().splitlines(keepends=True)[-40:]))
    assert left == {}, f"still running after the server stopped: {sorted(left)}"


class Learner:
    """A browser context that reaches only the Binder server and records what left and what the console said."""

    def __init__(self, browser, binder) -> None:
        self.binder = binder
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route(lambda url: not url.startswith(binder.origin + "/"), self._away)
        self.context.on("page", self._watch)
        self.page = self.context.new_page()

    def _away(self, route) -> None:
        self.outside.append(route.request.url)
        route.abort()

    def _watch(self, page) -> None:
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("console", lambda message: message.type == "error" and self.errors.append(f"console: {message.text}"))
        page.on(
            "websocket",
            lambda socket: (
                socket.url.startswith(self.binder.origin.replace("http", "ws", 1) + "/")
                or self.outside.append(socket.url)
            ),
        )

    def open(self, path: str, wait_for: str = "canvas") -> None:
        """Open ``path`` under the base URL as Binder's first link does (with the token), and wait for it."""
        self.page.goto(self.binder.link(path), timeout=LOAD_TIMEOUT_MS)
        self.page.wait_for_selector("#loading", state="hidden", timeout=LOAD_TIMEOUT_MS)
        self.page.wait_for_selector(wait_for, state="visible", timeout=LOAD_TIMEOUT_MS)

    def assert_clean(self) -> None:
        assert error_outputs(self.page) == []
        assert self.outside == [], "requests that left 127.0.0.1"
        assert self.errors == []


@pytest.fixture
def learner(browser, binder):
    learner = Learner(browser, binder)
    yield learner
    learner.context.close()


def lesson(notebook: str) -> str:
    return f"voila/render/lessons/{notebook}"


def test_the_badge_opens_the_landing_page_whose_links_stay_under_the_base_url(learner):
    learner.open(badge_urlpath(), wait_for="a[href$='.ipynb']")
    links = learner.page.eval_on_selector_all("a[href$='.ipynb']", "links => links.map(a => a.href)")
    assert len(links) > 10
    assert all(link.startswith(f"{learner.binder.origin}{BASE_URL}voila/render/lessons/") for link in links), links
    learner.assert_clean()


def test_a_flamme_rouge_lesson_paints_and_a_round_moves_the_riders_as_the_engine_does(learner):
    from playwright.sync_api import expect

    twin = lesson_widgets(FLAMME_ROUGE)[0]  # the same lesson built here: same seed, same race
    twin.debounce_s = 0
    learner.open(lesson(FLAMME_ROUGE))
    page, view = learner.page, twin.scene.view
    assert wait_for_paint(page)
    assert wait_for_riders(page, 0, view, twin.race) == {}, "riders not drawn where the renderer puts them"
    start = twin.race.positions()
    box = page.locator(".tutor-race").first
    for rider in ("red-S", "red-R"):
        both(page, box, twin.draw_buttons[rider])
        expect(box.locator(".tutor-card-button").first).to_be_enabled()
        both(page, box, twin.card_buttons[0])
        expect(box.locator(".tutor-log")).to_contain_text(f"{rider} plays")
    both(page, box, twin.finish_button)
    assert twin.race.positions() != start
    assert wait_for_riders(page, 0, view, twin.race, timeout_ms=MOVE_TIMEOUT_MS) == {}, (
        "after the round the board does not show the engine's positions"
    )
    learner.assert_clean()


def test_a_flanders_lesson_paints_and_a_played_card_moves_the_pawn_as_the_engine_does(learner):
    game = lesson_tutor("02_a_turn.ipynb").game
    moved = _replayed_game("02_a_turn.ipynb", FLANDERS_CLICKS)
    assert moved.players[0].pawn != game.players[0].pawn
    learner.open(lesson(FLANDERS))
    page = learner.page
    assert wait_for_paint(page)
    geo = laid_out(page, len(game.players))
    colour = hex_to_rgb(PLAYER_COLOURS[0])

    def pawn_shown(pawn: int, timeout_s: float) -> bool:
        x, y = geo.pawn_centre(0, pawn)
        deadline = time.monotonic() + timeout_s
        while not close(pixels(page, 0, geo, [(x - 9, y)])[0], colour) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        return close(pixels(page, 0, geo, [(x - 9, y)])[0], colour)

    assert pawn_shown(game.players[0].pawn, 30), "the pawn is not drawn where the renderer puts it"
    tutor = page.locator(".tutor-flanders").first
    from tutor.flanders.widgets import GameTutor

    for label in FLANDERS_CLICKS:
        if label == "Roll again":  # a second click of the roll button within debounce_s is a double click
            page.wait_for_timeout(GameTutor.debounce_s * 1000 + 50)
        tutor.get_by_role("button", name=label, exact=True).first.click()
    assert pawn_shown(moved.players[0].pawn, MOVE_TIMEOUT_MS / 1000), "the pawn did not move as the engine says"
    learner.assert_clean()


def test_leaving_a_lesson_frees_its_kernel(learner):
    binder = learner.binder
    learner.open(lesson(FLAMME_ROUGE))
    assert wait_for_paint(learner.page)
    kernel = kernel_id(learner.page)
    assert kernel in binder.kernels()
    learner.open(badge_urlpath(), wait_for="a[href$='.ipynb']")  # back to the landing page: the lesson closes
    deadline = time.monotonic() + FREED_WITHIN_S
    while kernel in binder.kernels() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kernel not in binder.kernels(), "the left lesson's kernel still runs"
    assert kernel_pid(kernel) is None
    assert "'_xsrf' argument missing" not in binder.log()
    learner.assert_clean()


def test_a_killed_kernel_shows_the_banner_with_reload_within_10_s(learner):
    from playwright.sync_api import expect

    learner.open(lesson(FLANDERS))
    assert wait_for_paint(learner.page)
    pid = kernel_pid(kernel_id(learner.page))
    assert pid is not None
    os.kill(pid, signal.SIGKILL)  # the kernel process crashes (out of memory, say)
    banner = learner.page.locator(BANNER)
    expect(banner).to_be_visible(timeout=BANNER_WITHIN_MS)
    expect(banner).to_contain_text("This lesson has stopped")
    expect(banner.get_by_role("button", name="Reload")).to_be_visible()
    learner.assert_clean()
