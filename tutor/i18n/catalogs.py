"""The check a teacher runs after translating: ``rules-tutor languages ca`` (or ``python -m tutor.i18n check ca``).

It extracts the messages again with Babel into the template ``tutor/locale/tutor.pot``: the code's (``_``,
``ngettext``, ``N_``), the card and battlefield names of the shipped data files, and the English lessons' words
(``extract_notebook``: each paragraph, heading and list item of a lesson's text, its title and summary, its quizzes'
questions and explanations; ``extract_scenario``: the scenario files' names and descriptions). ``babel.cfg`` at the
repository's top maps the same extractors for ``pybabel extract -F babel.cfg``. It brings each catalog up to date
with the template (new messages added empty, messages no longer used dropped), and reports what is left to do:

- untranslated (empty) and fuzzy messages (shown in English where the lessons are served);
- translations that lost or changed a ``{placeholder}``, and plural messages missing a form.

When it writes, it also makes the language's lessons (``lessons/<language>/``, not committed) for the translator.

Exit status 0 when a language is complete, 1 when something is left. Adding a language is one file,
``tutor/locale/<code>/LC_MESSAGES/tutor.po`` (``rules-tutor languages --new xx`` starts it from the template): its
lessons are made from the English ones where they are served (``tutor.i18n.lesson_languages``).
"""

from __future__ import annotations

import argparse
import json
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Sequence

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from tutor.i18n import (
    DOMAIN,
    LOCALE_DIR,
    PSEUDO,
    SOURCE_LANGUAGE,
    TEMPLATE,
    catalog_for,
    catalog_path,
    language_codes,
    languages,
    own_name,
)
from tutor.i18n.lesson_languages import build_language, notebook_words, shown_scenario_keys
from tutor.i18n.pages import LANGUAGE_LIST, PACKAGE, PAGE_MESSAGES, PAGE_SCRIPTS
from tutor.i18n.pseudo import pseudo_catalog

REPO = PACKAGE.parent
LESSONS = REPO / "lessons"
PSEUDO_OUT = REPO / "build" / "pseudo" / PSEUDO / "LC_MESSAGES" / f"{DOMAIN}.po"
"""Where ``--pseudo`` writes the pseudo-language by default (a build product, never committed)."""
SCRIPT_METHODS = [("**/messages/**", "ignore"), ("**.js", "javascript")]
METHODS = [
    ("**/locale/**", "ignore"),
    ("**/data/*.json", "tutor.i18n.catalogs:extract_data_names"),
    ("**/voila_template/**/messages/**", "ignore"),
    ("**/voila_template/**.js", "javascript"),
    ("**.py", "python"),
]
"""Where messages are: the Python code, the lesson page's scripts, and the names in the game data files (cards,
battlefield spaces)."""
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
DATA_KEYS = ("name", "text")
_DATA_ENTRY = re.compile(r'"(name|text)"\s*:\s*("(?:[^"\\]|\\.)*")')


def extract_data_names(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the game data files: each ``"name"`` and ``"text"`` string a learner reads, except the
    names of the cards (``"side"`` on the same line), which stay as printed on the cards."""
    for lineno, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        for match in _DATA_ENTRY.finditer(line):
            if match.group(1) == "name" and '"side"' in line:
                continue
            text = json.loads(match.group(2))
            if text:
                yield lineno, "_", text, []


QUIZ_WORDS = ("question", "explain")
"""The keyword arguments of a lesson's code cells that hold words a learner reads (a quiz's question and
explanation): the same cells run in every language, so the widgets translate these through the catalog."""
QUIZ_NOTES = ("quiz_titles", "quiz_answers")
"""The lessons' metadata for the teacher (``tutor.classroom.notes``), the same in every language's copy: translated
through the catalog."""


def _lesson_name(fileobj: IO[bytes], options: Any) -> str:
    """The lesson's path below the lessons folder (``flamme_rouge/02_energy_phase.ipynb``), for the translator."""
    name = Path(str(getattr(fileobj, "name", "") or ""))
    parts = name.parts
    if "lessons" in parts:
        return "/".join(parts[len(parts) - parts[::-1].index("lessons") :])
    return name.name


def extract_notebook(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the English lessons (``.ipynb``), in the lesson's order: its title and summary, each
    paragraph, heading and list item of its text cells (``tutor.i18n.lesson_languages.notebook_words``), the
    ``question=`` and ``explain=`` strings of its code cells, and the teacher's notes of its metadata
    (``QUIZ_NOTES``: the quizzes' titles and answers). Each message names the lesson and the cell (a comment) and
    has the cell's number as its line."""
    import ast

    notebook = json.loads(fileobj.read().decode("utf-8"))
    name = _lesson_name(fileobj, options)
    words: dict[int, list[tuple[str, str]]] = {number: [] for number in range(len(notebook.get("cells", [])) + 1)}
    for number, text, where in notebook_words(notebook, name):
        words[number].append((text, where))
    for text, where in words[0]:
        yield 0, "_", text, [where]
    tutor = notebook.get("metadata", {}).get("tutor", {})
    for key in QUIZ_NOTES:
        notes = tutor.get(key, []) if isinstance(tutor, dict) else []
        for k, text in enumerate(notes if isinstance(notes, list) else [], start=1):
            if isinstance(text, str) and text:
                yield 0, "_", text, [f"{name}: lesson metadata {key}, quiz {k} (the teacher's view)"]
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        for text, where in words[number]:
            yield number, "_", text, [where]
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        try:
            tree = ast.parse(source if isinstance(source, str) else "".join(source))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.keyword)
                and node.arg in QUIZ_WORDS
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
                and node.value.value
            ):
                yield number, "_", node.value.value, [f"{name}: cell {number}, {node.arg} (code)"]


