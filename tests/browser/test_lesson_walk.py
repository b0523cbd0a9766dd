"""Issue 37: every numbered lesson of both games played to its end in a real browser, as a learner would.

Each lesson runs at one of three screens, rotated across the lessons (a phone and a tablet held upright, both
tapped; a laptop, clicked); ``WALK_EVERY_SCREEN=1`` runs every lesson at all three. In each lesson widget
(``.tutor-lesson``) the walk presses the control the lesson names next (the focused button, which the lesson moves
on after each action, else the first enabled button of the prompt row), answers each quiz before its Reveal,
presses Skip whenever an animation plays, and presses every other enabled button once (the log, the key, the
speeds, Back, Restart, "Finish ..."), until all were pressed and the next control was pressed a few times.
The walk fails, naming the lesson, the screen and the button, on:

- a kernel error: an error output on the page, or a traceback in the Voila log;
- a press that changes nothing: the widget's status text, its boards' pixels, its log and its visible text,
  its pressed options and its enabled controls all the same once the kernel is idle and no animation plays
  (a disclosure must show or hide something besides its own arrow);
- a control out of reach: an enabled button that, scrolled into view, is outside the window or covered at its
  centre by another element;
- a board that traps the page: a mouse wheel over a board does not scroll the page while the page can scroll
  (the lesson scrolls in a panel of Voila's template, not the window: the scroller is found from the board).

Every failure of a lesson is collected and reported together.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from voila_page import (
    DRAW_TIMEOUT_MS,
    KERNEL_ACTIVITY_JS,
    LOAD_TIMEOUT_MS,
    SCROLL_STATE_JS,
    error_outputs,
    kernel_activity,
    open_lesson,
    scroll_state,
    wait_for_all_painted,
    wait_for_canvases,
)

pytestmark = pytest.mark.browser

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
WALKED = [
    f"{game}/{p.name}"
    for game in ("flamme_rouge", "flanders")
    for p in sorted((LESSONS / game).glob("[01][0-9]_*.ipynb"))
    if not p.name.startswith("00_")
]
"""The numbered lessons with a board (the 00 pages only list the lessons: nothing to press)."""


@dataclass(frozen=True)
class Screen:
    name: str
    width: int
    height: int
    touch: bool

    def options(self) -> dict:
        return {
            "viewport": {"width": self.width, "height": self.height},
            "has_touch": self.touch,
            "is_mobile": self.touch,
        }


SCREENS = [
    Screen("phone 390x844 (touch)", 390, 844, True),
    Screen("tablet 768x950 (touch)", 768, 950, True),
    Screen("laptop 1366x680 (mouse)", 1366, 680, False),
]
GAME_IDS = {"flamme_rouge": "fr", "flanders": "if"}
EVERY_SCREEN = os.environ.get("WALK_EVERY_SCREEN", "") not in ("", "0")
CASES = (
    [(notebook, screen) for notebook in WALKED for screen in SCREENS]
    if EVERY_SCREEN
    else [(notebook, SCREENS[k % len(SCREENS)]) for k, notebook in enumerate(WALKED)]
)
"""Each lesson at one screen, rotated (the suite's default, within CI's time), or with ``WALK_EVERY_SCREEN=1`` at
all three (about three times as long)."""

KERNEL_TIMEOUT_MS = 60_000
"""How long the kernel may take to answer a press (generous: the machine may be busy)."""
ANIMATION_TIMEOUT_MS = 60_000
"""How long an animation may still play after Skip (it ends by itself anyway)."""
CHANGE_TIMEOUT_S = 8.0
"""How long, after the kernel is idle and no animation plays, a press's effect may still take to show."""
SCROLL_TIMEOUT_MS = 3_000
"""How long a wheel's scrolling may take to show."""
SAME_CONTROL_GAP_S = 0.45
"""The lessons ignore a second press of the same control within 0.3 s of the first (a double click is one
press, tutor/ui/shell.py's ClickGuard): a person's next press of it comes later than that."""
NEXT_PRESSES = 3
"""How many times the walk presses each widget's next control at least."""
MAX_PRESSES = 45
"""At most this many presses in one widget (the next control and the others)."""
LATE = re.compile(r"^(Restart|Finish|Bots play|Try another position|Continue as a race|Open a position)")
"""Buttons pressed after the others, once the widget has been played a while (they start over or play to the
end)."""

