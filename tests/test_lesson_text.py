"""Issue 28: a lesson's text is written for a 12-year-old alone.

What a child reads is a lesson's Markdown without its closed "For teachers" note. In each numbered lesson:
- at most about 120 words come before the board (the first code cell: what the lesson shows);
- the whole text reads at Flesch-Kincaid grade 6 or lower (textstat);
- no rulebook-lawyer phrase: the tutor's decisions are named for teachers, not for the child.
The welcome pages and the landing page are read by the child too: the grade and the phrases hold there as well.

The same pages in Catalan (``lessons/ca/``, made from the English ones and the catalog) keep the same word limit
before the board and have no rulebook-lawyer phrase either (the same phrases, in Catalan). Flesch-Kincaid is a
formula for English; a Catalan page is measured with Fernández Huerta's reading ease (Flesch's formula fitted to
Spanish, the nearest language textstat measures), counting syllables with Catalan hyphenation (pyphen's ``ca``
dictionary): at least 80, "easy", the level of a sixth grade (Fernández Huerta's table; the English pages are at grade 6
or lower).

Run as a script (``python tests/test_lesson_text.py``) it prints each page's figures.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
import textstat
from textstat.textstat import textstatistics

ROOT = Path(__file__).resolve().parents[1] / "lessons"
LESSONS = sorted(ROOT.glob("*/[0-9][0-9]_*.ipynb"))
NUMBERED = [path for path in LESSONS if not path.name.startswith("00_")]
CHILD_PAGES = [ROOT / "index.ipynb", *LESSONS]
MAX_WORDS_BEFORE_BOARD = 120
MAX_GRADE = 6.0
CATALAN = ROOT / "ca"
CA_LESSONS = [CATALAN / path.relative_to(ROOT) for path in LESSONS]
CA_NUMBERED = [CATALAN / path.relative_to(ROOT) for path in NUMBERED]
CA_CHILD_PAGES = [CATALAN / path.relative_to(ROOT) for path in CHILD_PAGES]
MIN_CATALAN_EASE = 80.0
CATALAN_TEXT = textstatistics()
CATALAN_TEXT.set_lang("ca")

LAWYER_PHRASES = {
    "tutor decision": re.compile(r"tutor'?s? decisions?", re.I),
    "the rulebook": re.compile(r"\brule ?books?\b", re.I),
    "in this tutor": re.compile(r"\bin this tutor\b|\bthe tutor'?s own\b|\bdoes not say\b", re.I),
    "RULES.md": re.compile(r"RULES\.md|SCENARIOS\.md", re.I),
    "section number": re.compile(r"§|\bsections? \d", re.I),
    "seed": re.compile(r"\bseeds?\b", re.I),
    "file name": re.compile(r"[\w/-]+\.(json|py|md|ipynb|yml|toml)\b|\bscenarios/|\btutor/\w"),
    "command": re.compile(r"\brules-tutor\b|`"),
}
LAWYER_PHRASES_CA = {
    "tutor decision": re.compile(r"decisi(?:ó|ons) del tutor|el tutor (?:decideix|pren)", re.I),
    "the rulebook": re.compile(r"\breglaments?\b", re.I),
    "in this tutor": re.compile(r"\ben aquest tutor\b|\bno ho diu\b", re.I),
    "RULES.md": re.compile(r"RULES\.md|SCENARIOS\.md", re.I),
    "section number": re.compile(r"§|\bseccions? \d|\bapartats? \d", re.I),
    "seed": re.compile(r"\bllavors? (?:de|del) (?:l'atzar|barreja)|\bseeds?\b", re.I),
    "file name": LAWYER_PHRASES["file name"],
    "command": LAWYER_PHRASES["command"],
}
TEACHER_NOTE = re.compile(
    r"<details\b[^>]*>\s*<summary>(?:<b>)?(?:For teachers|Per als docents).*?</details>", re.S | re.I
)
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
BLOCK_START = re.compile(r"^\s*(?:#+\s|[-*]\s|\d+\.\s)")
SENTENCE_END = (".", "!", "?")


def child_text(markdown: str) -> str:
    """What a child reads of one Markdown cell, as plain sentences: no teacher note, tag, link target or Markdown
    mark; each heading, list item and paragraph ends as a sentence (a list's lead-in "...:" too)."""
    text = TEACHER_NOTE.sub("\n\n", markdown)
    text = re.sub(r"<[^>]+>", " ", text)
    text = html.unescape(LINK.sub(r"\1", text))
    text = re.sub(r"\*\*|(?<!\w)\*|\*(?!\w)|(?<!\w)_|_(?!\w)", "", text)
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if not line.strip() or re.fullmatch(r"\s*-{3,}\s*", line):
            blocks.append([])
        elif BLOCK_START.match(line) or not blocks:
            blocks.append([line])
        else:
            blocks[-1].append(line)
        if line.lstrip().startswith("#"):  # a heading is a sentence of its own
            blocks.append([])
    sentences = []
    for block in blocks:
        sentence = re.sub(r"\s+", " ", BLOCK_START.sub("", " ".join(block))).strip()
        if sentence:
            sentences.append(sentence if sentence.endswith(SENTENCE_END) else sentence.rstrip(":;,—-") + ".")
    return " ".join(sentences)


def page_texts(path: Path) -> tuple[str, str]:
    """(the child's text before the first code cell, the child's whole text) of a notebook."""
    before: list[str] = []
    whole: list[str] = []
    board_seen = False
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            board_seen = True
        elif cell.cell_type == "markdown":
            text = child_text(cell.source)
            whole.append(text)
            if not board_seen:
                before.append(text)
    return " ".join(before), " ".join(whole)


def words(text: str) -> int:
    return int(textstat.lexicon_count(text))


def grade(text: str) -> float:
    return float(textstat.flesch_kincaid_grade(text))


def lawyer_phrases(text: str, phrases: dict[str, re.Pattern[str]] = LAWYER_PHRASES) -> list[str]:
    return [
        f"{name}: …{text[max(0, m.start() - 40) : m.end() + 40]}…"
        for name, pattern in phrases.items()
        for m in pattern.finditer(text)
    ]


def catalan_ease(text: str) -> float:
    """Fernández Huerta's reading ease of a Catalan text (Catalan syllables): 80-90 easy, 90-100 very easy."""
    return float(CATALAN_TEXT.fernandez_huerta(text))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_the_reading_drops_teacher_notes_and_marks_and_ends_each_item_as_a_sentence():
    source = (
        "# 2. A turn\nOn your turn:\n1. **Roll** the dice\n2. Take [a card](02_a.ipynb)\n\n"
        '<details class="tutor-teachers"><summary><b>For teachers</b></summary>\n\nThe rulebook does not say '
        "(RULES.md section 3).\n\n</details>\n\n---\n[← All games](../index.ipynb)"
    )
    assert child_text(source) == "2. A turn. On your turn. Roll the dice. Take a card. ← All games."
    assert lawyer_phrases(child_text(source)) == []


def test_each_phrase_a_child_should_not_read_is_found():
    for text in (
        "(tutor decision)",
        "The rulebook does not say; in this tutor",
        "see RULES.md",
        "section 3",
        "the seed",
        "in scenarios/a.json",
        "run `rules-tutor check`",
        "tutor/flanders/data",
    ):
        assert lawyer_phrases(child_text(text)), text
    assert lawyer_phrases(child_text("A rider moves exactly the value of its card.")) == []


def test_a_long_hard_text_reads_above_grade_6_and_short_plain_text_below():
    hard = (
        "Notwithstanding the aforementioned considerations, the interpretation adopted hereinafter "
        "establishes that, whenever consecutive unoccupied positions separate the rearmost configuration "
        "from the subsequent formation, no aerodynamic advantage materialises."
    )
    assert grade(hard) > 12
    assert grade("A rider moves. It goes three squares. Then the next one plays a card.") < 3


def test_textstat_measures_offline():
    """The grade is measured here, on a machine without network: textstat must not fetch a word list."""
    import subprocess
    import sys

    code = (
        "import socket\n"
        "def refuse(*args, **kwargs): raise OSError('textstat tried the network')\n"
        "socket.socket.connect = refuse\n"
        "import textstat\n"
        "print(textstat.flesch_kincaid_grade('A sprinteur plays a card. The rouleur recycles three.'))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    float(run.stdout)


@pytest.mark.parametrize("path", NUMBERED, ids=[_id(p) for p in NUMBERED])
def test_at_most_about_120_words_come_before_the_board(path: Path):
    before, _ = page_texts(path)
    assert words(before) <= MAX_WORDS_BEFORE_BOARD, f"{words(before)} words before the board: {before}"


@pytest.mark.parametrize("path", CHILD_PAGES, ids=[_id(p) for p in CHILD_PAGES])
def test_the_text_reads_at_grade_6_or_lower(path: Path):
    _, whole = page_texts(path)
    assert grade(whole) <= MAX_GRADE, f"grade {grade(whole):.1f}"


@pytest.mark.parametrize("path", CHILD_PAGES, ids=[_id(p) for p in CHILD_PAGES])
def test_no_rulebook_lawyer_phrase_reaches_the_child(path: Path):
    _, whole = page_texts(path)
    assert lawyer_phrases(whole) == []


def test_the_catalan_measures_tell_plain_from_hard_text_and_find_the_phrases():
    hard = (
        "Malgrat les consideracions esmentades anteriorment, la interpretació adoptada estableix que, sempre que "
        "diverses posicions consecutives desocupades separin la configuració posterior de la formació "
        "subsegüent, no es materialitza cap avantatge aerodinàmic."
    )
    assert catalan_ease(hard) < 60
    assert catalan_ease("Un corredor avança. Va tres caselles. Després el següent juga una carta.") > 90
    for text in ("el reglament no ho diu", "una decisió del tutor", "en aquest tutor", "a scenarios/a.json"):
        assert lawyer_phrases(child_text(text), LAWYER_PHRASES_CA), text
    assert (
        lawyer_phrases(child_text("Un corredor avança exactament el valor de la seva carta."), LAWYER_PHRASES_CA) == []
    )
    assert (
        child_text(
            'Text.\n\n<details class="tutor-teachers"><summary><b>Per als docents</b></summary>\n\n'
            "El reglament no ho diu.\n\n</details>"
        )
        == "Text."
    )


@pytest.mark.parametrize("path", CA_NUMBERED, ids=[_id(p) for p in CA_NUMBERED])
def test_at_most_about_120_words_come_before_the_board_in_catalan(path: Path):
    before, _ = page_texts(path)
    assert words(before) <= MAX_WORDS_BEFORE_BOARD, f"{words(before)} words before the board: {before}"


@pytest.mark.parametrize("path", CA_CHILD_PAGES, ids=[_id(p) for p in CA_CHILD_PAGES])
def test_the_catalan_text_reads_easily(path: Path):
    _, whole = page_texts(path)
    assert catalan_ease(whole) >= MIN_CATALAN_EASE, f"reading ease {catalan_ease(whole):.1f}"


@pytest.mark.parametrize("path", CA_CHILD_PAGES, ids=[_id(p) for p in CA_CHILD_PAGES])
def test_no_rulebook_lawyer_phrase_reaches_the_child_in_catalan(path: Path):
    _, whole = page_texts(path)
    assert lawyer_phrases(whole, LAWYER_PHRASES_CA) == []


def test_numbered_lessons_are_the_nineteen_with_a_board():
    assert len(NUMBERED) == 19
    for path in NUMBERED:
        assert any(cell.cell_type == "code" for cell in nbformat.read(path, as_version=4).cells), path


if __name__ == "__main__":
    for page in CHILD_PAGES:
        first, all_text = page_texts(page)
        print(
            f"{_id(page):45} words before board {words(first):4}  grade {grade(all_text):5.1f}  "
            f"phrases {len(lawyer_phrases(all_text))}"
        )
    for page in CA_CHILD_PAGES:
        first, all_text = page_texts(page)
        print(
            f"ca/{_id(page):42} words before board {words(first):4}  ease {catalan_ease(all_text):5.1f}  "
            f"phrases {len(lawyer_phrases(all_text, LAWYER_PHRASES_CA))}"
        )
