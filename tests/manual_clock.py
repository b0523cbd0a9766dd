"""A clock for headless tests of paced animations (``LayeredScene.clock``): time moves only when told.

scene.clock = clock = ManualClock()
scene.play(frames, draw_frame)      # sends the first frame, books the next
clock.advance(0.5)                  # runs every frame booked up to half a second later
"""

from __future__ import annotations

from typing import Callable


class Booking:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.booked: list[Booking] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> Booking:
        booking = Booking(when, callback)
        self.booked.append(booking)
        return booking

    @property
    def pending(self) -> list[Booking]:
        return [b for b in self.booked if not b.cancelled]

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running each booking that falls due, in time order."""
        end = self.now + seconds
        while due := sorted((b for b in self.pending if b.when <= end), key=lambda b: b.when):
            booking = due[0]
            self.booked.remove(booking)
            self.now = max(self.now, booking.when)
            booking.callback()
        self.now = end
