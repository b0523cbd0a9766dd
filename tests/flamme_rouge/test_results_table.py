"""The Flamme Rouge results table ranks as the engine does (``Race.standings``): the riders past the line by the
finish ranking, the others in movement order (frontmost first, the right-hand lane first on a shared square)."""

from tutor.flamme_rouge import rules
from tutor.flamme_rouge.cards import energy
from tutor.flamme_rouge.race import Phase, Race
from tutor.flamme_rouge.track import Track
from tutor.flamme_rouge.widgets.race_words import results_html


def finished_race() -> Race:
    """One rider wins; two riders who did not finish end on one square (square 4: right and left lanes)."""
    track = Track.parse(" ".join(["2"] * 14), finish=10)
    race = Race.from_positions(
        track,
        [
            {"id": "win", "square": 8, "lane": 0},
            {"id": "right", "square": 2, "lane": 0},
            {"id": "left", "square": 2, "lane": 1},
        ],
        cards={"win": energy(5), "right": energy(2), "left": energy(2)},
    )
    while race.phase is not Phase.FINISHED:
        race.step()
    return race


def test_riders_who_did_not_finish_are_listed_in_movement_order():
    race = finished_race()
    assert race.ranking == ["win"] and race.positions()["right"] == (4, 0) and race.positions()["left"] == (4, 1)
    table = results_html(race)
    rows = [table.index(f"<td>{rid}</td>") for rid in ("win", "right", "left")]
    assert rows == sorted(rows)  # the right-hand lane is ahead on a shared square
    assert race.standings() == ["win", *rules.movement_order({r: race.positions()[r] for r in ("right", "left")})]


def test_the_results_say_where_the_learners_rider_finished_and_mark_its_row():
    race = finished_race()
    table = results_html(race, ("win",))
    assert "<p class='tutor-you-did'>You won! Your rider, win, is first of 3.</p>" in table
    assert "<tr class='tutor-you'><td><b>1st</b></td><td><b>win (you)</b></td>" in table
    assert table.count("tutor-you'") == 1 and "right (you)" not in table


def test_a_learners_rider_that_did_not_finish_is_told_how_far_it_had_to_go():
    table = results_html(finished_race(), ("left",))
    assert "Your rider, left, did not reach the finish line: 6 squares to go." in table
    assert "<td><b>left (you)</b></td>" in table


def test_no_sentence_and_no_mark_without_a_learner_or_when_the_learner_rides_every_team():
    race = finished_race()
    for learners in ((), ("win", "right", "left")):
        table = results_html(race, learners)
        assert "tutor-you" not in table and "(you)" not in table


def test_the_results_sentence_in_catalan():
    from tutor.i18n import use_language

    use_language("ca")
    table = results_html(finished_race(), ("right",))
    assert "El teu corredor, right, no ha arribat a la línia d&#x27;arribada: li falten 6 caselles." in table
    assert "<b>right (tu)</b>" in table and "<b>1r</b>" not in table and "<td>1r</td>" in table
