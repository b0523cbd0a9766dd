"""What every game's lessons share on screen; imports no game.

- ``scene``: ``LayeredScene``, a fixed-size MultiCanvas of layers, repainted on client ready; animations in one
  message.
- ``drawing``: fonts, contrasting ink, rounded rectangles, text and tags.
- ``controls``: the style sheet (``CSS``), ``StatusLine``, ``button``, ``label``, ``header``.
- ``narration``: ``Line`` (what happened, with its ``Rule`` references), ``cite``, ``to_html``.
- ``stepper``: ``PhaseStepper`` (Next, Finish round, Back, Restart, seed), driven by callbacks.
- ``screen``: the lesson screen's parts: ``LiveRegion``, ``Disclosure`` / ``teacher_section``, ``Focusing`` (focus
  follows play), ``MotionSetting`` (no animation), ``prompt_row``, ``SecondaryRow``, ``board_frame``.
- ``shell``: ``LessonShell``, the one lesson shell every game's lesson widget composes from those parts (status,
  stepper, Back through the ``controller``, the one click rule ``ClickGuard``, focus moves, motion, the board in
  words, "For teachers", the secondary row); ``ScreenShell``, its part without a state to step through (a quiz's).
- ``controller``: ``UndoController``, act and Back over the state's own history; ``text_view``: the board in words.
- ``quiz``: ``RevealQuiz``, the predict-then-reveal shell, and its ``Verdict``; ``kernel_report``: its verdicts
  posted from the lesson's kernel to the class's server (which checks them with the same key: ``kernel_key``).
- ``landing``: the landing page listing the games of ``tutor.core.games`` and their lessons.
- ``testing``: ``recorded_commands()``, the canvas commands a test would send to the browser.

A game's renderer and widgets (``tutor.flamme_rouge.render``, ``tutor.flamme_rouge.widgets``) build on these.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # ``name as name``: re-exported (``__all__`` below is built from ``_HOMES``, which a checker cannot read).
    from .controls import CSS as CSS, StatusLine as StatusLine, button as button, header as header, label as label
    from .narration import Line as Line, and_list as and_list, cite as cite, plural as plural, to_html as to_html
    from .quiz import RevealQuiz as RevealQuiz, Verdict as Verdict
    from .scene import LayeredScene as LayeredScene
    from .stepper import PhaseStepper as PhaseStepper

# Imported on first use: a page without a board (the landing page, a rules summary) imports only ``lessons`` or
# ``landing``, not ipywidgets, ipycanvas and numpy, so its kernel answers sooner.
_HOMES = {
    "CSS": "controls",
    "StatusLine": "controls",
    "button": "controls",
    "header": "controls",
    "label": "controls",
    "Line": "narration",
    "and_list": "narration",
    "cite": "narration",
    "plural": "narration",
    "to_html": "narration",
    "RevealQuiz": "quiz",
    "Verdict": "quiz",
    "LayeredScene": "scene",
    "PhaseStepper": "stepper",
}
__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
