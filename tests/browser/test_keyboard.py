"""Keyboard only: one lesson of each game is played with Tab, Enter, Space and the arrow keys, to its quiz and
its answer, on the real page (then axe-core checks the page with its feedback). Tab visits every control in page
order, and the control with the focus shows a focus ring; each widget's one live region says what each step changed,
and the board in words follows it."""

from __future__ import annotations

import pytest
from test_accessibility import BLOCKING, axe_violations, describe
from test_lessons import lesson_widgets
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases

from tutor.flamme_rouge.widgets import PredictQuiz, RaceTutor
from tutor.flanders.widgets import FlandersQuiz

pytestmark = pytest.mark.browser

MAX_TABS = 300
RESULT_TIMEOUT_MS = 20_000

# Every control Tab may stop at, in page order, numbered in ``data-kb``; returns how many.
_NUMBER_TABBABLE_JS = """() => {
    const selector = 'button, select, input, textarea, a[href], summary, [tabindex]';
    // Inside a closed <details> only its summary is reachable (Chromium still gives the rest a box).
    const folded = e => e.closest('details:not([open])') && !e.closest('summary');
    const tabbable = [...document.querySelectorAll(selector)].filter(e => !e.disabled && e.tabIndex >= 0
        && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !folded(e));
    document.querySelectorAll('[data-kb]').forEach(e => e.removeAttribute('data-kb'));
    tabbable.forEach((e, k) => e.dataset.kb = String(k));
    return tabbable.length;
}"""
# The focused control: its number, its name (text, value or label) and whether a focus ring shows.
_FOCUSED_JS = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const style = getComputedStyle(e);
    const label = e.closest('.widget-dropdown, .widget-text, .widget-checkbox')?.querySelector('label')?.innerText;
    return {kb: e.dataset.kb ?? null, tag: e.tagName, name: (label || e.innerText || e.value || '').trim(),
            ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2};
}"""


def focused(page) -> dict | None:
    return page.evaluate(_FOCUSED_JS)


def tab_to(page, name: str, *, nth: int = 1, max_tabs: int = MAX_TABS) -> dict:
    """Press Tab until the ``nth`` control named ``name`` (its text starts with it) after the focused one has the
    focus."""
    seen = 0
    for _ in range(max_tabs):
        page.keyboard.press("Tab")
        now = focused(page)
        if now and now["name"].startswith(name):
            seen += 1
            if seen == nth:
                assert now["ring"], f"no visible focus ring on {now}"
                return now
    raise AssertionError(f"Tab never reached {name!r} (#{nth}) in {max_tabs} presses")


def words(page, index: int) -> str:
    """The board in words of the ``index``-th board (on demand: hidden until shown, but in the page)."""
    return page.locator(".tutor-board-words").nth(index).text_content()


def wait_for_text(page, selector: str, text: str, index: int = 0) -> None:
    """Wait until the ``index``-th ``selector`` shows ``text``; fail with what it shows instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    element = page.locator(selector).nth(index)
    try:
        element.filter(has_text=text).wait_for(timeout=RESULT_TIMEOUT_MS)
    except PlaywrightTimeout:
        raise AssertionError(f"{selector} #{index} never showed {text!r}; it shows: {element.inner_text()}") from None


def assert_accessible(page) -> None:
    """No serious or critical axe-core violation in the page as it is now (after a Reveal: the feedback too)."""
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def ready(page, base_url: str, notebook: str) -> None:
    open_lesson(page, base_url, notebook)
    wait_for_canvases(page)
    wait_for_all_painted(page)
    page.locator("body").focus()


