"""Issue 32: the lessons in Catalan (``lessons/ca/``) are the English lessons in another language.

The same notebooks, the same code cells apart from the language line, the same metadata apart from the language
(and the translated title and summary), the same quiz ids, the same scenario files apart from their names; a lesson
added in English without its Catalan copy fails. A lesson in Catalan is the same lesson as the English one for the
learner's progress and the class (one key). The pages link to each other inside ``ca/``, and the page script that
links the languages knows the languages of ``tutor.i18n``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from tutor.i18n import languages
from tutor.lesson_languages import (english_notebooks, language_line, lesson_key, split_language,
                                    translation_problems)
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


def test_the_catalan_lessons_are_in_step_with_the_english_ones():
    assert len(ENGLISH) >= 28 and Path("index.ipynb") in ENGLISH and Path("flanders/07_full_game.ipynb") in ENGLISH
    assert translation_problems(ROOT, "ca") == []


def _tiny_lessons(tmp_path: Path) -> Path:
    """A lessons folder with one English lesson and its Catalan copy, both taken from the repository."""
    root = tmp_path / "lessons"
    for relative in ("flamme_rouge/02_energy_phase.ipynb", "index.ipynb",
                     "flamme_rouge/scenarios/movement_board_b.json"):
        for folder in (root, root / "ca"):
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy((CATALAN if folder != root else ROOT) / relative, folder / relative)
    return root


def _edit(path: Path, change) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    change(notebook)
    path.write_text(json.dumps(notebook), encoding="utf-8")


def test_an_english_lesson_added_without_its_catalan_copy_fails(tmp_path: Path):
    root = _tiny_lessons(tmp_path)
    assert translation_problems(root, "ca") == []
    shutil.copy(ROOT / "flamme_rouge" / "03_movement.ipynb", root / "flamme_rouge" / "03_movement.ipynb")
    assert translation_problems(root, "ca") == [
        "ca/flamme_rouge/03_movement.ipynb is missing (the English lesson flamme_rouge/03_movement.ipynb has no copy)"]
    (root / "flamme_rouge" / "03_movement.ipynb").unlink()
    (root / "ca" / "teachers.ipynb").write_text((CATALAN / "teachers.ipynb").read_text(encoding="utf-8"))
    assert translation_problems(root, "ca") == ["ca/teachers.ipynb has no English lesson teachers.ipynb"]
    assert translation_problems(root, "de") == ["there is no folder de/ for the lessons in de"]


def test_a_catalan_copy_whose_code_quizzes_metadata_or_scenarios_differ_fails(tmp_path: Path):
    root = _tiny_lessons(tmp_path)
    lesson = root / "ca" / "flamme_rouge" / "02_energy_phase.ipynb"
    original = lesson.read_text(encoding="utf-8")

    def code_cell(k: int):
        def change(notebook):
            [cell for cell in notebook["cells"] if cell["cell_type"] == "code"][k]["source"] = "EnergyQuiz(seed=2)"
        return change

    def drop_language_line(notebook):
        first = next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")
        first["source"] = "".join(first["source"]).split("\n", 1)[1]

    changes = {
        "its code is not the English code": code_cell(1),
        'its first code cell does not start with from tutor.i18n import use_language; use_language("ca")':
            drop_language_line,
        "its quiz ids are not the English ones ['a3b1ea222a', '82f975b839', '5b3509d6b8', 'beba0e6c59', 'c53ca05b9b']":
            lambda notebook: notebook["metadata"]["tutor"].update(quizzes=["0123456789"]),
        'its metadata does not say "tutor": {"language": "ca"}':
            lambda notebook: notebook["metadata"]["tutor"].pop("language"),
        "its metadata differs from the English beyond title, summary and language":
            lambda notebook: notebook["metadata"]["tutor"].update(kernel=False),
        "its cells are not the English cells (Markdown and code in the same order)":
            lambda notebook: notebook["cells"].pop(0),
    }
    for problem, change in changes.items():
        lesson.write_text(original, encoding="utf-8")
        _edit(lesson, change)
        assert f"ca/flamme_rouge/02_energy_phase.ipynb: {problem}" in translation_problems(root, "ca"), problem
    lesson.write_text(original, encoding="utf-8")

    scenario = root / "ca" / "flamme_rouge" / "scenarios" / "movement_board_b.json"
    data = json.loads(scenario.read_text(encoding="utf-8"))
    scenario.write_text(json.dumps({**data, "name": "Un altre nom", "description": "Una altra descripció"}))
    assert translation_problems(root, "ca") == []  # the words shown are translated
    scenario.write_text(json.dumps({**data, "cards": {}}))
    assert translation_problems(root, "ca") == ["ca/flamme_rouge/scenarios/movement_board_b.json differs from the "
                                                "English file beyond its name and description"]
    scenario.unlink()
    assert translation_problems(root, "ca") == ["ca/flamme_rouge/scenarios/movement_board_b.json is missing"]


@pytest.mark.parametrize("relative", ENGLISH, ids=[str(p.with_suffix("")) for p in ENGLISH])
def test_each_catalan_page_names_its_language_once_and_is_in_catalan(relative: Path):
    catalan, english = _read(CATALAN / relative), _read(ROOT / relative)
    assert catalan.metadata["tutor"]["language"] == "ca"
    code = [cell.source for cell in catalan.cells if cell.cell_type == "code"]
    assert sum(source.count("use_language(") for source in code) == (1 if code else 0)
    assert not code or code[0].splitlines()[0] == language_line("ca")
    english_text, catalan_text = _markdown(ROOT / relative), _markdown(CATALAN / relative)
    for english_cell, catalan_cell in zip([c for c in english.cells if c.cell_type == "markdown"],
                                          [c for c in catalan.cells if c.cell_type == "markdown"]):
        assert english_cell.source != catalan_cell.source or len(english_cell.source) < 12, catalan_cell.source
    assert english_text.count("<details") == catalan_text.count("<details")  # the teachers' notes, translated
    assert "For teachers" not in catalan_text and catalan_text.count("Per als docents") >= english_text.count(
        "<summary><b>For teachers")
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
REQUIRED_TERMS = ("lliscament aerodinàmic", "esgotament", "escapada", "llambordes", "zones de subministrament",
                  "carril", "casella")


def _glossary() -> dict[str, str]:
    return {english.strip(): catalan.strip() for english, catalan in GLOSSARY_ROW.findall(
        GLOSSARY.read_text(encoding="utf-8"))}


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
    avoided = re.findall(r"^\| \*\*[^|]+\*\* \| \*\*[^|]+\*\* \|[^|]*\| *not: ([^|]+)\|", GLOSSARY.read_text(
        encoding="utf-8"), re.M)
    words = [word.strip() for cell in avoided for word in cell.split(",") if word.strip()]
    assert "fatiga" in words and "rebuf" in words
    for relative in ENGLISH:
        text = _markdown(CATALAN / relative).lower()
        found = [word for word in words if re.search(rf"\b{re.escape(word)}\b", text)]
        assert found == [], (relative, found)
