"""Issue 37: no label on the board is written over another. Checked on the renderer's geometry (``render.labels``):
the boxes of the badges, the chips by the tokens and the marks' labels, and that the drawing puts each label
where the geometry says; and the Peloton's two riders differ by more than colour."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from tutor.flamme_rouge import Race
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.cards import Card
from tutor.flamme_rouge.render import Chip, Highlights, Mark, Scene, legend_html, make_view, token_label
from tutor.flamme_rouge.render.labels import badge_box, mark_box, overlaps, place_mark_labels
from tutor.flamme_rouge.render.riders import current_positions, rider_labels
from tutor.flamme_rouge.widgets import RaceTutor
from tutor.ui.testing import recorded_commands

from .test_quiz_lessons import lesson_quizzes

FR = Path(__file__).resolve().parents[2] / "lessons" / "flamme_rouge"


def assert_clear(view, race, highlights, positions=None):
    """Every label by a token covers no badge, no other rider's team mark and no other label."""
    positions = positions or current_positions(race)
    labels = rider_labels(view, highlights, positions)
    badges = {rid: badge_box(view, *pos) for rid, pos in positions.items()}
    marks = {rid: mark_box(view, *pos) for rid, pos in positions.items()}
    for label in labels:
        assert not any(overlaps(label.box, box) for box in badges.values()), (label, "covers a badge")
        assert not any(overlaps(label.box, box) for rid, box in marks.items() if rid != label.rider), label
    for a, b in combinations(labels, 2):
        assert not overlaps(a.box, b.box), (a, b)
    for a, b in combinations(badges.values(), 2):
        assert not overlaps(a, b)
    return labels


