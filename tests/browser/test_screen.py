"""One screen, one next step (issue 22), checked in the real page for Flamme Rouge: every game widget fits
1366x680 from the board's top to its lowest control, focus follows play (never the page body), the quiz verdict
is read in a live region, reduced motion draws the final frame at once, and on a narrow page the board shrinks to
its column (nothing scrolls sideways; tests/browser/test_fit.py checks every lesson at 768 and 1366 px)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

import pytest
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases, wait_for_no_animation

pytestmark = pytest.mark.browser

SCREEN = {"width": 1366, "height": 680}
"""A 1366x768 laptop screen, less the browser's bars."""
WIDGETS = ".tutor-race, .tutor-quiz, .tutor-breakaway"
FR_GAME_LESSONS = [
    f"flamme_rouge/{name}.ipynb"
    for name in (
        "01_track_and_setup",
        "02_energy_phase",
        "03_movement",
        "04_slipstream",
        "05_exhaustion",
        "06_mountains",
        "07_full_race",
        "08_narrow_roads_and_cobbles",
        "09_supply_zones",
        "10_the_breakaway",
        "11_peloton_and_muscle_teams",
        "12_twelve_single_riders",
    )
]
RESULT_TIMEOUT_S = 30

# For each game widget: from its board's top to the bottom of its lowest enabled, visible control (px).
SPANS_JS = """(selector) => [...document.querySelectorAll(selector)].filter(w => !w.parentElement.closest(selector))
  .map(widget => {
    const board = widget.querySelector('canvas') || widget;  // the energy quiz shows its cards as a table
    const controls = [...widget.querySelectorAll('button, select, input, textarea, summary, a[href]')].filter(e =>
        !e.disabled && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
    const top = board.getBoundingClientRect().top;
    const lowest = Math.max(...controls.map(e => e.getBoundingClientRect().bottom));
    const named = controls.find(e => e.getBoundingClientRect().bottom === lowest);
    return {kind: widget.className.match(/tutor-(race|quiz|breakaway)/)[1], span: Math.round(lowest - top),
            lowest: (named.innerText || named.value || named.tagName).trim().slice(0, 40)};
  })"""
# The focused element: its text (or tag), and whether it is the page body.
FOCUS_JS = """() => { const e = document.activeElement;
  return {body: !e || e === document.body, name: e ? (e.innerText || e.value || e.tagName).trim() : '',
          label: e ? e.getAttribute('aria-label') : null}; }"""


def spans(page) -> list[dict]:
    return page.evaluate(SPANS_JS, WIDGETS)


@contextmanager
def lesson(browser, base_url: str, notebook: str, size: dict = SCREEN, **options) -> Iterator:
    """A page of its own (``size``, ``options`` of ``new_context``) showing ``notebook``, its boards painted."""
    context = browser.new_context(viewport=size, **options)
    try:
        page = context.new_page()
        open_lesson(page, base_url, notebook)
        wait_for_canvases(page)
        wait_for_all_painted(page)
        yield page
    finally:
        context.close()


