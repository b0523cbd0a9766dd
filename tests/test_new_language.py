"""Issue 38: adding a language is one ``.po`` file.

A throwaway language (Esperanto, ``eo``) with a handful of messages, added as ``tutor/locale/eo/LC_MESSAGES/tutor.po``
and nothing else: ``rules-tutor languages`` reports it (what is translated, what is left), and ``rules-tutor serve``
makes its lessons from the English ones and serves them at ``/voila/render/eo/...``, with English for what the
file lacks, and the pages' language switch links to it. The file is removed afterwards (and the list of languages
the pages link to written again).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_classroom_serve import Server

from tutor import i18n
from tutor.i18n.pages import LANGUAGE_LIST, PAGE_MESSAGES, write_language_list

REPO = Path(__file__).resolve().parents[1]
CODE = "eo"
PO = f"""# A throwaway language for tests/test_new_language.py
msgid ""
msgstr ""
"Project-Id-Version: rules-tutor\\n"
"Language: {CODE}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Flamme Rouge, step by step"
msgstr "Flamme Rouge, paŝo post paŝo"

msgid "Flamme Rouge, step by step · Flamme Rouge · Rules tutor"
msgstr "Flamme Rouge, paŝo post paŝo · Flamme Rouge · Regula instruisto"

msgid "**Lessons**"
msgstr "**Lecionoj**"

msgid "For teachers"
msgstr "Por instruistoj"

msgid "Start here: how a lesson works, and every lesson in order."
msgstr "Komencu ĉi tie: kiel leciono funkcias, kaj ĉiuj lecionoj laŭorde."
"""


@pytest.fixture
def throwaway_language():
    folder = i18n.LOCALE_DIR / CODE
    assert not folder.exists(), f"{folder} is not this test's"
    (folder / "LC_MESSAGES").mkdir(parents=True)
    (folder / "LC_MESSAGES" / "tutor.po").write_text(PO, encoding="utf-8")
    i18n.catalog_for.cache_clear()
    try:
        yield CODE
    finally:
        shutil.rmtree(folder)
        i18n.catalog_for.cache_clear()
        write_language_list()  # the pages link to English and Catalan again


def test_a_language_added_as_one_po_file_is_reported_and_served_with_english_for_what_it_lacks(
    throwaway_language, tmp_path
):
    report = subprocess.run(
        [sys.executable, "-m", "tutor", "languages", "--no-write", CODE],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 1, report.stderr
    first = report.stdout.splitlines()[0]
    assert (
        first.startswith("Esperanto (eo): 5 of ") and "lesson messages left); what is left is shown in English" in first
    ), first
    assert "untranslated or empty messages" in report.stdout and "Welcome to the **rules tutor**." in report.stdout
    assert "Flamme Rouge, step by step\n" not in report.stdout  # translated: not listed as left

    lessons = tmp_path / "lessons"
    shutil.copytree(REPO / "lessons", lessons, ignore=shutil.ignore_patterns("ca", ".ipynb_checkpoints"))
    (tmp_path / "voila.json").write_text((REPO / "voila.json").read_text())
    server = Server(lessons, tmp_path / "eo.log")
    try:
        assert "Lessons made in ca, eo from the English lessons" in server.log.read_text()
        status, page, _ = server.request(f"/voila/render/{CODE}/flamme_rouge/00_welcome.ipynb")
        text = page.decode()
        assert status == 200, text[-2000:]
        assert "Flamme Rouge, paŝo post paŝo" in text and "<strong>Lecionoj</strong>" in text
        assert "Welcome to the <strong>rules tutor</strong>" in text  # not in the file: English
        assert "Regula instruisto" in text  # the tab's title
        assert '"eo": "Esperanto"' in text  # the language switch links to it (its own name, from Babel)
        status, english, _ = server.request("/voila/render/flamme_rouge/00_welcome.ipynb")
        assert status == 200 and "Flamme Rouge, step by step" in english.decode() and "Lecionoj" not in english.decode()
    finally:
        server.stop()
    assert not (REPO / "lessons" / CODE).exists()  # made where it was served, not in the repository
    assert '"eo"' in (PAGE_MESSAGES / f"{LANGUAGE_LIST}.json").read_text()
    assert (lessons / CODE / "flamme_rouge" / "scenarios").is_dir()
