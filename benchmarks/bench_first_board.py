"""How long a learner waits for a lesson's board, and where that time goes, before and after a change.

For each numbered lesson of both games, Chromium opens the page on a Voila server (the harness's settings, a
fresh kernel per load, as for one learner outside class mode) and the page records, from the navigation's start:
when ``#loading`` went, when the first <canvas> appeared and when a canvas first had painted pixels (the board
the learner sees). The kernel records its own side through an IPython startup file (kernel_timing_startup.py):
when its process started and was ready, each cell's execution, the imports done by the cells (of which
ipywidgets + ipycanvas) and the comm messages (the widgets' state requests, ipycanvas' client_ready) handled
before the first paint. Each load's kernel is shut down once the board has painted.

With ``--before PATH`` (default: /work/main when it exists) a second server runs that tree's code, lessons and
voila.json (its kernels import that tree's ``tutor``), and the loads alternate between the two trees lesson by
lesson, so that a busy machine slows both alike; the table then shows before, after and the ratio of the medians.
It prints figures and asserts nothing; note the machine's load (printed from /proc/loadavg) beside them.

By default each lesson is opened from a link with no lesson open (the server's voila.json alone). With
``--next`` each is opened as a learner alone comes to it, by Next from the page before (opened untimed, and read
until the server has prepared the lesson, ``tutor.server.next_lesson``).

Run: ``python benchmarks/bench_first_board.py [--loads 3] [--before /work/main] [--only flanders/03] [--next]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STARTUP_FILE = Path(__file__).resolve().parent / "kernel_timing_startup.py"
GAMES = ("flamme_rouge", "flanders")
LOAD_TIMEOUT_S = 120
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    # Other hosts are unreachable (a lesson must not need them). Not Playwright's routing: a routed
    # context has no HTTP cache, and a learner's browser keeps Voila's scripts between lessons.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]
FREE_CLOSED_PAGES = ["--MappingKernelManager.cull_idle_timeout=90", "--MappingKernelManager.cull_interval=15"]

# Runs in the page from its start: at every animation frame until a canvas has painted pixels, note (in ms from
# the navigation's start) when #loading went, when the first canvas appeared and when one first had pixels.
PAGE_TIMES_JS = """(() => {
    const times = window.__firstBoard = {loadingGone: null, firstCanvas: null, firstPaint: null};
    let sawLoading = false;
    const painted = canvas => {
        if (!canvas.width || !canvas.height) return false;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i]) return true;
        return false;
    };
    const look = () => {
        const now = performance.now();
        if (document.getElementById('loading')) sawLoading = true;
        else if (sawLoading && times.loadingGone === null) times.loadingGone = now;
        const canvases = [...document.querySelectorAll('canvas')];
        if (canvases.length && times.firstCanvas === null) times.firstCanvas = now;
        if (canvases.some(painted)) { times.firstPaint = now; return; }
        requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
})()"""

SHUTDOWN_JS = """async () => {
    const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
    const xsrf = (document.cookie.match(/(?:^|; )_xsrf=([^;]*)/) || [])[1] || '';
    await fetch(`${config.baseUrl}voila/api/shutdown/${config.kernelId}`,
                {method: 'POST', headers: {'X-XSRFToken': decodeURIComponent(xsrf)}});
}"""

COLUMNS = [  # (key, heading, width)
    ("launch", "kernel launched", 9),
    ("kernel", "kernel start", 8),
    ("imports", "cell imports", 8),
    ("widgets", "of which ipywidgets+ipycanvas", 8),
    ("cells", "all cells", 8),
    ("cells_done", "cells done", 8),
    ("loading", "#loading gone", 8),
    ("canvas", "first canvas", 8),
    ("comms", "comm msgs", 7),
    ("paint", "first paint", 8),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Tree:
    """One tree's Voila server: its code (on PYTHONPATH), a copy of its lessons/ and its voila.json."""

    def __init__(self, label: str, root: Path, tmp: Path, next_lesson: bool) -> None:
        self.label, self.root = label, root
        self.site = tmp / label / "lessons"
        shutil.copytree(root / "lessons", self.site)
        self.times = tmp / label / "times"
        self.times.mkdir()
        ipython = tmp / label / "ipython"
        (ipython / "profile_default" / "startup").mkdir(parents=True)
        shutil.copy(STARTUP_FILE, ipython / "profile_default" / "startup" / "00-bench-timing.py")
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log = tmp / label / "voila.log"
        environment = {
            **os.environ,
            "PYTHONPATH": str(root),
            "IPYTHONDIR": str(ipython),
            "TUTOR_BENCH_TIMES": str(self.times),
        }
        command = [
            sys.executable,
            "-m",
            "tutor.server",
            str(self.site),
            f"--port={port}",
            "--no-browser",
            f"--Voila.config_file_paths={self.settings(root, tmp / label, next_lesson)}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            *FREE_CLOSED_PAGES,
        ]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=root,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 180
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{label}: Voila exited:\n{self.log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"{label}: Voila did not answer:\n{self.log.read_text()}") from None
                time.sleep(0.2)

    @staticmethod
    def settings(root: Path, folder: Path, next_lesson: bool) -> Path:
        """The folder of the voila.json this tree serves with: its own, or with ``--next`` what ``rules-tutor
        serve`` adds for a learner alone (a tree without the next-lesson preparation ignores that part)."""
        if not next_lesson:
            return root
        from tutor.server.next_lesson import learner_alone_settings
        from tutor.server.process import write_settings

        return write_settings(learner_alone_settings(json.loads((root / "voila.json").read_text())), folder / "config")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)
            self.process.wait()

    def kernel_times(self, kernel_id: str) -> dict | None:
        path = self.times / f"{kernel_id}.json"
        for _ in range(50):
            try:
                return json.loads(path.read_text())
            except (OSError, ValueError):
                time.sleep(0.1)
        return None


