"""The lessons in other languages, made from the English ones and the language's catalog: each lesson is written once.

The repository holds the English lessons only (``lessons/<game>/*.ipynb`` and their ``scenarios/*.json``). Their
words a learner reads are messages of the gettext catalog (``tutor.i18n.catalogs`` extracts them with Babel):

- each paragraph, heading and list item of a text (Markdown) cell, one message each, without its Markdown marks
  (``## ``, ``- ``, ``1. ``) and with its lines joined by spaces; the words of a line of HTML without its tags
  (``<summary><b>For teachers</b></summary>`` gives "For teachers");
- the notebook's title (the browser tab's) and summary (the landing page's);
- the ``question=`` and ``explain=`` strings of its code cells and the teacher's notes of its metadata, which the
  widgets translate as they run (the code is the same in every language);
- the ``name`` and ``description`` of each scenario file.

``build_language(root, "ca")`` writes ``root/ca/``: a copy of every English lesson and scenario file with those
words translated (a message the catalog lacks stays English), the first code cell starting with the language line
(``use_language("ca")``) and the metadata naming the language (``"tutor": {"language": "ca"}``). It runs where the
lessons are served (``rules-tutor serve``, Binder's postBuild, the hub's learner servers and image) and the folders
it writes are never committed (``.gitignore``). A translated lesson has the same quizzes (the same ids), and the
class's data and the learner's progress know it by the same key as the English one (``lesson_key``).

    build_languages(Path("lessons"))   # lessons/ca/ (and every other language with a catalog)
    lesson_key("ca/flamme_rouge/02_energy_phase.ipynb")   # "flamme_rouge/02_energy_phase.ipynb"
    python -m tutor.i18n.lesson_languages lessons   # the same from a shell (Binder, the Docker image)

This module imports nothing from the widget libraries (the landing page and the class server use it).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from tutor.i18n import language_codes, translations_for
from tutor.i18n.pages import write_language_list

ENGLISH = "en"
TRANSLATED_SCENARIO_KEYS = ("name", "description")
"""What a translated scenario file changes: the words shown above its board."""
SHOWN_SCENARIO_KEYS = {"flanders": ("name", "description")}
"""The keys of a game's scenario files that a learner reads (so the catalog has them): In Flanders Field's quizzes
and games show a scenario's description; a Flamme Rouge scenario's description is the author's note
(``docs/scenario_format.md``), shown nowhere, so only its name is."""


def shown_scenario_keys(game: str) -> tuple[str, ...]:
    """The keys of ``game``'s scenario files a learner reads."""
    return SHOWN_SCENARIO_KEYS.get(game, ("name",))


SCENARIOS = "scenarios"

Translate = Callable[[str], str]


def language_line(language: str) -> str:
    """The line that starts the first code cell of a lesson in ``language``."""
    return f'from tutor.i18n import use_language; use_language("{language}")'


def translations() -> list[str]:
    """The language codes lessons may be translated into (every known language but English)."""
    return [code for code in language_codes() if code != ENGLISH]


def split_language(relative: str) -> tuple[str, str]:
    """``("ca", "flamme_rouge/02_energy_phase.ipynb")`` for ``"ca/flamme_rouge/02_energy_phase.ipynb"``;
    ``("en", path)`` for a path of the English lessons."""
    first, _, rest = relative.strip("/").partition("/")
    if rest and first in translations():
        return first, rest
    return ENGLISH, relative.strip("/")


def lesson_key(relative: str) -> str:
    """The one name of a lesson in every language: its path below the served folder without the language folder
    (``ca/flamme_rouge/02_energy_phase.ipynb`` and ``flamme_rouge/02_energy_phase.ipynb`` are the same lesson)."""
    return split_language(relative)[1]


def _hidden(relative: Path) -> bool:
    return any(part.startswith((".", "_")) for part in relative.parts)


def _is_language_folder(root: Path, relative: Path) -> bool:
    """A top folder named by a language code (known or not): never English lessons."""
    return len(relative.parts) > 1 and (
        relative.parts[0] in translations() or (root / relative.parts[0] / ".generated").is_file()
    )


def english_notebooks(root: Path) -> list[Path]:
    """The English notebooks below ``root`` (relative to it), language folders left out."""
    root = Path(root)
    return sorted(
        path.relative_to(root)
        for path in root.rglob("*.ipynb")
        if not _hidden(path.relative_to(root)) and not _is_language_folder(root, path.relative_to(root))
    )


