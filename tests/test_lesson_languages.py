"""Issues 32 and 38: each lesson is written once, in English; the lessons in Catalan (``lessons/ca/``) are made from
it and the catalog (``tutor.i18n.lesson_languages``) and are never committed.

The words of a lesson are catalog messages, one per paragraph, heading or list item, in the lesson's order, each
naming its lesson and cell; a Catalan page is the English one with those words translated: the same notebooks,
the same code cells apart from the language line, the same metadata apart from the language (and the translated
title and summary), the same quiz ids, the same scenario files apart from their names. A lesson in Catalan is the
same lesson as the English one for the learner's progress and the class (one key). The pages link to each other
inside ``ca/``, and the page script that links the languages knows the languages of ``tutor.i18n``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from tutor import i18n
from tutor.i18n import languages
from tutor.i18n.catalogs import extract_notebook, extract_scenario
from tutor.i18n.lesson_languages import (
    build_language,
    english_notebooks,
    english_scenarios,
    language_line,
    lesson_key,
    markdown_blocks,
    notebook_words,
    split_language,
    translate_markdown,
)
from tutor.ui.landing import landing_html
from tutor.ui.lessons import lesson_info, lessons_in, nav_html

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO / "lessons"
CATALAN = ROOT / "ca"
TEMPLATE = REPO / "tutor" / "voila_template" / "voila" / "templates" / "rules-tutor"
GLOSSARY = REPO / "docs" / "glossary_ca.md"
ENGLISH = english_notebooks(ROOT)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")
HTML_LINK = re.compile(r"""href=['"]([^'"]+\.ipynb)['"]""")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _markdown(path: Path) -> str:
    return "\n".join(cell.source for cell in _read(path).cells if cell.cell_type == "markdown")


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_each_lesson_is_written_once_and_the_catalan_lessons_are_not_committed():
    assert len(ENGLISH) >= 28 and Path("index.ipynb") in ENGLISH and Path("flanders/07_full_game.ipynb") in ENGLISH
    committed = subprocess.run(["git", "ls-files", "lessons"], cwd=REPO, capture_output=True, text=True, check=True)
    files = committed.stdout.split()
    assert files and not [name for name in files if name.startswith("lessons/ca/")]
    assert "/lessons/ca/" in (REPO / ".gitignore").read_text().splitlines()
    ignored = subprocess.run(["git", "check-ignore", "-q", "lessons/ca/flamme_rouge/02_energy_phase.ipynb"], cwd=REPO)
    assert ignored.returncode == 0


def test_a_catalan_page_is_the_english_page_with_its_words_translated():
    """Made by the tests' start (as ``rules-tutor serve`` makes it): the same cells, code, quiz ids, metadata."""
    for relative in ENGLISH:
        english, catalan = _json(ROOT / relative), _json(CATALAN / relative)
        assert [c["cell_type"] for c in catalan["cells"]] == [c["cell_type"] for c in english["cells"]], relative
        code = ["".join(c["source"]) for c in catalan["cells"] if c["cell_type"] == "code"]
        expected = ["".join(c["source"]) for c in english["cells"] if c["cell_type"] == "code"]
        if expected:
            assert code[0] == language_line("ca") + "\n" + expected[0] and code[1:] == expected[1:], relative
        tutor = dict(catalan["metadata"]["tutor"])
        assert tutor.pop("language") == "ca"
        tutor.pop("summary", None)
        english_tutor = {k: v for k, v in english["metadata"]["tutor"].items() if k != "summary"}
        assert tutor == english_tutor, relative  # the quiz ids, the teacher's notes, the minutes
        assert {k: v for k, v in catalan["metadata"].items() if k not in ("title", "tutor")} == {
            k: v for k, v in english["metadata"].items() if k not in ("title", "tutor")
        }
    for relative in english_scenarios(ROOT):
        english, catalan = _json(ROOT / relative), _json(CATALAN / relative)
        assert {k: v for k, v in catalan.items() if k not in ("name", "description")} == {
            k: v for k, v in english.items() if k not in ("name", "description")
        }
        assert catalan["name"] != english["name"] or english["name"] == "Mines", relative