def load(context, tree: Tree, notebook: str) -> dict[str, float | None]:
    """Open ``notebook`` once; the figures of this load in seconds from the navigation's start."""
    page = context.new_page()
    page.add_init_script(PAGE_TIMES_JS)
    try:
        page.goto(f"{tree.url}/voila/render/{notebook}", wait_until="commit", timeout=LOAD_TIMEOUT_S * 1000)
        page.wait_for_function(
            """() => { const t = window.__firstBoard;
                       return t && (t.firstPaint !== null || (t.loadingGone !== null
                              && performance.now() - t.loadingGone > 3000 && !document.querySelector('canvas'))); }""",
            timeout=LOAD_TIMEOUT_S * 1000,
            polling=100,
        )
        origin = page.evaluate("performance.timeOrigin") / 1000
        client = page.evaluate("window.__firstBoard")
        kernel_id = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
        kernel = tree.kernel_times(kernel_id) or {}
        page.evaluate(SHUTDOWN_JS)
    finally:
        page.close()
    seconds = {key: (value / 1000 if value is not None else None) for key, value in client.items()}
    row: dict[str, float | None] = {
        "loading": seconds["loadingGone"],
        "canvas": seconds["firstCanvas"],
        "paint": seconds["firstPaint"],
    }
    cells = [cell for cell in kernel.get("cells", []) if cell[2] is not None]
    row["launch"] = kernel["process_start"] - origin if kernel.get("process_start") else None
    row["kernel"] = kernel["startup"] - kernel["process_start"] if kernel.get("process_start") else None
    row["imports"] = sum(seconds for _, seconds in kernel.get("imports", [])) if kernel else None
    nested = kernel.get("nested", {})
    row["widgets"] = nested.get("ipywidgets", 0.0) + nested.get("ipycanvas", 0.0) if kernel else None
    row["cells"] = sum(end - start for _, start, end in cells) if cells else None
    row["cells_done"] = cells[-1][2] - origin if cells else None
    paint_at = origin + (row["paint"] or 0)
    comms = [end - start for start, end in kernel.get("comm_msgs", []) if cells and cells[-1][2] <= start <= paint_at]
    row["comms"] = sum(comms) if comms else (0.0 if kernel else None)
    row["cell_list"] = [end - start for _, start, end in cells]  # type: ignore[assignment]
    return row


def come_from(context, tree: Tree, previous: str, notebook: str) -> None:
    """Open ``previous`` (untimed) as a learner reading it before pressing Next, and wait until the tree has
    prepared ``notebook`` if it prepares next lessons (``tutor.server.next_lesson``); close it."""
    page = context.new_page()
    try:
        page.goto(f"{tree.url}/voila/render/{previous}", timeout=LOAD_TIMEOUT_S * 1000)
        page.wait_for_selector("#loading", state="hidden", timeout=LOAD_TIMEOUT_S * 1000)
        deadline = time.monotonic() + LOAD_TIMEOUT_S
        while time.monotonic() < deadline:
            log = tree.log.read_text()
            preparing = log.rfind(f"Preparing the next lesson: {notebook}")
            if preparing < 0 or f"Kernel pool of {notebook} is filled" in log[preparing:]:
                break
            time.sleep(0.2)
        page.evaluate(SHUTDOWN_JS)
    finally:
        page.close()


def median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value: float | None, width: int) -> str:
    return f"{value:>{width}.2f}" if value is not None else f"{'-':>{width}}"


