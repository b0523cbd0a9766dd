"""Issue 15: every word a learner reads on a Flamme Rouge lesson page is one a 12-year-old understands.

Each lesson runs top to bottom (as Voila runs it) and its text is collected: the Markdown and every string
property of every widget on the page (labels, tooltips, buttons, narration, rule texts). None may name the
tutor's internals ("seed", "RULES.md", a "section" number, a rulebook page, "the tutor's reading") or use an
abbreviation ("rec.", "E2 0", "sq.").
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2] / "lessons"
FR_LESSONS = sorted((ROOT / "flamme_rouge").glob("*.ipynb"))

FORBIDDEN = {
    "seed": re.compile(r"\bseeds?\b", re.I),
    "RULES.md": re.compile(r"RULES\.md|SCENARIOS\.md", re.I),
    "section": re.compile(r"\bsections?\b|§", re.I),
    "rulebook page": re.compile(r"rulebook p\.|\bp\. ?\d", re.I),
    "the tutor's reading": re.compile(r"tutor'?s reading", re.I),
    "abbreviation": re.compile(r"\brec\.|\bE2 \d|\bsq\.|\bapprox\.|\bincl\.", re.I),
    "command": re.compile(r"\brules-tutor\b"),
    "file name": re.compile(r"[\w/-]+\.(json|py|md)\b|\bscenarios/"),
}
TEACHER_PAGES = {"workbench"}
"""Pages for teachers: they may name files and commands (the other rules hold there too)."""
TEACHER_WORDS = ("command:", "file name:")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
TEXT_KEYS = ("value", "description", "tooltip", "placeholder", "_options_labels", "title", "titles")


def forbidden_words(text: str) -> list[str]:
    """The names of the rules ``text`` breaks, with the words found."""
    plain = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S | re.I)  # not shown as text
    plain = re.sub(r"<details class=.tutor-teachers.*?</details>", " ", plain, flags=re.S)  # closed, for teachers
    plain = html.unescape(re.sub(r"<[^>]+>", " ", plain))
    plain = re.sub(r"\(\.\./[^)]*\)|\([^)\s]*\.ipynb\)", " ", plain)  # Markdown link targets are not read
    return [
        f"{name}: {match.group(0)!r} in …{plain[max(0, match.start() - 50) : match.end() + 50]}…"
        for name, pattern in FORBIDDEN.items()
        for match in pattern.finditer(plain)
    ]


def _widget_texts(state: dict) -> list[str]:
    texts = []
    for model in state.get("state", {}).values():
        values = model.get("state", {})
        for key in TEXT_KEYS:
            value = values.get(key)
            if isinstance(value, str):
                texts.append(value)
            elif isinstance(value, list):
                texts += [v for v in value if isinstance(v, str)]
    return texts


def page_text(path: Path) -> list[str]:
    """The Markdown, the HTML outputs and every widget's text of the lesson, as run by Voila."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=300,
        startup_timeout=300,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    texts = [cell.source for cell in nb.cells if cell.cell_type == "markdown"]
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            texts.append(out.get("data", {}).get("text/html", ""))
    return texts + _widget_texts(nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}))


def test_the_scan_finds_each_kind_of_internal_word():
    assert forbidden_words("Restart (with the seed on the right)")
    assert forbidden_words("see RULES.md section 4")
    assert forbidden_words("rulebook p. 3") and forbidden_words("the tutor's reading")
    assert forbidden_words("rec. 2") and forbidden_words("E2 0")
    assert forbidden_words("check it with `rules-tutor check FILE`") and forbidden_words("in scenarios/a.json")
    assert not forbidden_words('<details class="tutor-teachers"><summary>For teachers</summary>a.json</details>')
    assert not forbidden_words(
        "<style>.tutor-log-section {}</style><section class='x'>Round 2 begins</section> [next](04_slipstream.ipynb)"
    )


@pytest.mark.notebook
@pytest.mark.parametrize("path", FR_LESSONS, ids=[p.stem for p in FR_LESSONS])
def test_no_learner_facing_text_names_internals(path: Path):
    texts = page_text(path)
    assert len(texts) >= 2  # at least the lesson text and its navigation: the page ran
    found = [word for text in texts for word in forbidden_words(text)]
    if path.stem in TEACHER_PAGES:
        found = [word for word in found if not word.startswith(TEACHER_WORDS)]
    assert found == []


def test_rule_texts_and_card_counts_use_plain_words():
    from tutor.core.events import Rule
    from tutor.flamme_rouge import rules
    from tutor.flamme_rouge.render.cards import stats_line
    from tutor.flamme_rouge.scenario import build

    texts = [str(rule) for rule in vars(rules).values() if isinstance(rule, Rule)]
    rider = next(iter(build({"track": "2 2 2 2", "riders": [{"id": "r", "square": 0, "lane": 0}]}).riders.values()))
    texts += [stats_line(rider, room) for room in range(40, 700, 20)]
    assert len(texts) > 40
    assert [found for text in texts for found in forbidden_words(text)] == []


def test_lesson_10_names_no_bot_team_before_lesson_11_teaches_them():
    nb = nbformat.read(ROOT / "flamme_rouge" / "10_the_breakaway.ipynb", as_version=4)
    text = " ".join(cell.source for cell in nb.cells if cell.cell_type == "markdown").lower()
    assert "bot team" not in text and "only players bid" not in text
