"""``rules-tutor serve`` in class mode, for real: the teacher's link and the database path printed, a page key and
the class script in lesson pages but never the teacher's token, the same class after a restart; and without class
mode, no class endpoint at all."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest
import tornado.httpclient
import tornado.websocket

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


REVEAL = """import ipywidgets as widgets
from tutor.ui.kernel_report import report
reveal = widgets.Button(description="Reveal")
choice = {"n": 3}
def revealed(_):
    report("q1", choice["n"] == 4, str(choice["n"]))
    choice["n"] += 1
reveal.on_click(revealed)
reveal"""
"""A lesson's quiz as its kernel sees it: each Reveal (a click) posts the verdict to the class's server, wrong ("3")
the first time, right ("4") after (``tutor.ui.kernel_report``, as ``tutor.ui.quiz.RevealQuiz`` does)."""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# A tiny lesson"),
            nbformat.v4.new_code_cell("print('ready')"),
            nbformat.v4.new_code_cell(REVEAL),
        ]
    )
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["tutor"] = {"quizzes": ["q1"]}
    nbformat.write(notebook, lessons / "tiny.ipynb")
    (tmp_path / "voila.json").write_text((REPO / "voila.json").read_text())
    return lessons


class Server:
    def __init__(self, site: Path, log: Path, *options: str, port: int | None = None) -> None:
        self.port, self.log = port or _free_port(), log
        env = dict(os.environ, XDG_DATA_HOME=str(log.parent / "data"))  # never the runner's own data folder
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tutor", "serve", str(site), f"--port={self.port}", *options],
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert self.process.poll() is None, log.read_text()
            try:
                urllib.request.urlopen(self.url("/"), timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"no answer in {START_TIMEOUT_S} s"
                time.sleep(0.3)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def teacher_token(self) -> str:
        match = re.search(
            r"Teacher view \(keep this link to yourself\): http://\S+/rules-tutor/teacher\?token=(\S+)",
            self.log.read_text(),
        )
        assert match, self.log.read_text()
        return match.group(1)

    def request(
        self, path: str, body: object = None, headers: dict[str, str] | None = None, client: str = "127.0.0.1"
    ) -> tuple[int, bytes, dict[str, str]]:
        """Status, body and the headers that matter here (``Set-Cookie``, all in one; ``Location``), asked from the
        source address ``client`` (loopback addresses stand for the laptops of a class); redirects not followed."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120, source_address=(client, 0))
        try:
            data = None if body is None else json.dumps(body).encode()
            connection.request("GET" if data is None else "POST", path, body=data, headers=headers or {})
            reply = connection.getresponse()
            return (
                reply.status,
                reply.read(),
                {
                    "Set-Cookie": "; ".join(reply.headers.get_all("Set-Cookie") or []),
                    "Location": reply.headers.get("Location", ""),
                },
            )
        finally:
            connection.close()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)


class Sockets:
    """Kernel websockets opened from a source address, on a loop in a thread of their own."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, work):  # type: ignore[no-untyped-def]
        """``await work`` on the sockets' loop (``work`` made there: Tornado's futures belong to their loop)."""

        async def awaited():  # type: ignore[no-untyped-def]
            return await work()

        return asyncio.run_coroutine_threadsafe(awaited(), self.loop).result(60)

    def open(self, kernel_id: str, client: str) -> tornado.websocket.WebSocketClientConnection:
        request = tornado.httpclient.HTTPRequest(
            f"ws://127.0.0.1:{self.port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}",
            network_interface=client,
            connect_timeout=30,
            request_timeout=30,
        )
        return self.run(lambda: tornado.websocket.websocket_connect(request))

    def crash(self, connection: tornado.websocket.WebSocketClientConnection) -> None:
        """Drop the connection as a killed browser does: no close frame, the socket just goes."""

        async def drop() -> None:
            connection.protocol.stream.close()  # type: ignore[union-attr]

        self.run(drop)

    def close(self, connection: tornado.websocket.WebSocketClientConnection) -> None:
        """Close the connection on the sockets' loop (its futures belong there, not to the test's thread)."""

        async def close() -> None:
            connection.close()

        self.run(close)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def kernel_of(page: bytes) -> str:
    config = re.search(rb'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)
    assert config, page[:500]
    return str(json.loads(config[1])["kernelId"])


def kernel_message(msg_type: str, content: dict) -> dict:
    """A message a browser sends on a kernel's websocket (the shell channel)."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "username": "",
            "session": uuid.uuid4().hex,
            "msg_type": msg_type,
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "channel": "shell",
    }


