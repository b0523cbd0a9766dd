"""The next lesson ready before a learner alone asks for it (issue 37: a board within 3 s).

A lesson's board waits for a kernel to start and run the lesson's cells: about 2 s of a 3 s wait on a quiet
two-core machine. While a learner reads lesson 3, ``NextLesson`` has one kernel run lesson 4 (the next numbered
lesson in the same folder, so in the learner's language) through Voila's preheated pools; "Next" then only sends
the page and syncs its widgets. One lesson is prepared at a time: opening another lesson stops the kernel
prepared for the old "next" (or stops it once it has started), so a learner costs at most one kernel more than
the lessons they have open.

``rules-tutor serve`` without a class turns it on (``learner_alone_settings``; ``--no-next-lesson`` keeps it
off); a class prepares its lessons with ``--lesson`` pools instead (``class_mode.classroom_settings``), where one
extra kernel per learner would double the class's memory. A school's JupyterHub and Binder run Voila inside a
Jupyter server, without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from . import voila_adapter as voila
from .voila_adapter import VoilaKernelManager

NUMBERED = "[0-9][0-9]_*.ipynb"


def learner_alone_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` (voila.json's) with the next lesson prepared: Voila's preheated pools on, every pool empty
    unless ``NextLesson`` fills one, at once."""
    settings = dict(json.loads(json.dumps(settings)))
    settings.setdefault("VoilaConfiguration", {})["preheat_kernel"] = True
    manager = settings.setdefault("VoilaKernelManager", {})
    manager["kernel_pools_config"] = {"default": {"pool_size": 0}}
    manager["fill_delay"] = 0
    settings.setdefault("ClassroomVoila", {})["prepare_next_lesson"] = True
    return settings


def next_lesson(root: Path, page: str) -> str | None:
    """The numbered lesson after ``page`` (a notebook path below ``root``) in its folder; None after the last one,
    or for a page that is not a numbered lesson (a landing page, a rules summary)."""
    path = PurePosixPath(page.strip("/"))
    folder = root / path.parent
    if not folder.is_dir() or not path.match(NUMBERED):
        return None
    names = sorted(p.name for p in folder.glob(NUMBERED))
    if path.name not in names:
        return None
    following = names.index(path.name) + 1
    return str(path.parent / names[following]) if following < len(names) else None


class NextLesson:
    """Keeps one kernel running the lesson after the one a learner opened last."""

    def __init__(self, kernel_manager: VoilaKernelManager, root: Path, say: Callable[[str], None]) -> None:
        self.kernel_manager, self.root, self.say = kernel_manager, root, say
        self.prepared: str | None = None
        """The lesson a kernel is prepared (or preparing) for."""

    def opened(self, page: str) -> None:
        """A learner has been sent ``page``: prepare the lesson after it, and only that one."""
        following = next_lesson(self.root, page)
        if following is None or following == self.prepared:
            return
        if self.prepared is not None:
            voila.empty_pool(self.kernel_manager, self.prepared)
        self.prepared = following
        voila.prepare_one(self.kernel_manager, following)
        self.say(f"Preparing the next lesson: {following}")
