"""Rendering: every stage and teaching track draws, with the commands a learner relies on.

The canvas commands are recorded headlessly (``tutor.ui.testing``), so these
tests check what would reach the browser: cells per lane, glyphs per terrain,
tokens and letters, highlights, and animations sent as one message.
"""

import pytest
from ipycanvas import Canvas, hold_canvas

from tutor.flamme_rouge import STAGES, TEACHING_TRACKS, Card, Phase, Race, Terrain, stage
from tutor.flamme_rouge import scenario as scenarios
from tutor.flamme_rouge.bots import autoplay
from tutor.flamme_rouge.cards import ATTACK, energy
from tutor.flamme_rouge.events import Blocked, RiderMoved
from tutor.flamme_rouge.render import (
    CardPanel,
    Chip,
    Scene,
    View,
    canvas_height,
    draw_track,
    follow,
    frame_ms,
    frames_for,
    highlights_for,
    legend_html,
    make_view,
    rider_colours,
    token_label,
)
from tutor.flamme_rouge.render import style
from tutor.flamme_rouge.render.geometry import MIN_VISIBLE
from tutor.ui.drawing import text_colour_on
from tutor.ui.testing import recorded_commands
from tests.flamme_rouge.positions import BLOCKED, SLIPSTREAM

SPRINT = {
    "track": " ".join(["2"] * 16),
    "finish": 10,
    "riders": [{"id": "red-S", "square": 7, "lane": 0}, {"id": "blue-R", "square": 6, "lane": 0}],
    "cards": {"red-S": 5, "blue-R": 6},
}

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
    # Every square shown carries its number.
    assert {str(s) for s in view.squares} <= set(texts)
    # Drawn at twice the pixels (sharp on 2x screens), shrinking with the page but never wider than the view.
    assert (scene.canvas.width, scene.canvas.height) == (2 * view.width, 2 * view.height)
    assert scene.canvas.layout.max_width == f"{view.width}px" and scene.canvas.layout.width == "100%"
    assert log.named("setTransform")[0].args[:4] == (2, 0, 0, 2)


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
    for race, lines in ((Race.new("la-haute-montagne", 2), True), (scenarios.build(BLOCKED), False)):
        html = legend_html(race)
        assert ("start line" in html) is lines and ("finish line" in html) is lines
        assert "S sprinteur, R rouleur" in html


def test_the_legend_explains_every_mark_the_board_draws():
    html = legend_html(Race.new("la-haute-montagne", ("red", "green")))
    for words in (
        "moves next",
        "its cards are in the panel",
        "revealed card",
        "the last move",
        "full square",
        "a pack",
        "slipstream",
        "exhaustion card",
        "finishing place",
        "the answer",
        "off the part",
        "ascent",
        "descent",
        "double line",
        "numbers under the road",
    ):
        assert words in html, words
    assert "red team" in html and "mark: triangle" in html and "green team" in html and "mark: disc" in html
    assert "lane 0" not in html


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
    for dark in ("red", "blue", "black", "purple"):
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
    odd = scenarios.build(
        {
            "track": "2 2 2 2 2 2 2 2",
            "riders": [{"id": "red-S", "team": "blue", "kind": "rouleur", "square": 1, "lane": 0}],
        }
    )
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
    assert log.texts().count("+2") >= 3 and "+1" in log.texts()  # the chips grow as the packs merge
    holds = [f for f in frames if f.hold_ms]
    assert holds[0].packs == ((1, 1), (2, 3), (5, 6), (8, 10)) or len(holds) >= 3  # outlined, then each merge held


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
    assert {rid: chip.label for rid, chip in highlights.cards.items()} == {"green-S": "2", "blue-S": "5", "red-R": "5"}
    assert highlights.cards["blue-S"].cards == (race.riders["blue-S"].played,)
    race.step()
    assert "green-S" not in highlights_for(race).cards


