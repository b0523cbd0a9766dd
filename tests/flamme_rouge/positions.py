"""Positions shared by the render and widget tests (SCENARIOS.md format)."""

BLOCKED = {
    "name": "Blocked rider",
    "track": " ".join(["2"] * 20),
    "riders": [
        {"id": "green-S", "team": "green", "kind": "sprinteur", "square": 6, "lane": 0},
        {"id": "blue-S", "team": "blue", "kind": "sprinteur", "square": 3, "lane": 0},
        {"id": "red-R", "team": "red", "kind": "rouleur", "square": 3, "lane": 1},
    ],
    "cards": {"green-S": 2, "blue-S": 5, "red-R": 5},
}
"""The rulebook's movement example: red-R falls back behind the full square 8."""

SLIPSTREAM = {
    "track": " ".join(["2"] * 20),
    "riders": [
        {"id": i, "square": s, "lane": lane}
        for i, s, lane in [("a", 1, 0), ("b", 4, 0), ("c", 4, 1), ("d", 5, 0), ("e", 7, 0), ("f", 9, 0), ("g", 10, 0)]
    ],
}
"""The rulebook's slipstream example, after movement."""
