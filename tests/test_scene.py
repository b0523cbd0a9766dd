"""``LayeredScene`` paced by a clock: a frame that raises ends the animation, and ``before()`` shown on its own."""

from __future__ import annotations

import logging

import pytest

from tests.manual_clock import ManualClock
from tutor.ui.scene import LayeredScene
from tutor.ui.testing import recorded_commands


def _scene() -> tuple[LayeredScene, ManualClock, list[bool]]:
    scene = LayeredScene(2, 100, 100)
    scene.clock = clock = ManualClock()
    playing: list[bool] = []
    scene.on_playing(playing.append)
    return scene, clock, playing


def test_a_frame_that_raises_later_ends_the_animation_and_is_logged(caplog):
    scene, clock, playing = _scene()

    def draw_frame(frame: int) -> float:
        if frame == 2:
            raise ValueError("frame 2 cannot be drawn")
        scene.layer(1).fill_rect(frame, frame, 5, 5)
        return 40.0

    scene.play([1, 2, 3], draw_frame, after=lambda: scene.layer(1).clear())
    assert scene.playing and playing == [True]
    with caplog.at_level(logging.ERROR, logger="tutor.ui.scene"):
        clock.advance(1.0)
    assert not scene.playing and playing == [True, False]  # Skip goes away
    assert not clock.pending
    [record] = caplog.records
    assert "animation" in record.getMessage() and "frame 2 cannot be drawn" in record.exc_text


def test_an_after_that_raises_ends_the_animation_and_is_logged(caplog):
    scene, clock, playing = _scene()
    scene.play([1], lambda frame: 40.0, after=lambda: 1 / 0)
    with caplog.at_level(logging.ERROR, logger="tutor.ui.scene"):
        clock.advance(1.0)
    assert not scene.playing and playing == [True, False]
    assert "ZeroDivisionError" in caplog.records[0].exc_text


def test_a_first_frame_that_raises_is_raised_and_leaves_nothing_playing():
    scene, clock, playing = _scene()
    with pytest.raises(ValueError):
        scene.play([1, 2], lambda frame: (_ for _ in ()).throw(ValueError("no")))
    assert not scene.playing and playing == [] and not clock.pending


@pytest.mark.parametrize("shows_first", [True, False])
def test_before_returning_true_is_sent_alone_and_the_first_frame_follows(shows_first):
    scene, clock, playing = _scene()
    drawn: list[int] = []

    def draw_frame(frame: int) -> float:
        drawn.append(frame)
        scene.layer(1).fill_rect(frame, frame, 5, 5)
        return 40.0

    with recorded_commands() as log:
        scene.play([1, 2], draw_frame, before=lambda: scene.layer(0).clear() or shows_first)
    assert log.count("clear") == 1
    assert drawn == ([] if shows_first else [1])
    with recorded_commands() as log:
        clock.advance(0)
    assert drawn == [1] and log.messages == (1 if shows_first else 0)
    clock.advance(1.0)
    assert drawn == [1, 2] and not scene.playing and playing == [True, False]