def test_a_lesson_gives_one_message_per_paragraph_heading_and_list_item_in_order_naming_lesson_and_cell():
    source = (
        "# 2. The energy phase\n\nEvery round starts with the **energy phase**. Each player does this\n"
        "for one rider:\n\n1. **Draw 4 cards** from the deck.\n2. **Play 1** face down.\n   It says how far.\n"
        '\n```bash\nrules-tutor serve\n```\n---\n<details class="tutor-teachers"><summary><b>For teachers</b>'
        "</summary>\n\n</details>"
    )
    assert [(b.kind, b.prefix, b.text) for b in markdown_blocks(source)] == [
        ("heading", "# ", "2. The energy phase"),
        ("paragraph", "", "Every round starts with the **energy phase**. Each player does this for one rider:"),
        ("list item", "1. ", "**Draw 4 cards** from the deck."),
        ("list item", "2. ", "**Play 1** face down. It says how far."),
        ("HTML line", '<details class="tutor-teachers"><summary><b>', "For teachers"),
    ]
    assert translate_markdown(source, lambda text: text) == source  # nothing translated: the very same cell
    shouted = translate_markdown(source, str.upper)
    assert shouted.startswith("# 2. THE ENERGY PHASE\n\nEVERY ROUND STARTS WITH THE **ENERGY PHASE**. EACH PLAYER")
    assert "\n1. **DRAW 4 CARDS** FROM THE DECK.\n2. **PLAY 1** FACE DOWN. IT SAYS HOW FAR.\n" in shouted
    assert "```bash\nrules-tutor serve\n```\n---\n" in shouted
    assert "<summary><b>FOR TEACHERS</b></summary>\n\n</details>" in shouted

    lesson = ROOT / "flamme_rouge" / "02_energy_phase.ipynb"
    with lesson.open("rb") as notebook:
        extracted = list(extract_notebook(notebook, {}, [], {}))
    said = [message for _, _, message, _ in extracted]
    assert said[:2] == [
        "2. The energy phase · Flamme Rouge · Rules tutor",
        "Each rider draws four cards, plays one face down and puts the other three back under its deck.",
    ]
    assert said.index("2. The energy phase") < said.index(
        "Played cards **leave the game** at the end of the round. Each card is used only once, so spend the 9s wisely!"
    )
    assert "**Draw 4 cards** from the rider's deck." in said and "For teachers" in said
    cells = [line for line, *_ in extracted]
    assert cells == sorted(cells)  # the lesson's order
    comments = {message: comments for _, _, message, comments in extracted}
    assert comments["**Draw 4 cards** from the rider's deck."] == [
        "flamme_rouge/02_energy_phase.ipynb: cell 1, list item 3 of 5"
    ]
    scenario = ROOT / "flanders" / "scenarios" / "bust_a.json"
    with scenario.open("rb") as data:
        names = [message for _, _, message, _ in extract_scenario(data, {}, [], {})]
    assert names == [_json(scenario)["name"], _json(scenario)["description"]]
    with (ROOT / "flamme_rouge" / "scenarios" / "movement_board_b.json").open("rb") as data:
        assert len(list(extract_scenario(data, {}, [], {}))) == 1  # its description is the author's note


def test_every_english_word_of_the_lessons_is_in_the_catalan_catalog():
    """Nothing already translated was lost when the lessons moved into the catalog: every message a lesson gives
    has its Catalan translation (the catalog's check says "complete" too)."""
    catalog = i18n.catalog_for("ca")
    missing = [
        (relative.as_posix(), text)
        for relative in ENGLISH
        for _, text, _ in notebook_words(_json(ROOT / relative))
        if text not in catalog.known
    ]
    assert missing == []


