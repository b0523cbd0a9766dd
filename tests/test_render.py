"""Rendering: every stage and teaching track draws, with the commands a learner relies on.

The canvas commands are recorded headlessly (``tutor.ui.testing``), so these
tests check what would reach the browser: cells per lane, glyphs per terrain,
tokens and letters, highlights, and animations sent as one message.
"""

import pytest
from ipycanvas import Canvas, hold_canvas

from tutor.flamme_rouge import STAGES, TEACHING_TRACKS, Card, Race, Terrain, stage
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.events import Blocked, RiderMoved
from tutor.flamme_rouge.render import (CardPanel, Scene, View, canvas_height, draw_legend, draw_track, follow, frame_ms,
                          frames_for, highlights_for, make_view, rider_colours, token_label)
from tutor.flamme_rouge.render import style
from tutor.flamme_rouge.render.geometry import MIN_VISIBLE
from tutor.ui.drawing import text_colour_on
from tutor.ui.testing import recorded_commands
from positions import BLOCKED, SLIPSTREAM

ALL_TRACKS = [*STAGES, *TEACHING_TRACKS]


def new_race(track: str, seed: int = 0) -> Race:
    teams = ("red", "blue", "white", "pink") if track in STAGES else ("red", "white")
    return Race.new(track, teams, seed=seed)


def glyphs_for(track) -> set[str]:
    return {style.TERRAIN_GLYPH[sq.terrain] for sq in track.squares if sq.terrain is not Terrain.FLAT}


@pytest.mark.parametrize("name", ALL_TRACKS)
def test_every_track_draws_its_cells_start_finish_and_riders(name):
    race = new_race(name)
    scene = Scene(race.track)
    with recorded_commands() as log:
        scene.draw(race, highlights_for(race), CardPanel(("red-S", "red-R")), redraw_track=True)
    assert log.messages == 1
    view = scene.view
    drawn = [c.sizes[0] for c in log.named("fillStyledRects")]
    assert sum(race.track.lanes[s] for s in view.squares) in drawn  # one cell per existing lane
    assert len(race.track) in drawn  # the mini-map
    texts = log.texts()
    assert "START" in texts
    assert ("FINISH" in texts) == view.shows(race.track.finish)
    assert texts.count("S") >= len(race.riders) // 2 and texts.count("R") >= len(race.riders) // 2
    assert scene.canvas.layout.width == f"{view.width}px" and scene.canvas.layout.height == f"{view.height}px"


@pytest.mark.parametrize("name", ALL_TRACKS)
def test_scrolling_through_a_track_shows_a_glyph_for_every_terrain(name):
    track = stage(name)
    view = make_view(track)
    canvas = Canvas(width=view.width, height=view.height)
    with recorded_commands() as log:
        for first in range(0, len(track), view.visible):
            with hold_canvas():
                draw_track(canvas, View(track, min(first, len(track) - view.visible), view.visible))
    shown = set(log.texts())
    assert glyphs_for(track) <= shown
    assert all(c.sizes[0] == len(track) for c in log.named("fillStyledRects")[:1])  # the mini-map: whole track


def test_the_legend_names_the_start_and_finish_lines_only_where_the_track_has_them():
    for track, lines in ((stage("la-haute-montagne"), True), (scenarios.build(BLOCKED).track, False)):
        view = make_view(track)
        with recorded_commands() as log:
            draw_legend(Canvas(width=view.width, height=view.height), view)
        assert ("start line" in log.texts()) is lines and ("finish line" in log.texts()) is lines
        assert "S sprinteur · R rouleur" in log.texts()


def test_long_stages_show_a_window_short_tracks_show_everything():
    assert make_view(stage("la-haute-montagne")).visible == MIN_VISIBLE
    assert make_view(stage("sprint-20")).visible == 20
    view = make_view(stage("sprint-20"))
    assert view.x(view.last_visible + 1) <= view.width


def test_lane_zero_the_right_hand_lane_is_drawn_at_the_bottom():
    view = make_view(stage("cobbles-24"))
    assert view.cy(0) > view.cy(1) > view.cy(2)
    assert view.square_top(6) > view.square_top(0) > view.square_top(12)  # 1 lane, 2 lanes, 3 lanes
    assert canvas_height(stage("cobbles-24")) > canvas_height(stage("sprint-20"))


def test_the_view_follows_the_riders_and_stays_still_when_they_are_in_view():
    view = make_view(stage("avenue-corso-paseo"))
    assert follow(view, [2, 4]) is view
    moved = follow(view, [40, 44])
    assert moved.first < 40 and 44 < moved.last_visible
    assert follow(moved, [41, 45]) is moved
    spread = follow(view, [3, 60], priority=[60])
    assert spread.shows(60)
    assert follow(view, [76, 77]).last_visible == 77


def test_tokens_are_outlined_white_and_lettered_with_contrasting_ink():
    assert text_colour_on(style.TEAM_COLOURS["white"]) == "#000000"
    assert text_colour_on(style.TEAM_COLOURS["pink"]) == "#000000"
    for dark in ("red", "blue", "green", "black"):
        assert text_colour_on(style.TEAM_COLOURS[dark]) == "#ffffff"
    race = Race.new("sprint-20", ("red", "white"))
    scene = Scene(race.track)
    with recorded_commands() as log:
        scene.draw(race)
    token_outlines = [c for c in log.named("strokeCircles") if c.sizes and c.sizes[0] in (2, 4)]
    assert any(c.sizes[0] == 2 for c in token_outlines)  # the two white riders get a second, thicker outline