def test_a_chip_is_an_exhaustion_card_by_its_card_not_its_label():
    """The chip carries its card: an exhaustion card shows "E2" on the exhaustion face; Attack! shows the squares."""
    race = Race.from_positions(
        "sprint-20",
        [{"id": "a", "square": 5, "lane": 0}, {"id": "b", "square": 3, "lane": 0}],
        cards={"a": Card.parse("E2"), "b": energy(9)},
    )
    chips = highlights_for(race).cards
    assert (chips["a"].label, chips["a"].exhaustion) == ("E2", True)
    assert (chips["b"].label, chips["b"].exhaustion) == ("9", False)
    assert Chip((ATTACK,), 9).label == "9" and Chip(()).label == "bid"


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
    assert "deck 11 · recycled 1 · out of game 0 · exhaustion cards 1" in texts  # two columns: room for words
    fills = [c.args[1] for c in log.named("set") if c.args and c.args[1] == style.EXHAUSTION_FACE]
    assert fills


def test_a_long_round_animates_each_step_in_under_a_second():
    race = Race.new("la-classicissima", 4, bots={t: "heuristic" for t in ("red", "blue", "green", "black")}, seed=4)
    autoplay(race, steps=False)
    before = race.positions()
    events = race.step()
    frames = frames_for(events, before)
    assert frame_ms(frames) * sum(f.weight for f in frames) < 1000
    assert any(isinstance(e, RiderMoved) for e in events)


def test_the_card_panel_shows_the_rider_being_played_even_after_the_fifth_and_fits_its_stats():
    race = Race.new("sprint-20", ("red", "blue", "green", "black"), seed=1)
    riders = tuple(race.riders)
    panel = CardPanel(riders, active="black-R")
    assert len(riders) == 8 and panel.columns(race)[0] == "black-R" and len(panel.columns(race)) == 5
    race.draw("black-R")
    with recorded_commands() as log:
        Scene(race.track).draw(race, panel=panel)
    texts = log.texts()
    assert "black-R  (rouleur)" in texts and "red-S  (sprinteur)" in texts and "green-S  (sprinteur)" not in texts
    stats = [t for t in texts if t.startswith("deck ")]
    assert stats and all(len(t) * 6.4 <= (960 - 32) / 5 - 34 for t in stats)  # five columns: the short words
    assert not any("rec." in t or "E2 " in t for t in stats)  # spelled out
    assert texts.count(str(race.riders["black-R"].hand[0])) >= 1  # its hand, as small cards


def test_a_board_without_cards_has_no_card_panel():
    race = scenarios.build(SLIPSTREAM)
    with_cards, without = Scene(race.track), Scene(race.track, cards=False)
    assert without.view.height < with_cards.view.height
    with recorded_commands() as log:
        without.draw(race, panel=CardPanel(("a",)))
    assert not any(t.startswith("deck ") or t.startswith("No rider") for t in log.texts())


def test_the_finish_marks_the_winner_and_the_places():
    race = scenarios.build(SPRINT)
    race.resolve()
    assert race.phase is Phase.FINISHED
    highlights = highlights_for(race)
    assert highlights.places[race.winner] == 1
    with recorded_commands() as log:
        Scene(race.track).draw(race, highlights)
    assert "1st" in log.texts() and "2nd" in log.texts()


def test_a_cross_and_a_trail_last_only_as_long_as_their_step():
    race = scenarios.build(BLOCKED)
    blocked = []
    while race.phase is Phase.MOVEMENT:
        blocked += [e for e in race.step() if isinstance(e, Blocked)]
    assert blocked
    events = race.step()  # the played cards leave: the move is over, and so are its marks
    marks = highlights_for(race, events)
    assert marks.blocked == () and marks.trails == {}


def test_every_team_colour_has_its_own_mark_and_base_colours_stay_apart_for_colour_blind_eyes():
    from tutor.flamme_rouge import race as engine

    names = [*engine.TEAM_COLOURS, engine.PELOTON_COLOUR, *engine.MUSCLE_COLOURS]
    marks = [style.team_mark(n) for n in names]
    assert all(parts for _, parts in marks) and len({name for name, _ in marks}) == len(names) == 15
    assert len({parts for _, parts in marks}) == 15
    base = [style.TEAM_COLOURS[n] for n in engine.TEAM_COLOURS[:6]]
    for simulate in (deuteranopia, protanopia, lambda rgb: rgb):
        seen = [lab(simulate(linear(c))) for c in base]
        closest = min(dist(a, b) for i, a in enumerate(seen) for b in seen[i + 1 :])
        assert closest > 18, closest