# Every lesson widget not inside another gets data-walk=<its number>; returns how many.
MARK_JS = """() => { const ws = [...document.querySelectorAll('.tutor-lesson')]
    .filter(w => !w.parentElement.closest('.tutor-lesson'));
  ws.forEach((w, k) => { w.dataset.walk = String(k); }); return ws.length; }"""
# The widget's buttons as a learner sees them (index: among the widget's <button> elements).
BUTTONS_JS = """(w) => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
      && !e.closest('.tutor-sr-only');
  const prompt = w.querySelector('.tutor-prompt-row');
  return [...w.querySelectorAll('button')].map((b, index) => ({
    index, label: (b.innerText.trim() && b.innerText.trim() !== '·' ? b.innerText : (b.getAttribute('aria-label')
        || b.title || b.innerText)).trim().replace(/\\s+/g, ' '),
    enabled: !b.disabled, shown: shown(b), disclosure: b.classList.contains('tutor-disclosure'),
    toggle: b.classList.contains('widget-toggle-button'), active: b.classList.contains('mod-active'),
    inPrompt: !!(prompt && prompt.contains(b)), focused: document.activeElement === b,
  })).filter(b => b.enabled && b.shown);
}"""
# What a learner sees of a widget: its status, its log, its boards' pixels, its visible text (less the
# disclosures' own labels), its pressed options, its inputs' values and its enabled controls.
SIGNATURE_JS = """async (w) => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const canvases = await Promise.all([...w.querySelectorAll('canvas')].map(async c => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    return Array.from(hash.slice(0, 8), b => b.toString(16).padStart(2, '0')).join('');
  }));
  const parts = [], walker = document.createTreeWalker(w, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (n.textContent.trim() && !e.closest('.tutor-sr-only, .tutor-disclosure, script, style') && shown(e))
      parts.push(n.textContent.trim());
  }
  const text = parts.join(' ');
  const buttons = [...w.querySelectorAll('button')].filter(b => !b.disabled && shown(b)
      && !b.classList.contains('tutor-disclosure') && !/^Skip/.test(b.innerText.trim()));
  return {
    status: [...w.querySelectorAll('.tutor-live-status')].map(e => e.innerText.trim()).join(' | '),
    log: [...w.querySelectorAll('.tutor-log')].map(e => e.innerText.trim()).join(' | '),
    canvas: canvases.join('-'),
    text,
    active: [...w.querySelectorAll('.widget-toggle-button.mod-active:not(.tutor-disclosure)')]
        .map(b => b.innerText).join('|'),
    inputs: [...w.querySelectorAll('input, select')].map(i => i.type === 'checkbox' ? i.checked : i.value).join('|'),
    controls: buttons.map(b => b.innerText.trim() || b.getAttribute('aria-label') || '').join('|'),
  };
}"""
# Where a control is once scrolled into view: its centre inside the window, and what is drawn there.
REACH_JS = """(b) => {
  const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const inside = r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x <= width && y <= height;
  const hit = inside ? document.elementFromPoint(x, y) : null;
  const name = e => e ? (e.tagName.toLowerCase() + (e.className && typeof e.className === 'string'
      ? '.' + e.className.trim().split(/\\s+/).slice(0, 3).join('.') : '')
      + (e.innerText ? ` "${e.innerText.trim().slice(0, 30)}"` : '')) : 'nothing';
  return {inside, covered: inside && !(hit && (hit === b || b.contains(hit))), by: name(hit),
          box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)],
          window: [width, height]};
}"""
SKIP = re.compile(r"^Skip")
TRACEBACK = re.compile(r"^Traceback \(most recent call last\)|^\[\w+\] ERROR \| Exception", re.MULTILINE)
"""A traceback, or an exception logged by the kernel (a widget's callback that raised)."""