def test_tokens_take_colour_and_letter_from_the_riders_team_and_kind_never_from_the_id():
    race = scenarios.build(BLOCKED)
    assert rider_colours(race)["green-S"] == style.TEAM_COLOURS["green"]
    assert token_label(race, "green-S") == "S" and token_label(race, "red-R") == "R"
    # An id that looks like another team's says nothing: the team and kind do.
    odd = scenarios.build({"track": "2 2 2 2 2 2 2 2", "riders": [
        {"id": "red-S", "team": "blue", "kind": "rouleur", "square": 1, "lane": 0}]})
    assert rider_colours(odd) == {"red-S": style.TEAM_COLOURS["blue"]} and token_label(odd, "red-S") == "R"
    # Riders alone in a team of their own show their id; their colours are the engine's.
    other = scenarios.build(SLIPSTREAM)
    assert token_label(other, "a") == "a"
    assert rider_colours(other) == {rid: style.TEAM_COLOURS[r.colour] for rid, r in other.riders.items()}


def test_every_colour_the_engine_gives_a_team_has_a_token_colour():
    from tutor.flamme_rouge import race as engine

    names = set(engine.TEAM_COLOURS)
    for colour in getattr(engine, "BOT_COLOURS", {}).values():
        names |= {colour} if isinstance(colour, str) else set(colour)
    assert sorted(n for n in names if n not in style.TEAM_COLOURS) == []
    fills = [style.token_colour(n) for n in names]
    assert len(set(fills)) == len(fills) and style.UNKNOWN_TEAM not in fills


def test_blocked_move_animates_up_to_the_full_square_and_back_in_one_message():
    race = scenarios.build(BLOCKED)
    race.step()
    race.step()  # green-S then blue-S: square 8 is now full
    scene = Scene(race.track)
    scene.draw(race)
    before = race.positions()
    events = race.step()
    assert any(isinstance(e, Blocked) for e in events)
    frames = frames_for(events, before)
    path = [f.positions["red-R"][0] for f in frames]
    assert path == [4, 5, 6, 7, 8, 7] and frames[-1].positions["red-R"] == (7.0, 0.0)
    assert frames[-1].blocked == (8,)
    with recorded_commands() as log:
        scene.animate(race, events, before, highlights_for(race, events))
    assert log.messages == 1
    assert len(log.sleeps()) == len(frames)
    assert sum(log.sleeps()) < 1000
    assert log.count("strokeRects") >= 1  # the full square outlined


def test_slipstream_frames_slide_packs_and_end_where_the_engine_puts_riders():
    race = scenarios.build(SLIPSTREAM)
    before = race.positions()
    events = race.step()
    frames = frames_for(events, before)
    assert frames[0].packs  # the packs are outlined first
    assert {rid: (float(s), float(lane)) for rid, (s, lane) in race.positions().items()} == frames[-1].positions
    highlights = highlights_for(race, events)
    assert highlights.slipstreamed == {"b": 2, "c": 2, "d": 2, "e": 1}  # the chain moves the rear pack twice
    assert highlights.packs == ((1, 1), (6, 10))  # the packs as they are after slipstream
    with recorded_commands() as log:
        Scene(race.track).animate(race, events, before, highlights)
    assert log.count("arcTo") >= 4 * len(highlights.packs)  # rounded outlines
    assert log.texts().count("+2") == 3 and log.texts().count("+1") == 1


def test_exhaustion_shows_an_e2_card_by_each_exhausted_rider():
    race = scenarios.build(SLIPSTREAM)
    race.step()
    events = race.step()
    highlights = highlights_for(race, events)
    assert set(highlights.exhausted) == {"a", "g"}
    with recorded_commands() as log:
        Scene(race.track).draw(race, highlights)
    assert log.texts().count("E2") == 2


def test_the_next_mover_gets_a_ring_and_riders_still_to_move_a_card_chip():
    race = scenarios.build(BLOCKED)
    highlights = highlights_for(race)
    assert highlights.next_mover == "green-S"
    assert highlights.cards == {"green-S": "2", "blue-S": "5", "red-R": "5"}
    race.step()
    assert "green-S" not in highlights_for(race).cards


def test_card_panel_shows_hand_played_and_piles_with_exhaustion_cards_distinct():
    race = Race.new("sprint-20", ("red", "blue"), bots={"blue": "random"}, seed=1)
    race.draw("red-S")
    race.riders["red-S"].recycled.append(Card.parse("E2"))
    autoplay(race, steps=False)
    scene = Scene(race.track)
    hand = [str(c) for c in race.riders["red-S"].hand]
    with recorded_commands() as log:
        scene.draw(race, panel=CardPanel(("red-S", "blue-S"), secret=frozenset({"blue-S"})))
    texts = log.texts()
    for card in hand:
        assert card in texts
    assert "E2" in texts and "?" in texts  # an exhaustion card in the pile; blue's played card face down
    assert any(t.startswith("deck 11 · recycled 1") for t in texts)
    fills = [c.args[1] for c in log.named("set") if c.args and c.args[1] == style.EXHAUSTION_FACE]
    assert fills


def test_a_long_round_animates_each_step_in_under_a_second():
    race = Race.new("la-classicissima", 4, bots={t: "heuristic" for t in ("red", "blue", "green", "black")},
                    seed=4)
    autoplay(race, steps=False)
    before = race.positions()
    events = race.step()
    frames = frames_for(events, before)
    assert frame_ms(frames) * sum(f.weight for f in frames) < 1000
    assert any(isinstance(e, RiderMoved) for e in events)