def _tiny_lessons(tmp_path: Path) -> Path:
    root = tmp_path / "lessons"
    for relative in (
        "flamme_rouge/02_energy_phase.ipynb",
        "index.ipynb",
        "flamme_rouge/scenarios/movement_board_b.json",
    ):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / relative, root / relative)
    return root


@pytest.fixture
def made(tmp_path: Path) -> Path:
    root = _tiny_lessons(tmp_path)
    build_language(root, "ca", lambda text: {"2. The energy phase": "2. La fase d'energia"}.get(text, text))
    return root


def test_a_message_the_catalog_lacks_stays_english_and_the_folder_follows_the_english_lessons(made: Path):
    page = _markdown(made / "ca" / "flamme_rouge" / "02_energy_phase.ipynb")
    assert page.startswith("# 2. La fase d'energia\n\nEvery round starts with the **energy phase**.")
    english = made / "flamme_rouge" / "02_energy_phase.ipynb"
    assert build_language(made, "ca", lambda text: text) != []  # the heading back to English
    assert build_language(made, "ca", lambda text: text) == []  # nothing changed: nothing written
    english.unlink()
    build_language(made, "ca", lambda text: text)
    assert not (made / "ca" / "flamme_rouge" / "02_energy_phase.ipynb").exists()
    assert (made / "ca" / "flamme_rouge" / "scenarios" / "movement_board_b.json").is_file()
    assert "*" in (made / "ca" / ".gitignore").read_text().splitlines()  # never committed, whatever the language
    assert english_notebooks(made) == [Path("index.ipynb")]


@pytest.mark.parametrize("relative", ENGLISH, ids=[str(p.with_suffix("")) for p in ENGLISH])
def test_each_catalan_page_names_its_language_once_and_is_in_catalan(relative: Path):
    catalan, english = _read(CATALAN / relative), _read(ROOT / relative)
    assert catalan.metadata["tutor"]["language"] == "ca"
    code = [cell.source for cell in catalan.cells if cell.cell_type == "code"]
    assert sum(source.count("use_language(") for source in code) == (1 if code else 0)
    assert not code or code[0].splitlines()[0] == language_line("ca")
    english_text, catalan_text = _markdown(ROOT / relative), _markdown(CATALAN / relative)
    for english_cell, catalan_cell in zip(
        [c for c in english.cells if c.cell_type == "markdown"], [c for c in catalan.cells if c.cell_type == "markdown"]
    ):
        assert english_cell.source != catalan_cell.source or len(english_cell.source) < 12, catalan_cell.source
    assert english_text.count("<details") == catalan_text.count("<details")  # the teachers' notes, translated
    assert "For teachers" not in catalan_text and catalan_text.count("Per als docents") >= english_text.count(
        "<summary><b>For teachers"
    )
    for english_word in (" the ", " and ", " rider ", " square ", " lane ", " you "):
        assert english_word not in catalan_text, english_word
    if "title" in english.metadata:
        assert catalan.metadata["title"] != english.metadata["title"]
    if english.metadata["tutor"].get("summary"):
        assert catalan.metadata["tutor"]["summary"] != english.metadata["tutor"]["summary"]


@pytest.mark.parametrize("relative", ENGLISH, ids=[str(p.with_suffix("")) for p in ENGLISH])
def test_the_links_of_a_catalan_page_stay_in_catalan(relative: Path):
    page = CATALAN / relative
    links = MARKDOWN_LINK.findall(_markdown(page))
    if page.parent != CATALAN and relative.name in [p.name for p in sorted(page.parent.glob("*.ipynb"))]:
        links += HTML_LINK.findall(nav_html(relative.name, page.parent, "../index.ipynb"))
    for link in links:
        target = (page.parent / link).resolve()
        assert target.is_file() and target.is_relative_to(CATALAN.resolve()), (relative, link)