def report(notebooks: list[str], trees: list[Tree], results: dict, loads: int) -> None:
    with open("/proc/loadavg") as loadavg:
        load_now = " ".join(loadavg.read().split()[:3])
    print(
        f"\nFirst board, median of {loads} loads (s from the navigation's start, except 'kernel start', "
        f"'cell imports', 'all cells' and 'comm msgs', which are durations); load average now: {load_now}"
    )
    for key, heading, _ in COLUMNS:
        print(f"  {key:<10} {heading}")
    header = f"{'lesson':<42}{'tree':<7}" + "".join(f"{key:>{width + 1}}" for key, _, width in COLUMNS)
    print(header + "  cells (s each)")
    ratios = []
    for notebook in notebooks:
        for tree in trees:
            rows = results[(tree.label, notebook)]
            line = f"{notebook.removesuffix('.ipynb'):<42}{tree.label:<7}"
            line += "".join(" " + fmt(median([r[key] for r in rows]), width) for key, _, width in COLUMNS)
            cell_lists = [r["cell_list"] for r in rows if r["cell_list"]]
            if cell_lists:
                count = min(len(c) for c in cell_lists)
                line += "  " + " ".join(f"{median([c[i] for c in cell_lists]):.2f}" for i in range(count))
            print(line)
        if len(trees) == 2:
            before, after = (median([r["paint"] for r in results[(t.label, notebook)]]) for t in trees)
            if before and after:
                ratios.append(after / before)
                print(f"{'':<42}{'ratio':<7}{'after / before of the first paint:':>60}{after / before:>8.2f}")
    if ratios:
        print(
            f"\nmedian ratio after / before of the first paint over {len(ratios)} lessons: "
            f"{statistics.median(ratios):.2f}"
        )
    for tree in trees:
        paints = [median([r["paint"] for r in results[(tree.label, nb)]]) for nb in notebooks]
        paints = [p for p in paints if p is not None]
        if paints:
            print(
                f"{tree.label}: first paint, worst lesson {max(paints):.2f} s, median lesson "
                f"{statistics.median(paints):.2f} s, lessons over 3 s: {sum(p > 3 for p in paints)}"
            )


def numbered_lessons(site: Path, only: list[str]) -> list[str]:
    notebooks = [f"{game}/{path.name}" for game in GAMES for path in sorted((site / game).glob("[0-9][0-9]_*.ipynb"))]
    return [nb for nb in notebooks if not only or any(nb.startswith(prefix) for prefix in only)]


def previous_lesson(site: Path, notebook: str) -> str:
    """The page a learner comes from to ``notebook`` by Next: the numbered page before it (00: the welcome)."""
    folder = Path(notebook).parent
    names = sorted(path.name for path in (site / folder).glob("[0-9][0-9]_*.ipynb"))
    index = names.index(Path(notebook).name)
    return str(folder / names[index - 1]) if index else str(folder / names[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3, help="timed loads per lesson and tree (after one warm-up)")
    default_before = "/work/main" if Path("/work/main/tutor").is_dir() and Path("/work/main") != REPO else None
    parser.add_argument("--before", default=default_before, help="a tree to compare with (its tutor/ and lessons/)")
    parser.add_argument("--only", nargs="*", default=[], help="lesson prefixes, e.g. flanders/03 flamme_rouge/06")
    parser.add_argument("--no-warm-up", action="store_true", help="time the first load too")
    parser.add_argument(
        "--next",
        action="store_true",
        help="each lesson opened by Next from the lesson before it (read until the tree has "
        "prepared this one), not from a link with no lesson open",
    )
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        roots = ([("before", Path(args.before).resolve())] if args.before else []) + [("after", REPO)]
        trees: list[Tree] = []
        try:
            for label, root in roots:
                trees.append(Tree(label, root, tmp, args.next))
            notebooks = numbered_lessons(trees[-1].site, args.only)
            results: dict = {(tree.label, nb): [] for tree in trees for nb in notebooks}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                if not args.no_warm_up:  # fills the browser's cache and the kernels' bytecode caches
                    for notebook in notebooks:
                        for tree in trees:
                            load(context, tree, notebook)
                for run in range(args.loads):
                    for notebook in notebooks:
                        for tree in trees if run % 2 == 0 else trees[::-1]:
                            if args.next:
                                come_from(context, tree, previous_lesson(tree.site, notebook), notebook)
                            results[(tree.label, notebook)].append(load(context, tree, notebook))
                    print(f"run {run + 1} of {args.loads} done", file=sys.stderr)
                browser.close()
        finally:
            for tree in trees:
                tree.stop()
        report(notebooks, trees, results, args.loads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
