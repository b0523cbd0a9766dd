"""Quiz verdicts from the lesson's kernel to the class's server (issue 39: answers judged where the page cannot
reach).

In class mode the server starts every lesson kernel with three variables in its environment
(``kernel_environment``): where to post (``RULES_TUTOR_CLASS_VERDICTS``: the class server's
``rules-tutor/class/verdict`` on this machine), the kernel's id and the kernel's own key (an HMAC of its id with
the class's secret, ``kernel_key``). The page never sees them: it talks to the kernel through widgets, and the
kernel runs only the lesson's code. ``report(quiz, right, choice)``, called by a quiz's Reveal
(``tutor.ui.quiz.RevealQuiz``), posts the verdict from a background thread, in the order the verdicts were given
(a few tries each, never blocking the lesson, silent when there is no class). The server records it for the learner
whose page holds this kernel; what the page itself says about an answer is only a hint
(``tutor.classroom.handlers.EventHandler``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import queue
import secrets
import threading
import time
import urllib.request

URL_VARIABLE = "RULES_TUTOR_CLASS_VERDICTS"
KERNEL_VARIABLE = "RULES_TUTOR_KERNEL"
KEY_VARIABLE = "RULES_TUTOR_KERNEL_KEY"
TRIES = 5


def kernel_key(secret: bytes, kernel_id: str) -> str:
    """The key a kernel signs its verdicts with: only the server (which has ``secret``) and that kernel know it."""
    return hmac.new(secret, f"kernel.{kernel_id}".encode(), hashlib.sha256).hexdigest()[:40]


def kernel_environment(secret: bytes, kernel_id: str, url: str) -> dict[str, str]:
    """The variables the server adds to a lesson kernel's environment when it starts it."""
    return {URL_VARIABLE: url, KERNEL_VARIABLE: kernel_id, KEY_VARIABLE: kernel_key(secret, kernel_id)}


def report(quiz: str, right: bool, choice: str = "") -> bool:
    """Post a quiz's verdict to the class's server, after the ones before it (False when this kernel is not in a
    class). Verdicts go out one at a time, in the order they were given: a wrong answer then a right one must
    never reach the class as right first time, even when the first post has to be tried again."""
    url, kernel, key = (os.environ.get(name, "") for name in (URL_VARIABLE, KERNEL_VARIABLE, KEY_VARIABLE))
    if not (url and kernel and key):
        return False
    body = json.dumps(
        {
            "kernel": kernel,
            "key": key,
            "quiz": quiz,
            "right": bool(right),
            "choice": choice[:80],
            "id": secrets.token_hex(12),
        }
    ).encode()
    try:
        _outbox().put_nowait((url, body))
    except queue.Full:  # a thousand verdicts waiting: the server has been gone for long; this one is dropped
        pass
    return True


def wait_until_sent(timeout_s: float = 30) -> bool:
    """True once every verdict given so far has been posted (or given up on)."""
    deadline = time.monotonic() + timeout_s
    while _pending.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _pending.unfinished_tasks


_pending: queue.Queue[tuple[str, bytes]] = queue.Queue(maxsize=1000)
_sender: threading.Thread | None = None
_sender_lock = threading.Lock()


def _outbox() -> queue.Queue[tuple[str, bytes]]:
    global _sender
    with _sender_lock:
        if _sender is None or not _sender.is_alive():
            _sender = threading.Thread(target=_send_in_order, name="rules-tutor-verdicts", daemon=True)
            _sender.start()
    return _pending


def _send_in_order() -> None:
    while True:
        url, body = _pending.get()
        try:
            _post(url, body)
        finally:
            _pending.task_done()


def _post(url: str, body: bytes) -> None:
    """A few tries, a growing pause between them; a refusal for good (a paused class, a closed lesson) ends them,
    as the page's own post would."""
    for attempt in range(TRIES):
        try:
            request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as reply:
                if reply.status < 500:
                    return
        except urllib.error.HTTPError as refused:
            if refused.code < 500 and refused.code != 429:
                return
        except OSError:
            pass
        time.sleep(0.5 * 2**attempt)
