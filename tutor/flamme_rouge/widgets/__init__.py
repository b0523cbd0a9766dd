"""Thin ipywidgets controllers over the Flamme Rouge engine and ``tutor.flamme_rouge.render``.

    from tutor.flamme_rouge.widgets import RaceTutor, PredictQuiz
    RaceTutor.new_race("avenue-corso-paseo", teams=("red", "blue"), bots={"blue": "heuristic"}, seed=0,
                       human_teams=("red",))                # a VBox: display it or leave it last in a cell
    RaceTutor.from_scenario("scenarios/p1_blocked_rider.json")   # movement phase, the scenario's cards
    RaceTutor(race, human_teams=None, focus=None, title="")       # any Race; None = every team without a bot
    PredictQuiz(path_or_dict, question="Where does red-R end?", rider="red-R", ask="square", explain="")
    RaceChooser(human_team="red", bots=("blue", "green"))       # pick a stage, then race the bots
    BreakawayBid("cobbles-24", teams=("red", "blue", "green"), learner="red")   # bid for the breakaway

See ``race_tutor`` and ``quiz`` for the attributes (``race``, ``status``, ``narration``, the buttons).
``RaceTutor`` is the lesson shell (``tutor.ui.shell.LessonShell``) and a VBox composed of parts it owns, each
a plain object in its own module that sees the tutor only through public names (its properties, or callables
it is given): ``words`` (``race_words``: what it says), ``pace`` (``race_pace``: "Finish the race", Skip),
``placing`` (``race_controls``: the setup) and ``positions`` (``race_positions``: where a position stops and
which comes next). The teacher's ``Workbench`` is made the same way: the lesson shell and a VBox, with its board's
editing a part (``editing``, ``workbench_editing.BoardEditor``: the picked rider and the rider, team, kind and card
inputs).
Every handler returns at once; animations play in the browser from one message. What no game owns (the
status line, the stepper, the quiz shell, the narration panel) is in ``tutor.ui``.
"""

from .breakaway import BreakawayBid
from .narration import Line, narrate, to_html
from .quiz import PredictQuiz
from .race_chooser import RaceChooser
from .race_tutor import RaceTutor
from .workbench import PositionBox, Workbench

__all__ = [
    "BreakawayBid",
    "Line",
    "narrate",
    "to_html",
    "PredictQuiz",
    "RaceChooser",
    "RaceTutor",
    "PositionBox",
    "Workbench",
]
