"""In Flanders Field lesson pages as one screen per step (issue 22): measured in a real browser at 1366x680.

- Every game widget (the game and its quizzes) fits one screen: from the top of its board to the bottom of the
  lowest enabled, visible control at most 680 px.
- Focus follows play in lesson 3: after each kind of action the focused element is the control the prompt names
  next (never the page body), and that control is at most 6 Tab presses away.
- "Bots play" replays each bot's turn on the board; a quiz's verdict is said inside a live region.
"""

from __future__ import annotations

import pytest
from test_flanders import LESSONS, open_game
from test_flanders_board import shot
from voila_page import error_outputs

pytestmark = pytest.mark.browser
SCREEN = {"width": 1366, "height": 680}
MAX_SPAN = 680
GAME_WIDGETS = ".tutor-flanders, .tutor-quiz"

# For each game widget: the top of its (first) board, the lowest bottom of an enabled control one can see or
# reach, and which control that is.
SPANS_JS = """(selector) => [...document.querySelectorAll(selector)].map(root => {
    const board = root.querySelector('canvas').getBoundingClientRect();
    let lowest = board.bottom, which = 'the board';
    for (const el of root.querySelectorAll('button, input, select, textarea, summary, a[href]')) {
        const r = el.getBoundingClientRect();
        if (el.disabled || r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        if (r.bottom > lowest) { lowest = r.bottom; which = (el.innerText || el.value || el.tagName).trim(); }
    }
    return {kind: root.classList.contains('tutor-quiz') ? 'quiz' : 'game', span: Math.round(lowest - board.top),
            lowest: which, width: Math.round(root.getBoundingClientRect().width), left: Math.round(root.getBoundingClientRect().left), bw: Math.round(board.width), bh: Math.round(board.height)};
})"""


def spans(page) -> list[dict]:
    return page.evaluate(SPANS_JS, GAME_WIDGETS)


BOARD_PAGES = [p.name for p in sorted(LESSONS.glob("0*.ipynb")) if p.name != "00_welcome.ipynb"]


@pytest.mark.parametrize("notebook", BOARD_PAGES)
def test_every_game_widget_fits_one_screen_at_1366x680(browser, voila_server, notebook):
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    try:
        open_game(page, voila_server, notebook)
        found = spans(page)
        print(notebook, found)
        shot(page, f"flanders_{notebook[:2]}_1366x680")
        assert found and all(s["span"] <= MAX_SPAN for s in found), (notebook, found)
        assert error_outputs(page) == []
    finally:
        context.close()
