"""In Flanders Field lesson pages as one screen per step (issue 22): measured in a real browser at 1366x680.

- Every game widget (the game and its quizzes) fits one screen: from the top of its board to the bottom of the
  lowest enabled, visible control at most 680 px.
- Focus follows play in lesson 3: after each kind of action the focused element is the control the prompt names
  next (never the page body), and that control is at most 6 Tab presses away.
- "Bots play" replays each bot's turn on the board; a quiz's verdict is said inside a live region.
"""

from __future__ import annotations

import time

import pytest
from test_flanders import LESSONS, close, open_game, pixels
from test_flanders_board import lesson_tutor, shot
from voila_page import error_outputs

from tutor.flanders.render import PLAYER_COLOURS, Geometry
from tutor.flanders.widgets import GameTutor
from tutor.ui.drawing import hex_to_rgb

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
            lowest: which};
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
        for index, widget in enumerate(found):  # each widget with its board at the top of the screen
            page.evaluate(
                "([selector, index]) => document.querySelectorAll(selector)[index].scrollIntoView()",
                [GAME_WIDGETS, index],
            )
            shot(page, f"flanders_{notebook[:2]}_{index}_{widget['kind']}_1366x680")
        assert found and all(s["span"] <= MAX_SPAN for s in found), (notebook, found)
        assert error_outputs(page) == []
    finally:
        context.close()


# ----- focus follows play, and the bots' turns replayed (lesson 3) -------------------------------------------------
FOCUS_TIMEOUT_S = 30
MAX_TABS = 6


def focused(page) -> dict:
    return page.evaluate("""() => { const el = document.activeElement;
        return {tag: el.tagName, text: (el.innerText || el.value || '').trim()}; }""")


def wait_for_focus(page, text: str, after: str) -> dict:
    """Wait until the focused element's text starts with ``text``; fail saying what has the focus instead."""
    deadline = time.monotonic() + FOCUS_TIMEOUT_S
    while not (now := focused(page))["text"].startswith(text) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert now["text"].startswith(text) and now["tag"] != "BODY", f"after {after}: focus on {now}, not {text!r}"
    return now


def tabs_to(page, text: str) -> int:
    """Press Tab until the control whose text starts with ``text`` has the focus (at most MAX_TABS); come back."""
    for presses in range(1, MAX_TABS + 1):
        page.keyboard.press("Tab")
        if focused(page)["text"].startswith(text):
            for _ in range(presses):
                page.keyboard.press("Shift+Tab")
            return presses
    raise AssertionError(f"{text!r} is more than {MAX_TABS} Tab presses away")


def lesson_3_played_here() -> tuple[GameTutor, list[str], list]:
    """Lesson 3's game played here as the browser test plays it (Enter on the control the focus lands on, Stop
    after the first card): the labels focus should land on, and the events of the bots' turns."""
    tutor = lesson_tutor("03_push_your_luck.ipynb")
    labels, bot_events = [], []
    act = tutor.control.act

    def acted(action, then=None):
        events = act(action, then)
        bot_events[:] = events or []
        return events

    tutor.control.act = acted
    for control in ("roll", "focused", "stop", "plays", "focused", "focused"):
        if control == "plays":
            while tutor.play_buttons:
                tutor.play_buttons[0].click()
                labels.append(tutor.focused.description)
            continue
        {"roll": tutor.roll_button, "stop": tutor.stop_button}.get(control, tutor.focused).click()
        labels.append(tutor.focused.description)
    return tutor, labels, bot_events


