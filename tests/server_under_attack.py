"""A real ``rules-tutor serve --class-size N`` for the tests of what a pupil can send it (issue 39), started as the
README starts it, with a tiny lesson (a widget, so that its page has comms), its Catalan copy, and the helpers a
pupil and an honest learner need: pages from a given source address (a loopback address stands for a device),
a kernel's websocket, and the server's log (which must hold no traceback)."""

from __future__ import annotations

import asyncio
import datetime
import http.client
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

import nbformat
import websockets

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120
LESSON = "tiny.ipynb"
TEXT = "text.ipynb"
HONEST = "127.0.0.2"
PUPIL = "127.0.0.5"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_site(root: Path) -> Path:
    """``root/lessons`` with ``tiny.ipynb`` (a slider), ``text.ipynb`` (a page without a board), their Catalan
    copies in ``ca/``, and the repository's voila.json beside it."""
    lessons = root / "lessons"
    (lessons / "ca").mkdir(parents=True)
    for path, title in ((lessons / LESSON, "A tiny lesson"), (lessons / "ca" / LESSON, "Una lliçó petita")):
        notebook = nbformat.v4.new_notebook(
            cells=[
                nbformat.v4.new_markdown_cell(f"# {title}"),
                nbformat.v4.new_code_cell(
                    "import ipywidgets\nslider = ipywidgets.IntSlider(description='speed')\nslider"
                ),
            ]
        )
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        notebook.metadata["tutor"] = {"quizzes": ["q1"]}
        nbformat.write(notebook, path)
    for path, title in ((lessons / TEXT, "Rules in words"), (lessons / "ca" / TEXT, "Les regles")):
        notebook = nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_markdown_cell(f"# {title}"), nbformat.v4.new_code_cell("print('words')")]
        )
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        notebook.metadata["tutor"] = {"kernel": False}
        nbformat.write(notebook, path)
    (root / "voila.json").write_text((REPO / "voila.json").read_text())
    return lessons


class Server:
    """``python -m tutor serve <lessons> --class-size N``; ``open_files``: its open-file limit (soft and hard, as
    ``ulimit -n`` sets them)."""

    def __init__(self, lessons: Path, log: Path, class_size: int = 4, open_files: int | None = None) -> None:
        self.port, self.log = free_port(), log
        env = dict(os.environ, XDG_DATA_HOME=str(log.parent / "data"))

        def limit() -> None:  # pragma: no cover - runs in the child
            os.setsid()
            if open_files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tutor",
                    "serve",
                    str(lessons),
                    f"--port={self.port}",
                    f"--class-size={class_size}",
                ],
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=limit,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self.process.poll() is None, self.log_text()
            try:
                if self.get("/")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"no answer in {START_TIMEOUT_S} s"
            time.sleep(0.3)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def tracebacks(self) -> int:
        return self.log_text().count("Traceback")

    def voila_pid(self) -> int:
        """The Voila process (the child of ``rules-tutor serve``)."""
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.process.pid:
                    return int(entry)
        raise LookupError("no Voila process")

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.voila_pid()}/fd"))

    def raw(self, request: bytes, client: str = HONEST, timeout: float = 60) -> tuple[int, bytes]:
        """Send ``request`` as it is (any method, any bytes in the path); the status and body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout, source_address=(client, 0)) as sock:
            sock.sendall(request)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body

    def get(
        self,
        path: str,
        client: str = HONEST,
        method: str = "GET",
        timeout: float = 60,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(client, 0))
        try:
            connection.request(method, path, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def teacher(self, action: dict[str, Any]) -> int:
        """The teacher's action (with the token the server printed), its status."""
        match = re.search(r"teacher\?token=(\S+)", self.log_text())
        assert match, self.log_text()[:2000]
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(
                "POST",
                "/rules-tutor/teacher/action",
                json.dumps(action),
                {
                    "X-Teacher-Token": match.group(1),
                    "Content-Type": "application/json",
                    "Origin": f"http://127.0.0.1:{self.port}",
                },
            )
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def kernels_started(self) -> int:
        return self.log_text().count("Kernel started:")

    def lesson(self, client: str, path: str = LESSON) -> str:
        """The kernel id of a lesson page fetched by ``client``."""
        status, page = self.get(f"/voila/render/{path}", client)
        assert status == 200, (status, page[:300])
        match = re.search(r'"kernelId": *"([0-9a-f-]{36})"', page)
        assert match, page[:500]
        return match.group(1)

    def channels_url(self, kernel_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"

    async def connect(self, kernel_id: str, client: str, **options: Any) -> Any:
        return await websockets.connect(
            self.channels_url(kernel_id),
            local_addr=(client, 0),
            open_timeout=60,
            max_size=None,
            proxy=None,
            compression=None,
            **options,
        )


def message(msg_type: str, content: dict[str, Any] | None = None, channel: str = "shell") -> str:
    """A kernel message in the websocket's JSON form (the protocol without a subprotocol)."""
    return json.dumps(
        {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "msg_type": msg_type,
                "username": "pupil",
                "session": uuid.uuid4().hex,
                "version": "5.3",
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            },
            "parent_header": {},
            "metadata": {},
            "content": content or {},
            "channel": channel,
            "buffers": [],
        }
    )


async def reply(ws: Any, msg_type: str, timeout_s: float = 60) -> dict[str, Any]:
    """The first message of ``msg_type`` the kernel sends on ``ws``."""

    async def wait() -> dict[str, Any]:
        while True:
            received = await ws.recv()
            if isinstance(received, str):
                data: dict[str, Any] = json.loads(received)
                if data.get("header", {}).get("msg_type") == msg_type:
                    return data

    return await asyncio.wait_for(wait(), timeout_s)


async def kernel_answers(server: Server, kernel_id: str, client: str) -> dict[str, Any]:
    """The kernel's info, asked on a websocket of its own (the honest page's check that its lesson works)."""
    async with await server.connect(kernel_id, client) as ws:
        await ws.send(message("kernel_info_request"))
        return await reply(ws, "kernel_info_reply")


def quoted(path: str) -> str:
    return urllib.parse.quote(path, safe="/%?=&")