def english_scenarios(root: Path) -> list[Path]:
    """The scenario files of the English lessons (``<game>/scenarios/*.json``), relative to ``root``."""
    root = Path(root)
    return sorted(
        path.relative_to(root)
        for path in root.glob(f"*/{SCENARIOS}/*.json")
        if not _is_language_folder(root, path.relative_to(root))
    )


# --- The words of a notebook -------------------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6}\s+)(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d{1,3}[.)])\s+)")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TAGS_AROUND = re.compile(r"^(\s*(?:<[^>]+>\s*)*)(.*?)((?:\s*<[^>]+>)*\s*)$")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Block:
    """One message of a text cell: lines ``start``-``end`` (excluded) of the cell, its words ``text`` (lines joined
    by spaces), and the marks kept around them (``prefix``: a heading's ``## ``, a list item's ``- ``, an HTML
    line's opening tags; ``suffix``: an HTML line's closing tags)."""

    start: int
    end: int
    prefix: str
    text: str
    suffix: str
    kind: str


def _starts_block(line: str) -> bool:
    return bool(
        _HEADING.match(line) or _ITEM.match(line) or _RULE.match(line) or _FENCE.match(line) or line.startswith("<")
    )


def markdown_blocks(source: str) -> list[Block]:
    """The messages of a Markdown cell, in order: each heading, paragraph, list item and line of HTML with words
    (code blocks, rules and tag-only lines have none)."""
    lines = source.split("\n")
    blocks: list[Block] = []
    i, fenced = 0, False
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
            i += 1
            continue
        if fenced or not line.strip() or _RULE.match(line):
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            if heading.group(2):
                blocks.append(Block(i, i + 1, heading.group(1), heading.group(2), "", "heading"))
            i += 1
            continue
        if line.startswith("<"):
            around = _TAGS_AROUND.match(line)
            if around and _LETTER.search(around.group(2)):
                blocks.append(Block(i, i + 1, around.group(1), around.group(2), around.group(3), "HTML line"))
            i += 1
            continue
        item = _ITEM.match(line)
        prefix = item.group(1) if item else ""
        end = i + 1
        while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
            end += 1
        text = " ".join([line[len(prefix) :].strip(), *(part.strip() for part in lines[i + 1 : end])])
        blocks.append(Block(i, end, prefix, text, "", "list item" if item else "paragraph"))
        i = end
    return blocks


def translate_markdown(source: str, translate: Translate) -> str:
    """``source`` with each block's words replaced by ``translate``'s (a block it leaves as it is keeps its lines)."""
    lines = source.split("\n")
    out: list[str] = []
    done = 0
    for block in markdown_blocks(source):
        out += lines[done : block.start]
        said = translate(block.text)
        if said == block.text:
            out += lines[block.start : block.end]
        else:
            indent = "\n" + " " * len(block.prefix) if block.kind == "list item" else "\n"
            out.append(block.prefix + said.replace("\n", indent) + block.suffix)
        done = block.end
    return "\n".join(out + lines[done:])


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def _tutor(notebook: dict[str, Any]) -> dict[str, Any]:
    tutor = notebook.get("metadata", {}).get("tutor", {})
    return tutor if isinstance(tutor, dict) else {}


def notebook_words(notebook: dict[str, Any], name: str = "") -> Iterator[tuple[int, str, str]]:
    """``(cell number, message, where)`` for each message of a lesson's text, in the lesson's order: its title and
    summary (cell 0), then each text cell's blocks. ``where`` names the lesson and the cell for the translator."""
    lesson = f"{name}: " if name else ""
    title = notebook.get("metadata", {}).get("title")
    if isinstance(title, str) and title:
        yield 0, title, f"{lesson}the browser tab's title"
    summary = _tutor(notebook).get("summary")
    if isinstance(summary, str) and summary:
        yield 0, summary, f"{lesson}the summary on the lessons page"
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") != "markdown":
            continue
        blocks = markdown_blocks(_source(cell))
        for k, block in enumerate(blocks, start=1):
            yield number, block.text, f"{lesson}cell {number}, {block.kind} {k} of {len(blocks)}"


