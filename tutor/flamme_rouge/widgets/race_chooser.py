"""``RaceChooser``: pick a stage and opponents, then race them in a ``RaceTutor``.

    RaceChooser(human_team="red", bots=("blue", "green", "black"))

The learner's team is ``human_team``; the other colours are bot teams. The
stages offered are the base game's (and its mountains); ``expansion=True`` adds the
teaching tracks with the Peloton expansion's narrow roads, cobblestones and supply
zones (lessons 8 on). "Start
race" (``start_button``) replaces the race below with a new one built from the
choices (``stage_input``, ``bots_input``, ``bot_input``, and ``seed_input`` under "For teachers").
The current race's widget is ``tutor``.
"""

from __future__ import annotations

from typing import Sequence

import ipywidgets as widgets

from tutor.flamme_rouge.track import STAGES, TEACHING_TRACKS
from tutor.flamme_rouge.bots import BOTS

from tutor.i18n import N_, _
from tutor.ui.controls import button
from tutor.ui.screen import teacher_section

from .race_tutor import RaceTutor

BOT_NAMES = {"heuristic": N_("sensible bots"), "random": N_("random bots")}


class RaceChooser(widgets.VBox):
    def __init__(
        self,
        human_team: str = "red",
        bots: Sequence[str] = ("blue", "green", "black"),
        *,
        stage: str = "avenue-corso-paseo",
        seed: int = 0,
        expansion: bool = False,
    ):
        super().__init__()
        self.human_team, self.bot_colours = human_team, tuple(bots)
        stages = [(title, key) for key, (title, _spec) in STAGES.items()]
        stages += [
            (_("{track} (teaching track)").format(track=_(title)), key)
            for key, (title, spec, *_rest) in TEACHING_TRACKS.items()
            if expansion or not uses_expansion(spec)
        ]
        self.stage_input = widgets.Dropdown(options=stages, value=stage, description=_("Stage"))
        self.bots_input = widgets.Dropdown(
            options=[(str(n), n) for n in range(1, len(self.bot_colours) + 1)],
            value=len(self.bot_colours),
            description=_("Bot teams"),
        )
        self.bot_input = widgets.Dropdown(
            options=[(_(label), key) for key, label in BOT_NAMES.items() if key in BOTS],
            value="heuristic",
            description=_("Bots"),
        )
        self.seed_input = widgets.IntText(
            value=seed,
            description=_("Shuffle number"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="200px"),
        )
        self.start_button = button(_("Start race"), _("Start a new race with these choices"), style="primary")
        self.start_button.on_click(lambda _: self.start())
        self.teachers = teacher_section(self.seed_input)  # the shuffle number: a teacher's tool, closed
        self.controls = widgets.VBox(
            [
                widgets.HBox(
                    [self.stage_input, self.bots_input, self.bot_input, self.start_button, self.teachers.button],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.teachers.body,
            ]
        )
        self.start()

    def start(self) -> None:
        """Build a new race from the current choices (bot teams play their energy phase themselves)."""
        opponents = self.bot_colours[: self.bots_input.value]
        self.tutor = RaceTutor.new_race(
            self.stage_input.value,
            teams=(self.human_team, *opponents),
            bots={colour: self.bot_input.value for colour in opponents},
            seed=self.seed_input.value,
            human_teams=(self.human_team,),
            title=self.stage_input.label,
        )
        self.children = [self.controls, self.tutor]


def uses_expansion(spec: str) -> bool:
    """A track with a square of one or three lanes, cobblestones or a supply zone (the Peloton expansion)."""
    return any(token[0] != "2" or token[1:] in ("c", "s") for token in spec.split())
