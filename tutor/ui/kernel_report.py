"""Quiz verdicts from the lesson's kernel to the class's server (issue 39: answers judged where the page cannot
reach).

In class mode the server starts every lesson kernel with three variables in its environment
(``kernel_environment``): where to post (``RULES_TUTOR_CLASS_VERDICTS``: the class server's
``rules-tutor/class/verdict`` on this machine), the kernel's id and the kernel's own key (an HMAC of its id with
the class's secret, ``kernel_key``). The page never sees them: it talks to the kernel through widgets, and the
kernel runs only the lesson's code. ``report(quiz, right, choice)``, called by a quiz's Reveal
(``tutor.ui.quiz.RevealQuiz``), posts the verdict in a background thread (a few tries, never blocking the
lesson, silent when there is no class). The server records it for the learner whose page holds this kernel; what
the page itself says about an answer is only a hint (``tutor.classroom.handlers.EventHandler``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
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


def report(quiz: str, right: bool, choice: str = "") -> threading.Thread | None:
    """Post a quiz's verdict to the class's server (None when this kernel is not in a class)."""
    url, kernel, key = (os.environ.get(name, "") for name in (URL_VARIABLE, KERNEL_VARIABLE, KEY_VARIABLE))
    if not (url and kernel and key):
        return None
    body = json.dumps({"kernel": kernel, "key": key, "quiz": quiz, "right": bool(right), "choice": choice[:80],
                       "id": secrets.token_hex(12)}).encode()

    def post() -> None:
        for attempt in range(TRIES):
            try:
                request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=10) as reply:
                    if reply.status < 500:
                        return
            except urllib.error.HTTPError as refused:
                if refused.code < 500 and refused.code != 429:
                    return  # refused for good (a paused class, a closed lesson): as the page's post was
            except OSError:
                pass
            time.sleep(0.5 * 2 ** attempt)

    thread = threading.Thread(target=post, name="rules-tutor-verdict", daemon=True)
    thread.start()
    return thread
