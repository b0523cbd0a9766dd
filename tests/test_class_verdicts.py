"""Answers judged where the page cannot reach (issue 39), against a real ``rules-tutor serve``: the class records
the quiz verdict the lesson's kernel posts (``tutor.ui.kernel_report``), for the learner whose page holds
that kernel; a page's ``right`` is only a hint (a pupil's ``curl`` with ``right: true`` records nothing), and a
verdict without the kernel's own key is refused (403, one line)."""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from tests.test_classroom_serve import REPO, REVEAL, Server, Sockets, click_message, kernel_of


@pytest.fixture
def quiz_site(tmp_path: Path) -> Path:
    """A lesson whose one button stands for a quiz's Reveal: wrong ("3") the first time, right ("4") the next."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# A quiz lesson"), nbformat.v4.new_code_cell(REVEAL)]
    )
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["tutor"] = {"quizzes": ["q1"]}
    nbformat.write(notebook, lessons / "quiz.ipynb")
    (tmp_path / "voila.json").write_text((REPO / "voila.json").read_text())
    return lessons


def _click(sockets: Sockets, connection, model_id: str) -> None:  # type: ignore[no-untyped-def]
    message = click_message(model_id)
    sockets.run(lambda: connection.write_message(json.dumps(message)))


def test_the_class_records_the_kernels_verdict_not_the_pages(quiz_site: Path, tmp_path: Path) -> None:
    server = Server(quiz_site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    sockets = Sockets(server.port)
    teacher = {"X-Teacher-Token": server.teacher_token()}

    def cells() -> list[list[str]]:
        data = json.loads(server.request("/rules-tutor/teacher/data", headers=teacher)[1])
        return [[cell["state"] for cell in learner["cells"]] for learner in data["learners"]]

    try:
        status, page, headers = server.request("/voila/render/quiz.ipynb")
        assert status == 200
        key = re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"])[1]
        kernel = kernel_of(page)
        [button] = re.findall(rb'"model_id": "([0-9a-f]+)"', page)[:1]
        learner = json.loads(server.request("/rules-tutor/class/join", {"page": key, "name": "Ana"})[1])["learner"]
        event = {"page": key, "learner": learner, "kind": "answered", "lesson": "quiz.ipynb", "quiz": "q1"}
        assert server.request("/rules-tutor/class/event", {**event, "right": True, "choice": "4"})[0] == 204
        assert cells() == [[]] or cells() == [["opened"]]  # the page's "right" recorded nothing

        for forged in ({"kernel": kernel, "key": "0" * 40}, {"kernel": "another", "key": "0" * 40}, {}):
            status, body, _ = server.request(
                "/rules-tutor/class/verdict",
                {**forged, "quiz": "q1", "right": True, "choice": "4", "id": uuid.uuid4().hex},
            )
            assert status == 403 and body.count(b"\n") == 0, (forged, body)
        assert server.request("/rules-tutor/class/verdict", b"[[[[[[".decode())[0] == 400

        connection = sockets.open(kernel, "127.0.0.1")
        _click(sockets, connection, button.decode())  # the learner's Reveal: wrong ("3")
        deadline = time.monotonic() + 60
        while cells() != [["finished", "wrong"]]:
            assert time.monotonic() < deadline, (cells(), server.log.read_text()[-2000:])
            time.sleep(0.2)
        _click(sockets, connection, button.decode())  # then right ("4"): right after a try
        while cells() != [["finished", "right-after"]]:
            assert time.monotonic() < deadline, (cells(), server.log.read_text()[-2000:])
            time.sleep(0.2)
        csv = server.request("/rules-tutor/teacher/results.csv", headers=teacher)[1]
        assert b"Ana,A quiz lesson,Q1,right after tries,2,3" in csv
        assert "Traceback" not in server.log.read_text()
    finally:
        sockets.stop()
        server.stop()
