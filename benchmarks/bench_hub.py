"""JupyterHub figures: how long a learner waits from "Sign in" to a painted lesson, and what a learner costs in memory.

deploy/jupyterhub's hub runs on free ports with a scratch state folder (tests/browser/hub_page.py, as the hub test
runs it). Each learner follows a teacher's link to a lesson (/hub/user-redirect/voila/render/<lesson>), signs in,
and waits while the hub starts their server, which opens the lesson; the time runs from the click on "Sign in" to
the lesson's first canvas painted in Chromium. First one learner alone, then N learners signing in at once.
Then, with every learner's lesson open, the memory of each learner's server and of each lesson kernel (RSS, and
PSS: shared library pages counted once), and of the hub with its proxy.

Run: ``python benchmarks/bench_hub.py [--learners 5] [--lesson flamme_rouge/02_energy_phase.ipynb]``
Needs JupyterHub and configurable-http-proxy (``bash scripts/test`` installs both).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from hub_page import PASSWORD, PROXY_VERSION, Hub, missing  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
TIMEOUT_S = 300
# In every document of a learner's tab: the wall-clock time at which the lesson page arrived and at which its first
# canvas had painted pixels (checked every 50 ms), so that the figures do not depend on the order pages are read in.
WATCH_JS = """(() => {
    if (!location.pathname.includes('/voila/render/')) return;
    window.__arrivedAt = Date.now();
    const timer = setInterval(() => {
        const canvas = document.querySelector('canvas');
        if (!canvas || !canvas.width) return;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4)
            if (data[i]) { window.__paintedAt = Date.now(); clearInterval(timer); return; }
    }, 50);
})()"""


def sign_in_all(browser, hub: Hub, names: list[str], lesson: str) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds from each learner's click on "Sign in" to their lesson's page arriving (their server started and
    ran the lesson) and to its board painted; all click one after the other at once."""
    pages, clicked = {}, {}
    for name in names:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(WATCH_JS)
        page = context.new_page()
        page.goto(f"{hub.url}/hub/user-redirect/voila/render/{lesson}")
        page.fill("#username_input", name)
        page.fill("#password_input", PASSWORD)
        pages[name] = page
    for name, page in pages.items():
        clicked[name] = time.time()
        page.click("#login_submit", no_wait_after=True)
    arrived: dict[str, float] = {}
    painted: dict[str, float] = {}
    deadline = time.monotonic() + TIMEOUT_S
    while len(painted) < len(pages):
        if time.monotonic() > deadline:
            raise SystemExit(f"not painted within {TIMEOUT_S} s: {sorted(set(pages) - set(painted))}\n{hub.log()}")
        for name, page in pages.items():
            if name in painted:
                continue
            try:
                times = page.evaluate("[window.__arrivedAt || null, window.__paintedAt || null]")
            except Exception:  # the page is navigating (spawn page -> lesson): look again
                continue
            if times[1]:
                arrived[name] = times[0] / 1000 - clicked[name]
                painted[name] = times[1] / 1000 - clicked[name]
        next(iter(pages.values())).wait_for_timeout(250)
    return arrived, painted


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of ``pid`` in MiB, from /proc/<pid>/smaps_rollup."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return fields.get("Rss", 0.0), fields.get("Pss", 0.0)


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far (user + system)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def learner_processes(hub: Hub) -> tuple[list[int], list[int], list[int]]:
    """The hub's descendants sorted into learner servers, lesson kernels and the rest (the proxy)."""
    servers, kernels, others = [], [], []
    for pid in hub.processes():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ipykernel_launcher" in command:
            kernels.append(pid)
        elif b"jupyterhub-singleuser" in command:
            servers.append(pid)
        else:
            others.append(pid)
    return servers, kernels, others


def summary(label: str, values: list[float], unit: str = "MiB") -> str:
    digits = 1 if unit == "s" else 0
    return (
        f"{label}: median {statistics.median(values):.{digits}f} {unit}, "
        f"range {min(values):.{digits}f}-{max(values):.{digits}f} (n={len(values)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=5, help="learners signing in at once (default 5)")
    parser.add_argument("--lesson", default="flamme_rouge/02_energy_phase.ipynb")
    args = parser.parse_args()
    problem = missing()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    import jupyterhub

    print(
        f"JupyterHub {jupyterhub.__version__}, configurable-http-proxy {PROXY_VERSION}, lesson {args.lesson}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-hub-") as scratch, sync_playwright() as playwright:
        hub = Hub(Path(scratch) / "state")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            arrived, painted = sign_in_all(browser, hub, ["solo"], args.lesson)
            print(
                f"1 learner: sign-in to lesson page {arrived['solo']:.1f} s, to painted lesson {painted['solo']:.1f} s"
            )
            names = [f"learner{i}" for i in range(1, args.learners + 1)]
            arrived, painted = sign_in_all(browser, hub, names, args.lesson)
            for label, found in (("lesson page", arrived), ("painted lesson", painted)):
                times = sorted(found.values())
                print(
                    f"{args.learners} learners at once: sign-in to {label} median {statistics.median(times):.1f} s,"
                    f" first {times[0]:.1f} s, last {times[-1]:.1f} s"
                )
            print(f"load average now {os.getloadavg()[0]:.1f}")
            servers, kernels, others = learner_processes(hub)
            server_memory = [memory_mib(pid) for pid in servers]
            kernel_memory = [memory_mib(pid) for pid in kernels]
            print(
                summary("learner server RSS", [rss for rss, _ in server_memory])
                + "; "
                + summary("PSS", [pss for _, pss in server_memory])
            )
            print(
                summary("lesson kernel RSS", [rss for rss, _ in kernel_memory])
                + "; "
                + summary("PSS", [pss for _, pss in kernel_memory])
            )
            per_learner = (
                sum(rss for rss, _ in server_memory + kernel_memory) / len(servers),
                sum(pss for _, pss in server_memory + kernel_memory) / len(servers),
            )
            print(
                f"per learner with one lesson open: {per_learner[0]:.0f} MiB RSS, {per_learner[1]:.0f} MiB PSS "
                f"({len(servers)} servers, {len(kernels)} kernels)"
            )
            print(
                summary("CPU used by a learner server so far", [cpu_seconds(pid) for pid in servers], "s")
                + "; "
                + summary("by a lesson kernel", [cpu_seconds(pid) for pid in kernels], "s")
            )
            hub_rss = memory_mib(hub.process.pid)[0] + sum(memory_mib(pid)[0] for pid in others)
            print(f"hub and proxy: {hub_rss:.0f} MiB RSS")
        finally:
            browser.close()
            if hub.stop():
                print(f"still running after the hub stopped: {sorted(hub.left)}", file=sys.stderr)
            hub.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
