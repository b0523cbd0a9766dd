"""The teacher's link works once (issue 39), against a real ``rules-tutor serve``: the token is exchanged for a
session cookie; the link opened again elsewhere (a browser's history) gets 403 and one line saying to open the view
from the printed link; ``kill -USR1`` prints a new link, which works once too; and the teacher's actions (Pause,
Anonymize, Pace, new class, the CSV) check the Origin and the view page's token, so that a page on another port of
the teacher's machine (same site: the SameSite=Strict cookie goes with it) cannot press them."""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import tests.test_classroom_serve as serve
from tests.test_classroom_serve import Server

site = serve.site  # the fixture: a tiny lesson
LINK = re.compile(r"Teacher view \(keep this link to yourself\): http://\S+(/rules-tutor/teacher\?token=\S+)")


def _links(server: Server) -> list[str]:
    return LINK.findall(server.log.read_text())


def _open(server: Server, link: str) -> tuple[int, bytes, str]:
    """Open ``link`` as a fresh browser does (no cookie): status, body, the session cookie set (or "")."""
    status, body, headers = server.request(link)
    session = re.search(r"rules_tutor_teacher=([^;]+)", headers["Set-Cookie"])
    return status, body, session[1] if session else ""


def test_the_link_works_once_and_the_server_prints_a_new_one_on_request(site: Path, tmp_path: Path) -> None:
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    try:
        [link] = _links(server)
        assert re.search(r"The link works once; for a new one: kill -USR1 \d+", server.log.read_text())
        status, _, session = _open(server, link)
        assert status == 303 and session and session not in link
        cookie = {"Cookie": f"rules_tutor_teacher={session}"}
        assert server.request("/rules-tutor/teacher/data", headers=cookie)[0] == 200

        status, body, again = _open(server, link)  # from the history, in another browser (or a pupil's)
        assert status == 403 and not again and body.count(b"\n") == 0
        assert b"used already" in body and b"open the class view from the link" in body and b"kill -USR1" in body
        status, _, headers = server.request(link, headers=cookie)  # the teacher's own browser: back to the view
        assert status == 303 and headers["Location"] == "/rules-tutor/teacher"
        token = link.split("token=")[1]
        assert server.request("/rules-tutor/teacher/data", headers={"X-Teacher-Token": token})[0] == 403
        assert server.request(f"/rules-tutor/teacher/data?token={token}")[0] == 403
        assert server.log.read_text().count(token) == 1  # printed once; never logged with a request

        server.process.send_signal(signal.SIGUSR1)  # to rules-tutor serve, which passes it on
        deadline = time.monotonic() + 30
        while len(_links(server)) < 2:
            assert time.monotonic() < deadline and server.process.poll() is None, server.log.read_text()
            time.sleep(0.2)
        new_link = _links(server)[-1]
        assert new_link != link
        status, _, new_session = _open(server, new_link)
        assert status == 303 and new_session not in (session, "")
        assert _open(server, new_link)[0] == 403  # once
        for both in (session, new_session):  # the views opened stay open
            assert (
                server.request("/rules-tutor/teacher/data", headers={"Cookie": f"rules_tutor_teacher={both}"})[0] == 200
            )
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


def test_teacher_actions_need_the_view_page_and_its_origin(site: Path, tmp_path: Path) -> None:
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    try:
        [link] = _links(server)
        session = _open(server, link)[2]
        cookie = {"Cookie": f"rules_tutor_teacher={session}"}
        page = server.request("/rules-tutor/teacher", headers=cookie)[1]
        page_token = re.search(rb'name="rules-tutor-page" content="([^"]+)"', page)[1].decode()
        own = f"http://127.0.0.1:{server.port}"
        elsewhere = f"http://127.0.0.1:{server.port + 1}"  # a page on another port of the teacher's machine
        actions = [
            {"action": "pause", "on": True},
            {"action": "anonymize", "on": True},
            {"action": "pace", "closed": ["tiny.ipynb"]},
            {"action": "new-class"},
        ]
        for action in actions:
            for headers in (
                {**cookie, "Origin": elsewhere, "X-Teacher-Page": page_token},  # CSRF from a page
                {**cookie, "Origin": own},  # without the page's token
                {**cookie, "Origin": own, "X-Teacher-Page": page_token + "x"},
            ):
                status, body, _ = server.request("/rules-tutor/teacher/action", action, headers=headers)
                assert status == 403 and body.count(b"\n") == 0 and b"error" in body, (action, headers, body)
        for headers in ({**cookie, "Origin": elsewhere}, cookie):
            csv_path = "/rules-tutor/teacher/results.csv" + ("?page=" + page_token if "Origin" in headers else "")
            assert server.request(csv_path, headers=headers)[0] == 403
        data = json.loads(server.request("/rules-tutor/teacher/data", headers=cookie)[1])
        assert data["class"]["paused"] is False and data["class"]["anonymized"] is False
        assert data["class"]["closed"] == [] and data["class"]["id"] == 1  # nothing pressed

        view = {**cookie, "Origin": own, "X-Teacher-Page": page_token}  # the teacher's own view
        for action in actions:
            assert server.request("/rules-tutor/teacher/action", action, headers=view)[0] == 200
        assert server.request(f"/rules-tutor/teacher/results.csv?page={page_token}", headers=cookie)[0] == 200
        status, _, headers = server.request("/voila/render/tiny.ipynb")  # and the learners are served
        assert status == 200
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()
