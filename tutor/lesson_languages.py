"""The lessons in other languages: ``lessons/<language>/`` holds a copy of ``lessons/`` in that language.

A translated lesson is the English one with its Markdown, its title and summary translated; its code cells are the
same, but its first code cell starts with the language line (``use_language("ca")``), and its metadata names the
language once (``"tutor": {"language": "ca"}``). Its scenario files are copies with their ``name`` and
``description`` translated. So a translated lesson has the same quizzes (the same ids), and the class's data and the
learner's progress know it by the same key as the English one (``lesson_key``).

    translation_problems(Path("lessons"), "ca")   # [] when lessons/ca/ is in step with lessons/
    lesson_key("ca/flamme_rouge/02_energy_phase.ipynb")   # "flamme_rouge/02_energy_phase.ipynb"

This module imports nothing from the widget libraries (the landing page and the class server use it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tutor.i18n import language_codes

ENGLISH = "en"
TRANSLATED_METADATA = ("title", "summary")
"""Metadata a translation changes: the browser tab's title and the landing page's summary."""
TRANSLATED_SCENARIO_KEYS = ("name", "description")
"""What a translated scenario file changes: the words shown above its board."""


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


def english_notebooks(root: Path) -> list[Path]:
    """The English notebooks below ``root`` (relative to it), language folders left out."""
    root = Path(root)
    return sorted(path.relative_to(root) for path in root.rglob("*.ipynb")
                  if not _hidden(path.relative_to(root)) and split_language(path.relative_to(root).as_posix())[0]
                  == ENGLISH)


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def _code(notebook: dict[str, Any]) -> list[str]:
    return [_source(cell) for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]


def _kinds(notebook: dict[str, Any]) -> list[str]:
    return [str(cell.get("cell_type")) for cell in notebook.get("cells", [])]


def _untranslated_metadata(notebook: dict[str, Any]) -> dict[str, Any]:
    metadata = {key: value for key, value in notebook.get("metadata", {}).items() if key not in TRANSLATED_METADATA}
    tutor = metadata.get("tutor")
    if isinstance(tutor, dict):
        metadata["tutor"] = {key: value for key, value in tutor.items()
                             if key not in (*TRANSLATED_METADATA, "language")}
    return metadata


def notebook_problems(english: dict[str, Any], translated: dict[str, Any], language: str) -> list[str]:
    """How ``translated`` is out of step with ``english``: its cells, code, quiz ids or metadata."""
    problems = []
    tutor = translated.get("metadata", {}).get("tutor", {})
    if not isinstance(tutor, dict) or tutor.get("language") != language:
        problems.append(f'its metadata does not say "tutor": {{"language": "{language}"}}')
    if _kinds(english) != _kinds(translated):
        problems.append("its cells are not the English cells (Markdown and code in the same order)")
    code, expected = _code(translated), _code(english)
    if expected:
        line = language_line(language)
        if not code or not code[0].startswith(line + "\n"):
            problems.append(f"its first code cell does not start with {line}")
        else:
            code = [code[0][len(line) + 1:], *code[1:]]
        if code != expected:
            problems.append("its code is not the English code")
    elif code:
        problems.append("it has code and the English page has none")
    english_quizzes = english.get("metadata", {}).get("tutor", {}).get("quizzes", [])
    if (tutor.get("quizzes", []) if isinstance(tutor, dict) else None) != english_quizzes:
        problems.append(f"its quiz ids are not the English ones {english_quizzes}")
    elif _untranslated_metadata(english) != _untranslated_metadata(translated):
        problems.append("its metadata differs from the English beyond title, summary and language")
    return problems


def scenario_problems(root: Path, language: str) -> list[str]:
    """The scenario files of the English lessons that ``lessons/<language>/`` lacks, or whose copy differs in
    anything but the words shown (``name``, ``description``)."""
    root = Path(root)
    problems = []
    for path in sorted(root.glob("*/scenarios/*.json")):
        relative = path.relative_to(root)
        if split_language(relative.as_posix())[0] != ENGLISH:
            continue
        copy = root / language / relative
        if not copy.is_file():
            problems.append(f"{language}/{relative.as_posix()} is missing")
            continue
        try:
            original, translated = _read(path), _read(copy)
        except (OSError, ValueError) as error:
            problems.append(f"{language}/{relative.as_posix()} cannot be read: {error}")
            continue
        for key in TRANSLATED_SCENARIO_KEYS:
            original.pop(key, None)
            translated.pop(key, None)
        if original != translated:
            problems.append(f"{language}/{relative.as_posix()} differs from the English file beyond its name and "
                            "description")
    return problems


def translation_problems(root: Path, language: str) -> list[str]:
    """Everything that keeps ``root/<language>/`` out of step with the English lessons in ``root``: a notebook
    missing or left over, cells, code, quiz ids or metadata that differ, scenario files missing or different.
    One line each, naming the file; [] when the two are in step."""
    root = Path(root)
    folder = root / language
    if not folder.is_dir():
        return [f"there is no folder {language}/ for the lessons in {language}"]
    english = english_notebooks(root)
    translated = sorted(path.relative_to(folder) for path in folder.rglob("*.ipynb")
                        if not _hidden(path.relative_to(folder)))
    problems = [f"{language}/{path.as_posix()} is missing (the English lesson {path.as_posix()} has no copy)"
                for path in english if path not in translated]
    problems += [f"{language}/{path.as_posix()} has no English lesson {path.as_posix()}"
                 for path in translated if path not in english]
    for path in english:
        if path in translated:
            problems += [f"{language}/{path.as_posix()}: {problem}" for problem in
                         notebook_problems(_read(root / path), _read(folder / path), language)]
    return problems + scenario_problems(root, language)
