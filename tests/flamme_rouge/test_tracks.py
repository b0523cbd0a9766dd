"""Tracks and stages as data (RULES.md section 1, Components and data; section 2 for lanes and terrain)."""

from __future__ import annotations

from itertools import groupby

import pytest

from tutor.flamme_rouge import STAGES, TEACHING_TRACKS, Race, Square, Terrain, Track, TrackError, stage

LETTER = {Terrain.FLAT: "F", Terrain.ASCENT: "U", Terrain.DESCENT: "D"}

# RULES.md 1: "Cross-check, square by square from the start of the start tile (F flat, U ascent, D descent;
# the last squares are the finish tile's)". Copied from the rules text; "+N" is the squares past the line.
CROSS_CHECK = {
    "avenue-corso-paseo": "73F +5",
    "firenze-milano": "22F 5U 3D 16F 7U 3D 17F +5",
    "la-classicissima": "14F 10U 4D 12F 5U 4D 5F 3U 3D 13F +5",
    "la-haute-montagne": "36F 7U 5D 14F 12U +4",
    "le-col-du-ballon": "12F 3U 5D 18F 4U 4D 10F 5U 4D 8F +5",
    "plateaux-de-wallonie": "16F 3U 3D 6F 2U 2D 34F 2U 5F +5",
    "ronde-van-wevelgem": "46F 3U 5D 6F 5U 3D 5F +5",
}

# RULES.md 1: stage names and their tile strings.
TILE_STRINGS = {
    "avenue-corso-paseo": "a b c d e f g h i j k l m n o p q r s t u",
    "firenze-milano": "a b c g i D H q n t m K O L r e p J s f u",
    "la-classicissima": "A e b Q R N H P c g i k D F s L o j m t u",
    "la-haute-montagne": "a b c f i m e t K G L H J s d o p R Q N U",
    "le-col-du-ballon": "A n L H g c e q t r M B o i p j D F k S u",
    "ronde-van-wevelgem": "a b c m g f t e q o n L P j k I D H r S u",
    "plateaux-de-wallonie": "A b J i L c G H t d f p k m n r q E o S u",
}


def rle(track: Track, upto: int) -> str:
    return " ".join(f"{len(list(run))}{LETTER[t]}" for t, run in groupby(s.terrain for s in track.squares[:upto]))


def test_all_seven_stages_are_listed():
    """RULES.md 1, Stages: seven stages."""
    assert set(STAGES) == set(CROSS_CHECK) == set(TILE_STRINGS)


@pytest.mark.parametrize("name", list(TILE_STRINGS))
def test_stage_tile_string_matches_rules(name):
    """RULES.md 1, Stages: each stage's tile string, 21 tiles."""
    assert STAGES[name][1] == TILE_STRINGS[name]
    assert len(TILE_STRINGS[name].split()) == 21


@pytest.mark.parametrize("name", list(CROSS_CHECK))
def test_stage_is_78_squares(name):
    """RULES.md 1: "a 21-tile stage is 78 squares" / "Every stage is 78 squares"; base squares have 2 lanes."""
    track = stage(name)
    assert len(track) == 78
    assert all(sq.lanes == 2 for sq in track.squares)


@pytest.mark.parametrize("name", list(CROSS_CHECK))
def test_stage_matches_square_by_square_cross_check(name):
    """RULES.md 1, Cross-check: terrain run-lengths from square 0 to the finish line, then squares past it."""
    track = stage(name)
    before, past = CROSS_CHECK[name].rsplit(" +", 1)
    assert rle(track, track.finish) == before
    assert len(track) - track.finish == int(past)


@pytest.mark.parametrize("name", list(CROSS_CHECK))
def test_stage_start_area(name):
    """RULES.md 1: start tile side `a` has 5 squares behind the start line, side `A` 4."""
    track = stage(name)
    first = TILE_STRINGS[name].split()[0]
    assert track.start == {"a": 5, "A": 4}[first]
    assert all(sq.terrain is Terrain.FLAT for sq in track.squares[: track.start])


@pytest.mark.parametrize("name", list(CROSS_CHECK))
def test_stage_finish_line(name):
    """RULES.md 1: finish side `u` has 1 square before the line and 5 past it; side `U` 2 (ascent) and 4."""
    track = stage(name)
    last = TILE_STRINGS[name].split()[-1]
    before = {"u": 1, "U": 2}[last]
    assert track.finish == 78 - 6 + before
    if last == "U":
        assert [sq.terrain for sq in track.squares[track.finish - 2 : track.finish]] == [Terrain.ASCENT] * 2


# RULES.md 1, "Terrain per tile face (lowercase faces are flat)" and "Tile lengths".
FACES = {
    "B": "DDDDFF",
    "C": "FFFUUU",
    "D": "UUUUUD",
    "F": "DDDFFF",
    "L": "UUUDDD",
    "M": "FFUUUU",
    "N": "UUUUUU",
    **{c: "UU" for c in "EGKOQR"},
    **{c: "DD" for c in "HP"},
    **{c: "FF" for c in "IJST"},
    **{c: "FFFFFF" for c in "bcdflmn"},
    **{c: "FF" for c in "eghijkopqrst"},
}


@pytest.mark.parametrize("face", sorted(FACES))
def test_tile_face_terrain_and_length(face):
    """RULES.md 1: straights 6 squares, curves 2; the terrain of each face, square by square."""
    track = Track.from_tiles(f"a {face} u")
    squares = track.squares[6:-6]
    assert "".join(LETTER[s.terrain] for s in squares) == FACES[face]