def test_tokens_carry_their_team_mark():
    race = Race.new("sprint-20", ("red", "blue"))
    with recorded_commands() as log:
        Scene(race.track).draw(race)
    badges = [c for c in log.named("fillCircles") if c.sizes and c.sizes[0] == 4]
    assert len(badges) == 1  # one white badge per token, in one call
    assert log.count("closePath") >= 4


# ----- colour vision (Machado et al. 2009, severity 1) ---------------------------------------------------


def linear(colour):
    from tutor.ui.drawing import hex_to_rgb

    return [(v / 255 / 12.92) if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in hex_to_rgb(colour)]


def _matrix(m):
    return lambda rgb: [sum(m[i][j] * rgb[j] for j in range(3)) for i in range(3)]


deuteranopia = _matrix(
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
)
protanopia = _matrix(
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
)


def lab(rgb):
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def dist(a, b):
    return sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5


# ----- animations paced by the kernel: a later paint never waits behind them ---------------------------------


def blocked_move():
    race = scenarios.build(BLOCKED)
    race.step()
    race.step()
    before = race.positions()
    return race, race.step(), before


def test_with_an_event_loop_each_frame_is_its_own_message_at_its_time():
    from tests.manual_clock import ManualClock

    race, events, before = blocked_move()
    scene = Scene(race.track)
    scene.clock = clock = ManualClock()
    frames = frames_for(events, before)
    with recorded_commands() as log:
        scene.animate(race, events, before, highlights_for(race, events))
        assert log.messages == 1 and log.sleeps() == [] and scene.playing  # the track scrolled to the riders
        clock.advance(0.001)
        assert log.messages == 2  # the first frame, in a message of its own
        clock.advance(0.001)
        assert log.messages == 2  # the next frame waits for its time
        clock.advance(5)
    assert not scene.playing and log.sleeps() == []
    assert log.messages == 1 + len(frames) + 1  # the track, a message per frame, then the final picture


def test_a_later_paint_drops_the_frames_not_sent_and_skip_shows_the_end_at_once():
    from tests.manual_clock import ManualClock

    race, events, before = blocked_move()
    scene = Scene(race.track)
    scene.clock = clock = ManualClock()
    states: list[bool] = []
    scene.on_playing(states.append)
    scene.animate(race, events, before, highlights_for(race, events))
    with recorded_commands() as log:
        scene.draw(race)  # a new action's picture: at once, and the old frames never come
        clock.advance(5)
    assert log.messages == 1 and not scene.playing and states == [True, False] and clock.pending == []
    scene.animate(race, events, before, highlights_for(race, events))
    with recorded_commands() as log:
        scene.finish()  # Skip
        clock.advance(5)
    assert log.messages == 1 and not scene.playing and states == [True, False, True, False]
    assert "red-R" not in log.texts()  # the final picture of the riders (tokens, chips), no frame after it


def test_no_text_on_the_board_is_smaller_than_11_px():
    race = Race.new(
        "paves-du-nord",
        ["red", "blue", "green", "black", "white", "pink", "yellow", "orange", "purple", "teal", "brown", "grey"],
        seed=0,
        single_riders=True,
    )
    scene = Scene(race.track)
    panel = CardPanel(
        tuple(race.riders),
        compact=True,
        played=tuple((r, "4") for r in race.riders),
        moved=frozenset(list(race.riders)[:3]),
    )
    with recorded_commands() as log:
        scene.draw(race, highlights_for(race), panel, redraw_track=True)
        scene.draw(race, highlights_for(race), CardPanel(tuple(race.riders)[:4]))
    sizes = [
        float(c.args[1].split("px")[0].split()[-1])
        for c in log.commands
        if c.name == "set" and isinstance(c.args[1], str) and "px" in c.args[1]
    ]
    assert sizes and min(sizes) >= 11