def key_of(label: str) -> str:
    """A button's identity across rounds: its label without numbers or arrows ("Start round #")."""
    return re.sub(r"\d+", "#", re.sub(r"[▸▾◂|]+", "", label)).strip()


@dataclass
class Walk:
    page: object
    notebook: str
    screen: Screen
    log: object
    failures: list[str] = field(default_factory=list)
    presses: int = 0
    last: tuple[str, int, float] | None = None  # (widget, button index, when its press had settled)
    log_seen: int = 0

    def fail(self, where: str, what: str) -> None:
        self.failures.append(f"{self.notebook} on the {self.screen.name}, {where}: {what}")

    def kernel_errors(self) -> list[str]:
        """Error outputs on the page and tracebacks the kernels printed since the last call."""
        found = error_outputs(self.page)
        text = self.log()
        new, self.log_seen = text[self.log_seen :], len(text)
        if TRACEBACK.search(new):
            found.append(new[TRACEBACK.search(new).start() :][:1500])
        return found


def signature(widget) -> dict:
    return widget.evaluate(SIGNATURE_JS)


def differences(before: dict, after: dict) -> list[str]:
    return [name for name in before if before[name] != after[name]]


def reachable(walk: Walk, widget, button, where: str) -> bool:
    """Scroll ``button`` into view; record a failure when it is outside the window or covered there."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        button.scroll_into_view_if_needed(timeout=10_000)
    except PlaywrightError as error:
        walk.fail(where, f"cannot be scrolled into view ({str(error).splitlines()[0]})")
        return False
    reach = button.evaluate(REACH_JS)
    if not reach["inside"]:
        walk.fail(
            where,
            f"out of reach: scrolled into view, its box {reach['box']} is outside the "
            f"{reach['window'][0]}x{reach['window'][1]} window",
        )
        return False
    if reach["covered"]:
        walk.fail(where, f"out of reach: covered at its centre by {reach['by']} (its box {reach['box']})")
        return False
    return True


def wait_idle(walk: Walk, busy_before: int, where: str) -> bool:
    """Wait until the kernel has answered a message sent after ``busy_before`` and is idle again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        walk.page.wait_for_function(
            "(n) => window.tutorWalkKernel.busy > n && window.tutorWalkKernel.state === 'idle'",
            arg=busy_before,
            timeout=KERNEL_TIMEOUT_MS,
        )
        return True
    except PlaywrightTimeout:
        walk.fail(
            where,
            f"the kernel never answered the press in {KERNEL_TIMEOUT_MS // 1000} s "
            f"(kernel {kernel_activity(walk.page)})",
        )
        return False


def tap(walk: Walk, button, force: bool = False) -> None:
    if walk.screen.touch:
        button.tap(timeout=10_000, force=force)
    else:
        button.click(timeout=10_000, force=force)


