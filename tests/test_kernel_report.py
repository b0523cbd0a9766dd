"""A lesson kernel's quiz verdicts reach the class in the order they were given (``tutor.ui.kernel_report``): a
wrong answer then a right one is "right after tries", even when the first post has to be tried again."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tutor.ui import kernel_report


class _Class(BaseHTTPRequestHandler):
    """A class server that is busy (503) for the first post it gets, then records each verdict's choice."""

    received: list[str] = []
    refused_once = threading.Event()

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not self.refused_once.is_set():
            self.refused_once.set()
            self.send_response(503)
        else:
            self.received.append(body["choice"])
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def class_server(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Class)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Class.received, _Class.refused_once = [], threading.Event()
    monkeypatch.setenv(kernel_report.URL_VARIABLE, f"http://127.0.0.1:{server.server_port}/verdict")
    monkeypatch.setenv(kernel_report.KERNEL_VARIABLE, "k1")
    monkeypatch.setenv(kernel_report.KEY_VARIABLE, kernel_report.kernel_key(b"secret", "k1"))
    yield _Class
    server.shutdown()


def test_verdicts_arrive_in_the_order_given_even_when_the_first_is_tried_again(class_server) -> None:
    assert kernel_report.report("q1", False, "3") and kernel_report.report("q1", True, "4")
    assert kernel_report.wait_until_sent()
    assert class_server.refused_once.is_set(), "the first post was refused once and tried again"
    assert class_server.received == ["3", "4"]


def test_outside_a_class_nothing_is_posted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kernel_report.URL_VARIABLE, raising=False)
    assert kernel_report.report("q1", True, "4") is False
