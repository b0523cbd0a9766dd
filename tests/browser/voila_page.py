"""Helpers for reading a Voila page in Playwright: open a lesson, read its canvases and its error outputs.

Kept out of conftest.py so that test modules can import them (`from voila_page import open_lesson`).
ipycanvas 0.14 draws each Canvas or MultiCanvas widget onto one <canvas> element (a MultiCanvas composes its
layers into it), so "canvas i" below is the i-th <canvas> on the page.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:  # playwright may be missing: conftest.py then skips (or, in CI, fails) the browser tests
    from playwright.sync_api import Page

LOAD_TIMEOUT_MS = 120_000
"""How long a lesson page may take to load and render (generous: the machine may be busy)."""
ERROR_GRACE_MS = 30_000
"""How long the widgets may still take to render after an error output showed up first."""
DRAW_TIMEOUT_MS = 30_000
"""How long a drawing (a first paint, a redraw after a click) may take to show on the page."""

# Voila (lab template) shows stderr, and with show_tracebacks the tracebacks, as stderr outputs; an ipywidgets
# Output widget shows an exception raised inside it the same way.
ERROR_SELECTOR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'

# For each canvas: [number of non-transparent pixels, SHA-256 of its RGBA data].
_CANVASES_JS = """async (index) => {
    const canvases = [...document.querySelectorAll('canvas')];
    const picked = index === null ? canvases : canvases.slice(index, index + 1);
    if (index !== null && picked.length === 0) throw new Error(`no canvas #${index} (page has ${canvases.length})`);
    return Promise.all(picked.map(async c => {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]) painted++;
        const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
        return [painted, Array.from(hash, b => b.toString(16).padStart(2, '0')).join('')];
    }));
}"""


NO_BEFOREUNLOAD_JS = """(() => {
    const add = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, ...rest) {
        if (type !== 'beforeunload') return add.call(this, type, ...rest);
    };
})()"""
"""An init script for a page as Safari on iPads and iPhones runs it: a beforeunload listener is never called
(here: never added), so Voila's own shutdown request on leaving is never sent."""


def open_lesson(
    page: Page, base_url: str, notebook: str, wait_for: str | None = "canvas", timeout_ms: int = LOAD_TIMEOUT_MS
) -> None:
    """Open ``/voila/render/<notebook>``, wait until Voila has run it and ``wait_for`` is visible.

    Fails with the page's error outputs when an error shows up instead of ``wait_for``.
    """
    page.goto(f"{base_url}/voila/render/{quote(notebook)}", timeout=timeout_ms)
    page.wait_for_selector("#loading", state="hidden", timeout=timeout_ms)
    if wait_for is None:
        return
    page.wait_for_selector(f"{wait_for}, {ERROR_SELECTOR}", state="visible", timeout=timeout_ms)
    if page.locator(wait_for).count():
        return
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:  # stderr came first: a warning before the widgets render, or an error instead of them
        page.wait_for_selector(wait_for, state="visible", timeout=ERROR_GRACE_MS)
    except PlaywrightTimeout:
        raise AssertionError(f"{notebook}: no {wait_for!r}; error outputs: {error_outputs(page)}") from None


def error_outputs(page: Page) -> list[str]:
    """Texts of the stderr and error outputs on the page (empty when the notebook ran cleanly)."""
    return page.locator(ERROR_SELECTOR).all_inner_texts()


def canvas_painted_pixels(page: Page, index: int | None = 0) -> int:
    """Number of non-transparent pixels of canvas ``index`` (of all canvases when ``index`` is None)."""
    return sum(painted for painted, _ in page.evaluate(_CANVASES_JS, index))


def canvas_fingerprint(page: Page) -> str:
    """A hash of every canvas's pixels, to tell whether the picture changed."""
    return "-".join(digest for _, digest in page.evaluate(_CANVASES_JS, None))


def wait_for_paint(page: Page, index: int | None = 0, timeout_ms: int = DRAW_TIMEOUT_MS) -> int:
    """Painted pixels of canvas ``index`` once there are some, or 0 after ``timeout_ms``.

    The canvas appears before its first drawing arrives (ipycanvas draws in on_client_ready, a round trip later).
    """
    return _poll(lambda: canvas_painted_pixels(page, index), lambda painted: painted > 0, page, timeout_ms)


def wait_for_canvas_change(page: Page, before: str, timeout_ms: int = DRAW_TIMEOUT_MS) -> str:
    """The canvas fingerprint once it differs from ``before``, or ``before`` after ``timeout_ms``."""
    return _poll(lambda: canvas_fingerprint(page), lambda now: now != before, page, timeout_ms)


def _poll(read, done, page: Page, timeout_ms: int, interval_ms: int = 50):
    deadline = time.monotonic() + timeout_ms / 1000
    while not done(value := read()) and time.monotonic() < deadline:
        page.wait_for_timeout(interval_ms)
    return value


# Voila puts each widget output in an empty element without a MIME type, and the widget's view into it later.
_WIDGETS_RENDERED_JS = """() => {
    const outputs = [...document.querySelectorAll('.jp-OutputArea-output:not([data-mime-type])')];
    return outputs.length > 0 && outputs.every(output => output.children.length > 0);
}"""