def wait_until(read, done, message: str, timeout_s: float = RESULT_TIMEOUT_S):
    """Poll ``read()`` until ``done(value)``; fail with ``message`` and the last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{message}; last: {value!r}")
        time.sleep(0.1)


def focus_on(page, name: str, widget) -> dict:
    """Wait until focus is on a control whose text starts with ``name`` inside ``widget`` (never the body)."""

    def read():
        now = page.evaluate(FOCUS_JS)
        now["inside"] = widget.evaluate("(w) => w.contains(document.activeElement)")
        return now

    return wait_until(
        read, lambda f: not f["body"] and f["inside"] and f["name"].startswith(name), f"focus never reached {name!r}"
    )


def press(page, widget, name: str) -> None:
    """Press the enabled button ``name`` of ``widget`` with the keyboard (focus it, then Enter)."""
    button = widget.locator("button:enabled", has_text=name).first
    button.focus()
    page.keyboard.press("Enter")


@pytest.mark.parametrize("notebook", FR_GAME_LESSONS, ids=lambda n: n.split("/")[1][:2])
def test_every_game_widget_fits_one_screen_from_its_board_to_its_lowest_control(browser, voila_server, notebook):
    with lesson(browser, voila_server, notebook) as page:
        measured = spans(page)
        print(notebook, measured)
        assert measured and all(m["span"] <= SCREEN["height"] for m in measured), measured


def test_focus_follows_play_in_a_prepared_position_and_a_quiz_reveal(browser, voila_server):
    """FR 05: Next step to the end of the round (focus on what comes next), then the quiz: Reveal, Try again."""
    with lesson(browser, voila_server, "flamme_rouge/05_exhaustion.ipynb") as page:
        race = page.locator(".tutor-race").first
        press(page, race, "Next step")
        focus_on(page, "Next step", race)
        press(page, race, "Finish round")
        focus_on(page, "Try another position", race)  # the position is done: what the prompt names next
        quiz = page.locator(".tutor-quiz").first
        quiz.locator(".widget-checkbox input").first.check()
        press(page, quiz, "Reveal")
        focus_on(page, "Try again", quiz)
        verdict = quiz.locator(".tutor-live[role='status'][aria-live='polite']")
        wait_until(
            verdict.inner_text,
            lambda text: "Right!" in text or "Not quite." in text,
            "the verdict is not in the quiz's live region",
        )
        assert "Exhausted:" in verdict.text_content()  # why, read to a screen reader (shown in the feedback)
        page.keyboard.press("Enter")  # Try again: a new position, focus on its first answer
        wait_until(
            lambda: page.evaluate("document.activeElement.type"),
            lambda t: t == "checkbox",
            "focus did not go to the first answer after Try again",
        )


def test_focus_follows_a_whole_round_of_a_race(browser, voila_server):
    """FR 07: Draw, a card (named for a screen reader), Draw, a card, Next step to the round's end, Start round 2."""
    with lesson(browser, voila_server, "flamme_rouge/07_full_race.ipynb") as page:
        race = page.locator(".tutor-race").first
        for rider in ("red-S", "red-R"):
            press(page, race, f"Draw 4 for {rider}")
            card = focus_on(page, "", race)
            card = wait_until(
                lambda: page.evaluate(FOCUS_JS),
                lambda f: (f["label"] or "").startswith("Play "),
                "focus is not on a card named 'Play n for rider'",
            )
            assert card["label"].endswith(f"for {rider}") and not card["body"]
            page.keyboard.press("Enter")
            focus_on(page, "Draw 4 for red-R" if rider == "red-S" else "Next step", race)
        start_round = race.locator("button:visible", has_text="Start round 2")
        deadline = time.monotonic() + 4 * RESULT_TIMEOUT_S
        while not start_round.count():  # Next step, a person's pace (closer presses are one double press)
            assert time.monotonic() < deadline, "the round never ended"
            page.keyboard.press("Enter")
            time.sleep(0.6)
            now = page.evaluate(FOCUS_JS)
            assert not now["body"] and now["name"].startswith(("Next step", "Start round 2")), now
        focus_on(page, "Start round 2", race)
        page.keyboard.press("Enter")
        focus_on(page, "Draw 4 for red-S", race)


def test_with_reduced_motion_the_final_frame_is_drawn_at_once(browser, voila_server):
    """The browser asks for reduced motion: the "No animation" setting is on, and Finish round's whole
    animation arrives as one picture (every change of the board within 0.3 s of the first)."""
    with lesson(browser, voila_server, "flamme_rouge/03_movement.ipynb", reduced_motion="reduce") as page:
        race = page.locator(".tutor-race").first
        motion = race.locator(".tutor-motion input")
        wait_until(motion.is_checked, bool, "the No animation setting was not switched on")
        canvas = race.locator("canvas").first
        page.evaluate(
            """(canvas) => {
            const hash = () => { const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height)
                .data; let h = 0; for (let i = 0; i < d.length; i += 97) h = (h * 31 + d[i]) | 0; return h; };
            window.tutorChanges = []; let last = hash();
            const watch = () => { const now = hash(); if (now !== last) { window.tutorChanges.push(performance.now());
                last = now; } requestAnimationFrame(watch); };
            requestAnimationFrame(watch); }""",
            canvas.element_handle(),
        )
        press(page, race, "Finish round")
        focus_on(page, "Try another position", race)  # the click's handler has run to its end
        wait_for_no_animation(page, race)  # and no frame of it is left to come
        wait_until(lambda: page.evaluate("window.tutorChanges.length"), lambda n: n > 0, "the board never changed")
        changes = page.evaluate("window.tutorChanges")
        assert changes[-1] - changes[0] <= 300, f"the board kept changing for {changes[-1] - changes[0]:.0f} ms"


