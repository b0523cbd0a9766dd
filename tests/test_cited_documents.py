"""Every document that ``tutor/``, ``lessons/`` and the README cite is in the repository (issue 40, item 7).

A ``*.md`` name cited must be a file of the repository (a path from the top or from the citing file's folder, or a
bare name that some file has), nothing may point outside it (``../shared/``), and a section cited after the name
("docs/rules.md, Flamme Rouge: Mountains") must be a heading of that document.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CITING = ("tutor", "lessons", "README.md")
TEXT = {".py", ".md", ".ipynb", ".json", ".js", ".css", ".html", ".txt", ".cfg", ".toml", ".po", ".pot", ".j2"}
DOCUMENT = re.compile(r"(?<![\w./-])((?:\.\./)*[\w./-]*\w\.md)\b")
NAME = r"[A-Z][A-Za-z]*(?: [A-Za-z]+)*"
SECTIONS = re.compile(rf"[,:] ({NAME}(?:(?:, |: ){NAME})*)")
OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w.])shared/(?:RULES|SCENARIOS|STYLE)\.md")


def _repository_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [REPO / name for name in listed if (REPO / name).is_file()]


def _headings(document: Path) -> set[str]:
    return {
        line.lstrip("#").strip().lower()
        for line in document.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def wrong_citations(text: str, where: Path, files: list[Path]) -> list[str]:
    """What ``text`` (of the file ``where``) cites that the repository lacks, one line each."""
    names = {path.name for path in files}
    wrong = [f"points outside the repository: {m.group(0)!r}" for m in OUTSIDE.finditer(text)]
    for match in DOCUMENT.finditer(text):
        cited = match.group(1)
        found = next((path for path in (REPO / cited, where.parent / cited) if path.is_file()), None)
        if found is None and "/" not in cited and cited in names:
            found = next(path for path in files if path.name == cited)
        if found is None:
            wrong.append(f"cites {cited}, which is not in the repository")
            continue
        sections = SECTIONS.match(text, match.end())
        if sections and found.resolve().is_relative_to(REPO / "docs"):
            headings = _headings(found)
            for section in re.split(r", |: ", sections.group(1)):
                if section.lower() not in headings:
                    wrong.append(f"cites {cited}, {section!r}, which is no heading of it")
    return wrong


def test_every_cited_document_and_section_is_in_the_repository():
    files = _repository_files()
    wrong = []
    for path in files:
        part = path.relative_to(REPO).parts
        if part[0] not in CITING or path.suffix not in TEXT and path.name != "README.md":
            continue
        for line in wrong_citations(path.read_text(encoding="utf-8", errors="replace"), path, files):
            wrong.append(f"{path.relative_to(REPO)}: {line}")
    assert wrong == []


def test_a_document_or_a_section_the_repository_lacks_is_reported():
    files = _repository_files()
    where = REPO / "tutor" / "made_up.py"
    assert wrong_citations("the format of SCENARIOS.md (RULES.md section 2)", where, files) == [
        "cites SCENARIOS.md, which is not in the repository",
        "cites RULES.md, which is not in the repository",
    ]
    assert wrong_citations("(``../shared/RULES.md``)", where, files)[0].startswith("points outside")
    assert wrong_citations("docs/rules.md, Flamme Rouge: Pit stops.", where, files) == [
        "cites docs/rules.md, 'Pit stops', which is no heading of it"
    ]
    assert wrong_citations("(docs/rules.md, Flamme Rouge: Mountains; docs/rule_decisions.md)", where, files) == []
    assert wrong_citations("see [rules.md](rules.md)", REPO / "docs" / "rule_decisions.md", files) == []
