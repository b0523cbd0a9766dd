"""What one pupil's device can make a class's server hold (issue 39), against a real ``rules-tutor serve
--class-size N``: kernel websockets (per kernel, per device, only to its own kernels, even under ``ulimit -n
1024``), the messages a page may send, and each kernel's memory. Each test checks that an honest learner on
another device is still served, and that the server's log holds no traceback."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time
from pathlib import Path

import pytest
import websockets
from server_under_attack import HONEST, LESSON, PUPIL, Server, kernel_answers, make_site, message, reply

from tutor.server import bounds
from tutor.server.class_mode import PAGES_PER_CLIENT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX limits and /proc")


@pytest.fixture
def server(tmp_path: Path):
    running = Server(make_site(tmp_path), tmp_path / "server.log")
    yield running
    running.stop()


def _honest_learner_is_served(server: Server, within_s: float = 30) -> None:
    started = time.monotonic()
    status, page = server.get("/", HONEST, timeout=within_s)
    assert status == 200 and LESSON in page
    kernel = server.lesson(HONEST)
    assert asyncio.run(kernel_answers(server, kernel, HONEST))["content"]["status"] == "ok"
    assert time.monotonic() - started < within_s


async def _open_many(server: Server, kernel: str, count: int) -> tuple[list[object], list[BaseException]]:
    results = await asyncio.gather(*(server.connect(kernel, PUPIL) for _ in range(count)), return_exceptions=True)
    opened = [ws for ws in results if not isinstance(ws, BaseException)]
    return opened, [error for error in results if isinstance(error, BaseException)]


async def _still_open(sockets: list[object], settle_s: float = 10) -> list[object]:
    """The websockets the server has not closed, once it has had ``settle_s`` to close the replaced ones."""

    async def closed(ws: object) -> bool:
        try:
            await asyncio.wait_for(ws.wait_closed(), settle_s)  # type: ignore[attr-defined]
            return True
        except asyncio.TimeoutError:
            return False

    done = await asyncio.gather(*(closed(ws) for ws in sockets))
    return [ws for ws, gone in zip(sockets, done) if not gone]


def test_a_kernel_keeps_two_websockets_a_device_a_few_and_only_its_own_kernels(server: Server) -> None:
    pupil_kernel = server.lesson(PUPIL)
    honest_kernel = server.lesson(HONEST)

    async def attack() -> None:
        opened, refused = await _open_many(server, pupil_kernel, 20)
        assert len(opened) <= bounds.CHANNELS_PER_KERNEL * PAGES_PER_CLIENT
        assert all(
            isinstance(error, websockets.InvalidStatus) and error.response.status_code == 429 for error in refused
        ), refused[:3]
        alive = await _still_open(opened, settle_s=5)
        assert len(alive) == bounds.CHANNELS_PER_KERNEL  # two; the older ones were closed
        for ws in alive:
            await ws.close()  # type: ignore[attr-defined]
        with pytest.raises(websockets.InvalidStatus) as not_mine:
            await server.connect(honest_kernel, PUPIL)
        assert not_mine.value.response.status_code == 403
        with pytest.raises(websockets.InvalidStatus) as unknown:
            await server.connect("0" * 8 + "-0000-4000-8000-" + "0" * 12, PUPIL)
        assert unknown.value.response.status_code == 404

    asyncio.run(attack())
    status, body = server.get(f"/api/kernels/{pupil_kernel}/channels", PUPIL)  # a plain GET, no upgrade
    assert status == 400 and len(body) < 200
    _honest_learner_is_served(server)
    assert server.tracebacks() == 0, server.log_text()[-3000:]
    assert server.log_text().count("Refused a lesson connection from") <= 3  # once a minute per kind


def test_a_pupil_opening_150_websockets_under_ulimit_1024_stops_nobody(tmp_path: Path) -> None:
    server = Server(make_site(tmp_path), tmp_path / "server.log", open_files=1024)
    try:
        assert int(Path(f"/proc/{server.voila_pid()}/limits").read_text().split("Max open files")[1].split()[0]) == 1024
        kernel = server.lesson(PUPIL)
        log_before = len(server.log_text())

        async def attack() -> tuple[int, int]:
            opened, refused = await _open_many(server, kernel, 150)
            served_meanwhile = await asyncio.to_thread(_honest_learner_is_served, server, 30)
            assert served_meanwhile is None
            alive = await _still_open(opened, settle_s=5)
            files = server.open_files()
            for ws in opened:
                await ws.close()  # type: ignore[attr-defined]
            return len(alive), files

        alive, files = asyncio.run(attack())
        assert alive <= bounds.CHANNELS_PER_KERNEL
        assert files < 400, files
        _honest_learner_is_served(server)
        assert server.tracebacks() == 0, server.log_text()[-3000:]
        assert len(server.log_text()) - log_before < 20_000  # a few lines, not a flood
    finally:
        server.stop()


def test_a_page_sends_small_lesson_messages_only_and_opens_no_comm_of_its_own(server: Server, tmp_path: Path) -> None:
    kernel = server.lesson(PUPIL)
    marker = tmp_path / "ran"

    async def attack() -> dict:
        async with await server.connect(kernel, PUPIL) as ws:
            for _ in range(200):  # code: refused, and said once
                await ws.send(message("execute_request", {"code": f"open({str(marker)!r}, 'w')", "silent": False}))
            for index in range(20):  # widgets the lesson never made: refused
                await ws.send(
                    message(
                        "comm_open",
                        {
                            "comm_id": f"made-up-{index}",
                            "target_name": "jupyter.widget",
                            "data": {"state": {"value": "x" * 30_000}},
                        },
                    )
                )
            for frame in (b"\x00\x01\x02", "not json", '{"header": 5}', b"\xff" * 64):
                await ws.send(frame)
            await ws.send(message("comm_info_request"))
            info = await reply(ws, "comm_info_reply")
        async with await server.connect(kernel, PUPIL) as ws:  # a message beyond the limit ends its connection
            await ws.send("x" * (bounds.PAGE_MESSAGE_MAX_BYTES + 1))

            async def until_closed() -> None:
                while True:
                    await ws.recv()

            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(until_closed(), 30)
        return info

    info = asyncio.run(attack())
    assert not any(comm.startswith("made-up") for comm in info["content"]["comms"]), info["content"]["comms"]
    assert not marker.exists()
    _honest_learner_is_served(server)
    log = server.log_text()
    assert server.tracebacks() == 0, log[-3000:]
    assert log.count("Refused a message from the page of kernel") == 1, log[-3000:]
    assert "sent 225 refused messages" in log or "sent 224 refused messages" in log, log[-2000:]


def test_each_lesson_kernel_has_its_memory_limit(server: Server) -> None:
    server.lesson(PUPIL)
    kernels = [pid for pid in os.listdir("/proc") if pid.isdigit() and _is_kernel_of(pid, server)]
    assert kernels
    wanted = str(bounds.KERNEL_DATA_LIMIT_MIB * 1024 * 1024)
    for pid in kernels:  # the launcher sets it first thing: a kernel still starting (a page's, a text page's) waits
        deadline = time.monotonic() + 30
        while (limit := _data_limit(pid)) not in (wanted, None) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert limit in (wanted, None), f"kernel {pid}: Max data size {limit}"  # None: it has stopped since


def _data_limit(pid: str) -> str | None:
    try:
        limits = Path(f"/proc/{pid}/limits").read_text()
    except OSError:
        return None
    return next(line for line in limits.splitlines() if line.startswith("Max data size")).split()[3]


def _is_kernel_of(pid: str, server: Server) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return b"tutor.server.kernel_launcher" in command and str(server.log.parent / "data").encode() in environ


def test_a_kernel_that_reaches_its_limit_fails_its_allocation_and_goes_on(tmp_path: Path) -> None:
    from jupyter_client.manager import start_new_kernel

    from tutor.server.process import with_template_path

    environment = with_template_path(dict(os.environ, RULES_TUTOR_KERNEL_DATA_MIB="400"))
    previous = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = environment["JUPYTER_PATH"]
    try:
        manager, client = start_new_kernel(kernel_name="python3", env=environment, cwd=str(tmp_path))
    finally:
        if previous is None:
            del os.environ["JUPYTER_PATH"]
        else:
            os.environ["JUPYTER_PATH"] = previous
    try:
        assert "tutor.server.kernel_launcher" in manager.kernel_spec.argv
        reply_ = client.execute_interactive("x = bytearray(600 * 2**20)", timeout=60)
        assert reply_["content"]["status"] == "error" and reply_["content"]["ename"] == "MemoryError"
        assert client.execute_interactive("print(1 + 1)", timeout=60)["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_a_write_to_a_page_that_went_is_one_line_not_a_traceback() -> None:
    """A page closed while its kernel still sends: Tornado's unawaited write fails; the server says one line (once
    a minute), and any other unretrieved error is still reported in full."""
    from tornado.websocket import WebSocketClosedError

    said: list[str] = []
    reported: list[dict] = []
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(lambda _loop, context: reported.append(context))
        bounds.quiet_closed_websocket_writes(loop, said.append)

        async def write_to_a_gone_page() -> None:
            raise WebSocketClosedError()

        async def fail() -> None:
            raise ValueError("a real bug")

        for work in (write_to_a_gone_page, write_to_a_gone_page, fail):
            loop.run_until_complete(asyncio.wait([loop.create_task(work())]))  # never retrieved
        gc.collect()  # asyncio reports an unretrieved exception when its task is collected
        assert said == ["A message to a page that had gone was dropped"]
        assert [type(context["exception"]) for context in reported] == [ValueError]
    finally:
        loop.close()


def test_out_of_open_files_the_server_pauses_accepting_says_so_once_and_accepts_again(monkeypatch) -> None:
    """Issue 39: when the process has no file descriptor left, Tornado's own accept loop logs a traceback and is
    called again at once, for ever. Patched (``accept_connections_without_spinning``), it stops accepting for a
    moment, says so in one line, and takes the waiting connection once a descriptor is free."""
    import errno
    import socket

    import tornado.tcpserver

    lines: list[str] = []
    monkeypatch.setattr(tornado.tcpserver, "add_accept_handler", tornado.tcpserver.add_accept_handler)  # put back after
    bounds.voila.accept_connections_without_spinning(lines.append, pause_s=0.2)

    class OutOfFiles(socket.socket):
        failures = 3
        accepts = 0

        def accept(self):  # type: ignore[no-untyped-def]
            type(self).accepts += 1
            if type(self).failures:
                type(self).failures -= 1
                raise OSError(errno.EMFILE, "Too many open files")
            return super().accept()

    async def scene() -> list[object]:
        server = OutOfFiles(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.setblocking(False)
        accepted: list[object] = []
        remove = tornado.tcpserver.add_accept_handler(server, lambda connection, _address: accepted.append(connection))
        client = socket.create_connection(server.getsockname())
        try:
            deadline = time.monotonic() + 10
            while not accepted and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # the loop runs: the handler pauses, then accepts
            return accepted
        finally:
            remove()
            client.close()
            server.close()

    accepted = asyncio.run(scene())
    assert len(accepted) == 1  # the waiting connection was taken once a descriptor was free
    assert OutOfFiles.accepts <= 6  # three failures, each followed by a pause: no spinning
    assert lines == ["Out of open files (EMFILE): new connections wait 0.2 s (seen 1x in the last minute)"]