def wait_for_canvases(page: Page, timeout_ms: int = LOAD_TIMEOUT_MS) -> int:
    """The number of canvases once every widget output on the page has rendered its view.

    The widgets render a moment after ``#loading`` goes, each cell's view on its own.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(_WIDGETS_RENDERED_JS, timeout=timeout_ms)
    except PlaywrightTimeout:
        raise AssertionError(f"the page's widgets did not all render in {timeout_ms / 1000:.0f} s") from None
    return page.locator("canvas").count()


def wait_for_fingerprint(page: Page, wanted: str, timeout_ms: int = DRAW_TIMEOUT_MS) -> str:
    """The canvas fingerprint once it equals ``wanted``, or the last one read after ``timeout_ms``."""
    return _poll(lambda: canvas_fingerprint(page), lambda now: now == wanted, page, timeout_ms)


def wait_for_same_boards(page: Page, other: Page, timeout_ms: int = DRAW_TIMEOUT_MS) -> tuple[str, str]:
    """The canvas fingerprints of ``page`` and ``other`` once they are the same (each read again every time: a board
    made anew draws when its canvas reaches the page, a round trip after the message that made it), or the last
    ones read after ``timeout_ms``."""
    return _poll(
        lambda: (canvas_fingerprint(page), canvas_fingerprint(other)), lambda p: p[0] == p[1], page, timeout_ms
    )


def wait_for_all_painted(page: Page, timeout_ms: int = DRAW_TIMEOUT_MS) -> list[int]:
    """Painted pixels of each canvas, once every canvas has some (or after ``timeout_ms``)."""
    return _poll(
        lambda: [painted for painted, _ in page.evaluate(_CANVASES_JS, None)],
        lambda counts: all(counts),
        page,
        timeout_ms,
    )


def wait_for_no_animation(page: Page, widget, timeout_ms: int = DRAW_TIMEOUT_MS) -> None:
    """Wait until ``widget``'s Skip button is disabled, then for two of the page's frames.

    Every drawing a lesson makes later goes through its scene's clock, and Skip is enabled exactly while that
    clock has frames to send. Once it is disabled after the click, the kernel has sent its last frame, and the
    board changes only on the learner's next action. Call it after a state that shows the click's handler ran
    (focus moved, a control shown): before that, a disabled Skip says nothing."""
    from playwright.sync_api import expect

    expect(widget.get_by_role("button", name=re.compile(r"^Skip"))).to_be_disabled(timeout=timeout_ms)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def kernel_id(page: Page) -> str:
    """The id of the kernel running the page's notebook (from the page config Voila writes into the page)."""
    import json

    return json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]


def kernel_pid(kernel: str) -> int | None:
    """The pid of the kernel process of ``kernel`` (its command line names its connection file), or None."""
    import os

    needle = f"kernel-{kernel}.json".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if needle in cmdline.read():
                        return int(entry)
            except OSError:
                continue
    return None


KERNEL_ACTIVITY_JS = """(() => {
    const Native = window.WebSocket, decoder = new TextDecoder();
    const kernel = window.tutorWalkKernel = {state: 'unknown', busy: 0, idle: 0};
    function executionState(data) {
        try {
            if (typeof data === 'string') {
                const message = JSON.parse(data);
                return message.channel === 'iopub' && message.header && message.header.msg_type === 'status'
                    ? message.content.execution_state : null;
            }
            if (!(data instanceof ArrayBuffer) || data.byteLength < 56) return null;
            const layout = new DataView(data), count = Number(layout.getBigUint64(0, true));
            if (count < 6 || count > 64 || data.byteLength < 8 * (count + 1)) return null;
            const offsets = [];
            for (let i = 0; i < count; i++) offsets.push(Number(layout.getBigUint64(8 * (i + 1), true)));
            const part = k => decoder.decode(new Uint8Array(data, offsets[k], offsets[k + 1] - offsets[k]));
            if (part(0) !== 'iopub') return null;
            const header = JSON.parse(part(1));
            return header && header.msg_type === 'status' ? JSON.parse(part(4)).execution_state : null;
        } catch (error) {
            return null;
        }
    }
    window.WebSocket = class extends Native {
        constructor(...args) {
            super(...args);
            if (/\\/api\\/kernels\\/[^/]+\\/channels/.test(String(args[0]))) {
                this.addEventListener('message', event => {
                    const state = executionState(event.data);
                    if (!state) return;
                    kernel.state = state;
                    if (state === 'busy') kernel.busy++;
                    if (state === 'idle') kernel.idle++;
                });
            }
        }
    };
})()"""
"""An init script that counts the page's kernel's status messages in ``window.tutorWalkKernel`` (``state``: the
last one; ``busy`` and ``idle``: how many), read as connection.js reads them (JSON text or the binary framing).
The kernel says busy, then idle, around every message it handles: a click's widget message included."""


def kernel_activity(page: Page) -> dict:
    """``window.tutorWalkKernel`` of a page opened with ``KERNEL_ACTIVITY_JS`` as an init script."""
    return page.evaluate("() => window.tutorWalkKernel")


SCROLL_STATE_JS = """(element) => {
    let e = element.parentElement;
    while (e && e !== document.body && e !== document.documentElement) {
        const style = getComputedStyle(e);
        if (['auto', 'scroll'].includes(style.overflowY) && e.scrollHeight > e.clientHeight + 1) break;
        e = e.parentElement;
    }
    const scroller = e && e !== document.body && e !== document.documentElement ? e : document.scrollingElement;
    return {scroller: scroller === document.scrollingElement ? 'the window'
                : scroller.tagName.toLowerCase() + '.' + [...scroller.classList].join('.'),
            top: Math.round(scroller.scrollTop),
            room_below: Math.round(scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop)};
}"""
"""For an element: what scrolls the page around it, how far it is scrolled and how far it can scroll down."""


def scroll_state(element) -> dict:
    """What scrolls the page around ``element`` (a Playwright locator): the nearest ancestor that scrolls
    vertically, else the window (Voila's lab template scrolls a panel), its ``scrollTop`` (``top``) and how far
    it can still scroll down (``room_below``), in CSS px."""
    return element.evaluate(SCROLL_STATE_JS)