def test_a_catalan_lesson_is_the_same_lesson_as_the_english_one():
    for relative in [path for path in ENGLISH if len(path.parts) == 2]:  # a game's pages (the top ones are none)
        english, catalan = lesson_info(ROOT / relative), lesson_info(CATALAN / relative)
        assert catalan.key == english.key and catalan.quiz_ids == english.quiz_ids
        assert lesson_key(f"ca/{relative.as_posix()}") == relative.as_posix()
    assert lesson_key("ca/flamme_rouge/02_energy_phase.ipynb") == "flamme_rouge/02_energy_phase.ipynb"
    assert split_language("ca/flamme_rouge/02_energy_phase.ipynb") == ("ca", "flamme_rouge/02_energy_phase.ipynb")
    assert split_language("flanders/02_a_turn.ipynb") == ("en", "flanders/02_a_turn.ipynb")
    assert lesson_key("ca") == "ca" and lesson_key("en/flanders/x.ipynb") == "en/flanders/x.ipynb"


def test_the_catalan_landing_page_lists_the_catalan_lessons_by_their_catalan_titles():
    html = landing_html(CATALAN)
    assert "href='flamme_rouge/02_energy_phase.ipynb'" in html and ">2. La fase d&#x27;energia</a>" in html
    assert "data-lesson='flamme_rouge/02_energy_phase.ipynb'" in html  # the English lesson's progress
    assert "Cada corredor roba quatre cartes" in html
    titles = [lesson.title for lesson in lessons_in(CATALAN / "flanders")]
    assert titles[1] == "1. El tauler i l'objectiu"


def test_the_page_script_knows_the_languages_of_the_catalogs_and_the_template_runs_it_before_class_mode():
    listed = json.loads((TEMPLATE / "messages" / "languages.json").read_text(encoding="utf-8"))
    assert listed == languages() == {"en": "English", "ca": "Català"}
    page = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    assert "RULES_TUTOR_LANGUAGES = {% include 'messages/languages.json' %}" in page
    assert page.index("include 'language.js'") < page.index("include 'classroom.js'")
    assert "include 'language.css'" in page
    assert "RULES_TUTOR_LANGUAGE.lesson" in (TEMPLATE / "classroom.js").read_text(encoding="utf-8")


GLOSSARY_ROW = re.compile(r"^\| \*\*([^*|]+)\*\* \| \*\*([^*|]+)\*\* \|", re.M)
REQUIRED_TERMS = (
    "lliscament aerodinàmic",
    "esgotament",
    "escapada",
    "llambordes",
    "zones de subministrament",
    "carril",
    "casella",
)


def _glossary() -> dict[str, str]:
    return {
        english.strip(): catalan.strip()
        for english, catalan in GLOSSARY_ROW.findall(GLOSSARY.read_text(encoding="utf-8"))
    }


def test_the_glossary_gives_the_words_of_the_catalan_rules_and_the_lessons_use_them():
    glossary = _glossary()
    assert len(glossary) >= 40
    rows = GLOSSARY.read_text(encoding="utf-8")
    for term in REQUIRED_TERMS:
        assert f"**{term}**" in rows, term
    assert glossary["slipstream"] == "lliscament aerodinàmic" and glossary["cobblestones"] == "llambordes"
    text = " ".join(_markdown(CATALAN / relative) for relative in ENGLISH).lower()
    for term in REQUIRED_TERMS:
        assert term in text, term


def test_every_catalan_lesson_uses_the_glossary_words_and_not_their_alternatives():
    """The glossary's "Not" column lists words a translator might reach for; the lessons use the glossary's."""
    avoided = re.findall(
        r"^\| \*\*[^|]+\*\* \| \*\*[^|]+\*\* \|[^|]*\| *not: ([^|]+)\|", GLOSSARY.read_text(encoding="utf-8"), re.M
    )
    words = [word.strip() for cell in avoided for word in cell.split(",") if word.strip()]
    assert "fatiga" in words and "rebuf" in words
    for relative in ENGLISH:
        text = _markdown(CATALAN / relative).lower()
        found = [word for word in words if re.search(rf"\b{re.escape(word)}\b", text)]
        assert found == [], (relative, found)