def test_focus_follows_play_in_lesson_3_and_bots_play_replays_each_bot_step_on_the_board(browser, voila_server):
    from tutor.flanders.events import CardTaken, DiceRolled

    tutor, labels, bot_events = lesson_3_played_here()
    game = tutor.game
    rolls = [e.dice for e in bot_events if isinstance(e, DiceRolled)]
    takes = [e.space for e in bot_events if isinstance(e, CardTaken)]
    assert rolls and takes and tutor.human_turn, "the lesson's bot plays a turn with cards taken"
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    try:
        widget = open_game(page, voila_server, "03_push_your_luck.ipynb")
        status = widget.locator(".tutor-live-status")
        widget.get_by_role("button", name="Roll again").click()
        steps = iter(labels)
        wait_for_focus(page, next(steps), "Roll again")  # the first pair the roll offers
        page.keyboard.press("Enter")
        wait_for_focus(page, next(steps), "a pair")  # Roll again; Stop is the next control
        to_stop = tabs_to(page, "Stop")
        assert to_stop == 1
        widget.get_by_role("button", name="Stop").focus()
        page.keyboard.press("Enter")
        label = next(steps)
        wait_for_focus(page, label, "Stop")  # the first card to play
        to_end = tabs_to(page, "End turn")
        resolving = spans(page)[0]  # the cards to play, the keep boxes and End turn: still one screen
        assert resolving["span"] <= MAX_SPAN, resolving
        while label.startswith("Play "):
            page.keyboard.press("Enter")
            label = wait_for_focus(page, next(steps), "a card")["text"]
        assert label == "End turn"
        page.keyboard.press("Enter")
        wait_for_focus(page, next(steps), "End turn")  # Bots play
        geo = Geometry(len(game.players))
        dice_points = [geo.die_rect(k).centre for k in range(3)]
        space_points = {s: (geo.space_rect(s).x + 14, geo.space_rect(s).y + geo.space_rect(s).h - 26) for s in takes}
        widget.get_by_text("Watch each step").click()  # the slow replay: every step long enough to sample
        widget.get_by_role("button", name="Bots play").focus()
        page.keyboard.press("Enter")
        wait_for_focus(page, "Skip", "Bots play")  # the replay plays: Skip shows its end
        widget.scroll_into_view_if_needed()
        shot(page, "flanders_03_bots_replay_1366x680")
        samples = []  # (prompt, dice pips in the middle, emptied spaces) until the learner's turn
        deadline = time.monotonic() + 120
        while "Your turn" not in (prompt := status.inner_text()) and time.monotonic() < deadline:
            found = pixels(page, 0, geo, dice_points + list(space_points.values()))
            samples.append(
                (
                    prompt,
                    [close(p, (34, 34, 34)) for p in found[:3]],
                    {s: close(p, (0xFB, 0xFB, 0xFB)) for s, p in zip(space_points, found[3:])},
                )
            )
            page.wait_for_timeout(40)
        assert "Your turn" in prompt, f"the replay never ended: {prompt!r}"
        prompts = [p for p, _, _ in samples]
        for dice in rolls:  # each bot roll told in the prompt, its dice on the board while it is told
            told = f"p2 rolls {dice[0]}-{dice[1]}-{dice[2]}"
            at = next((k for k, p in enumerate(prompts) if p.startswith(told)), None)
            assert at is not None, (told, rolls, list(dict.fromkeys(prompts)))
            odd = [d % 2 == 1 for d in dice]
            assert any(
                pips == odd for p, pips, _ in samples[at : at + 60] if p.startswith(("p2 rolls", "p2 chooses"))
            ), (told, [s[:2] for s in samples[at : at + 20]])
        for space in takes:  # each card taken: its space empty on the board once it is told
            told = f"space {space} stays empty"
            at = next(k for k, p in enumerate(prompts) if told in p)
            assert any(empty[space] for _, _, empty in samples[at:]), told
        wait_for_focus(page, "Roll the dice", "the replay")
        points = [(x - 9, y) for x, y in (geo.pawn_centre(i, p.pawn) for i, p in enumerate(game.players))]
        assert all(close(a, hex_to_rgb(PLAYER_COLOURS[i])) for i, a in enumerate(pixels(page, 0, geo, points)))
        print(
            f"lesson 3 by keyboard: focus on {labels}; Stop {to_stop} Tab away, End turn {to_end}; "
            f"{len(set(prompts))} bot steps told during the replay"
        )
        assert error_outputs(page) == []
    finally:
        context.close()