def settle(walk: Walk, widget, where: str) -> None:
    """Press Skip while an animation plays, until none does and the kernel is idle; then two frames."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    skip = widget.get_by_role("button", name=SKIP)
    for _ in range(10):
        if not skip.count() or not skip.first.is_enabled() or not skip.first.is_visible():
            break
        if not reachable(walk, widget, skip.first, f"{where}, then 'Skip'"):
            break
        try:
            tap(walk, skip.first, force=True)  # the animation may end first: a disabled button takes no press
        except PlaywrightError:
            continue
        walk.presses += 1
        try:
            walk.page.wait_for_function(
                "(s) => (!s || s.disabled || !s.getClientRects().length) && window.tutorWalkKernel.state === 'idle'",
                arg=skip.first.element_handle(),
                timeout=ANIMATION_TIMEOUT_MS,
            )
        except PlaywrightTimeout:
            walk.fail(f"{where}, then 'Skip'", f"the animation still plays {ANIMATION_TIMEOUT_MS // 1000} s after Skip")
            return
    walk.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def press(walk: Walk, widget, name: str, button: dict) -> bool:
    """Press ``button`` (a row of BUTTONS_JS) of ``widget`` as a learner; check that it changed something.

    False when the walk of this widget should stop (a kernel error)."""
    where = f"{name}, button {button['label']!r}"
    if walk.last and walk.last[:2] == (name, button["index"]):  # the same control (its label may change)
        gap = SAME_CONTROL_GAP_S - (time.monotonic() - walk.last[2])
        if gap > 0:
            walk.page.wait_for_timeout(gap * 1000)
    locator = widget.locator("button").nth(button["index"])
    if not reachable(walk, widget, locator, where):
        return True
    before = signature(widget)
    busy = kernel_activity(walk.page)["busy"]
    tap(walk, locator)
    walk.presses += 1
    answered = wait_idle(walk, busy, where)
    if answered:
        settle(walk, widget, where)
    walk.last = (name, button["index"], time.monotonic())
    errors = walk.kernel_errors()
    if errors:
        walk.fail(where, "kernel error:\n" + "\n".join(errors))
        return False
    if not answered:
        return True
    after = signature(widget)
    deadline = time.monotonic() + CHANGE_TIMEOUT_S
    while not (changed := differences(before, after)) and time.monotonic() < deadline:
        walk.page.wait_for_timeout(100)
        after = signature(widget)
    if button["disclosure"]:
        changed = [c for c in changed if c in ("text", "log", "canvas")]
    if not changed:
        walk.fail(
            where, f"pressing it changed nothing (status: {before['status'][:160]!r}, log: {before['log'][:80]!r})"
        )
    return True


def answer_quiz(walk: Walk, widget, name: str, attempt: int) -> None:
    """Answer the quiz as a learner would before Reveal: an option, a tick, a square in the list."""
    options = [b for b in widget.evaluate(BUTTONS_JS) if b["toggle"] and not b["disclosure"]]
    if options and not any(b["active"] for b in options):
        press(walk, widget, name, options[attempt % len(options)])
    boxes = widget.locator(".widget-checkbox:not(.tutor-motion) input[type=checkbox]")
    if boxes.count() and not any(boxes.nth(k).is_checked() for k in range(boxes.count())):
        box = boxes.nth(attempt % boxes.count())
        if reachable(walk, widget, box, f"{name}, an answer's tick box"):
            busy = kernel_activity(walk.page)["busy"]
            tap(walk, box)
            wait_idle(walk, busy, f"{name}, an answer's tick box")
    lists = widget.locator("select")
    for k in range(lists.count()):
        select = lists.nth(k)
        if not select.is_visible() or select.evaluate("(s) => s.selectedIndex") > 0:
            continue
        count = select.evaluate("(s) => s.options.length")
        if count > 1:
            busy = kernel_activity(walk.page)["busy"]
            select.select_option(index=1 + attempt % (count - 1))
            wait_idle(walk, busy, f"{name}, an answer chosen in the list")


def next_control(buttons: list[dict]) -> dict | None:
    """The control the lesson names next: the focused button, else the prompt row's first."""
    usable = [
        b for b in buttons if not b["disclosure"] and not SKIP.match(b["label"]) and not (b["toggle"] and b["active"])
    ]
    focused = [b for b in usable if b["focused"]]
    if focused:
        return focused[0]
    return next((b for b in usable if b["inPrompt"]), None)


def walk_widget(walk: Walk, widget, name: str) -> None:
    pressed: set[str] = set()
    next_presses = 0
    quiz = "tutor-quiz" in (widget.get_attribute("class") or "")
    settle(walk, widget, f"{name}, when the page opened")
    other_last = False
    for _ in range(MAX_PRESSES):
        buttons = widget.evaluate(BUTTONS_JS)
        upcoming = next_control(buttons)
        if quiz and upcoming and upcoming["label"].startswith("Reveal"):
            answer_quiz(walk, widget, name, next_presses)
            buttons = widget.evaluate(BUTTONS_JS)
            upcoming = next_control(buttons)
        others = [
            b
            for b in buttons
            if key_of(b["label"]) not in pressed
            and b is not upcoming
            and not SKIP.match(b["label"])
            and not (b["toggle"] and b["active"] and not b["disclosure"])
            and not (quiz and b["toggle"] and not b["disclosure"])
        ]
        others = [b for b in others if not LATE.match(b["label"])] + (
            [b for b in others if LATE.match(b["label"])] if next_presses >= 2 else []
        )
        if upcoming is None and not others:
            return
        if not others and next_presses >= NEXT_PRESSES:
            return
        if upcoming is not None and (
            not others or other_last or next_presses < 2 or key_of(upcoming["label"]) not in pressed
        ):
            chosen, other_last, next_presses = upcoming, False, next_presses + 1
        else:
            chosen, other_last = others[0], True
        pressed.add(key_of(chosen["label"]))
        if not press(walk, widget, name, chosen):
            return
    walk.fail(
        name,
        f"the lesson was not over after {MAX_PRESSES} presses (left to press: "
        f"{sorted({key_of(b['label']) for b in widget.evaluate(BUTTONS_JS)} - pressed)})",
    )


