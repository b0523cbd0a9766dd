"""How fast the pages without a board open: the landing page, a game's welcome page and the rules summaries.

For each page and for an empty notebook (one empty code cell: the kernel's start and Voila's own work, the floor
no page can beat), the seconds from the request to the first byte, to the last byte (the kernel has run every
cell) and to the lesson shown (Voila shows the cells, the page's links are in place), median of N loads after one
warm-up; the pages' loads alternate, so a busy machine slows them alike. The figure to watch is a page's
"shown" minus the empty notebook's: what the page's own cells cost. Target (quiet machine): shown < 2 s.

Voila runs a temporary copy of lessons/ (plus empty.ipynb) with the test harness's settings.

Run: ``python benchmarks/bench_text_pages.py [--loads 5]``
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

from conftest import CHROMIUM, CHROMIUM_ARGS, LESSONS, VoilaServers  # noqa: E402

EMPTY = "empty.ipynb"
PAGES = (EMPTY, "index.ipynb", "flamme_rouge/00_welcome.ipynb", "flamme_rouge/rules_summary.ipynb",
         "flamme_rouge/rules_summary_peloton.ipynb")
TARGET_S = 2.0
SHOWN_JS = """() => {
    const cells = document.querySelector('#rendered_cells');
    return cells && getComputedStyle(cells).display !== 'none'
        && (document.querySelector('.tutor-nav, .tutor-lesson-list') || !document.querySelector('.jp-MarkdownCell'));
}"""


def load(context, url: str, notebook: str) -> tuple[float, float, float]:
    """Seconds to the first byte, the last byte and the page shown."""
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(f"{url}/voila/render/{notebook}", wait_until="commit", timeout=120_000)
        page.wait_for_function(SHOWN_JS, timeout=120_000, polling=20)
        shown = time.perf_counter() - start
        first, last = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                                    " return [n.responseStart / 1000, n.responseEnd / 1000]; }")
        return first, last, shown
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "lessons"
        shutil.copytree(LESSONS, root)
        empty = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")])
        empty.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(empty, root / EMPTY)
        servers = VoilaServers(Path(tmp))
        url = servers(root)
        times: dict[str, list[tuple[float, float, float]]] = {page: [] for page in PAGES}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context()
                for page in PAGES:
                    load(context, url, page)  # warm-up
                for _ in range(args.loads):
                    for page in PAGES:
                        times[page].append(load(context, url, page))
                browser.close()
        finally:
            servers.stop_all()
    floor = statistics.median(t[2] for t in times[EMPTY])
    print(f"{'page':42s} {'first byte':>10s} {'last byte':>10s} {'shown':>7s} {'- empty':>8s}   (median of "
          f"{args.loads}, seconds)")
    for page, loads in times.items():
        first, last, shown = (statistics.median(t[i] for t in loads) for i in range(3))
        mark = "" if page == EMPTY else ("  ok" if shown < TARGET_S else f"  over {TARGET_S:.0f} s")
        print(f"{page:42s} {first:10.2f} {last:10.2f} {shown:7.2f} {shown - floor:8.2f}{mark}")


if __name__ == "__main__":
    main()
