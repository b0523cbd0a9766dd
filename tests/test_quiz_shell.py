"""Issue 40, item 2: the quizzes on the lesson shell (``tutor.ui.quiz.RevealQuiz`` is a ``ScreenShell``).

Every quiz button goes through the shell's one click rule (``ClickGuard``: a double click is one press), and the
board in words, "No animation" and "For teachers" are the shell's own parts, placed in the secondary row as the
lessons place them."""

from __future__ import annotations

import ast
from pathlib import Path

import ipywidgets as widgets
import pytest

import tutor.ui.shell as shell
from tests.flamme_rouge.positions import BLOCKED
from tests.third_game.widgets import CountTutor
from tutor.flamme_rouge.widgets import PredictQuiz
from tutor.flamme_rouge.widgets.energy_quiz import EnergyQuiz
from tutor.flanders.widgets import FlandersQuiz, RiskQuiz
from tutor.ui.quiz import RevealQuiz, Verdict
from tutor.ui.screen import MotionSetting
from tutor.ui.shell import ClickGuard, ScreenShell
from tutor.ui.text_view import TextView

ROOT = Path(__file__).resolve().parents[1]
IFF = ROOT / "lessons" / "flanders" / "scenarios"


class CountedQuiz(RevealQuiz):
    """Guess a number (3); counts how often Reveal played the position out."""

    def __init__(self, **kwargs):
        self.guess = widgets.IntText(value=0)
        self.played = 0
        super().__init__(question="Which number?", board=widgets.HTML("board"), inputs=[self.guess], **kwargs)
        self.reset()

    @property
    def answer(self):
        return self.guess.value

    def play_out(self, answer):
        self.played += 1
        return Verdict(answer == 3, "The number is 3.")

    def restart(self):
        self.guess.value = 0

    def redraw(self, *, static=False, animate=False):
        """No board to draw."""


@pytest.fixture
def clock(monkeypatch):
    """The click rule's clock, moved by hand (seconds)."""
    now = [100.0]
    monkeypatch.setattr(shell.time, "monotonic", lambda: now[0])
    return now


def test_a_double_click_on_reveal_within_the_guards_delay_counts_once(clock):
    quiz = CountedQuiz()
    assert isinstance(quiz, ScreenShell) and isinstance(quiz.clicks, ClickGuard)
    assert quiz.debounce_s == ScreenShell.debounce_s == 0.3  # the lessons' delay
    quiz.guess.value = 4
    quiz.reveal_button.click()
    said = quiz.status.value
    assert quiz.played == 1 and quiz.is_right is False and quiz.focused is quiz.retry_button
    clock[0] += 0.2  # the double click's second click
    quiz.reveal_button.click()
    assert quiz.played == 1 and quiz.status.value == said  # ignored: no "Already revealed" either
    clock[0] += 0.5  # a later click counts (and is refused: the answer is revealed)
    quiz.reveal_button.click()
    assert quiz.played == 1 and "Already revealed" in quiz.status.text


def test_a_double_click_on_try_again_is_one_press_and_another_control_in_between_counts(clock):
    quiz = CountedQuiz()
    quiz.guess.value = 3
    quiz.reveal_button.click()
    clock[0] += 0.1
    quiz.retry_button.click()  # another control: it counts at once
    assert quiz.is_right is None and quiz.focused is quiz.guess and not quiz.reveal_button.disabled
    quiz.guess.value = 3
    clock[0] += 0.1
    quiz.retry_button.click()  # the second click of a double click on Try again: ignored, the answer stays
    assert quiz.guess.value == 3
    quiz.reveal_button.click()  # Reveal, clicked right after: another control, so it counts
    assert quiz.played == 2 and quiz.is_right is True


def test_a_click_queued_behind_a_slow_reveal_is_dropped_as_in_a_lesson(clock):
    class SlowQuiz(CountedQuiz):
        def play_out(self, answer):
            clock[0] += 2.0  # a reveal that takes two seconds: the second click waits in the queue
            return super().play_out(answer)

    quiz, lesson = SlowQuiz(), CountTutor()
    quiz.guess.value = 3
    quiz.reveal_button.click()
    clock[0] += 0.1
    quiz.reveal_button.click()
    assert quiz.played == 1 and "Already revealed" not in quiz.status.text
    lesson.add_buttons[0].click()
    clock[0] += 0.1
    lesson.add_buttons[0].click()
    assert lesson.game.total == 1  # the lesson's rule is the same one