def test_start_and_finish_tile_lengths():
    """RULES.md 1: start a/A and finish u/U are 6 squares each."""
    for start in "aA":
        for finish in "uU":
            assert len(Track.from_tiles(f"{start} {finish}")) == 12


# ----- Track.parse (scenario format) ------------------------------------------------------------------------


def test_parse_lanes_and_terrain_letters():
    """SCENARIOS.md: a token is 1-3 lanes then optionally u (ascent), d (descent), c (cobbles), s (supply)."""
    track = Track.parse("2 2u 3s 1c 2d 3")
    assert track.squares == (
        Square(2),
        Square(2, Terrain.ASCENT),
        Square(3, Terrain.SUPPLY),
        Square(1, Terrain.COBBLES),
        Square(2, Terrain.DESCENT),
        Square(3),
    )
    assert track.spec == "2 2u 3s 1c 2d 3"
    assert Track.parse(track.spec) == track


@pytest.mark.parametrize(
    "spec, fragments",
    [
        ("2 4 2", ["square 1", "'4'"]),
        ("2 0", ["square 1", "'0'"]),
        ("2 2 2x", ["square 2", "'2x'"]),
        ("u2", ["square 0", "'u2'"]),
        ("2 2U", ["square 1", "'2U'"]),
        ("2 2uu", ["square 1", "'2uu'"]),
        ("", ["at least one square"]),
        ("   ", ["at least one square"]),
    ],
)
def test_parse_rejects_bad_tokens(spec, fragments):
    """SCENARIOS.md track format: a bad token raises TrackError naming the square and the token."""
    with pytest.raises(TrackError) as err:
        Track.parse(spec)
    assert isinstance(err.value, ValueError)
    for fragment in fragments:
        assert fragment in str(err.value)


def test_parse_rejects_a_non_string():
    """The track is a string of tokens, not a list."""
    with pytest.raises(TrackError, match="must be a string.*not a list"):
        Track.parse(["2", "2"])


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"finish": 0}, "finish 0 is outside the track"),
        ({"finish": 5}, "finish 5 is outside the track"),
        ({"start": -1}, "start -1 is outside the track"),
        ({"start": 5}, "start 5 is outside the track"),
    ],
)
def test_parse_rejects_start_or_finish_off_the_track(kwargs, fragment):
    """The finish line (first square past it) and the start line lie on the track."""
    with pytest.raises(TrackError, match=fragment):
        Track.parse("2 2 2 2", **kwargs)


def test_parse_accepts_finish_at_the_end():
    """A finish at len(track) (line after the last square) is allowed."""
    assert Track.parse("2 2 2 2", finish=4).finish == 4


def test_from_tiles_rejects_unknown_face():
    """RULES.md 1 lists the tile faces; `x` is none of them."""
    with pytest.raises(TrackError, match="unknown tile face 'x'"):
        Track.from_tiles("a x u")


@pytest.mark.parametrize("tiles", ["b c u", "a b c"])
def test_from_tiles_needs_start_and_finish(tiles):
    """A stage has a start tile (a/A) and a finish tile (u/U)."""
    with pytest.raises(TrackError, match="start tile .* finish tile"):
        Track.from_tiles(tiles)


def test_stage_unknown_name_lists_known_ones():
    """An unknown stage name raises TrackError listing the stages and teaching tracks."""
    with pytest.raises(TrackError) as err:
        stage("tour-de-france")
    assert "'tour-de-france'" in str(err.value)
    for name in [*STAGES, *TEACHING_TRACKS]:
        assert name in str(err.value)


@pytest.mark.parametrize("name", [*STAGES, *TEACHING_TRACKS])
def test_track_to_dict_round_trip(name):
    """Track.to_dict / from_dict keeps every square, the start, the finish and the name."""
    track = stage(name)
    again = Track.from_dict(track.to_dict())
    assert again == track
    assert again.squares == track.squares


# ----- teaching tracks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TEACHING_TRACKS))
def test_teaching_track_is_valid(name):
    """RULES.md 1: "The tutor may also ship short teaching tracks of its own": valid squares, a start area
    that fits 4 teams (8 riders), a finish line after the start, squares past the line."""
    track = stage(name)
    title, spec, start, finish = TEACHING_TRACKS[name]
    assert track.spec == spec and track.name == title
    assert all(1 <= sq.lanes <= 3 for sq in track.squares)
    assert 0 < track.start < track.finish < len(track)
    assert sum(track.lanes[s] for s in range(track.start)) >= 8
    race = Race.new(name, 4, seed=0)
    assert all(0 <= r.square < track.start for r in race.riders.values())


def test_sprint_20_is_20_flat_squares():
    """The teaching track sprint-20 is 20 flat two-lane squares (RULES.md 1 example)."""
    track = stage("sprint-20")
    assert len(track) == 20
    assert all(sq == Square(2) for sq in track.squares)


def test_cobbles_teaching_track_uses_peloton_terrain():
    """RULES.md 2: cobblestones have 1 or 2 lanes, supply zones 3 lanes."""
    track = stage("cobbles-24")
    for sq in track.squares:
        if sq.terrain is Terrain.COBBLES:
            assert sq.lanes in (1, 2)
        if sq.terrain is Terrain.SUPPLY:
            assert sq.lanes == 3
    assert any(sq.terrain is Terrain.COBBLES for sq in track.squares)
    assert any(sq.terrain is Terrain.SUPPLY for sq in track.squares)