def translate_notebook(english: dict[str, Any], language: str, translate: Translate) -> dict[str, Any]:
    """The lesson ``english`` in ``language``: its text, title and summary through ``translate``, its first code
    cell starting with the language line, its metadata naming the language. Its code and quizzes are the same."""
    notebook: dict[str, Any] = json.loads(json.dumps(english))
    metadata = notebook.setdefault("metadata", {})
    if isinstance(metadata.get("title"), str):
        metadata["title"] = translate(metadata["title"])
    tutor = metadata.setdefault("tutor", {})
    if isinstance(tutor.get("summary"), str):
        tutor["summary"] = translate(tutor["summary"])
    tutor["language"] = language
    first_code = True
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            cell["source"] = translate_markdown(_source(cell), translate)
        elif cell.get("cell_type") == "code" and first_code:
            cell["source"] = language_line(language) + "\n" + _source(cell)
            first_code = False
    return notebook


def translate_scenario(english: dict[str, Any], translate: Translate) -> dict[str, Any]:
    """A scenario file with its ``name`` and ``description`` through ``translate``."""
    scenario = dict(english)
    for key in TRANSLATED_SCENARIO_KEYS:
        if isinstance(scenario.get(key), str) and scenario[key]:
            scenario[key] = translate(scenario[key])
    return scenario


# --- Writing a language's lessons --------------------------------------------------------------------------------


def _write(path: Path, text: str) -> bool:
    """Write ``text`` unless ``path`` holds it already (a server reading the lessons sees no needless change)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def build_language(root: Path, language: str, translate: Translate | None = None) -> list[Path]:
    """Write ``root/<language>/``: every English lesson and scenario file of ``root`` in ``language`` (through
    ``translate``, else the language's catalog). Lessons and scenario files left from an older build are removed.
    Returns the files written (those already up to date are not)."""
    root = Path(root)
    if translate is None:
        translate = translations_for(language).gettext
    folder = root / language
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".generated").write_text(
        "Made from the English lessons and the catalog by tutor.i18n.lesson_languages: "
        "do not edit, translate the catalog (tutor/locale).\n",
        encoding="utf-8",
    )
    _write(
        folder / ".gitignore", "# made where the lessons are served (tutor.i18n.lesson_languages): never committed\n*\n"
    )
    written, wanted = [], set()
    for relative in english_notebooks(root):
        english = _read(root / relative)
        if english is None:  # not a notebook (yet): no page to translate
            continue
        text = json.dumps(translate_notebook(english, language, translate), ensure_ascii=False, indent=1) + "\n"
        wanted.add(relative)
        if _write(folder / relative, text):
            written.append(folder / relative)
    for relative in english_scenarios(root):
        english = _read(root / relative)
        if english is None:
            continue
        text = json.dumps(translate_scenario(english, translate), ensure_ascii=False, indent=2) + "\n"
        wanted.add(relative)
        if _write(folder / relative, text):
            written.append(folder / relative)
    for path in [*folder.rglob("*.ipynb"), *folder.glob(f"*/{SCENARIOS}/*.json")]:
        relative = path.relative_to(folder)
        if relative not in wanted and not _hidden(relative):
            path.unlink()
    return written


def build_languages(root: Path, languages: list[str] | None = None) -> dict[str, int]:
    """``build_language`` for each language with a catalog (or those given); the number of files written for each.
    A folder of a language whose catalog is gone is removed when it was made here (it holds ``.generated``)."""
    root = Path(root)
    codes = translations() if languages is None else languages
    for folder in root.iterdir() if root.is_dir() else []:
        if (folder / ".generated").is_file() and folder.name not in translations():
            shutil.rmtree(folder)
    return {code: len(build_language(root, code)) for code in codes}


def main(argv: list[str] | None = None) -> int:
    """``python -m tutor.i18n.lesson_languages [LESSONS] [LANGUAGE ...]``: make the lessons in each language."""
    words = list(sys.argv[1:] if argv is None else argv)
    root = Path(words[0]) if words else Path("lessons")
    if not (root / "index.ipynb").is_file():
        print(f"tutor.i18n.lesson_languages: no lessons at {root} (a folder with index.ipynb)", file=sys.stderr)
        return 2
    unknown = [code for code in words[1:] if code not in translations()]
    if unknown:
        print(
            f"tutor.i18n.lesson_languages: no catalog for {', '.join(unknown)}; known: {', '.join(translations())}",
            file=sys.stderr,
        )
        return 2
    for code, count in build_languages(root, words[1:] or None).items():
        print(f"{root / code}: the lessons in {code} ({count} files updated)")
    try:
        write_language_list()  # the pages link to each language with a catalog
    except OSError as exc:
        print(f"tutor.i18n.lesson_languages: the list of languages could not be written: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