def test_on_a_narrow_page_the_board_shrinks_to_its_column_and_nothing_scrolls_sideways(browser, voila_server):
    with lesson(browser, voila_server, "flamme_rouge/03_movement.ipynb", {"width": 360, "height": 740}) as page:
        race = page.locator(".tutor-race").first
        # The board lays itself out for its column: fewer squares, drawn at its own size (not shrunk).
        wait_until(
            lambda: race.evaluate("(w) => w.querySelector('canvas').width"),
            lambda pixels: pixels < 2 * 960,
            "the board was not laid out for its narrow column",
        )
        sizes = race.evaluate("""(w) => {
            const c = w.querySelector('canvas'), f = w.querySelector('.tutor-board-frame');
            const r = c.getBoundingClientRect();
            return {board: r.width, ratio: (r.height / r.width) / (c.height / c.width), pixels: c.width,
                    frame: f.getBoundingClientRect().right, scrolls: f.scrollWidth > f.clientWidth,
                    page: document.documentElement.scrollWidth}; }""")
        # The whole board is shown, smaller (its pixels and proportions kept), in a frame that does not scroll.
        assert sizes["board"] <= 360 and not sizes["scrolls"] and abs(sizes["ratio"] - 1) < 0.02, sizes
        assert abs(sizes["pixels"] - 2 * sizes["board"]) <= 2, sizes  # its text at its own size
        assert sizes["frame"] <= 360 and sizes["page"] <= 360, f"the page itself scrolls sideways: {sizes}"
        cut = race.evaluate("""(w) => [...w.querySelectorAll('button')].filter(b => b.getClientRects().length
            && (b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > 361)).map(b => b.innerText)""")
        assert cut == [], f"buttons cut: {cut}"


def test_speed_buttons_say_which_is_pressed_and_disclosures_whether_they_are_open(browser, voila_server):
    """The secondary row: Speed (aria-pressed), and the log, key and For teachers closed (aria-expanded)."""
    with lesson(browser, voila_server, "flamme_rouge/07_full_race.ipynb") as page:
        race = page.locator(".tutor-race").first
        speed = race.locator(".tutor-secondary .widget-toggle-buttons button")
        wait_until(
            lambda: speed.evaluate_all("(bs) => bs.map(b => b.getAttribute('aria-pressed'))"),
            lambda pressed: pressed == ["false", "true", "false"],
            "Speed has no aria-pressed",
        )
        race.get_by_role("button", name="Fast").click()
        wait_until(
            lambda: speed.evaluate_all("(bs) => bs.map(b => b.getAttribute('aria-pressed'))"),
            lambda pressed: pressed == ["false", "false", "true"],
            "aria-pressed did not follow Fast",
        )
        teachers = race.locator("button.tutor-disclosure", has_text="For teachers")
        assert teachers.get_attribute("aria-expanded") == "false"
        assert not race.get_by_text("Shuffle number").is_visible()  # a teacher's tool, out of the way
        assert race.locator("button.tutor-disclosure[aria-expanded='false']").count() >= 4  # words, log, key
        teachers.click()
        wait_until(
            lambda: teachers.get_attribute("aria-expanded"),
            lambda v: v == "true",
            "aria-expanded did not follow the opening",
        )
        # the button's class follows the click at once; the body it opens comes from the kernel, a moment later
        wait_until(lambda: race.get_by_text("Shuffle number").is_visible(), bool, "For teachers opened onto nothing")
        # the position code a learner types is in the row itself, not under "For teachers" (issue 37)
        assert not race.get_by_placeholder("Paste a position code", exact=False).is_visible()
        code = race.locator(".tutor-secondary button.tutor-disclosure", has_text="Open a position code")
        code.click()
        wait_until(
            lambda: race.get_by_placeholder("Paste a position code", exact=False).is_visible(),
            bool,
            "Open a position code did not show the code box",
        )
