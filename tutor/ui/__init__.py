"""What every game's lessons share on screen; imports no game.

- ``scene``: ``LayeredScene``, a fixed-size MultiCanvas of layers, repainted on client ready; animations in one
  message.
- ``drawing``: fonts, contrasting ink, rounded rectangles, text and tags.
- ``controls``: the style sheet (``CSS``), ``StatusLine``, ``button``, ``label``, ``header``.
- ``narration``: ``Line`` (what happened, with its ``Rule`` references), ``cite``, ``to_html``.
- ``stepper``: ``PhaseStepper`` (Next, Finish round, Back, Restart, seed), driven by callbacks.
- ``screen``: the lesson screen: ``LiveRegion``, ``Disclosure`` / ``teacher_section``, ``Focusing`` (focus
  follows play), ``MotionSetting`` (no animation), ``prompt_row``, ``SecondaryRow``, ``board_frame``.
- ``quiz``: ``RevealQuiz``, the predict-then-reveal shell, and its ``Verdict``.
- ``landing``: the landing page listing the games of ``tutor.core.games`` and their lessons.
- ``testing``: ``recorded_commands()``, the canvas commands a test would send to the browser.

A game's renderer and widgets (``tutor.flamme_rouge.render``, ``tutor.flamme_rouge.widgets``) build on these.
"""

from .controls import CSS, StatusLine, button, header, label
from .narration import Line, and_list, cite, plural, to_html
from .quiz import RevealQuiz, Verdict
from .scene import LayeredScene
from .stepper import PhaseStepper

__all__ = ["CSS", "StatusLine", "button", "header", "label", "Line", "and_list", "cite", "plural", "to_html",
           "RevealQuiz", "Verdict", "LayeredScene", "PhaseStepper"]
