"""A whole course on one Binder: every page of the landing page in order, as a learner goes through them, with
the server's kernels and memory after each page.

The Binder route is simulated as tests/browser/test_binder.py does (tests/browser/binder_route.py: the Binder
pins in a cached scratch environment, binder/postBuild, ``jupyter lab`` under ``/user/<name>/``). Chromium opens
the README badge's page, then each lesson it links to: it waits until the page has run and its boards have
painted, notes the figures, and leaves for the next one (as a learner clicking on). Memory is the RSS of the
server and every process under it (the kernels). mybinder.org gives a server 1-2 GB: the end must stay under 1 GB.

Run: ``python benchmarks/bench_course.py [--today-settings]``; ``--today-settings`` runs without what postBuild
writes from tutor/server/server_settings.py (the Binder route before issue 29), to compare.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from binder_route import badge_urlpath, start_binder  # noqa: E402
from voila_page import LOAD_TIMEOUT_MS, wait_for_paint  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
LIMIT_MB = 1024


def rss_mb(pid: int) -> float:
    """RSS of ``pid`` and every process under it, in MB."""
    from tutor.server.process import descendants

    total_kb = 0
    for each in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{each}/status") as status:
                total_kb += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
        except OSError:
            continue
    return total_kb / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--today-settings",
        action="store_true",
        help="without the server settings postBuild writes (the route before issue 29)",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-course-"))
    binder = start_binder(work, server_settings=not args.today_settings)
    figures = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.route(lambda url: not url.startswith(binder.origin + "/"), lambda route: route.abort())
            page = context.new_page()
            landing = binder.link(badge_urlpath())
            page.goto(landing, timeout=LOAD_TIMEOUT_MS)
            page.wait_for_selector("a[href$='.ipynb']", timeout=LOAD_TIMEOUT_MS)
            links = list(dict.fromkeys(page.eval_on_selector_all("a[href$='.ipynb']", "a => a.map(l => l.href)")))
            print(
                f"settings: {'today (none written)' if args.today_settings else 'tutor/server/server_settings.py'}; "
                f"{len(links)} pages; server pid {binder.process.pid}"
            )
            print(f"{'page':<44} {'kernels':>7} {'MB':>7} {'s':>6}", flush=True)
            for number, link in enumerate(links, 1):
                start = time.monotonic()
                page.goto(link, timeout=LOAD_TIMEOUT_MS)
                page.wait_for_selector("#loading", state="hidden", timeout=LOAD_TIMEOUT_MS)
                if page.locator("canvas").count():
                    wait_for_paint(page)
                took = time.monotonic() - start
                name = link.split("/voila/render/lessons/")[-1]
                kernels, memory = len(binder.kernels()), rss_mb(binder.process.pid)
                figures.append((kernels, memory))
                print(f"{number:>2} {name:<41} {kernels:>7} {memory:>7.0f} {took:>6.1f}", flush=True)
            page.goto(landing, timeout=LOAD_TIMEOUT_MS)  # the learner leaves the last page
            page.wait_for_selector("a[href$='.ipynb']", timeout=LOAD_TIMEOUT_MS)
            deadline = time.monotonic() + 10  # the last page's kernel goes (or, without the settings, stays)
            while len(binder.kernels()) > 1 and time.monotonic() < deadline:
                time.sleep(0.2)
            kernels, memory = len(binder.kernels()), rss_mb(binder.process.pid)
            print(f"   {'back on the landing page':<41} {kernels:>7} {memory:>7.0f}")
            context.close()
            browser.close()
    finally:
        left = binder.stop()
    peak = max(memory for _, memory in figures)
    print(
        f"most kernels at once: {max(k for k, _ in figures)}; peak {peak:.0f} MB; at the end {memory:.0f} MB "
        f"({'under' if memory < LIMIT_MB else 'OVER'} {LIMIT_MB} MB); left running after stop: {len(left)}"
    )
    return 0 if memory < LIMIT_MB and not left else 1


if __name__ == "__main__":
    sys.exit(main())