def click_message(model_id: str) -> dict:
    """The message a browser sends on a kernel's websocket when the button ``model_id`` is clicked."""
    return kernel_message(
        "comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": {"event": "click"}}}
    )


def reveal(server: Server, page: bytes, times: int = 1) -> None:
    """Press the lesson page's Reveal ``times`` through its kernel's websocket, as the browser does, and wait until
    the kernel has handled each press (its "idle" status for that message)."""
    sockets = Sockets(server.port)
    try:
        connection = sockets.open(kernel_of(page), "127.0.0.1")
        model = re.findall(rb'"model_id": "([0-9a-f]+)"', page)[0].decode()
        pressed: set[str] = set()
        for _ in range(times):
            message = click_message(model)
            pressed.add(message["header"]["msg_id"])
            sockets.run(lambda: connection.write_message(json.dumps(message)))

        async def handled() -> None:
            while pressed:
                text = await connection.read_message()
                assert text is not None, "the kernel's websocket closed before the presses were handled"
                if isinstance(text, str):
                    reply = json.loads(text)
                    if reply["header"]["msg_type"] == "status" and reply["content"]["execution_state"] == "idle":
                        pressed.discard(reply["parent_header"].get("msg_id", ""))

        sockets.run(handled)  # within Sockets.run's 60 s
        sockets.close(connection)
    finally:
        sockets.stop()


