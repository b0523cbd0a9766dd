"""The In Flanders Field board: geometry, and the drawing commands checked against the engine's position."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from fractions import Fraction

import pytest

from tests.flanders.helpers import position
from tutor.flanders import CardTaken, Roll, Take
from tutor.flanders.render import Board, Geometry, Rect, frames_for, percent, picture_of
from tutor.flanders.render.pen import text_width
from tutor.flanders.render.pieces import draw_card
from tutor.flanders.render.geometry import MIN_TEXT
from tutor.flanders.widgets import captions
from tutor.ui.testing import recorded_commands


def _board(game):
    return Board(game.cards, game.battlefield, len(game.players))


def _texts_at(log):
    return [(c.args[0], c.args[1], c.args[2]) for c in log.named("fillText")]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_geometry_card_spaces_are_where_clicks_find_them_and_do_not_overlap(players):
    geo = Geometry(players)
    rects = {s: geo.space_rect(s) for s in range(3, 12)}
    for s, r in rects.items():
        assert geo.space_at(*r.centre) == s
        assert r.y + r.h < geo.legend_y <= geo.height
    assert geo.space_at(5, 5) is None
    for a in rects:
        for b in rects:
            if a < b:
                ra, rb = rects[a], rects[b]
                assert ra.x + ra.w <= rb.x or rb.x + rb.w <= ra.x or ra.y + ra.h <= rb.y or rb.y + rb.h <= ra.y
    assert geo.cell_rect(players - 1, 14).x + geo.space_w <= geo.width
    with pytest.raises(ValueError, match="not a card space"):
        geo.space_rect(12)


def test_a_board_paints_in_one_message_with_every_card_and_empty_space_in_its_place():
    game = position(3, spaces={"3": "Infantry", "4": "Machine Gun", "6": "Tank", "11": "Gas Attack"})
    board = _board(game)
    with recorded_commands() as log:
        board.draw(picture_of(game), static=True)
    assert log.messages == 1
    texts = _texts_at(log)
    geo = board.geometry
    for s in range(3, 12):
        r = geo.space_rect(s)
        inside = [t for t, x, y in texts if r.x <= x <= r.x + r.w and r.y <= y <= r.y + r.h]
        card = game.spaces.get(s)
        want = "Infantry" if s == 9 else ("empty" if card is None else game.cards[card].name)
        assert want in inside, (s, inside)
        assert str(s) in inside
    for word in (
        "British card (green, rounded, round badge)",
        "German card (blue, cut corners, cross badge)",
        "defensive line (stops a move)",
        "troop piece / lost",
        "new: a card just dealt onto this space of the grid",
    ):
        assert word in log.texts()
    assert any(t.startswith("new:") and geo.legend_y < y < geo.height for t, _, y in texts)  # inside the legend


def test_pawns_and_troop_pieces_are_drawn_where_the_engine_puts_them():
    game = position([{"id": "p1", "pawn": 4, "troops": 5}, {"id": "p2", "pawn": 9, "troops": 2}])
    board = _board(game)
    with recorded_commands() as log:
        board.draw(picture_of(game))
    texts = _texts_at(log)
    geo = board.geometry
    for i, p in enumerate(game.players):
        x, y = geo.pawn_centre(i, p.pawn)
        assert any(t == str(i + 1) and abs(tx - x) < 1 and abs(ty - y) < 3 for t, tx, ty in texts), p
        pieces = [
            c
            for c in log.named("fillRect")
            if (c.args[0], c.args[1]) in {(geo.troop_rect(i, k).x, geo.troop_rect(i, k).y) for k in range(8)}
        ]
        assert len(pieces) == p.troops


def test_the_dice_show_the_rolled_pips_and_the_offered_sums():
    game = position(2, spaces={"3": "Infantry", "7": "Machine Gun"})
    game.apply(Roll((1, 2, 6)))
    board = _board(game)
    with recorded_commands() as log:
        board.draw(picture_of(game))
    geo = board.geometry
    for k, value in enumerate(game.dice):
        r = geo.die_rect(k)
        pips = [c for c in log.named("fillCircle") if r.x <= c.args[0] <= r.x + r.w and r.y <= c.args[1] <= r.y + r.h]
        assert len(pips) == value
    assert "✓ 1 + 2 = 3: Infantry" in log.texts() and "✓ 1 + 6 = 7: Machine Gun" in log.texts()
    assert "✗ 2 + 6 = 8: empty space" in log.texts()


def test_the_odds_panel_shows_the_exact_bust_probability_and_leaves_the_expected_loss_to_its_disclosure():
    game = position(2, spaces={"6": "Infantry", "7": "Infantry", "8": "Tank"}, taken=["Artillery Barrage"])
    pic = picture_of(game)
    from tutor.flanders.odds import bust_probability

    assert pic.odds is not None and pic.odds.bust == bust_probability({6, 7, 8, 9}) == game.bust_probability()
    with recorded_commands() as log:
        _board(game).draw(pic)
    p = pic.odds.bust
    assert f"Chance of a bust: {percent(float(p))}" in log.texts()
    assert f"{round(float(p) * 216)} of the 216 rolls of three dice offer no card" in log.texts()
    assert not any("Expected troop loss" in t for t in log.texts())  # behind "How is this worked out?"
    assert game.available() == (6, 7, 8, 9)
    assert percent(float(Fraction(23, 108))) == "21.3%"


def test_a_bust_is_animated_step_by_step_in_the_engines_order():
    game = position(
        [{"id": "p1", "pawn": 2, "troops": 6, "retained": ["Mines"]}, {"id": "p2"}],
        spaces={"3": "Infantry", "4": "Infantry", "10": "Tank"},
        taken=["Artillery Barrage", "Machine Gun"],
        on_nine=True,
    )
    before = picture_of(game)
    events = game.apply(Roll((1, 1, 1)))
    frames = frames_for(before, events, captions(events, game.cards), picture_of(game))
    steps = [f.caption for f, _ in frames if f.step and not f.rolling]
    order = ["rolls 1-1-1", "Bust!", "grey symbols", "Machine Gun", "discards", "leaves space 9", "Refill", "p2's turn"]
    found = [next(i for i, c in enumerate(steps) if word in c) for word in order]
    assert found == sorted(found), steps
    troops = [f.players[0].troops for f, _ in frames]
    assert troops[0] == 6 and troops[-1] == 2 and troops == sorted(troops, reverse=True)
    assert any(f.rolling for f, _ in frames[:5])
    board = _board(game)
    log = asyncio.run(_played(board, frames))
    assert len(frames) <= log.messages <= len(frames) + 1 and log.sleeps() == []  # a message per frame, timed
    assert any("Bust!" in t for t in log.texts()) and board.picture is frames[-1][0] and not board.playing


async def _played(board, frames, *, interrupt_after: int | None = None, then=None):
    """Play ``frames`` on ``board`` paced by an event loop, as in a kernel; optionally call ``then()`` after
    ``interrupt_after`` frames were sent. Returns the log of the messages sent."""
    board.clock = asyncio.get_running_loop()
    with recorded_commands() as log:
        board.animate(frames)
        while board.playing:
            if interrupt_after is not None and log.messages >= interrupt_after:
                then()
                interrupt_after = None
            await asyncio.sleep(0.005)
    return log


def test_a_new_drawing_drops_the_rest_of_a_running_animation_at_once():
    game = position(2, spaces={"3": "Infantry"})
    board = _board(game)
    still = picture_of(game)
    frames = [(replace(still, caption=f"frame {k}"), 40.0) for k in range(30)]
    final = replace(still, caption="the new position")
    log = asyncio.run(_played(board, frames, interrupt_after=3, then=lambda: board.draw(final)))
    captions_sent = [t for t in log.texts() if t.startswith(("frame", "the new"))]
    assert captions_sent[-1] == "the new position" and 3 <= len(captions_sent) <= 5, captions_sent
    assert board.picture is final and not board.playing


def test_every_text_on_the_board_is_at_least_11px_and_fits_its_width_unsqueezed():
    """Sizes come from ``canvas.font``; a text wider than its ``max_width`` would be squeezed by the browser
    (``pen.text_width`` uses Arial's metrics, which the browser test checks against the real canvas)."""
    game = position(
        [
            {"id": "p1", "pawn": 12, "troops": 8, "retained": ["Mines", "Reserves"]},
            {"id": "p2", "pawn": 3},
            {"id": "p3"},
            {"id": "p4"},
        ],
        spaces={
            "3": "Artillery Barrage",
            "4": "Bayonet Charge",
            "5": "Quiet Sector",
            "6": "Tank",
            "7": "Gas Attack",
            "8": "Mines",
        },
        taken=["Artillery Barrage", "Bayonet Charge", "Machine Gun", "Tank", "Infantry"],
        on_nine=True,
    )
    game.players[1].bot, game.players[2].bot = "threshold", "cautious"
    board = _board(game)
    long_rule = " ".join(["A pawn that moves into a defensive line cannot move further this turn."] * 4)
    pics = [
        picture_of(
            game,
            caption="p1 carries out Artillery Barrage: the pawn moves 2 spaces " * 3,
            rule=long_rule,
            show_odds=True,
        )
    ]
    game.apply(Roll((4, 4, 1)))
    pics.append(picture_of(game))
    pics.append(picture_of(game, show_offers=False))
    fonts = []
    current = ""
    with recorded_commands() as log:
        board.repaint()
        for pic in pics:
            board.draw(pic)
    for command in log.commands:
        if command.name == "set" and isinstance(command.args[1], str) and "px " in command.args[1]:  # the font
            current = command.args[1]
        elif command.name == "fillText":
            words, max_width = command.args[0], command.args[3] if len(command.args) > 3 else None
            size = float(current.split("px")[0].split()[-1])
            fonts.append(size)
            assert size >= MIN_TEXT, (words, current)
            if max_width is not None:
                assert text_width(words, size, current.startswith("bold")) <= max_width + 0.5, (words, current)
    assert len(fonts) > 100 and min(fonts) >= 11


def test_british_and_german_cards_differ_in_shape_not_only_colour():
    game = position(2)
    board = _board(game)
    geo = board.geometry
    british, german = game.cards.by_name["Infantry"], game.cards.by_name["Machine Gun"]
    with recorded_commands() as log_b:
        draw_card(board.layer(1), geo.space_rect(3), british, space=3)
    with recorded_commands() as log_g:
        draw_card(board.layer(1), geo.space_rect(3), german, space=3)
    assert log_b.count("arcTo") >= 4 and log_g.count("arcTo") == 0  # rounded corners vs cut corners
    assert "British" in log_b.texts() and "German" in log_g.texts()
    assert "G" in log_b.texts() and "B" in log_g.texts()  # grey and black symbols carry a letter


def test_the_pair_outlined_is_the_one_the_take_event_names():
    """2-4-4 makes 6 with two pairs: the board outlines the pair the CardTaken event carries (never re-derived)."""
    game = position(2, spaces={"6": "Tank", "8": "Infantry"})
    before = picture_of(game)
    events = game.apply(Roll((2, 4, 4))) + game.apply(Take(6))
    [taken] = [e for e in events if isinstance(e, CardTaken)]
    assert taken.pair == (2, 4) and taken.chosen == (0, 1)
    moved = replace(taken, chosen=(0, 2))  # the other pair that makes 6
    for event, pair in ((taken, (0, 1)), (moved, (0, 2))):
        shown = events[:-1] + [event]
        frames = frames_for(before, shown, captions(shown, game.cards), picture_of(game))
        assert [f.chosen for f, _ in frames if f.chosen is not None][0] == pair


COLUMNS = (372, 600, 750, 880, 960)
"""A phone's column (390 px page), a small and a large tablet's (768 px), a 1280 px laptop's beside its panel, the
full board."""


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_board_laid_out_for_its_column_keeps_its_parts_inside_apart_and_big_enough_to_tap(players, column):
    geo = Geometry(players).fit(column)
    assert geo.width == column
    parts = {
        "legend": Rect(4, geo.legend_y, geo.width - 8, geo.legend_h),
        "hand": geo.hand_rect,
        "odds": geo.odds_rect,
        **{f"die {k}": geo.die_rect(k) for k in range(3)},
        **{f"pair {k}": geo.pair_rect(k) for k in range(3)},
        **{f"space {s}": geo.space_rect(s) for s in range(3, 12)},
        **{f"row {i}": geo.row_rect(i) for i in range(players)},
    }
    for name, r in parts.items():
        assert 0 <= r.x and r.x + r.w <= geo.width and geo.caption_h <= r.y and r.y + r.h <= geo.height, (name, r)
    names = sorted(parts)
    for a in names:
        for b in names:
            ra, rb = parts[a], parts[b]
            if a < b:
                assert ra.x + ra.w <= rb.x or rb.x + rb.w <= ra.x or ra.y + ra.h <= rb.y or rb.y + rb.h <= ra.y, (
                    a,
                    ra,
                    b,
                    rb,
                )
    for s in range(3, 12):  # a tap target at least 24 x 24 CSS px (WCAG 2.5.8), and found where it is drawn
        r = geo.space_rect(s)
        assert r.w >= 24 and r.h >= 24
        assert geo.space_at(*r.centre) == s
    for i in range(players):  # the pawns' spaces: every one wide enough to tell apart
        assert geo.space_w >= 22 and geo.cell_rect(i, 14).x + geo.space_w <= geo.width


@pytest.mark.parametrize("column", COLUMNS)
def test_every_word_on_a_board_laid_out_for_its_column_is_at_least_12_px_and_never_squeezed(column, monkeypatch):
    from tutor.flanders.render import dice_panel, draw, pieces

    said: list[tuple[str, float, float | None, bool, float, str]] = []
    original = draw.text

    def text(canvas, words, x, y, *, size=12, bold=False, max_width=None, align="left", **kw):
        said.append((words, size, max_width, bold, x, align))
        return original(canvas, words, x, y, size=size, bold=bold, max_width=max_width, align=align, **kw)

    for module in (draw, dice_panel, pieces):
        monkeypatch.setattr(module, "text", text)
    game = position(4, spaces={"3": "Infantry", "4": "Machine Gun", "6": "Tank", "11": "Gas Attack"})
    game.apply(Roll())
    board = _board(game)
    board.fit_column(column)
    long = "A caption long enough to take every line the band has, and then some more words to wrap"
    board.draw(picture_of(game, caption=long, rule=long), static=True)
    assert said
    for words, size, max_width, bold, x, align in said:
        assert size >= MIN_TEXT == 12, words
        width = text_width(words, size, bold)
        assert max_width is None or width <= max_width + 0.5, (words, width, max_width)
        left = x if align == "left" else x - width / 2 if align == "center" else x - width
        assert 0 <= left and left + width <= board.geometry.width + 0.5, (words, left, width)
