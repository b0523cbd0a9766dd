"""Thin ipywidgets controllers over the In Flanders Field engine and ``tutor.flanders.render``.

    from tutor.flanders.widgets import GameTutor, FlandersQuiz, RiskQuiz
    GameTutor.new_game(players=3, seed=0)                 # p1 is the learner; p2, p3 bots
    GameTutor.from_scenario("bust")                       # scenarios/bust.json beside the lesson
    FlandersQuiz(["bust_a", "bust_b"], ask="lost", question="How many troop pieces does p1 lose?")
    RiskQuiz([("risk_a", "risk_b")], question="Which roll is riskier?")
    Workbench()                                           # the teacher's workbench: set, play, share, check

Every handler returns at once; animations play in the browser from one message.
What no game owns (the status line, the stepper, the quiz shell) is in ``tutor.ui``.
"""

from .game_tutor import GameTutor, load_scenario
from .narration import captions, narrate
from .quiz import FlandersQuiz, RiskQuiz
from .workbench import Workbench

__all__ = ["GameTutor", "load_scenario", "captions", "narrate", "FlandersQuiz", "RiskQuiz", "Workbench"]