def test_the_played_cards_strip_gives_each_of_twelve_riders_room_for_its_name():
    from tutor.flamme_rouge.render.cards import draw_card_panel

    race = Race.new(
        "paves-du-nord",
        ["red", "blue", "green", "black", "white", "pink", "yellow", "orange", "purple", "teal", "brown", "grey"],
        seed=0,
        single_riders=True,
    )
    view = make_view(race.track)
    canvas = Canvas(width=view.width, height=view.height)
    played = tuple((r, "4") for r in race.riders)
    with recorded_commands() as log:
        with hold_canvas():
            draw_card_panel(canvas, view, race, CardPanel(compact=True, played=played))
    names = [c for c in log.named("fillText") if c.args[0] in race.riders]
    assert len(names) == 12
    xs = sorted(c.args[1] for c in names)
    room = min(b - a for a, b in zip(xs, xs[1:]))
    # Each name has its own column at least as wide as the longest name at 12 px bold (about 7 px a letter).
    assert room >= 7 * max(len(r) for r in race.riders)
    assert all(len(c.args) < 4 or c.args[3] is None or c.args[3] >= room - 4 for c in names)


def test_every_team_has_a_large_mark_in_the_middle_of_its_token():
    from tutor.flamme_rouge.render.labels import MARK_SIZE

    race = Race.new(
        "paves-du-nord",
        ["red", "blue", "green", "black", "white", "pink", "yellow", "orange", "purple", "teal", "brown", "grey"],
        seed=0,
        single_riders=True,
    )
    marks = {style.team_mark(r.colour)[0] for r in race.riders.values()}
    assert len(marks) == len(race.riders) and "" not in marks  # twelve teams, twelve marks
    view = make_view(race.track)
    assert 2 * MARK_SIZE * view.token_r >= 15  # as wide as a capital letter on the board, not a corner dot
    scene = Scene(race.track)
    with recorded_commands() as log:
        scene.draw(race)
    assert log.texts().count("S") + log.texts().count("R") == 12  # each rider's letter, in its badge


def test_the_card_chip_legend_says_what_a_climb_does_to_the_chip():
    html = legend_html(Race.new("la-haute-montagne", ("red", "green")))
    assert (
        "its revealed card: the squares it will move (on a climb it moves at most 5 and from a descent at "
        "least 5)" in html
    )
    assert "on a climb" not in legend_html(Race.new("sprint-20", ("red", "green")))


def test_the_breakaway_quiz_board_draws_the_start_line_its_text_mentions():
    """Issue 15: lesson 10's quiz says the breakaway riders start "past the start line": the board draws it."""
    data = scenarios.load("lessons/flamme_rouge/scenarios/breakaway_first_round.json")
    assert "past the start line" in data["description"]
    race = scenarios.build(data)
    code = scenarios.to_code(data)
    assert race.track.start == 4 and code and scenarios.from_code(code)["start"] == data["start"]
    with recorded_commands() as log:
        Scene(race.track).draw(race, redraw_track=True)
    assert "START" in log.texts()
    with pytest.raises(scenarios.ScenarioError, match="key 'start'"):
        scenarios.build(dict(data, start=99))


def test_a_quiz_board_can_leave_out_the_marks_that_give_the_answer():
    race = scenarios.build(BLOCKED)
    plain = highlights_for(race, helpers=False)
    assert highlights_for(race).next_mover and highlights_for(race).cards  # the play board's helpers ...
    assert plain.next_mover is None and plain.cards == {}  # ... not on a quiz's question
    order = tuple((r, str(race.riders[r].played)) for r in race.to_move)
    with recorded_commands() as log:
        Scene(race.track).draw(race, plain, CardPanel(compact=True, played=order, in_order=False))
    texts = log.texts()
    assert "Played cards:" in texts and not any("movement order" in t for t in texts)
    names = [t for t in texts if t in race.riders]
    assert names == sorted(names) and len(names) == len(order)