def big_pack(lanes: int = 2) -> Race:
    """Twelve riders on six squares side by side: the pack of a full race (FR 07, 11)."""
    teams = ["red", "blue", "green", "black", "white", "pink"]
    riders = [
        {"id": f"{team}-{kind}", "square": 3 + k // lanes, "lane": k % lanes}
        for k, (team, kind) in enumerate((t, kind) for t in teams for kind in "SR")
    ]
    return scenarios.build({"track": " ".join([str(lanes)] * 30), "riders": riders})


@pytest.mark.parametrize("lanes", [2, 3])
def test_card_chips_slipstream_gains_and_exhaustion_cards_in_a_big_pack_cover_no_badge(lanes):
    race = big_pack(lanes)
    view = make_view(race.track)
    riders = list(race.riders)
    cards = {rid: Chip((Card.parse(str(2 + k % 8)),)) for k, rid in enumerate(riders)}
    assert_clear(view, race, Highlights(cards=cards))
    gains = {rid: 1 + k % 2 for k, rid in enumerate(riders)}
    front = tuple(rid for rid in riders if race.riders[rid].square == 8)  # an empty square ahead: exhaustion
    labels = assert_clear(view, race, Highlights(slipstreamed=gains, exhausted=front))
    assert len(labels) == len(riders) + len(front)  # every label is drawn
    bids = {rid: Chip((Card.parse("5"), Card.parse("4"))) for rid in riders[:6]}  # the breakaway's two bid cards
    assert_clear(view, race, Highlights(cards=bids))


def test_the_drawing_puts_each_chip_where_the_geometry_places_it():
    race = big_pack()
    scene = Scene(race.track)
    highlights = Highlights(slipstreamed={rid: 2 for rid in race.riders})
    with recorded_commands() as log:
        scene.draw(race, highlights)
    placed = rider_labels(scene.view, highlights, current_positions(race))
    drawn = [(c.args[1], c.args[2]) for c in log.named("fillText") if c.args[0] == "+2"]
    for label in placed:
        x, y, w, h = label.box
        assert any(abs(dx - (x + w / 2)) < 1 and abs(dy - (y + h / 2 + 0.5)) < 1 for dx, dy in drawn), label


def test_fr04_slipstream_chips_after_the_end_phase_cover_no_badge():
    here = Path.cwd()
    tutor = RaceTutor.from_scenario(str(FR / "scenarios" / "slipstream_rulebook_example.json"), stop_after="slipstream")
    tutor.finish_button.click()
    assert tutor.highlights().slipstreamed, "the end of slipstream shows the +1 chips"
    assert_clear(tutor.scene.view, tutor.race, tutor.highlights())
    assert Path.cwd() == here


def test_fr10_breakaway_bid_chips_cover_no_badge():
    from tutor.flamme_rouge.widgets import BreakawayBid

    bid = BreakawayBid("cobbles-24", teams=("red", "blue", "green", "black", "white"), learner="red", seed=0)
    for _ in range(2):  # both bids: draw 4 for the first rider offered, bid its first card
        bid.draw_buttons[next(r for r, b in bid.draw_buttons.items() if not b.disabled)].click()
        bid.card_buttons[0].click()
    chips = bid._highlights().cards
    assert chips, "the bids show as chips by the bidders"
    assert_clear(bid.scene.view, bid.race, bid._highlights())


def test_fr06_the_guess_is_not_written_over_the_climb_chips():
    """The tester guessed the square of "+4": "guess: 5" was written over the "+4" and "+5" chips under the road."""
    quiz = lesson_quizzes(FR / "06_mountains.ipynb")[0]
    for _ in quiz.positions:
        start = quiz.race.riders[quiz.rider].square
        guess = next(start + k for k in (4, 3, 2) if start + k != quiz.correct_answer)
        quiz.square_input.value = guess
        quiz.reveal_button.click()
        marks = quiz._highlights().marks
        climb = [m for m in marks if m.label.startswith("+")]
        assert len(climb) >= 4 and any(m.label == f"guess: {guess}" for m in marks)
        view = quiz.scene.view
        placed = place_mark_labels(view, marks)
        assert len(placed) == len(marks)
        for a, b in combinations(placed, 2):
            assert not overlaps(a.box, b.box), (a.mark.label, b.mark.label)
        for label in placed:
            if label.mark in climb:  # each climb chip stays over its square
                assert abs(label.centre[0] - view.cx(label.mark.square)) < 0.5
        with recorded_commands() as log:
            quiz.redraw()
        drawn = {c.args[0]: (c.args[1], c.args[2]) for c in log.named("fillText")}
        for label in placed:
            x, y = drawn[label.mark.label]
            assert abs(x - label.centre[0]) < 1 and abs(y - label.centre[1] - 0.5) < 1, label.mark.label
        quiz.retry_button.click()


def test_mark_labels_side_by_side_move_apart():
    race = big_pack()
    view = make_view(race.track)
    marks = [Mark(s, None, f"+{s - 4}", "#00796b", below=True) for s in range(5, 10)]
    marks += [
        Mark(7, None, "answer: 7", "#000000"),
        Mark(8, None, "guess: 8", "#111111", below=True),
        Mark(6, 0, "your answer: 6", "#222222"),
    ]
    placed = place_mark_labels(view, marks)
    for a, b in combinations(placed, 2):
        assert not overlaps(a.box, b.box), (a.mark.label, b.mark.label)
    assert all(0 <= p.box[0] and p.box[0] + p.box[2] <= view.width for p in placed)


def test_the_pelotons_two_riders_are_numbered_on_their_tokens_and_in_the_key():
    """FR 11's quiz asks about peloton-2: its token must differ from peloton-1's by more than colour."""
    quiz = lesson_quizzes(FR / "11_peloton_and_muscle_teams.ipynb")[0]
    race = quiz.race
    assert token_label(race, "peloton-1") == "1" and token_label(race, "peloton-2") == "2"
    assert token_label(race, "red-R") == "R"
    with recorded_commands() as log:
        quiz.redraw()
    texts = log.texts()
    assert "1" in texts and "2" in texts
    assert "its riders numbered 1 and 2" in legend_html(race)
    full = Race.new("paves-du-nord", ["red", "blue"], peloton=True, muscle=1, seed=0)
    assert {token_label(full, r) for r in ("peloton-1", "peloton-2")} == {"1", "2"}
    assert token_label(full, "muscle-1-S") == "S" and token_label(full, "blue-R") == "R"
