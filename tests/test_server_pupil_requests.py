"""Whatever a pupil sends a class's server (issue 39), against a real ``rules-tutor serve --class-size N``: a closed
lesson stays closed however its address is spelled or in whichever language, the server's template and theme
cannot be swapped, and nothing a pupil sends (a NUL or CR LF in a path, ``..`` spelled any way, made-up
extensions, themes and methods, ``/logout``) gets more than a 4xx and one short line: no traceback, no token in
the log. The honest learner is served throughout."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from server_under_attack import HONEST, LESSON, PUPIL, TEXT, Server, kernel_answers, make_site

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals and /proc")

CLASS_SCRIPT = "rules-tutor/class"
"""A string of the class script every lesson page of a class carries (its endpoints' address)."""
NOT_OPEN = "tutorNotOpen"


@pytest.fixture
def server(tmp_path: Path):
    running = Server(make_site(tmp_path), tmp_path / "server.log")
    yield running
    running.stop()


def _honest_learner_is_served(server: Server) -> None:
    status, page = server.get("/", HONEST)
    assert status == 200 and LESSON in page
    kernel = server.lesson(HONEST)
    assert asyncio.run(kernel_answers(server, kernel, HONEST))["content"]["status"] == "ok"


def test_a_closed_lesson_is_closed_at_every_spelling_of_its_address(server: Server) -> None:
    status, open_page = server.get(f"/voila/render/{LESSON}", HONEST)
    assert status == 200 and CLASS_SCRIPT in open_page
    assert server.teacher({"action": "pace", "closed": [LESSON, TEXT]}) == 200
    _, closed_page = server.get(f"/voila/render/{LESSON}", PUPIL)
    assert "kernelId" not in closed_page
    started = server.kernels_started()
    for path in (f"ca/{LESSON}", f"ca/{TEXT}", TEXT):  # the Catalan address, a page without a board
        status, page = server.get(f"/voila/render/{path}", PUPIL)
        assert status == 200 and "kernelId" not in page and "words" not in page, (path, page[:300])
    for path in (
        f"./{LESSON}",
        f"ca/../{LESSON}",
        f"ca//{LESSON}",
        f"%2e/{LESSON}",
        f"ca/%2e%2e/{LESSON}",
        f"ca%2f..%2f{LESSON}",
        f".%2f{LESSON}",
    ):
        status, page = server.get(f"/voila/render/{path}", PUPIL)
        assert status in (400, 404) and len(page) < 200 and "kernelId" not in page, (path, status, page[:300])
    status, page = server.get(f"/voila/render//{LESSON}", PUPIL)
    assert status == 404 and "kernelId" not in page
    assert server.kernels_started() == started  # none of them started a kernel
    assert server.teacher({"action": "pace", "closed": []}) == 200
    status, page = server.get(f"/voila/render/ca/{LESSON}?template=lab&theme=dark", PUPIL)
    assert status == 200 and CLASS_SCRIPT in page and 'lang="ca"' in page  # the class's own template
    status, page = server.get(f"/voila/render/{TEXT}?template=../..", PUPIL)
    assert status == 200 and CLASS_SCRIPT in page and "words" in page
    _honest_learner_is_served(server)
    assert server.tracebacks() == 0, server.log_text()[-3000:]


ATTACKS = [
    b"GET /voila/render/tiny.ipynb%00 HTTP/1.1\r\n",
    b"GET /voila/render/tiny%0d%0aSet-Cookie:%20x=1.ipynb HTTP/1.1\r\n",
    b"GET /voila/render/tiny.ipynb?template=../.. HTTP/1.1\r\n",
    b"GET /voila/render/tiny.ipynb?template=lab HTTP/1.1\r\n",
    b"GET /voila/templates/rules-tutor/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n",
    b"GET /voila/templates/..%2f..%2f..%2fetc/passwd HTTP/1.1\r\n",
    b"GET /voila/static/..%5c..%5cetc/passwd HTTP/1.1\r\n",
    b"GET /voila/files/%2e%2e/voila.json HTTP/1.1\r\n",
    b"GET /logout HTTP/1.1\r\n",
    b"GET /login?next=/x HTTP/1.1\r\n",
    b"POST /login HTTP/1.1\r\nContent-Length: 0\r\n",
    b"GET /voila/labextensions/made-up/static/remoteEntry.js HTTP/1.1\r\n",
    b"GET /voila/labextensions/@made/up/package.json HTTP/1.1\r\n",
    b"GET /voila/api/themes/made-up/index.css HTTP/1.1\r\n",
    b"GET /voila/api/themes/..%2f..%2fx HTTP/1.1\r\n",
    b"GET /api/kernels/00000000-0000-4000-8000-000000000000/channels HTTP/1.1\r\n",
    b"GET /api/kernels/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n",
    b"DELETE /api/kernels/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n",
    b"FOO / HTTP/1.1\r\n",
    b"PROPFIND /voila/render/tiny.ipynb HTTP/1.1\r\n",
    b"TRACE /voila/render/text.ipynb HTTP/1.1\r\n",
    b"POST /voila/render/tiny.ipynb HTTP/1.1\r\nContent-Length: 0\r\n",
    b"POST /voila/api/shutdown/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nContent-Length: 0\r\n",
    b"GET /voila/query/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n",
    b"GET /voila/tree/%00 HTTP/1.1\r\n",
    b"GET /voila/render/%ff%fe.ipynb HTTP/1.1\r\n",
    b"GET /nothing-here?token=the-secret-token HTTP/1.1\r\n",
    b"GET /voila/render/made-up.ipynb?token=the-secret-token HTTP/1.1\r\n",
]


@pytest.mark.parametrize("repeat", [1])
def test_nothing_a_pupil_sends_gets_a_traceback_or_reaches_the_log_unmasked(server: Server, repeat: int) -> None:
    kernel = server.lesson(PUPIL)
    attacks = [*ATTACKS, f"GET /api/kernels/{kernel}/channels HTTP/1.1\r\n".encode()]
    for number, attack in enumerate(attacks):  # each from its own address: a device's places are not the point
        status, body = server.raw(attack + b"Host: x\r\nConnection: close\r\n\r\n", f"127.0.1.{number + 1}")
        served = b"?template=" in attack.split(b" ")[1]
        assert status == 200 if served else 400 <= status < 500, (attack, status, body[:300])
        if not served:
            assert len(body) < 300, (attack, body[:300])
    _honest_learner_is_served(server)
    log = server.log_text()
    assert server.tracebacks() == 0, log[-4000:]
    assert "the-secret-token" not in log
    assert "token=[secret]" in log
    assert len(log.splitlines()) < 120, log[-4000:]
