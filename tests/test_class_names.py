"""Names that cannot pass for others (issue 39), against a real ``rules-tutor serve``: an unnamed learner keeps a
number that a typed name cannot take ("Learner 1" typed, or with a Cyrillic "е"), a homoglyph of a classmate's name
is refused (400, one line), the honest learners join, and the teacher's data names each learner's number."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tests.test_classroom_serve as serve
from tests.test_classroom_serve import Server
from tutor.classroom.names import name_problem, skeleton

site = serve.site  # the fixture: a tiny lesson


def test_typed_names_cannot_pass_for_an_unnamed_learner_or_a_classmate(site: Path, tmp_path: Path) -> None:
    server = Server(site, tmp_path / "serve.log", "--class-size=2", f"--class-db={tmp_path / 'class.sqlite3'}")
    addresses = iter(f"127.0.0.{n}" for n in range(2, 250))
    try:
        _, _, headers = server.request("/voila/render/tiny.ipynb")
        key = re.search(r"rules_tutor_page=([^;]+)", headers["Set-Cookie"])[1]

        def join(name: str) -> tuple[int, bytes]:
            status, body, _ = server.request(
                "/rules-tutor/class/join", {"page": key, "name": name}, client=next(addresses)
            )
            return status, body

        for name in ("", "Ana", "Ian"):  # Learner 1, then two named learners
            assert join(name)[0] == 200
        for pretender in (
            "Learner 1",
            "learner1",
            "LEARNER  1",
            "Lеarner 1",
            "Learner l",
            "1",
            "#1",
            "１",
            "Аna",
            "ANA",
            "Ａｎａ",
            "A\u200bnа",
            "lan",
            "1an",
        ):
            status, body = join(pretender)
            assert status == 400 and body.count(b"\n") == 0, (pretender, status, body)
            assert json.loads(body)["name"] is True and json.loads(body)["error"]
        for honest in ("Anna", "Ana", "Ben", "Sol"):  # another Ana is told apart ("Ana (2)"), with her number
            status, body = join(honest)
            assert status == 200, (honest, body)
        token = server.teacher_token()
        data = json.loads(server.request("/rules-tutor/teacher/data", headers={"X-Teacher-Token": token})[1])
        assert [(learner["number"], learner["name"]) for learner in data["learners"]] == [
            (1, "Learner 1"),
            (2, "Ana"),
            (3, "Ian"),
            (4, "Anna"),
            (5, "Ana (2)"),
            (6, "Ben"),
            (7, "Sol"),
        ]
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("name", "classmate"),
    [
        ("Аlех", "Alex"),  # Cyrillic А, е, х
        ("Ρaul", "Paul"),  # Greek Ρ
        ("Arnold", "Amold"),  # rn and m
        ("0livia", "Olivia"),  # a zero
        ("1an", "Ian"),  # 1, small L and capital I: the same stroke
        ("Jose\u0301", "Josep"),  # not confusable: José and Josep differ
    ],
)
def test_the_skeleton(name: str, classmate: str) -> None:
    confusable = skeleton(name) == skeleton(classmate)
    assert confusable == (classmate != "Josep")
    assert bool(name_problem(name, [classmate])) == confusable