def wait_for(check, what: str, timeout_s: float = 60):  # type: ignore[no-untyped-def]
    """``check()``'s first true value, asked again until ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not (value := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return value


def test_class_mode_prints_the_link_keys_pages_and_keeps_the_class_across_a_restart(site, tmp_path):
    class_db = tmp_path / "my class.sqlite3"
    server = Server(site, tmp_path / "first.log", "--class-size=2", f"--class-db={class_db}")
    try:
        token = server.teacher_token()
        assert f"Results of this class are kept in {class_db}" in server.log.read_text()
        status, page, headers = server.request("/voila/render/tiny.ipynb")
        assert status == 200 and b"ready" in page
        key = re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"]).group(1)
        assert b"window.RULES_TUTOR_CLASS" in page
        assert token.encode() not in page
        assert token.encode() not in server.request("/")[1] + server.request("/voila/tree")[1]
        status, body, _ = server.request("/rules-tutor/class/join", {"page": key, "name": "Ana"})
        assert status == 200
        learner = json.loads(body)["learner"]
        assert token not in body.decode()
        for event in (
            {"kind": "opened", "lesson": "tiny.ipynb", "quizzes": 1},
            {"kind": "answered", "lesson": "tiny.ipynb", "quiz": "q1", "right": False, "choice": "3"},
            {"kind": "answered", "lesson": "tiny.ipynb", "quiz": "q1", "right": True, "choice": "4"},
        ):
            assert server.request("/rules-tutor/class/event", {"page": key, "learner": learner, **event})[0] == 204
        reveal(server, page, 2)  # the answers the class records come from the lesson's kernel: wrong, then right
        assert server.request("/rules-tutor/teacher/data")[0] == 403

        def states() -> list[tuple[str, list[str]]]:
            data = json.loads(server.request("/rules-tutor/teacher/data", headers={"X-Teacher-Token": token})[1])
            return [(p["name"], [c["state"] for c in p["cells"]]) for p in data["learners"]]

        wait_for(lambda: states() == [("Ana", ["finished", "right-after"])], "the kernel's verdicts")
        before = json.loads(server.request("/rules-tutor/teacher/data", headers={"X-Teacher-Token": token})[1])
        csv_before = server.request("/rules-tutor/teacher/results.csv", headers={"X-Teacher-Token": token})[1]
        assert b"Ana,A tiny lesson,Q1,right after tries,2,3" in csv_before
    finally:
        server.stop()
    assert class_db.is_file()

    server = Server(site, tmp_path / "second.log", "--class-size=2", f"--class-db={class_db}")
    try:
        new_token = server.teacher_token()
        assert new_token != token
        assert server.request(f"/rules-tutor/teacher/data?token={token}")[0] == 403  # the old link is dead
        teacher = {"X-Teacher-Token": new_token}
        after = json.loads(server.request("/rules-tutor/teacher/data", headers=teacher)[1])
        assert after["learners"] == before["learners"] and after["columns"] == before["columns"]
        assert server.request("/rules-tutor/teacher/results.csv", headers=teacher)[1] == csv_before
        status, body, _ = server.request("/rules-tutor/class/state", {"page": key, "learner": learner})
        assert status == 200 and json.loads(body)["name"] == "Ana"  # the learner is still in the class
    finally:
        server.stop()


def test_without_class_mode_there_is_no_class_endpoint(site, tmp_path):
    server = Server(site, tmp_path / "plain.log")
    try:
        for path in ("/rules-tutor/teacher", "/rules-tutor/teacher/data", "/rules-tutor/teacher/results.csv"):
            assert server.request(path)[0] == 404
        for path in ("/rules-tutor/class/join", "/rules-tutor/class/event", "/rules-tutor/class/state"):
            assert server.request(path, {"page": "x"})[0] in (404, 405)
        status, page, headers = server.request("/voila/render/tiny.ipynb")
        assert status == 200 and b"ready" in page
        assert b"RULES_TUTOR_CLASS" not in page and "rules_tutor_page" not in headers.get("Set-Cookie", "")
        assert "Teacher view" not in server.log.read_text()
        assert not (tmp_path / "data" / "rules-tutor").exists()  # no class database either
    finally:
        server.stop()


def _page_key(headers: dict[str, str]) -> str:
    return re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"]).group(1)


def test_one_device_cannot_hold_the_places_or_fill_the_class(site, tmp_path):
    """127.0.0.2 is the curious pupil's laptop, 127.0.0.3 an honest learner's: while the pupil fetches the lesson
    in a loop, the honest learner gets it within seconds; after the pupil's 200 joins, the honest learner joins."""
    server = Server(site, tmp_path / "serve.log", "--class-size=6", f"--class-db={tmp_path / 'class.sqlite3'}")
    pupil, honest = "127.0.0.2", "127.0.0.3"
    try:
        pupil_codes = [server.request("/voila/render/tiny.ipynb", client=pupil)[0] for _ in range(12)]
        # pages fetched but never connected: UNCONNECTED_PER_CLIENT places, within the class's margin
        assert pupil_codes[:2] == [200, 200] and pupil_codes[2:] == [503] * 10
        refused = server.request("/voila/render/tiny.ipynb", client=pupil)[1]
        assert b"Too many lessons open" in refused and b"Traceback" not in refused
        started = time.monotonic()
        status, page, headers = server.request("/voila/render/tiny.ipynb", client=honest)
        waited = time.monotonic() - started
        assert status == 200 and b"ready" in page and waited < 30, waited
        print(f"the honest learner got the lesson in {waited:.2f} s while the pupil held 2 places")

        key = _page_key(headers)  # a page key is no ticket to fill the class
        joins = [
            server.request("/rules-tutor/class/join", {"page": key, "name": f"fake {n}"}, client=pupil)[0]
            for n in range(200)
        ]
        assert joins.count(200) <= 4 and joins[-1] == 429
        status, body, _ = server.request("/rules-tutor/class/join", {"page": key, "name": "Ana"}, client=honest)
        assert status == 200 and json.loads(body)["name"] == "Ana"
        log = server.log.read_text()
        assert "Traceback" not in log
    finally:
        server.stop()


