"""Back restores every part of the state (hypothesis): random legal actions of both games, each followed by the
state's ``undo``, give exactly the JSON of before the action; the action then replays the same way.

Flamme Rouge with and without the Peloton expansion (the Peloton, Muscle teams, single riders, the breakaway bids,
manual setup) and the handing of teams to bots; In Flanders Field with 2-4 players and beginners.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.core.state import SeededState
from tutor.flamme_rouge import TEAM_COLOURS, Race
from tutor.flanders import Game

ACTIONS = 120
"""Actions played per example (a few rounds of a race, several turns of In Flanders Field)."""

undo_settings = settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def state_json(state: SeededState) -> str:
    return json.dumps(state.to_dict(history=False), sort_keys=True)


def back_and_again(state: SeededState, act: Any) -> None:
    """Act, go Back (the same JSON as before), act again (the same events and JSON as the first time)."""
    before = state_json(state)
    events = [e.to_dict() for e in act()]
    after = state_json(state)
    state.undo()
    assert state_json(state) == before, "Back did not restore the state"
    assert [e.to_dict() for e in act()] == events, "the action replayed differently after Back"
    assert state_json(state) == after


race_options = st.fixed_dictionaries(
    {
        "teams": st.integers(2, 4),
        "single_riders": st.booleans(),
        "peloton": st.booleans(),
        "muscle": st.integers(0, 2),
        "breakaway": st.booleans(),
        "place": st.sampled_from(["auto", "manual"]),
    }
)


@undo_settings
@given(options=race_options, seed=st.integers(0, 2**16), data=st.data())
def test_back_restores_a_race_after_any_action(options: dict[str, Any], seed: int, data: st.DataObject) -> None:
    teams = list(TEAM_COLOURS[: options.pop("teams")])
    bots = {name: "heuristic" for name in teams if data.draw(st.booleans(), label=f"{name} is a bot")}
    race = Race.new("paves-du-nord", teams, bots=bots, seed=seed, history=True, **options)
    for _ in range(ACTIONS):
        if race.is_over:
            break
        if data.draw(st.integers(0, 40), label="hand to bots") == 0:
            keep = tuple(data.draw(st.lists(st.sampled_from(teams), max_size=1, unique=True), label="keep"))
            back_and_again(race, lambda: race.hand_to_bots(keep))
            continue
        action = data.draw(st.sampled_from(race.legal_actions()), label="action")
        back_and_again(race, lambda: race.apply(action))


@undo_settings
@given(players=st.integers(2, 4), beginners=st.booleans(), seed=st.integers(0, 2**16), data=st.data())
def test_back_restores_a_flanders_game_after_any_action(
    players: int, beginners: bool, seed: int, data: st.DataObject
) -> None:
    game = Game.new(players, beginners=beginners, seed=seed, history=True)
    for _ in range(ACTIONS):
        actions = game.legal_actions()
        if not actions:
            break
        action = data.draw(st.sampled_from(actions), label="action")
        back_and_again(game, lambda: game.apply(action))