def test_tab_visits_every_control_in_page_order_with_a_focus_ring(page, voila_server: str) -> None:
    ready(page, voila_server, "flamme_rouge/03_movement.ipynb")
    boards = page.locator("canvas").count()
    # Each board: an image with a name, out of the Tab order, described by its words; each widget has one live
    # region (its messages) that stays put, labelled for what it is.
    assert page.locator("canvas[role='img'][aria-label][tabindex='-1']").count() == boards == 3
    assert page.locator("canvas[aria-describedby^='tutor-words-']").count() == boards
    for widget in page.locator(".tutor-race, .tutor-quiz").all():
        live = widget.locator(
            ".tutor-live[role='status'][aria-live='polite']:not(.tutor-teachers *):not(.tutor-position-box *)"
        )
        assert live.count() == 1 and live.get_attribute("aria-label") == "Messages"
    assert "Riders" in words(page, 0)
    count = page.evaluate(_NUMBER_TABBABLE_JS)
    visited = []
    for _ in range(count):
        page.keyboard.press("Tab")
        visited.append(focused(page))
    assert [v and v["kb"] for v in visited] == [str(k) for k in range(count)], visited
    assert all(v["ring"] for v in visited), [v for v in visited if not v["ring"]]


def test_a_flamme_rouge_lesson_played_by_keyboard_to_its_square_quiz(page, voila_server: str) -> None:
    notebook = "flamme_rouge/03_movement.ipynb"
    shown = lesson_widgets(notebook)
    tutor = next(w for w in shown if isinstance(w, RaceTutor))
    square_quiz = next(w for w in shown if isinstance(w, PredictQuiz) and w.ask == "square")
    ready(page, voila_server, notebook)
    board_words = words(page, 0)
    tab_to(page, "Next step")
    page.keyboard.press("Enter")  # one rider moves: the live region says so, the board in words follows
    mover = tutor.race.to_move[0]
    wait_for_text(page, ".tutor-race .tutor-live", f"{mover} moves")
    page.wait_for_function(
        "(old) => document.querySelector('.tutor-board-words').textContent !== old",
        arg=board_words,
        timeout=RESULT_TIMEOUT_MS,
    )

    # "Click the square on the board": the square list beside the board takes the answer from the keyboard.
    select = tab_to(page, "red-R ends on")
    assert select["tag"] == "SELECT"
    options = [value for _, value in square_quiz.square_input.options]
    page.keyboard.press("Home")  # the first option ("choose…"), then down the list to the answer
    for _ in range(options.index(square_quiz.correct_answer)):
        page.keyboard.press("ArrowDown")
    chosen = page.evaluate("document.activeElement.selectedOptions[0].text").replace("\xa0", " ")
    assert chosen == f"square {square_quiz.correct_answer}"
    wait_for_text(page, ".tutor-quiz", f"Your answer: square {square_quiz.correct_answer}.", index=1)
    tab_to(page, "Reveal")  # the next Reveal: this quiz's
    page.keyboard.press("Space")
    wait_for_text(page, ".tutor-quiz .tutor-live", "Right!", index=1)  # the verdict, read once
    wait_for_text(page, ".tutor-board-words", "What just happened", index=2)
    assert_accessible(page)


def test_an_in_flanders_field_lesson_played_by_keyboard_to_its_quiz(page, voila_server: str) -> None:
    notebook = "flanders/02_a_turn.ipynb"
    quiz = next(w for w in lesson_widgets(notebook) if isinstance(w, FlandersQuiz))
    ready(page, voila_server, notebook)
    tab_to(page, "Roll the dice")
    page.keyboard.press("Enter")  # loaded dice 1, 2, 4
    wait_for_text(page, ".tutor-board-words", "Dice: 1, 2, 4.")
    pair = tab_to(page, "1 + 2 = 3")
    assert pair["tag"] == "BUTTON"
    page.keyboard.press("Space")
    wait_for_text(page, ".tutor-board-words", "takes")

    # "Click the card space on the board": the space buttons beside the board take it from the keyboard.
    answer = str(quiz.correct_answer[0])
    options = [label for label, _ in quiz.choice.options]
    tab_to(page, answer, nth=1 + sum(label.startswith(answer) for label in options[: options.index(answer)]))
    page.keyboard.press("Space")
    tab_to(page, "Reveal")
    page.keyboard.press("Enter")
    wait_for_text(page, ".tutor-quiz", "Right!")
    assert_accessible(page)
