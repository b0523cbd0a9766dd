"""The shared UI (``tutor.ui``): it imports no game, a game's engine imports no UI, and each piece works alone."""

from __future__ import annotations

import json
import subprocess
import sys

import ipywidgets as widgets
import pytest

from tutor.core.events import Rule
from tutor.core.games import GameEntry
from tutor.ui import Line, PhaseStepper, RevealQuiz, Verdict, and_list, cite, to_html
from tutor.ui.drawing import needs_outline, rounded_rect, text_colour_on
from tutor.ui.landing import landing, landing_html
from tutor.ui.lessons import lesson_info
from tutor.ui.narration import NarrationLog
from tutor.ui.controls import StatusLine
from tutor.ui.scene import LayeredScene
from tutor.ui.screen import Focusing, MotionSetting, board_frame, changed_words, teacher_section
from tutor.ui.testing import recorded_commands


def _modules_after(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after ``statement``."""
    code = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(json.loads(out))


def test_the_shared_ui_imports_no_game():
    loaded = _modules_after("import tutor.ui, tutor.ui.landing, tutor.ui.testing")
    games = sorted(m for m in loaded if m.startswith(("tutor.flamme_rouge", "tutor.flanders")))
    assert games == []


def test_the_flamme_rouge_engine_loads_no_ui_library_nor_numpy():
    loaded = _modules_after("import tutor.flamme_rouge, tutor.flamme_rouge.bots, tutor.flamme_rouge.scenario")
    heavy = sorted(m for m in loaded if m.split(".")[0] in ("ipywidgets", "ipycanvas", "numpy"))
    assert heavy == []


# ----- narration --------------------------------------------------------------------------------------------

MOVE = Rule("t.move", "Movement phase", "a rider moves exactly the value of its card")
EMPTY = Rule("t.empty", "Movement phase", "a rider landing on an empty square takes the right-hand lane")
CUT = Rule("t.cut", "Finish", "a move past the last square stops on the last square", decision=True)


def test_rules_are_cited_from_their_section_and_text_each_section_named_once():
    assert cite((MOVE, EMPTY, MOVE)) == (
        "Movement phase: a rider moves exactly the value of its card. A rider "
        "landing on an empty square takes the right-hand lane."
    )
    assert cite((MOVE, CUT)).endswith("Finish: a move past the last square stops on the last square.")  # a decision
    assert "decision" not in cite((CUT,)) and "tutor" not in cite((CUT,))  # reads as the rule that is played
    assert cite((MOVE, CUT, EMPTY)).startswith(
        "Movement phase: a rider moves exactly the value of its card. A rider landing"
    )
    assert cite(()) == ""


def test_narration_lines_render_as_a_list_with_their_rules():
    html = to_html([Line("red-S moves 5 squares.", (MOVE,)), Line("Back <undo>.")])
    assert html.startswith("<ul class='tutor-narration'>") and html.count("<li>") == 2
    assert "<span class='tutor-rule'>Movement phase: a rider moves" in html and "Back &lt;undo&gt;." in html
    assert to_html([]) == ""
    assert and_list([]) == "nobody" and and_list(["a", "b", "c"]) == "a, b and c"


# ----- drawing, scene, stepper, quiz shell ------------------------------------------------------------------


def test_ink_contrasts_with_its_fill():
    assert text_colour_on("#fafafa") == "#000000" and text_colour_on("#212121") == "#ffffff"
    assert needs_outline("#fafafa") and not needs_outline("#c62828")


def test_a_layered_scene_has_a_fixed_size_and_repaints_when_a_client_connects():
    scene = LayeredScene(2, 300, 120)
    assert scene.canvas.layout.width == "300px" and scene.canvas.layout.height == "120px"
    painted = []

    def paint() -> None:
        with scene.painting():
            rounded_rect(scene.layer(0), 10, 10, 50, 20, 4)
            scene.layer(0).fill()
        painted.append(1)

    scene.on_client_ready(paint)
    with recorded_commands() as log:
        scene.canvas[1]._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert painted == [1] and log.messages == 1 and log.count("arcTo") == 4


def test_an_animation_is_one_message_with_a_sleep_per_frame():
    scene = LayeredScene(2, 100, 100)
    with recorded_commands() as log:
        scene.play(
            [1, 2, 3],
            lambda f: scene.layer(1).fill_rect(f, f, 5, 5) or 40.0,
            before=lambda: True,
            after=lambda: scene.layer(1).clear(),
        )
    assert log.messages == 1 and log.sleeps() == [0, 40.0, 40.0, 40.0]


def test_the_stepper_calls_back_and_enables_its_buttons():
    calls: list[str] = []
    stepper = PhaseStepper(
        on_next=lambda: calls.append("next"),
        on_finish=lambda: calls.append("finish"),
        on_back=lambda: calls.append("back"),
        on_restart=lambda: calls.append("restart"),
        seed=5,
        seed_enabled=False,
    )
    for b in (stepper.next_button, stepper.finish_button, stepper.back_button, stepper.restart_button):
        b.click()
    assert calls == ["next", "finish", "back", "restart"] and stepper.seed.value == 5 and stepper.seed.disabled
    stepper.update(can_step=False, can_undo=True)
    assert stepper.next_button.disabled and stepper.finish_button.disabled and not stepper.back_button.disabled


class GuessQuiz(RevealQuiz):
    """The smallest game: guess a number; the board is a label."""

    def __init__(self):
        self.guess = widgets.IntText(value=0)
        self.redraws: list[bool] = []
        super().__init__(
            question="Which number?", board=widgets.HTML("board"), inputs=[self.guess], explain="It is always 3."
        )
        self.reset()

    @property
    def answer(self):
        return self.guess.value

    def missing_answer(self):
        return "Type a number first." if self.guess.value == 0 else None

    def play_out(self, answer):
        return Verdict(answer == 3, "The number is 3.", [Line("3 it is.", (MOVE,))], [Line("Revealed.")])

    def restart(self):
        self.guess.value = 0

    def redraw(self, *, static=False, animate=False):
        self.redraws.append(animate)


def test_the_quiz_shell_checks_reveals_and_resets():
    quiz = GuessQuiz()
    quiz.debounce_s = 0  # a learner's pause between the clicks (a double click: test_a_double_click_on_reveal_...)
    quiz.reveal_button.click()
    assert quiz.is_right is None and quiz.status.kind == "warning" and "Type a number" in quiz.status.text
    quiz.guess.value = 4
    quiz.reveal_button.click()
    assert quiz.is_right is False and "Not quite" in quiz.feedback.value and "It is always 3." in quiz.feedback.value
    assert "The rule that decided it" in quiz.feedback.value and "Revealed." in quiz.narration.value
    assert quiz.guess.disabled and quiz.reveal_button.disabled and quiz.redraws[-1] is True
    quiz.reveal_button.click()
    assert "Already revealed" in quiz.status.text
    quiz.retry_button.click()
    assert quiz.is_right is None and quiz.feedback.value == "" and quiz.guess.value == 0 and not quiz.guess.disabled
    quiz.guess.value = 3
    quiz.reveal_button.click()
    assert quiz.is_right is True and "tutor-status-success" in quiz.feedback.value


def test_the_quiz_verdict_is_read_in_its_live_region_and_focus_moves_to_try_again_then_back_to_the_answer():
    quiz = GuessQuiz()
    status = quiz.status
    assert "tutor-live" in status._dom_classes and "choose Reveal" in status.text and "click" not in status.text
    quiz.guess.value = 4
    quiz.reveal_button.click()
    assert quiz.status is status  # the same element: a live region only speaks when it stays in the page
    assert status.kind == "warning" and "Not quite." in status.value and "The number is 3." in status.value
    assert "3 it is." in status.value and "Try again" in status.text  # right or wrong, and why, read once
    assert quiz.focused is quiz.retry_button
    quiz.retry_button.click()
    assert quiz.focused is quiz.guess and "Not quite" not in status.value


# ----- the screen (tutor.ui.screen) ---------------------------------------------------------------------------


def test_the_status_line_is_one_live_region_whose_content_changes():
    line = StatusLine()
    assert {"tutor-live", "tutor-live-status"} <= set(line._dom_classes)
    line.show("Choose 'Next step'.", changed="red-S moves 5 squares.")
    assert "role=" not in line.value  # the role is the widget's own element's (a11y.js), not a rebuilt div
    assert "<span class='tutor-sr-only'>red-S moves 5 squares.</span>" in line.value
    assert line.text == "Choose 'Next step'." and line.changed == "red-S moves 5 squares."
    with pytest.raises(ValueError):
        line.show("x", "loud")


def test_what_a_step_changed_is_said_in_two_sentences_at_most():
    lines = [Line("red-S moves 5 squares", (MOVE,)), Line("blue-R is blocked."), Line("green-S moves 2.")]
    assert changed_words(lines) == "red-S moves 5 squares. blue-R is blocked. And 1 more in the log."
    assert changed_words(lines[:1]) == "red-S moves 5 squares." and changed_words([]) == ""


def test_a_disclosure_is_closed_by_default_and_shows_its_body_when_opened():
    seed = widgets.IntText(description="shuffle number")
    section = teacher_section(seed)
    assert "tutor-disclosure" in section.button._dom_classes and not section.open
    assert section.body.layout.display == "none" and section.button.description == "▸ For teachers"
    section.button.value = True
    assert section.open and section.body.layout.display is None and section.body.children == (seed,)
    assert section.button.description == "▾ For teachers"


def test_move_focus_focuses_the_widget_and_records_it(monkeypatch):
    focused: list[widgets.Widget] = []
    monkeypatch.setattr(widgets.Button, "focus", lambda self: focused.append(self))
    holder, target = Focusing(), widgets.Button(description="Next")
    holder.move_focus(target)
    assert holder.focused is target and focused == [target]
    holder.move_focus(None)
    assert holder.focused is target and focused == [target]


def test_with_no_animation_a_scene_draws_the_final_frame_at_once():
    scene = LayeredScene(2, 100, 100)
    motion = MotionSetting([scene])
    assert "tutor-motion" in motion._dom_classes and scene.animated
    motion.value = True
    assert not scene.animated
    finals: list[int] = []
    with recorded_commands() as log:
        scene.play(
            [1, 2, 3],
            lambda f: scene.layer(1).fill_rect(f, f, 5, 5) or 40.0,
            before=lambda: True,
            after=lambda: finals.append(1) or scene.layer(1).clear(),
        )
    assert log.messages == 1 and log.sleeps() == [] and log.count("fillRect") == 0 and finals == [1]
    assert not scene.playing
    motion.value = False
    assert scene.animated


def test_a_framed_board_follows_its_column_up_to_its_own_size_and_keeps_its_pixels_and_proportions():
    scene = LayeredScene(2, 960, 300, scale=2)
    assert scene.canvas.layout.width == "960px"  # unframed: its own size
    frame = board_frame(scene)
    assert "tutor-board-frame" in frame._dom_classes and frame.children[0] is scene.canvas
    layout = scene.canvas.layout
    assert (layout.width, layout.max_width, layout.height) == ("100%", "960px", "auto")  # its proportions kept
    assert frame.layout.max_width == "960px" and frame.layout.min_width == "0"  # never scrolls sideways
    assert (scene.canvas.width, scene.canvas.height) == (1920, 600)  # its pixels kept: sharp at any size
    scene.set_height(200)
    assert scene.canvas.layout.height == "auto" and scene.canvas.height == 400
    assert scene.css_point(960, 200) == (480, 100)  # a click (canvas pixels, at any CSS size) in drawing pixels


def test_a_framed_board_hears_its_columns_width_from_the_page():
    """The page (a11y.js) writes the column's width into the frame's hidden box: the board's fit_column hears it,
    each time it changes; what is not a width is ignored."""
    widths = []

    class Board(LayeredScene):
        def fit_column(self, width: int) -> None:
            widths.append(width)

    scene = Board(2, 960, 300, scale=2)
    frame = board_frame(scene)
    box = frame.children[1]
    assert "tutor-column-width" in box._dom_classes and box.layout.display == "none"
    assert board_frame(scene).children[1] is box  # one box per board, whichever frame shows it
    box.value = "382"
    box.value = "abc"
    box.value = "740.5"
    assert widths == [382, 740]


# ----- landing page ---------------------------------------------------------------------------------------


def _notebook(path, *cells):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "cells": [{"cell_type": t, "source": s, "metadata": {}} for t, s in cells],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )


def test_the_landing_page_lists_games_and_lessons_by_their_first_heading(tmp_path):
    _notebook(tmp_path / "one" / "01_a.ipynb", ("code", "x = 1"), ("markdown", "Intro\n## 1. First steps\n# later"))
    _notebook(tmp_path / "one" / "00_welcome.ipynb", ("markdown", ["# Welcome", "\n"]))
    _notebook(tmp_path / "one" / "02_b.ipynb", ("markdown", "no heading"))
    games = [
        GameEntry("one", "Game One", "pkg.one", "one", "The first <game>."),
        GameEntry("two", "Game Two", "pkg.two", "two", "Coming."),
    ]
    assert lesson_info(tmp_path / "one" / "01_a.ipynb").title == "1. First steps"
    html = landing_html(tmp_path, games)
    assert "<h2>Game One</h2>" in html and "The first &lt;game&gt;." in html
    assert html.index("00_welcome.ipynb'>Welcome</a>") < html.index("01_a.ipynb'>1. First steps</a>")
    assert "one/02_b.ipynb'>02_b</a>" in html
    assert "<h2>Game Two</h2>" in html and "Lessons coming." in html
    assert "Game One" not in landing(tmp_path)._repr_html_()  # the registry's games, none of which is here


# ----- the lesson shell's one click rule (tutor.ui.shell.ClickGuard) ---------------------------------------


def test_the_click_rule_drops_a_double_click_even_after_a_slow_handler_and_counts_another_control(monkeypatch):
    import tutor.ui.shell as shell

    now = [100.0]
    monkeypatch.setattr(shell.time, "monotonic", lambda: now[0])
    ran: list[str] = []

    def slow(name: str):
        def handler() -> None:
            ran.append(name)
            now[0] += 1.0  # a handler that takes a second: the double click's second click waits in the queue

        return handler

    guard = shell.ClickGuard(lambda: 0.3)
    assert guard.click("next", slow("next"))
    now[0] += 0.1  # the queued second click arrives 0.1 s after the first one's handler ended
    assert not guard.click("next", slow("next")) and ran == ["next"]
    assert guard.click("back", slow("back"))  # another control counts at once
    assert guard.click("next", slow("next"))  # and then the first one counts again
    now[0] += 0.5
    assert guard.click("next", slow("next"))  # a click well after the last one ended counts
    assert ran == ["next", "back", "next", "next"]


def test_the_log_keeps_every_section_folds_the_older_ones_and_can_list_the_newest_first():
    rule = Rule("x.move", "Movement phase", "a rider moves exactly the value of its card")
    log = NarrationLog("Log", newest_first=True)
    log.start("Turn 1", [Line("a moves", (rule,)), Line("b moves", (rule,))])
    log.start("Turn 1", [Line("a moves again", (rule,))])  # a new section, though its title is the same
    log.add([Line("c waits")], show=False)
    assert [title for title, _ in log.sections] == ["Turn 1", "Turn 1"] and "c waits" not in log.html.value
    log.refresh()
    value = log.html.value
    assert value.index("a moves again") < value.index("b moves")  # the newest section on top
    assert value.count("<details class='tutor-log-section' open>") == 1 and value.count("exactly the value") == 2
    assert [line.text for line in log.every_line] == ["a moves", "b moves", "a moves again", "c waits"]
    log.toggle.value = False
    assert log.html.layout.display == "none" and log.toggle.description == "▸ Log"
    assert "tutor-log" in log.html._dom_classes  # the log itself, wherever a widget places it
