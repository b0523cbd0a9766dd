"""The class's endpoints, the learners' (``tutor.classroom.handlers``) and the teacher's (``tutor.classroom.teacher``),
as Voila's server registers them in class mode (``routes``). The teacher's handlers build on the learners', so the
list of both is made here, above the two."""

from __future__ import annotations

from typing import Any

import tornado.web

from .handlers import Classroom, EventHandler, JoinHandler, OpenHandler, StateHandler, VerdictHandler
from .teacher import teacher_routes


def routes(
    classroom: Classroom, base_url: str = "/"
) -> list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]:
    """The class's endpoints below ``base_url`` (Voila's)."""
    base = base_url.rstrip("/") + "/rules-tutor/"
    paths: dict[str, type[tornado.web.RequestHandler]] = {
        "class/join": JoinHandler,
        "class/event": EventHandler,
        "class/state": StateHandler,
        "class/open": OpenHandler,
        "class/verdict": VerdictHandler,
        **teacher_routes(),
    }
    return [(base + path, handler, {"classroom": classroom}) for path, handler in paths.items()]