def test_the_quiz_buttons_run_as_the_learners_action():
    """Through the shell's guard, each handler runs as a learner's action (``acting``: focus follows play)."""
    seen: list[bool] = []

    class Watching(CountedQuiz):
        def restart(self):
            seen.append(self.acting)
            super().restart()

    quiz = Watching()
    quiz.retry_button.click()
    assert seen == [True] and quiz.acting is False


def test_the_quizzes_board_in_words_and_no_animation_are_the_lessons_parts():
    lesson = CountTutor()
    predict = PredictQuiz(BLOCKED, rider="red-R", question="Where does red-R end after the movement phase?")
    flanders = FlandersQuiz([IFF / "forced_a.json"], ask="take", question="Which space does p1 take?")
    for quiz, scene in ((predict, predict.scene), (flanders, flanders.board)):
        assert type(quiz.motion) is type(lesson.motion) is MotionSetting and quiz.motion.scenes == [scene]
        assert type(quiz.text_view) is type(lesson.text_view) is TextView
        for mine, theirs in ((quiz.motion, lesson.motion), (quiz.text_view.toggle, lesson.text_view.toggle)):
            assert (mine.description, mine.tooltip, mine._dom_classes) == (
                theirs.description,
                theirs.tooltip,
                theirs._dom_classes,
            )
        assert list(quiz.secondary.children[:2]) == [quiz.motion, quiz.text_view.toggle]  # in the lessons' order
        assert lesson.secondary_row().children[2:4] == (lesson.motion, lesson.text_view.toggle)
        assert quiz.text_view.html in quiz.below.children
        quiz.motion.value = True  # "No animation" works on the quiz's board
        assert scene.animated is False
        assert quiz.text_view.text.startswith("The board in words:")  # filled by the quiz's redraw
    assert list(predict.secondary.children) == [predict.motion, predict.text_view.toggle, predict.key.button]
    assert list(predict.below.children) == [predict.text_view.html, predict.key.body]


def test_a_quiz_places_only_the_parts_it_uses_and_for_teachers_only_with_something_in_it():
    risk = RiskQuiz([(IFF / "risk_a1.json", IFF / "risk_a2.json")], question="Which position is riskier?")
    assert list(risk.secondary.children) == [risk.text_view.toggle, risk.rolls.button]  # no animation to stop
    energy = EnergyQuiz()
    assert energy.secondary.children == () and energy.below.children == ()  # its board is words already
    assert not any(w is energy.teachers.button for w in energy.secondary.children)  # an empty section: not shown
    note = widgets.HTML("Every learner gets the same number.")
    taught = CountedQuiz(teachers=[note])
    assert taught.secondary.children == (taught.teachers.button,) and taught.teachers.body.children == (note,)
    assert taught.below.children == (taught.teachers.body,)
    assert taught.teachers.button.description == CountTutor().teachers.button.description == "▸ For teachers"


QUIZ_MODULES = (
    "tutor/ui/quiz.py",
    "tutor/flamme_rouge/widgets/quiz.py",
    "tutor/flamme_rouge/widgets/energy_quiz.py",
    "tutor/flanders/widgets/quiz.py",
)


def test_no_quiz_makes_its_own_board_in_words_motion_setting_teachers_section_or_raw_click():
    """Reuse, not copies: the quizzes call none of the parts' constructors, and no button's ``on_click`` but the
    shell's (``self.on_click(button, control, handler)``)."""
    made = []
    for path in QUIZ_MODULES:
        for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("TextView", "MotionSetting", "teacher_section", "ClickGuard"):
                made.append(f"{path}:{node.lineno} {name}")
            if (
                name == "on_click"
                and isinstance(node.func, ast.Attribute)
                and ast.unparse(node.func.value).endswith("_button")
            ):
                made.append(f"{path}:{node.lineno} {ast.unparse(node.func)}")
    assert made == []
