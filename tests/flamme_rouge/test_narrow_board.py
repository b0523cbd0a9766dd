"""A Flamme Rouge board laid out for a narrow column (a phone, a tablet: ``Scene.fit_column``): fewer squares at
their own size, its card panel in two rows on a phone, a click still mapped to the square under it, and back to
its full layout on a wide column."""

from __future__ import annotations

from tutor.flamme_rouge.render import Scene
from tutor.flamme_rouge.render.geometry import MIN_VISIBLE, PANEL_H, SQUARE_W, WIDTH
from tutor.flamme_rouge.track import stage


def test_a_board_lays_itself_out_for_its_column_and_repaints():
    track = stage("avenue-corso-paseo")
    scene = Scene(track)
    repaints = []
    scene.on_client_ready(lambda: repaints.append(scene.view.width))
    full = scene.view
    assert (full.width, full.visible, full.panel_rows) == (WIDTH, MIN_VISIBLE, 1)

    scene.fit_column(382)  # a phone held upright
    view = scene.view
    assert view.width == 382 and view.visible == int((382 - 32) // SQUARE_W) == 9
    assert view.cell_w >= SQUARE_W - 0.01  # a square keeps its size: riders and numbers are not shrunk
    assert (scene.canvas.width, scene.canvas.height) == (2 * 382, 2 * (full.height + PANEL_H))
    assert view.panel_rows == 2 and repaints == [382]
    x, y = view.centre(4, 1)
    assert view.cell_at(x, y) == (4, 1)  # a click lands on the square it points at

    scene.fit_column(382)  # the same width again: nothing to do
    assert repaints == [382]
    scene.fit_column(740)  # a tablet: more squares, one row of riders' cards
    assert (scene.view.visible, scene.view.panel_rows) == (int((740 - 32) // SQUARE_W), 1)
    scene.fit_column(1800)  # a wide page: its full layout, never wider
    assert scene.view == full and scene.canvas.width == 2 * WIDTH and repaints == [382, 740, WIDTH]


def test_a_track_opened_on_a_narrow_board_keeps_the_narrow_layout():
    scene = Scene(stage("avenue-corso-paseo"))
    scene.fit_column(382)
    scene.set_track(stage("la-haute-montagne"))
    assert (scene.view.width, scene.view.panel_rows, scene.view.first) == (382, 2, 0)
    assert scene.canvas.height == 2 * scene.view.height