def extract_scenario(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the lessons' scenario files: their ``name`` and, where the game shows it (In Flanders
    Field), their ``description`` (``tutor.i18n.lesson_languages.shown_scenario_keys``)."""
    name = _lesson_name(fileobj, options)
    text = fileobj.read().decode("utf-8")
    data = json.loads(text)
    for key in shown_scenario_keys(name.split("/", 1)[0]):
        value = data.get(key) if isinstance(data, dict) else None
        if isinstance(value, str) and value:
            line = next((n for n, said in enumerate(text.splitlines(), start=1) if f'"{key}"' in said), 0)
            yield line, "_", value, [f"{name}: the scenario's {key}"]


def lesson_methods(others: Iterable[str]) -> list[tuple[str, str]]:
    """Babel's mapping for the lessons folder: the English lessons and scenario files, language folders left out
    (the same as ``babel.cfg``'s ``[lessons/...]`` sections)."""
    return [
        *((f"{code}/**", "ignore") for code in others),
        ("**/.ipynb_checkpoints/**", "ignore"),
        ("**/scenarios/*.json", "tutor.i18n.catalogs:extract_scenario"),
        ("**.ipynb", "tutor.i18n.catalogs:extract_notebook"),
    ]


def extract(source: Path = PACKAGE, lessons: Path | None = LESSONS) -> Catalog:
    """Every message of the code under ``source``, and the quiz words of the English lessons under ``lessons``."""
    template = Catalog(domain=DOMAIN, project="rules-tutor", msgid_bugs_address="", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(source), METHODS, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
    ):
        location = (f"{source.name}/{filename}", lineno)
        template.add(message, None, [location], auto_comments=comments, context=context)
    if lessons is not None and lessons.is_dir():
        others = [c for c in language_codes() if c != SOURCE_LANGUAGE]
        others += [p.name for p in lessons.iterdir() if (p / ".generated").is_file() and p.name not in others]
        for filename, lineno, message, comments, context in extract_from_dir(
            str(lessons), lesson_methods(others), keywords={"_": None}
        ):
            template.add(message, None, [(f"lessons/{filename}", lineno)], auto_comments=comments, context=context)
    return template


def page_messages(catalog: Catalog, scripts: Path = PAGE_SCRIPTS) -> dict[str, str]:
    """The page scripts' messages and their translations in ``catalog`` (untranslated ones left out)."""
    said: dict[str, str] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(scripts), SCRIPT_METHODS, keywords={"_": None}
    ):
        if isinstance(message, str):
            found = catalog.get(message)
            if found is not None and isinstance(found.string, str) and found.string and not found.fuzzy:
                said[message] = found.string
    return dict(sorted(said.items()))


def write_page_messages(code: str, catalog: Catalog) -> None:
    """The page scripts' words in ``code``, and the list of languages the pages link to (``languages.json``)."""
    PAGE_MESSAGES.mkdir(exist_ok=True)
    for name, data in ((code, page_messages(catalog)), (LANGUAGE_LIST, languages())):
        text = json.dumps(data, ensure_ascii=False, indent=1)
        (PAGE_MESSAGES / f"{name}.json").write_text(text.replace("</", "<\\/") + "\n", encoding="utf-8")


def write_catalog(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, catalog, width=120, sort_output=False, omit_header=False, ignore_obsolete=True)


def write_pseudo_catalog(template: Path, out: Path) -> Path:
    """The pseudo catalog of the template at ``template``, written as a ``.po`` file at ``out``."""
    with template.open("rb") as pot:
        catalog = pseudo_catalog(read_po(pot, domain="tutor"))
    write_catalog(catalog, out)
    return out


