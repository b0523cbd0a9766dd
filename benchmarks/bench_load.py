"""Classroom load: N learners open a lesson at the same moment against one `rules-tutor serve` on this machine.

Most learners are simulated at the protocol level, as a browser would talk to Voila: they fetch the page (Voila
starts a kernel and runs the lesson's cells while it streams the page), open the kernel's websocket, ask for the
widgets' state, tell every canvas its view is ready (the board then draws itself) and, once painted, click an
enabled button every ``--think`` seconds. A few learners (``--browsers``) are real headless Chromium pages: they
must paint every canvas and answer clicks, timed from the click to the first changed animation frame.

Printed: pages rendered, render time (median, worst) with where it went (kernel start, running the cells,
first widget sync and paint), click latency under load, memory per kernel, CPU used by the server and kernels.
Every request goes to 127.0.0.1 (Chromium aborts any other host and the run counts it as a failure); each learner
has a deadline, the run stops by itself and exits 1 if anything failed or hung.

Levers (see docs/scaling.md): ``--pool N`` preheats N kernels for the lesson as `rules-tutor serve --class-size N
--lesson L` does (Voila's preheated kernel pool, waited for before the class arrives; used kernels replaced one at
a time after a delay), ``--max-kernels K`` turns learners beyond K away with the "class is full" page,
``--set Section.key=JSON`` adds any Voila setting.

Run: ``python benchmarks/bench_load.py [--learners 20] [--browsers 3] [--pool 0] [--max-kernels 0]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "benchmarks"))

from conftest import CHROMIUM, CHROMIUM_ARGS, NOT_LOCAL  # noqa: E402

from tutor.server.class_mode import classroom_settings  # noqa: E402

from tutor.server.process import _die_with_parent, descendants, stop, voila_command  # noqa: E402

LESSON = "flamme_rouge/02_energy_phase.ipynb"
TARGET_S = 10.0
PAINTED_JS = """() => {
    const canvases = [...document.querySelectorAll('canvas')];
    return canvases.length > 0 && canvases.every(c => {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i]) return true;
        return false;
    });
}"""
# Click a button, then hash the race's canvas at every animation frame: ms to the first changed frame (or null).
CLICK_JS = """async (button, maxMs) => {
    const canvas = button.closest('.tutor-race, .tutor-quiz, .jp-OutputArea').querySelector('canvas')
        || document.querySelector('canvas');
    const context = canvas.getContext('2d');
    const hash = () => {
        const pixels = new Uint32Array(context.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
        let h = 2166136261;
        for (let i = 0; i < pixels.length; i++) h = Math.imul(h ^ pixels[i], 16777619);
        return h;
    };
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    const before = hash(), start = performance.now();
    button.click();
    for (;;) {
        await frame();
        const now = performance.now() - start;
        if (hash() !== before) return now;
        if (now > maxMs) return null;
    }
}"""


# ---------------------------------------------------------------------------------------------------- server
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def voila_settings(args: argparse.Namespace) -> dict:
    """The repository's voila.json with the levers of this run, as `rules-tutor serve --class-size` sets them."""
    settings = json.loads((REPO / "voila.json").read_text())
    if args.pool:
        settings = classroom_settings(settings, args.pool, [args.lesson])
        if args.fill_delay is not None:
            settings["VoilaKernelManager"]["fill_delay"] = args.fill_delay
    settings.setdefault("ClassroomVoila", {})["max_kernels"] = args.max_kernels
    settings["ClassroomVoila"]["refill_one_at_a_time"] = not args.refill_all_at_once
    settings["ClassroomVoila"]["pages_per_client"] = 0  # every learner here comes from 127.0.0.1, one laptop each
    for item in args.set:
        key, value = item.split("=", 1)
        section, name = key.rsplit(".", 1)
        settings.setdefault(section, {})[name] = json.loads(value)
    return settings


def process_cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of ``pid`` in MiB."""
    values = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss"):
                values[name] = int(rest.split()[0]) / 1024
    except OSError:
        return 0.0, 0.0
    return values.get("Rss", 0.0), values.get("Pss", 0.0)


def kernel_pids(server_pid: int) -> list[int]:
    pids = []
    for pid in descendants(server_pid):
        try:
            if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes():
                pids.append(pid)
        except OSError:
            pass
    return pids


class Server:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        config_dir = workdir / "config"
        config_dir.mkdir()
        (config_dir / "voila.json").write_text(json.dumps(voila_settings(args), indent=2))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "voila.log"
        command = [
            *voila_command(REPO / "lessons", self.port),
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            f"--Voila.config_file_paths={config_dir}",
        ]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )  # stops with this script, however it ends

    def wait_ready(self, timeout_s: float, kernels: int) -> float:
        """Seconds until the server answers and ``kernels`` kernels are up and the machine has settled."""
        import urllib.request

        start = deadline = time.monotonic()
        deadline += timeout_s
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"Voila exited:\n{self.log_path.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Voila did not answer:\n{self.log_path.read_text()}") from None
                time.sleep(0.2)
        # Preheated pools: wait until every pooled kernel has run the lesson (no CPU spent for a second).
        while kernels and time.monotonic() < deadline:
            pids = kernel_pids(self.process.pid)
            cpu = sum(process_cpu_s(p) for p in pids) + process_cpu_s(self.process.pid)
            time.sleep(1.0)
            cpu_after = sum(process_cpu_s(p) for p in kernel_pids(self.process.pid)) + process_cpu_s(self.process.pid)
            if len(pids) >= kernels and cpu_after - cpu < 0.05:
                break
        return time.monotonic() - start

    def cpu_s(self) -> tuple[float, float]:
        """CPU seconds used so far by the server, and by its running kernels."""
        return process_cpu_s(self.process.pid), sum(process_cpu_s(p) for p in kernel_pids(self.process.pid))

    def stop(self) -> None:
        stop(self.process)


# -------------------------------------------------------------------------------------------------- learners
class Failed(Exception):
    pass


# Browsers talk to the kernel in the "v1.kernel.websocket.jupyter.org" framing: a little-endian 64-bit count
# of offsets, the offsets, then the channel name and the JSON header, parent header, metadata and content.
SUBPROTOCOL = "v1.kernel.websocket.jupyter.org"


def message(session: str, msg_type: str, content: dict, metadata: dict | None = None) -> tuple[str, bytes]:
    """(msg_id, frame) of a shell message."""
    msg_id = uuid.uuid4().hex
    header = {
        "msg_id": msg_id,
        "username": "learner",
        "session": session,
        "msg_type": msg_type,
        "version": "5.3",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    parts = [b"shell", *(json.dumps(x).encode() for x in (header, {}, metadata or {}, content))]
    offsets = [8 * (len(parts) + 2)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return msg_id, struct.pack(f"<{len(offsets) + 1}Q", len(offsets), *offsets) + b"".join(parts)


def decode(frame: bytes) -> dict:
    """A kernel message from the websocket (v1 framing): its channel, header, parent header and content."""
    count = struct.unpack_from("<Q", frame)[0]
    offsets = struct.unpack_from(f"<{count}Q", frame, 8)
    part = [frame[offsets[i] : offsets[i + 1]] for i in range(min(count - 1, 5))]
    return {
        "channel": part[0].decode(),
        "header": json.loads(part[1]),
        "parent_header": json.loads(part[2]),
        "content": json.loads(part[4]),
    }


class SimulatedLearner:
    """A learner's browser at the protocol level (see the module docstring)."""

    def __init__(self, number: int, url: str, lesson: str) -> None:
        self.number, self.url, self.lesson = number, url, lesson
        self.marks: dict[str, float] = {}
        self.clicks: list[float] = []
        self.full = False
        self.ws = None
        self.session = uuid.uuid4().hex
        self.states: dict[str, dict] = {}
        self.pending: dict[str, asyncio.Future] = {}  # msg_id -> future resolved when the kernel is idle again

    async def open(self, start: float) -> None:
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError
        from tornado.websocket import websocket_connect

        chunks: list[bytes] = []

        def on_chunk(chunk: bytes) -> None:
            if not chunks:
                self.marks["first byte"] = time.monotonic() - start
            chunks.append(chunk)
            if "kernel started" not in self.marks and b"jupyter-config-data" in chunk:
                self.marks["kernel started"] = time.monotonic() - start

        try:
            await AsyncHTTPClient().fetch(
                f"{self.url}/voila/render/{self.lesson}",
                streaming_callback=on_chunk,
                request_timeout=300,
                connect_timeout=60,
            )
        except HTTPClientError as error:
            if error.code == 503:
                self.full = True
                self.marks["turned away"] = time.monotonic() - start
                return
            raise
        self.marks["cells run"] = time.monotonic() - start
        html = b"".join(chunks).decode()
        if 'data-mime-type="application/vnd.jupyter.stderr"' in html or '"output_type": "error"' in html:
            raise Failed(f"learner {self.number}: the lesson printed an error")
        kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', html)
        if not kernel:
            raise Failed(f"learner {self.number}: no kernel id in the page")
        self.ws = await websocket_connect(
            f"ws://127.0.0.1:{self.url.rsplit(':', 1)[1]}/api/kernels/{kernel.group(1)}/channels"
            f"?session_id={self.session}",
            max_message_size=256 * 1024 * 1024,
            subprotocols=[SUBPROTOCOL],
        )
        asyncio.get_running_loop().create_task(self._read())
        control = uuid.uuid4().hex
        await self._request(
            "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"}
        )
        await self._request("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        if not self.states:
            raise Failed(f"learner {self.number}: no widget state received")
        self.marks["widgets synced"] = time.monotonic() - start
        canvases = [cid for cid, s in self.states.items() if s["model_name"] in ("CanvasModel", "MultiCanvasModel")]
        await asyncio.gather(
            *(
                self._request(
                    "comm_msg", {"comm_id": cid, "data": {"method": "custom", "content": {"event": "client_ready"}}}
                )
                for cid in canvases
            )
        )
        self.marks["painted"] = time.monotonic() - start

    async def work(self, until: float, think_s: float) -> None:
        """Click an enabled, visible button every ``think_s`` seconds until ``until``."""
        while self.ws is not None and time.monotonic() < until:
            await asyncio.sleep(think_s)
            buttons = [
                cid
                for cid, s in self.states.items()
                if s["model_name"] == "ButtonModel"
                and not s["state"].get("disabled")
                and s["state"].get("description")
                and s["state"].get("description") != "Restart"
                and self._visible(s["state"].get("layout"))
            ]
            if buttons:
                clicked = time.monotonic()
                await self._request(
                    "comm_msg",
                    {
                        "comm_id": buttons[len(self.clicks) % len(buttons)],
                        "data": {"method": "custom", "content": {"event": "click"}},
                    },
                )
                self.clicks.append((time.monotonic() - clicked) * 1000)

    def _visible(self, layout_ref: str | None) -> bool:
        layout = self.states.get((layout_ref or "").removeprefix("IPY_MODEL_"), {}).get("state", {})
        return layout.get("display") != "none" and layout.get("visibility") != "hidden"

    async def _request(self, msg_type: str, content: dict, metadata: dict | None = None) -> None:
        msg_id, frame = message(self.session, msg_type, content, metadata)
        done = asyncio.get_running_loop().create_future()
        self.pending[msg_id] = done
        await self.ws.write_message(frame, binary=True)
        await asyncio.wait_for(done, timeout=120)

    async def _read(self) -> None:
        while True:
            frame = await self.ws.read_message()
            if frame is None:
                for future in self.pending.values():
                    if not future.done():
                        future.set_exception(Failed(f"learner {self.number}: websocket closed"))
                return
            msg = decode(frame)
            kind, content = msg["header"]["msg_type"], msg.get("content", {})
            parent = msg.get("parent_header", {}).get("msg_id")
            if kind == "comm_msg":
                data = content.get("data", {})
                if data.get("method") == "update_states":
                    for cid, state in data["states"].items():
                        self.states[cid] = state
                elif data.get("method") == "update" and content.get("comm_id") in self.states:
                    self.states[content["comm_id"]]["state"].update(data.get("state", {}))
            elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                state = content.get("data", {}).get("state", {})
                self.states[content["comm_id"]] = {"model_name": state.get("_model_name"), "state": state}
            elif kind == "status" and content.get("execution_state") == "idle" and parent in self.pending:
                future = self.pending.pop(parent)
                if not future.done():
                    future.set_result(None)
            elif kind == "status" and content.get("execution_state") in ("dead", "restarting"):
                raise Failed(f"learner {self.number}: the kernel died")

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None


class BrowserLearner:
    """A learner in headless Chromium: the page must paint every canvas and answer clicks."""

    def __init__(self, number: int, url: str, lesson: str, context) -> None:
        self.number, self.url, self.lesson, self.context = number, url, lesson, context
        self.marks: dict[str, float] = {}
        self.clicks: list[float] = []
        self.full = False
        self.page = None
        self.blocked: list[str] = []

    async def open(self, start: float) -> None:
        self.page = await self.context.new_page()
        response = await self.page.goto(f"{self.url}/voila/render/{self.lesson}", wait_until="commit", timeout=300_000)
        if response is not None and response.status == 503:
            self.full = True
            self.marks["turned away"] = time.monotonic() - start
            return
        await self.page.wait_for_selector("#loading", state="detached", timeout=300_000)
        self.marks["cells run"] = time.monotonic() - start
        await self.page.wait_for_function(PAINTED_JS, polling=50, timeout=300_000)
        self.marks["painted"] = time.monotonic() - start

    async def work(self, until: float, think_s: float) -> None:
        while self.page is not None and not self.full and time.monotonic() < until:
            await asyncio.sleep(think_s)
            button = await self._next_button()
            if button is None:
                continue
            took = await button.evaluate(CLICK_JS, 3_000)
            if took is None:
                raise Failed(f"browser learner {self.number}: a click left the board unchanged for 3 s")
            self.clicks.append(took)

    async def _next_button(self):
        race = self.page.locator(".tutor-race")
        for name in ("Draw 4 for", None, "Next step", "Finish round"):
            if name is None:
                candidates = await race.locator(".tutor-card-button").all()
            else:
                candidates = await race.get_by_role("button", name=name).all()
            for button in candidates:
                if await button.is_visible() and await button.is_enabled():
                    return button
        return None

    def close(self) -> None:
        pass


# ------------------------------------------------------------------------------------------------------- run
async def run_class(args: argparse.Namespace, server: Server) -> dict:
    from playwright.async_api import async_playwright
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=args.learners + 10)
    failures: list[str] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        learners: list = []
        for i in range(args.learners):
            if i < args.browsers:
                context = await browser.new_context(viewport={"width": 1280, "height": 900})

                async def abort(route, learner_index=i):
                    failures.append(f"browser learner {learner_index} asked for {route.request.url}")
                    await route.abort()

                await context.route(NOT_LOCAL, abort)
                learners.append(BrowserLearner(i, server.url, args.lesson, context))
            else:
                learners.append(SimulatedLearner(i, server.url, args.lesson))

        load = os.getloadavg()
        cpu_before = server.cpu_s()
        start = time.monotonic()
        opened = await asyncio.gather(
            *(asyncio.wait_for(learner.open(start), args.deadline) for learner in learners), return_exceptions=True
        )
        loaded_s = time.monotonic() - start
        cpu_loaded = server.cpu_s()
        memory = [memory_mib(pid) for pid in kernel_pids(server.process.pid)]
        until = time.monotonic() + args.work
        worked = await asyncio.gather(
            *(
                asyncio.wait_for(learner.work(until, args.think), args.work + 60)
                for learner, error in zip(learners, opened)
                if error is None
            ),
            return_exceptions=True,
        )
        for i, error in enumerate([*opened, *worked]):
            if error is not None:
                failures.append(f"{type(error).__name__}: {error}" if str(error) else repr(error))
        for learner in learners:
            learner.close()
        await browser.close()
    return {
        "learners": learners,
        "failures": failures,
        "loaded_s": loaded_s,
        "memory": memory,
        "load": load,
        "cpu": (cpu_loaded[0] - cpu_before[0], cpu_loaded[1] - cpu_before[1]),
    }


