"""``PhaseStepper``: the row of buttons that walks a game through its automatic steps.

    stepper = PhaseStepper(on_next=..., on_finish=..., on_back=..., on_restart=..., seed=0)
    stepper.update(can_step=True, can_undo=False)
    stepper.follow(scene)                       # a Skip button while the scene's animation plays
    stepper.show_continue("Continue to round 2 ▸", on_continue)   # a pause: the result stays until clicked

Next resolves one step, Finish round the rest of the round, Back undoes the last
action, Restart starts again with the seed on the right (disabled when the game
has no seed to choose). Skip (enabled only while an animation plays) shows its
end at once; Continue (shown only at a pause) moves on. The stepper holds no game
state: its owner decides what each button does and when it is enabled.
"""

from __future__ import annotations

from typing import Callable

import ipywidgets as widgets

from tutor.i18n import _

from .controls import button
from .scene import LayeredScene


class PhaseStepper(widgets.HBox):
    def __init__(
        self,
        *,
        on_next: Callable[[], None],
        on_finish: Callable[[], None],
        on_back: Callable[[], None],
        on_restart: Callable[[], None],
        seed: int = 0,
        seed_enabled: bool = True,
        next_tooltip: str = "Resolve the next step",
        finish_tooltip: str = "Resolve every remaining step of this round",
    ):
        self.next_button = button(_("Next step ▸"), next_tooltip, style="primary")
        self.finish_button = button(_("Finish round ▸▸"), finish_tooltip)
        self.continue_button = button(_("Continue ▸"), _("Move on when you have looked at the board"), style="primary")
        self.skip_button = button(_("Skip animation ▸|"), _("Show the end of the animation now"))
        self.back_button = button(_("◂ Back"), _("Undo the last action"))
        self.restart_button = button(_("Restart"), _("Start again (with the shuffle number on the right)"))
        self.seed = widgets.IntText(
            value=seed,
            description=_("Shuffle number"),
            layout=widgets.Layout(width="230px"),
            style={"description_width": "initial"},
            disabled=not seed_enabled,
            tooltip=_("The same shuffle number deals the same cards again"),
        )
        self.next_button.on_click(lambda _: on_next())
        self.finish_button.on_click(lambda _: on_finish())
        self.back_button.on_click(lambda _: on_back())
        self.restart_button.on_click(lambda _: on_restart())
        self._on_continue: Callable[[], None] | None = None
        self._on_skip: Callable[[], None] | None = None
        self.continue_button.on_click(lambda _: self._on_continue() if self._on_continue else None)
        self.skip_button.on_click(lambda _: self._on_skip() if self._on_skip else None)
        self.continue_button.layout.display = self.skip_button.layout.display = "none"
        super().__init__(
            [
                self.continue_button,
                self.next_button,
                self.finish_button,
                self.skip_button,
                self.back_button,
                self.restart_button,
                self.seed,
            ],
            layout=widgets.Layout(align_items="center"),
        )

    def update(self, *, can_step: bool, can_undo: bool) -> None:
        """Enable Next and Finish round when there is a step to resolve, Back when there is an action to undo."""
        self.next_button.disabled = self.finish_button.disabled = not can_step
        self.back_button.disabled = not can_undo

    def follow(self, scene: LayeredScene) -> None:
        """Show Skip, enabled while ``scene`` plays an animation (it shows the animation's end at once)."""
        self._on_skip = scene.finish
        self.skip_button.layout.display = None
        self.skip_button.disabled = not scene.playing
        scene.on_playing(lambda playing: setattr(self.skip_button, "disabled", not playing))

    def show_continue(self, description: str | None, on_continue: Callable[[], None] | None = None) -> None:
        """Show Continue with ``description`` (None hides it); a click calls ``on_continue``."""
        self._on_continue = on_continue
        self.continue_button.layout.display = "none" if description is None else None
        if description is not None:
            self.continue_button.description = description