def update(code: str, template: Catalog) -> Catalog:
    """``code``'s catalog brought up to date with ``template`` (new messages empty, no guessed fuzzy ones)."""
    path = catalog_path(code)
    if path.exists():
        with path.open("rb") as po:
            catalog = read_po(po, locale=code, domain=DOMAIN)
    else:
        catalog = Catalog(locale=code, domain=DOMAIN, project="rules-tutor", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    return catalog


@dataclass
class Report:
    """What is left to do in one language."""

    code: str
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)
    """Messages whose translation lost, added or renamed a ``{placeholder}``."""
    total: int = 0
    """The messages of the template (code, data files and lessons)."""
    lesson_messages: set[str] = field(default_factory=set)
    """The messages of the lessons' text, titles and scenario files (the lessons are made from them)."""

    @property
    def complete(self) -> bool:
        return not (self.untranslated or self.fuzzy or self.placeholders)

    def lines(self) -> list[str]:
        name = own_name(self.code)
        if self.complete:
            return [f"{name} ({self.code}): complete."]
        lessons_left = [item for item in self.untranslated if item in self.lesson_messages]
        said = [
            f"{name} ({self.code}): {self.total - len(self.untranslated) - len(self.fuzzy)} of {self.total} "
            f"messages translated ({len(lessons_left)} of {len(self.lesson_messages)} lesson messages left); "
            "what is left is shown in English."
        ]
        for title, items in (
            ("untranslated or empty messages", self.untranslated),
            ("fuzzy messages", self.fuzzy),
            ("placeholders lost or changed", self.placeholders),
        ):
            if items:
                said.append(f"  {len(items)} {title}:")
                said += [f"    {item}" for item in items]
        return said


def placeholders(text: str) -> set[str]:
    """The ``{names}`` in ``text`` (``str.format`` fields)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def check_catalog(catalog: Catalog, report: Report) -> None:
    for message in catalog:
        if not message.id:
            continue
        ids: Sequence[str] = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        raw = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        strings: Sequence[str] = [text or "" for text in raw]
        shown = ids[0]
        if message.fuzzy:
            report.fuzzy.append(shown)
            continue
        forms = catalog.num_plurals if message.pluralizable else 1
        if len(strings) < forms or not all(strings):
            report.untranslated.append(shown)
            continue
        expected = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            found = placeholders(text)
            # a plural form may leave out {n} (Catalan "una casella"), never add or rename a name
            if found - expected or (expected - found) - ({"n"} if message.pluralizable else set()):
                report.placeholders.append(f"{shown}  →  {text}")
                break


def check(code: str, *, source: Path = PACKAGE, lessons: Path = LESSONS, write: bool = True) -> Report:
    """Extract, update ``code``'s catalog (and the template) when ``write``, and report what is left."""
    template = extract(source, lessons)
    catalog = update(code, template)
    if write:
        write_catalog(template, TEMPLATE)
        write_catalog(catalog, catalog_path(code))
        write_page_messages(code, catalog)
    report = Report(code)
    check_catalog(catalog, report)
    report.total = sum(1 for message in template if message.id)
    report.lesson_messages = {
        str(message.id)
        for message in template
        if message.id
        and any(filename.startswith("lessons/") and not filename.endswith(".py") for filename, _ in message.locations)
    }
    return report


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="rules-tutor languages", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    words = list(argv) if argv is not None else None
    if words and words[0] == "check":  # python -m tutor.i18n check ca
        words = words[1:]
    args = parser.parse_args(words)
    return run(args)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "codes",
        nargs="*",
        metavar="LANGUAGE",
        help=f"language codes (default: every language but English: "
        f"{', '.join(c for c in language_codes() if c != SOURCE_LANGUAGE)})",
    )
    parser.add_argument("--new", action="store_true", help="start the catalogs of new languages from the template")
    parser.add_argument("--no-write", action="store_true", help="report only, change no file")
    parser.add_argument(
        "--pseudo",
        nargs="?",
        const=str(PSEUDO_OUT),
        metavar="FILE",
        help=f"write the pseudo-language {PSEUDO} (every message bracketed, accented, 35%% longer), "
        f"made from the template, to FILE (default: {PSEUDO_OUT.relative_to(REPO)})",
    )


def run(args: argparse.Namespace) -> int:
    if getattr(args, "pseudo", None):
        if not args.no_write:
            write_catalog(extract(), TEMPLATE)
        out = write_pseudo_catalog(TEMPLATE, Path(args.pseudo))
        print(f"{PSEUDO}: {out}")
        return 0
    codes = args.codes or [c for c in language_codes() if c != SOURCE_LANGUAGE]
    status = 0
    for code in codes:
        if code == SOURCE_LANGUAGE:
            continue
        if not args.new and not catalog_path(code).exists():
            print(f"{code}: no catalog yet; start one with: rules-tutor languages --new {code}")
            status = 1
            continue
        report = check(code, write=not args.no_write)
        print("\n".join(report.lines()))
        if not args.no_write and (LESSONS / "index.ipynb").is_file():  # the translator sees the lessons at once
            catalog_for.cache_clear()
            build_language(LESSONS, code)
            print(
                f"Lessons in {code}: {(LESSONS / code).relative_to(REPO)}/ (made from the English lessons and the "
                "catalog, not committed)"
            )
        status = max(status, 0 if report.complete else 1)
    if not args.no_write:
        print(
            f"Template: {TEMPLATE.relative_to(REPO)}; catalogs: {LOCALE_DIR.relative_to(REPO)}/<language>/"
            "LC_MESSAGES/tutor.po"
        )
    return status


__all__ = ["Report", "Message", "check", "check_catalog", "extract", "extract_notebook", "extract_scenario", "main"]