def check_wheel_scrolls(walk: Walk, widget, name: str) -> None:
    """A mouse wheel over each board of ``widget`` scrolls the page (when the page can scroll that way)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    boards = widget.locator("canvas")
    for k in range(boards.count()):
        board = boards.nth(k)
        if not board.is_visible():
            continue
        board.evaluate("(c) => c.scrollIntoView({block: 'center'})")
        state = scroll_state(board)
        if state["room_below"] < 20 and state["top"] < 20:
            continue  # the page fits the window: nothing to scroll
        box = board.bounding_box()
        x = box["x"] + box["width"] / 2
        y = min(max(box["y"] + box["height"] / 2, 5), walk.page.viewport_size["height"] - 5)
        delta = 200 if state["room_below"] >= 20 else -200
        walk.page.mouse.move(x, y)
        walk.page.mouse.wheel(0, delta)
        try:
            walk.page.wait_for_function(
                f"([c, top]) => Math.abs(({SCROLL_STATE_JS})(c).top - top) > 1",
                arg=[board.element_handle(), state["top"]],
                timeout=SCROLL_TIMEOUT_MS,
            )
        except PlaywrightTimeout:
            walk.fail(
                f"{name}, board {k + 1}",
                f"a mouse wheel over the board does not scroll the page (its "
                f"scroller {state['scroller']} stays at {state['top']} px, {state['room_below']} px more below)",
            )


@pytest.mark.parametrize(
    "notebook, screen", CASES, ids=[f"{GAME_IDS[n.split('/')[0]]}{n.split('/')[1][:2]}-{s.width}" for n, s in CASES]
)
def test_a_learner_plays_the_lesson_to_its_end(browser, voila_factory, voila_server, notebook, screen):
    context = browser.new_context(**screen.options())
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    page_errors: list[str] = []
    try:
        page = context.new_page()
        page.add_init_script(KERNEL_ACTIVITY_JS)
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        walk = Walk(page, notebook, screen, lambda: voila_factory.log(voila_server))
        walk.log_seen = len(walk.log())
        started = time.monotonic()
        open_lesson(page, voila_server, notebook)
        wait_for_canvases(page)
        wait_for_all_painted(page, timeout_ms=DRAW_TIMEOUT_MS)
        errors = walk.kernel_errors()
        assert not errors, f"{notebook}: kernel errors when the page opened:\n" + "\n".join(errors)
        count = page.evaluate(MARK_JS)
        assert count, f"{notebook}: no lesson widget"
        for k in range(count):
            widget = page.locator(f"[data-walk='{k}']")
            kind = re.search(r"tutor-(race|quiz|breakaway|flanders)", widget.get_attribute("class") or "")
            name = f"widget {k + 1} ({kind.group(1) if kind else 'lesson'})"
            check_wheel_scrolls(walk, widget, name)
            walk_widget(walk, widget, name)
        walk.failures.extend(f"{notebook} on the {screen.name}: page error: {e}" for e in page_errors)
        print(f"{notebook} on the {screen.name}: {walk.presses} presses in {time.monotonic() - started:.0f} s")
        assert not walk.failures, f"{len(walk.failures)} problems:\n" + "\n".join(walk.failures)
    finally:
        context.close()
