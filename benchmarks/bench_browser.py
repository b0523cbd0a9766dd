"""Browser figures: how fast the lesson pages load and how fast a board answers a click, in Chromium.

1. Page load: for every lesson and for an empty notebook (one empty code cell), the time from the page
   request to every canvas painted (pages without a canvas: to Voila's ``#loading`` gone), median of N loads
   after one warm-up load; the loads of all pages alternate, so a busy machine slows them alike.
   Target: lesson / empty <= 1.5.
2. Click to canvas: on the RaceTutor of 02_energy_phase, play the rounds (Draw, a card, Next step ...), and
   on the second quiz of 03_movement, Reveal and Try again; time, in the page, from the click's dispatch to the
   first animation frame whose canvas pixels differ (the response), and to the last change before the
   board stays still (the end of an animation).
   Targets: median response < 100 ms, worst < 250 ms.

Voila runs a temporary copy of lessons/ (plus empty.ipynb) with the test harness's settings
(tests/browser/conftest.py, which builds its command with ``tutor.server.process.voila_command``).

Run: ``python benchmarks/bench_browser.py [--loads 3] [--clicks 20]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from conftest import CHROMIUM, CHROMIUM_ARGS, LESSONS, NOT_LOCAL, VoilaServers  # noqa: E402
from voila_page import open_lesson, wait_for_canvases, wait_for_paint  # noqa: E402

EMPTY = "empty.ipynb"
RACE_LESSON = "flamme_rouge/02_energy_phase.ipynb"
QUIZ_LESSON = "flamme_rouge/03_movement.ipynb"
LOAD_RATIO_TARGET, MEDIAN_CLICK_TARGET_MS, WORST_CLICK_TARGET_MS = 1.5, 100, 250

ALL_PAINTED_JS = """(count) => {
    const canvases = [...document.querySelectorAll('canvas')];
    return canvases.length >= count && canvases.every(c => {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i]) return true;
        return false;
    });
}"""

# Runs on the button: click it, then hash the race's canvas at every animation frame.
# Returns [ms to the first changed frame, ms to the last change] (nulls when nothing changed in maxMs).
CLICK_JS = """async (button, [quietMs, maxMs]) => {
    const canvas = button.closest('.tutor-race, .tutor-quiz').querySelector('canvas');
    const context = canvas.getContext('2d');
    const hash = () => {
        const pixels = new Uint32Array(context.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
        let h = 2166136261;
        for (let i = 0; i < pixels.length; i++) h = Math.imul(h ^ pixels[i], 16777619);
        return h;
    };
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    let previous = hash(), first = null, last = null;
    const start = performance.now();
    button.click();
    for (;;) {
        await frame();
        const now = performance.now() - start, current = hash();
        if (current !== previous) { previous = current; last = now; if (first === null) first = now; }
        if (first === null ? now > maxMs : now - last > quietMs) return [first, last];
    }
}"""


def load_seconds(page, url: str, notebook: str, canvases: int) -> tuple[float, float]:
    """Seconds from the request to #loading gone, and to all ``canvases`` painted."""
    start = time.perf_counter()
    # Voila streams the page while the kernel runs the cells: the DOM is complete once they have run; then
    # display_cells() removes #loading (before the DOM is complete, a missing #loading means nothing).
    page.goto(f"{url}/voila/render/{notebook}", wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_selector("#loading", state="detached", timeout=60_000)
    ready = time.perf_counter() - start
    if canvases:
        page.wait_for_function(ALL_PAINTED_JS, arg=canvases, polling="raf", timeout=60_000)
    return ready, time.perf_counter() - start


def bench_loads(context, url: str, notebooks: list[str], loads: int) -> None:
    canvases, times = {}, {nb: [] for nb in notebooks}
    for notebook in notebooks:  # warm-up: counts the canvases, fills the browser and disk caches
        page = context.new_page()
        open_lesson(page, url, notebook, wait_for=None)
        try:
            canvases[notebook] = wait_for_canvases(page, timeout_ms=5_000) if notebook != EMPTY else 0
        except AssertionError:  # a page without widgets (the landing page, a rules summary)
            canvases[notebook] = 0
        page.close()
    for _ in range(loads):
        for notebook in notebooks:
            page = context.new_page()
            times[notebook].append(load_seconds(page, url, notebook, canvases[notebook]))
            page.close()

    empty = statistics.median(t for _, t in times[EMPTY])
    print(f"\nPage load, median of {loads} (s)   target: lesson / empty <= {LOAD_RATIO_TARGET}")
    print(f"{'page':<36}{'canvases':>9}{'#loading gone':>15}{'painted':>9}{'/ empty':>9}")
    for notebook in notebooks:
        ready, painted = (statistics.median(column) for column in zip(*times[notebook]))
        ratio = painted / empty
        mark = "" if notebook == EMPTY else ("  ok" if ratio <= LOAD_RATIO_TARGET else "  OVER TARGET")
        shown = f"{painted:.2f}" if canvases[notebook] else "-"
        print(f"{notebook:<36}{canvases[notebook]:>9}{ready:>15.2f}{shown:>9}{ratio:>9.2f}{mark}")


def next_button(race):
    """The learner's next click: draw for a rider, else play the first card, else the next step, else Restart."""
    for button in race.get_by_role("button", name="Draw 4 for").all():
        if button.is_enabled():
            return "draw", button
    card = race.locator(".tutor-card-button").first
    if card.is_enabled():
        return "card", card
    step = race.get_by_role("button", name="Next step")
    return ("next step", step) if step.is_enabled() else ("restart", race.get_by_role("button", name="Restart"))


def bench_clicks(context, url: str, clicks: int) -> None:
    results: dict[str, list[tuple[float, float]]] = {}
    unchanged: list[str] = []

    def measure(page, kind: str, button, told) -> None:
        first, last = button.evaluate(CLICK_JS, [600, 2_000])
        page.wait_for_timeout(200)  # let the status and narration land before reading the buttons again
        if first is None:
            unchanged.append(f"{kind}: {told.inner_text()!r}")
        else:
            results.setdefault(kind, []).append((first, last))

    page = context.new_page()
    open_lesson(page, url, RACE_LESSON)
    wait_for_paint(page)
    race = page.locator(".tutor-race")
    for _ in range(clicks):
        kind, button = next_button(race)
        measure(page, kind, button, race.locator(".tutor-log"))
    page.close()

    page = context.new_page()
    open_lesson(page, url, QUIZ_LESSON)
    wait_for_paint(page, index=2)
    quiz = page.locator(".tutor-quiz").nth(1)  # where red-R ends (its Try again shows another position)
    for _ in range(max(1, clicks // 4)):
        quiz.locator("select").select_option(label="square 12")
        measure(page, "quiz reveal", quiz.get_by_role("button", name="Reveal"), quiz)
        measure(page, "quiz retry", quiz.get_by_role("button", name="Try again"), quiz)
    page.close()

    report_clicks(
        f"{clicks} clicks on the RaceTutor of {RACE_LESSON}, Reveal / Try again on the quiz of {QUIZ_LESSON}",
        results,
        unchanged,
    )


def report_clicks(what: str, results: dict[str, list[tuple[float, float]]], unchanged: list[str]) -> None:
    """Print the click-to-canvas table (per kind of click and for all) and whether the targets are met."""
    print(
        f"\nClick to canvas: {what} (ms)\n"
        f"targets: median response < {MEDIAN_CLICK_TARGET_MS}, worst < {WORST_CLICK_TARGET_MS}"
    )
    print(f"{'click':<13}{'n':>4}{'median first change':>21}{'worst':>8}{'median last change':>20}{'worst':>8}")
    rows = [*results.items(), ("all", [r for rs in results.values() for r in rs])]
    for kind, rs in rows:
        firsts, lasts = [f for f, _ in rs], [last for _, last in rs]
        print(
            f"{kind:<13}{len(rs):>4}{statistics.median(firsts):>21.0f}{max(firsts):>8.0f}"
            f"{statistics.median(lasts):>20.0f}{max(lasts):>8.0f}"
        )
    for click in unchanged:
        print("a click that left the canvas unchanged for 2 s (then the page said):", click)
    firsts = [f for f, _ in rows[-1][1]]
    verdict = statistics.median(firsts) < MEDIAN_CLICK_TARGET_MS and max(firsts) < WORST_CLICK_TARGET_MS
    print("response targets:", "met" if verdict else "NOT met")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3, help="timed loads per page (after one warm-up)")
    parser.add_argument("--clicks", type=int, default=20)
    args = parser.parse_args()
    run(
        lambda site: sorted(
            str(p.relative_to(site)) for p in site.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
        ),  # the landing page and every game
        lambda context, url: bench_clicks(context, url, args.clicks),
        args.loads,
    )
    return 0


def run(pages, clicks, loads: int) -> None:
    """Serve a copy of lessons/ plus an empty notebook with Voila, time the loads of ``pages(site)`` and the empty
    notebook, then call ``clicks(context, url)``; everything is stopped at the end."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "lessons"
        shutil.copytree(LESSONS, site)
        empty = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")])
        empty.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(empty, site / EMPTY)
        notebooks = [EMPTY] + [page for page in pages(site) if page != EMPTY]
        servers = VoilaServers(Path(tmp))
        try:
            url = servers(site)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.route(NOT_LOCAL, lambda route: route.abort())
                bench_loads(context, url, notebooks, loads)
                clicks(context, url)
                browser.close()
        finally:
            servers.stop_all()


if __name__ == "__main__":
    sys.exit(main())
