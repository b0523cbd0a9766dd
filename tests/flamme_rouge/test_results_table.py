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
    race = Race.from_positions(track, [{"id": "win", "square": 8, "lane": 0},
                                       {"id": "right", "square": 2, "lane": 0},
                                       {"id": "left", "square": 2, "lane": 1}],
                               cards={"win": energy(5), "right": energy(2), "left": energy(2)})
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
