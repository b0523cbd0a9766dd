"""Places that come back (issue 39): one device holds at most the class's margin, and a page that went away without
closing (a crashed browser, an exited script: no unload beacon) gives its place back once its websockets have been
closed for ``ClassroomVoila.page_gone_after`` seconds; its kernel is stopped. Against a real ``rules-tutor serve``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import tornado.httpclient
import tornado.websocket

import tests.test_classroom_serve as serve
from tests.test_classroom_serve import Server, Sockets, kernel_message, kernel_of

site = serve.site  # the fixture: a tiny lesson

LESSON = "/voila/render/tiny.ipynb"


def test_a_device_holds_the_margin_and_a_crashed_page_gives_its_place_back(site: Path, tmp_path: Path) -> None:
    settings = json.loads((tmp_path / "voila.json").read_text())
    settings.setdefault("ClassroomVoila", {})["page_gone_after"] = 2
    (tmp_path / "voila.json").write_text(json.dumps(settings))
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    sockets = Sockets(server.port)
    pupil, honest = "127.0.0.2", "127.0.0.3"
    try:
        kernels, connections = [], []
        for _ in range(2):  # the pupil's script: two pages, each connected as a browser would
            status, page, _ = server.request(LESSON, client=pupil)
            assert status == 200
            kernels.append(kernel_of(page))
            connections.append(sockets.open(kernels[-1], pupil))
        status, page, _ = server.request(LESSON, client=pupil)
        assert status == 503 and b"Too many lessons open" in page  # the margin (2), not 4
        status, page, _ = server.request(LESSON, client=honest)
        assert status == 200 and b"ready" in page  # the honest learner is served meanwhile

        for connection in connections:  # the script is killed: no unload beacon, no close frame
            sockets.crash(connection)
        deadline = time.monotonic() + 60
        while (status := server.request(LESSON, client=pupil)[0]) != 200:  # the places come back by themselves
            assert status == 503 and time.monotonic() < deadline, status
            time.sleep(0.3)
        log = server.log.read_text()
        assert log.count("its kernel is stopped and its place is free again") == 2, log
        assert "Traceback" not in log
        for kernel in kernels:  # their kernels are stopped
            with pytest.raises(tornado.httpclient.HTTPClientError) as refused:
                sockets.open(kernel, pupil)
            assert refused.value.code == 404  # (Jupyter Server logs a traceback with this 404: tutor/server's)
    finally:
        sockets.stop()
        server.stop()


def test_a_page_that_reconnects_in_time_keeps_its_kernel(site: Path, tmp_path: Path) -> None:
    settings = json.loads((tmp_path / "voila.json").read_text())
    settings.setdefault("ClassroomVoila", {})["page_gone_after"] = 3
    (tmp_path / "voila.json").write_text(json.dumps(settings))
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    sockets = Sockets(server.port)
    try:
        status, page, _ = server.request(LESSON)
        kernel = kernel_of(page)
        sockets.crash(sockets.open(kernel, "127.0.0.1"))  # a short network cut...
        connection = sockets.open(kernel, "127.0.0.1")  # ...and the page reconnects at once
        gone_then = time.monotonic()
        while time.monotonic() < gone_then + 6:  # twice the time it had: the kernel stays
            assert "place is free again" not in server.log.read_text()
            time.sleep(0.5)
        sockets.run(lambda: connection.write_message(json.dumps(kernel_message("kernel_info_request", {}))))
        assert sockets.run(connection.read_message) is not None  # the kernel is alive and answers
    finally:
        sockets.stop()
        server.stop()
