"""How fast the pages without a board open: the landing page, the welcome pages and the rules summaries.

1. A crowd (the default): 20 and 60 learners open each such page at the same moment (plain HTTP requests; the
   page's text is all in its HTML). For each page and crowd: the worst and median seconds to the whole page, and
   the kernels started meanwhile (from the server's log), and the requests that failed. Targets: worst under 2 s,
   no kernel started.
   ``--before`` also times the crowd of 20 on Voila's own path with a kernel per learner (``?theme=light``: what
   every page cost before tutor.server.text_pages), for the landing page and a rules summary; those kernels are
   shut down after each page. Routes: ``--route serve`` (``rules-tutor serve``, the default), ``class``
   (``--class-size 30``), ``hub`` (Jupyter Server with the learner servers' settings and the server extension, as
   on JupyterHub and Binder: each page is rendered when first asked for, so one request per page comes first).
2. ``--browser``: the page-load part of ``bench_browser.py`` for these pages only: for each, and for an empty
   notebook, the seconds from the request to Voila's ``#loading`` gone, median of N loads after one warm-up.

Run: ``python benchmarks/bench_text_pages.py [--route serve|class|hub] [--crowds 20 60] [--before]``
     ``python benchmarks/bench_text_pages.py --browser [--loads 5]``
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LESSONS = REPO / "lessons"
sys.path.insert(0, str(REPO))
from tutor.server.text_pages import text_pages_in  # noqa: E402

TEXT_PAGES = text_pages_in(LESSONS)
BEFORE_PAGES = ["index.ipynb", "flamme_rouge/rules_summary.ipynb"]
WORST_TARGET_S = 2.0
START_TIMEOUT_S = 300
CONFIG = re.compile(r'id="jupyter-config-data"[^>]*>(.*?)</script>', re.S)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, route: str, folder: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = folder / "server.log"
        env = dict(os.environ)
        if route == "hub":
            env.update(
                JUPYTER_CONFIG_PATH=str(REPO / "deploy/jupyterhub/singleuser"),
                JUPYTER_PATH=str(REPO / "tutor/voila_template"),
            )
            command = [
                sys.executable,
                "-m",
                "jupyter_server",
                "--no-browser",
                "--allow-root",
                f"--port={port}",
                "--ServerApp.ip=127.0.0.1",
                "--IdentityProvider.token=",
                f"--ServerApp.root_dir={LESSONS}",
            ]
        else:
            command = [sys.executable, "-m", "tutor", "serve", str(LESSONS), f"--port={port}"]
            if route == "class":
                command += ["--class-size=30", f"--class-db={folder / 'class.sqlite3'}"]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        ready = "extension was successfully loaded" if route == "hub" else "Pages without a board ready"
        self.wait_for(lambda: ready in self.log() and self.answers(), f"the server ({route})")
        if route == "hub":  # a learner's server renders each page when first asked for
            for page in TEXT_PAGES:
                self.get(f"/voila/render/{page}")

    def wait_for(self, condition, what: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not condition():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start:\n{self.log()[-3000:]}")
            time.sleep(0.3)

    def answers(self) -> bool:
        try:
            urllib.request.urlopen(self.url + "/", timeout=5).close()
            return True
        except OSError:
            return False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kernels_started(self) -> int:
        return self.log().count("Kernel started")

    def get(self, path: str, opener=None) -> str:
        with (opener or urllib.request.build_opener()).open(self.url + path, timeout=600) as reply:
            return reply.read().decode()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)


def crowd(server: Server, path: str, learners: int) -> tuple[list[float], list[str]]:
    """``learners`` GETs of ``path`` released at once: each one's seconds, and each one's page."""
    barrier = threading.Barrier(learners)
    seconds: list[float] = [0.0] * learners
    pages: list[str] = [""] * learners
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))

    def learner(k: int) -> None:
        barrier.wait()
        start = time.perf_counter()
        try:
            pages[k] = server.get(path, opener)
        except OSError as error:  # "the class is full" (503) among them: the figures say how many
            pages[k] = f"failed: {error}"
        seconds[k] = time.perf_counter() - start

    threads = [threading.Thread(target=learner, args=(k,)) for k in range(learners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if "?" in path:  # Voila's path: shut the crowd's kernels down as their pages would when closed
        token = next((cookie.value for cookie in cookies if cookie.name == "_xsrf"), "")
        for page in pages:
            if not CONFIG.search(page):
                continue
            kernel = json.loads(CONFIG.search(page)[1])["kernelId"]
            request = urllib.request.Request(
                f"{server.url}/voila/api/shutdown/{kernel}",
                method="POST",
                data=urllib.parse.urlencode({"_xsrf": token}).encode(),
            )
            try:
                opener.open(request, timeout=60).close()
            except OSError:
                pass
    return seconds, pages


def report(what: str, seconds: list[float], pages: list[str], started: int) -> None:
    worst = max(seconds)
    failed = sum(1 for page in pages if page.startswith("failed: "))
    verdict = "ok" if worst < WORST_TARGET_S and started == 0 and not failed else "MISSED"
    print(
        f"{what:70s} worst {worst:5.2f} s  median {statistics.median(seconds):5.2f} s  "
        f"kernels started {started:3d}  failed {failed:2d}  [{verdict}]",
        flush=True,
    )


def bench_crowds(route: str, crowds: list[int], before: bool) -> None:
    print(f"Route: {route}; target: worst under {WORST_TARGET_S} s and no kernel started", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-text-pages-") as tmp:
        server = Server(route, Path(tmp))
        try:
            for learners in crowds:
                for page in TEXT_PAGES:
                    started = server.kernels_started()
                    seconds, pages = crowd(server, f"/voila/render/{page}", learners)
                    report(
                        f"after:  {learners} learners open {page}", seconds, pages, server.kernels_started() - started
                    )
            if before:
                for page in BEFORE_PAGES:
                    started = server.kernels_started()
                    seconds, pages = crowd(server, f"/voila/render/{page}?theme=light", 20)
                    report(
                        f"before: 20 learners open {page} (a kernel each)",
                        seconds,
                        pages,
                        server.kernels_started() - started,
                    )
        finally:
            server.stop()


def bench_browser(loads: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_browser import run

    run(lambda site: TEXT_PAGES, lambda context, url: None, loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--route", choices=["serve", "class", "hub"], default="serve")
    parser.add_argument("--crowds", type=int, nargs="+", default=[20, 60])
    parser.add_argument("--before", action="store_true", help="also time Voila's own path (a kernel each)")
    parser.add_argument("--browser", action="store_true", help="page loads in Chromium instead")
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    if args.browser:
        bench_browser(args.loads)
    else:
        bench_crowds(args.route, args.crowds, args.before)


if __name__ == "__main__":
    main()