def report(args: argparse.Namespace, result: dict, ready_s: float) -> bool:
    learners = result["learners"]
    painted = [learner for learner in learners if "painted" in learner.marks]
    away = [learner for learner in learners if learner.full]
    print(
        f"\n{args.learners} learners open {args.lesson} at once ({args.browsers} in Chromium); "
        f"pool {args.pool}, max kernels {args.max_kernels or 'none'}; server ready in {ready_s:.1f} s"
    )
    print(
        f"pages rendered and painted: {len(painted)} / {args.learners}"
        + (f"; turned away with the 'class is full' page: {len(away)}" if away else "")
    )
    if away:
        print(f"  'class is full' answered in: worst {max(a.marks['turned away'] for a in away):.2f} s")
    if painted:

        def column(mark: str, who=painted) -> str:
            values = [learner.marks[mark] for learner in who if mark in learner.marks]
            return f"{statistics.median(values):6.2f} {max(values):6.2f}" if values else "     -      -"

        simulated = [learner for learner in painted if isinstance(learner, SimulatedLearner)]
        browsers = [learner for learner in painted if isinstance(learner, BrowserLearner)]
        print(f"{'seconds from the start':<40}{'median':>7}{'worst':>7}")
        for mark in ("first byte", "kernel started", "cells run", "widgets synced", "painted"):
            print(f"  {mark + ' (protocol learners)':<38}{column(mark, simulated)}")
        print(f"  {'page ready (Chromium, #loading gone)':<38}{column('cells run', browsers)}")
        print(f"  {'painted (Chromium, every canvas)':<38}{column('painted', browsers)}")
        print(f"  {'painted (all learners)':<38}{column('painted')}")
        worst = max(learner.marks["painted"] for learner in painted)
        everyone = worst <= TARGET_S and len(painted) + len(away) == args.learners
        print(f"all painted within {TARGET_S:.0f} s: {'yes' if everyone else 'NO'} (last painted at {worst:.2f} s)")
    clicks = [c for learner in learners if isinstance(learner, BrowserLearner) for c in learner.clicks]
    server_clicks = [c for learner in learners if isinstance(learner, SimulatedLearner) for c in learner.clicks]
    if clicks:
        print(
            f"click to changed canvas in Chromium while {len(painted)} learners click every {args.think:.1f} s: "
            f"n={len(clicks)} median {statistics.median(clicks):.0f} ms, worst {max(clicks):.0f} ms"
        )
    if server_clicks:
        print(
            f"click to kernel idle (protocol learners): n={len(server_clicks)} median "
            f"{statistics.median(server_clicks):.0f} ms, worst {max(server_clicks):.0f} ms"
        )
    if result["memory"]:
        rss = [r for r, _ in result["memory"]]
        pss = [p for _, p in result["memory"]]
        print(
            f"memory per kernel ({len(rss)} kernels): RSS median {statistics.median(rss):.0f} MiB, "
            f"PSS median {statistics.median(pss):.0f} MiB (PSS shares the libraries' pages)"
        )
    print(
        f"CPU while loading: server {result['cpu'][0]:.1f} s, running kernels {result['cpu'][1]:.1f} s "
        f"(in {result['loaded_s']:.1f} s of wall time on {os.cpu_count()} cores)"
    )
    print(
        "load average (1 min) before / after: {:.1f} / {:.1f}  (other work on the machine skews every figure)".format(
            result["load"][0], os.getloadavg()[0]
        )
    )
    for failure in result["failures"]:
        print("FAILED:", failure)
    return not result["failures"] and len(painted) + len(away) == args.learners


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=20)
    parser.add_argument("--browsers", type=int, default=3, help="how many of the learners are Chromium pages")
    parser.add_argument("--lesson", default=LESSON)
    parser.add_argument("--pool", type=int, default=0, help="preheated kernels for the lesson (0: none)")
    parser.add_argument(
        "--fill-delay",
        type=float,
        default=None,
        help="seconds before a used pool kernel is replaced (default: rules-tutor serve's)",
    )
    parser.add_argument(
        "--refill-all-at-once",
        action="store_true",
        help="Voila's own refill (every missing kernel at once) instead of one at a time",
    )
    parser.add_argument("--max-kernels", type=int, default=0, help="turn learners away beyond this (0: no limit)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="Section.key=JSON",
        help="any other Voila setting, e.g. --set MappingKernelManager.cull_idle_timeout=60",
    )
    parser.add_argument("--work", type=float, default=15.0, help="seconds of clicking after the pages painted")
    parser.add_argument("--think", type=float, default=1.5, help="seconds between a learner's clicks")
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds a learner may take to paint")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanup below on SIGTERM too

    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        server = Server(args, Path(tmp))
        try:
            ready_s = server.wait_ready(300, kernels=args.pool)
            result = asyncio.run(asyncio.wait_for(run_class(args, server), args.deadline + args.work + 120))
            ok = report(args, result, ready_s)
        except Exception:
            print(f"--- Voila's log ---\n{server.log_path.read_text()[-5000:]}", file=sys.stderr)
            raise
        finally:
            server.stop()
            if os.environ.get("BENCH_KEEP_LOG"):
                shutil.copy(server.log_path, os.environ["BENCH_KEEP_LOG"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