def test_the_quiz_verdict_is_read_in_its_stable_live_region_and_focus_goes_to_try_again(browser, voila_server):
    context = browser.new_context(viewport=SCREEN)
    page = context.new_page()
    try:
        open_game(page, voila_server, "02_a_turn.ipynb")
        quiz = page.locator(".tutor-quiz").first
        live = quiz.locator(".tutor-live-status[role='status'][aria-live='polite']")
        expect_count = live.count()
        assert expect_count == 1, "one live region for the quiz"
        page.evaluate("(el) => { el.dataset.before = 'yes'; }", live.element_handle())
        quiz.get_by_role("button", name="7", exact=True).click()  # forced_a: only space 7 (Machine Gun) is offered
        quiz.get_by_role("button", name="Reveal").click()
        wait_for_focus(page, "Try again", "Reveal")
        deadline = time.monotonic() + FOCUS_TIMEOUT_S
        while "Right!" not in live.inner_text() and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        words = live.text_content()
        assert "Right!" in words and "space 7 (Machine Gun) is the only space offered" in words, words
        assert live.get_attribute("data-before") == "yes", "the live region was replaced, not kept"
        revealed = spans(page)[1]  # the verdict beside the board: Try again still on the screen
        assert revealed["span"] <= MAX_SPAN, revealed
        assert error_outputs(page) == []
    finally:
        context.close()


def test_with_reduced_motion_a_roll_shows_its_dice_at_once_without_tumbling(browser, voila_server):
    from test_flanders_board import RECORD_TEXT_JS

    tutor = lesson_tutor("03_push_your_luck.ipynb")
    tutor.roll_button.click()
    dice = tutor.game.dice
    assert dice is not None
    context = browser.new_context(viewport=SCREEN, reduced_motion="reduce")
    context.add_init_script(RECORD_TEXT_JS)
    page = context.new_page()
    try:
        widget = open_game(page, voila_server, "03_push_your_luck.ipynb")
        expect_ticked = widget.get_by_label("No animation")
        deadline = time.monotonic() + FOCUS_TIMEOUT_S
        while not expect_ticked.is_checked() and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert expect_ticked.is_checked(), "reduced motion did not tick 'No animation'"
        page.evaluate("() => { window.__texts = []; }")
        widget.get_by_role("button", name="Roll again").click()
        wait_for_focus(page, tutor.focused.description, "Roll again")  # the kernel has answered
        answered = time.monotonic()
        geo = Geometry(2)
        odd = [d % 2 == 1 for d in dice]
        points = [geo.die_rect(k).centre for k in range(3)]
        while [close(p, (34, 34, 34)) for p in pixels(page, 0, geo, points)] != odd and time.monotonic() < answered + 5:
            page.wait_for_timeout(20)
        shown_after = time.monotonic() - answered
        drawn = [t["text"] for t in page.evaluate("window.__texts")]
        assert "rolling…" not in drawn, "the dice tumbled"
        assert shown_after <= 0.3, f"the final dice showed {shown_after:.2f} s after the answer"
        print(f"reduced motion: the roll's dice on the board {shown_after:.2f} s after the kernel's answer")
    finally:
        context.close()


def test_the_welcome_page_keeps_file_names_in_a_closed_for_teachers_section(page, voila_server):
    from playwright.sync_api import expect

    from voila_page import open_lesson

    open_lesson(page, voila_server, "flanders/00_welcome.ipynb", wait_for=".tutor-lesson-list")
    teachers = page.locator("details", has=page.locator("summary", has_text="For teachers"))
    expect(teachers).to_have_count(1)
    assert teachers.get_attribute("open") is None
    folder = page.get_by_text("lessons/flanders/scenarios/")
    expect(folder).to_be_hidden()
    teachers.locator("summary").click()
    expect(folder).to_be_visible()
    expect(page.get_by_text("rules-tutor check")).to_have_count(0)  # checked in the page: the workbench