def test_the_teacher_secret_moves_to_a_cookie_and_the_server_keeps_pause_and_pace(site, tmp_path):
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    try:
        token = server.teacher_token()
        status, _, headers = server.request(f"/rules-tutor/teacher?token={token}")
        assert status == 303 and headers["Location"] == "/rules-tutor/teacher"  # a clean address
        cookie = headers["Set-Cookie"]
        session = re.search(r"rules_tutor_teacher=([^;]+)", cookie)[1]  # the link's token exchanged for a session
        assert session != token and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert "Path=/rules-tutor/teacher" in cookie
        status, page, _ = server.request("/rules-tutor/teacher", headers={"Cookie": f"rules_tutor_teacher={session}"})
        assert status == 200 and token.encode() not in page
        page_token = re.search(rb'name="rules-tutor-page" content="([^"]+)"', page)[1].decode()
        with_cookie = {"Cookie": f"rules_tutor_teacher={session}", "X-Teacher-Page": page_token}
        assert server.request("/rules-tutor/teacher/results.csv", headers=with_cookie)[0] == 200
        assert server.request("/rules-tutor/teacher/results.csv")[0] == 403

        status, _, headers = server.request("/voila/render/tiny.ipynb")
        key = _page_key(headers)
        learner = json.loads(server.request("/rules-tutor/class/join", {"page": key, "name": "Ana"})[1])["learner"]
        answer = {
            "page": key,
            "learner": learner,
            "kind": "answered",
            "lesson": "tiny.ipynb",
            "quiz": "q1",
            "right": True,
        }

        def act(**body: object) -> None:
            assert server.request("/rules-tutor/teacher/action", body, headers=with_cookie)[0] == 200

        act(action="pause", on=True)
        assert server.request("/rules-tutor/class/event", answer)[0] == 409
        act(action="pause", on=False)
        act(action="pace", closed=["tiny.ipynb"])
        assert server.request("/rules-tutor/class/event", answer)[0] == 409
        status, page, headers = server.request("/voila/render/tiny.ipynb")
        assert status == 200 and b"Not open yet" in page
        assert b"ready" not in page and "rules_tutor_page" not in headers["Set-Cookie"]  # no kernel ran it
        data = json.loads(server.request("/rules-tutor/teacher/data", headers=with_cookie)[1])
        assert [[cell["state"] for cell in learner["cells"]] for learner in data["learners"]] == [[]]  # nothing
        act(action="pace", closed=[])
        assert server.request("/rules-tutor/class/event", answer)[0] == 204
    finally:
        server.stop()


def test_a_class_on_a_catalan_lesson_prepares_it_and_counts_it_as_the_english_lesson(site, tmp_path):
    """Issue 32: ``--lesson ca/tiny.ipynb`` prepares the Catalan page; a learner's events from it (and from the
    English page) are one lesson and one quiz in the teacher's view. Issue 38: the Catalan page is made from the
    English one and the catalog when the server starts (a page left in ``ca/`` is made again)."""
    english = nbformat.read(site / "tiny.ipynb", as_version=4)
    english.cells[0].source = "# 2. The energy phase"  # a heading the Catalan catalog translates
    nbformat.write(english, site / "tiny.ipynb")
    (site / "ca").mkdir()
    (site / "ca" / "tiny.ipynb").write_text("an old copy")
    server = Server(
        site,
        tmp_path / "ca.log",
        "--class-size=1",
        "--lesson=ca/tiny.ipynb",
        f"--class-db={tmp_path / 'class.sqlite3'}",
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while "The class can come in:" not in server.log.read_text():
            assert time.monotonic() < deadline and server.process.poll() is None, server.log.read_text()
            time.sleep(0.3)
        assert "1/1 kernels ready for tiny" in server.log.read_text()
        assert "The class can come in: every lesson is ready." in server.log.read_text()
        status, page, headers = server.request("/voila/render/ca/tiny.ipynb")
        assert status == 200 and "La fase d'energia".encode() in page and b"RULES_TUTOR_LANGUAGE" in page
        assert b'lang="ca"' in page and b"ready" in page
        key = re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"]).group(1)
        learner = json.loads(server.request("/rules-tutor/class/join", {"page": key, "name": "Ana"})[1])["learner"]
        assert (
            server.request(
                "/rules-tutor/class/event",
                {"page": key, "learner": learner, "kind": "opened", "lesson": "ca/tiny.ipynb"},
            )[0]
            == 204
        )
        reveal(server, page)  # wrong ("3") on the Catalan page ...
        status, english, headers = server.request("/voila/render/tiny.ipynb")
        english_key = re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"]).group(1)
        assert server.request("/rules-tutor/class/state", {"page": english_key, "learner": learner})[0] == 200
        token = server.teacher_token()

        def answered() -> dict:
            data = json.loads(server.request("/rules-tutor/teacher/data", headers={"X-Teacher-Token": token})[1])
            return data if data["columns"][1:] else {}

        wait_for(answered, "the Catalan kernel's verdict")
        reveal(server, english, 2)  # ... then wrong ("3") and right ("4") on the English page: one quiz
        data = wait_for(
            lambda: (data := answered()) and data["learners"][0]["cells"][1]["state"] == "right-after" and data,
            "the English kernel's verdicts",
        )
        assert [(column["lesson"], column["quiz"]) for column in data["columns"]] == [
            ("tiny.ipynb", None),
            ("tiny.ipynb", "q1"),
        ]
        assert [[cell["state"] for cell in learner["cells"]] for learner in data["learners"]] == [
            ["finished", "right-after"]
        ]
    finally:
        server.stop()
