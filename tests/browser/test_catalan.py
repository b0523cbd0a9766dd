"""Issue 32 in a real browser: the Catalan pages (``/voila/render/ca/...``).

The Catalan landing page (served without a kernel) offers "English · Català", and the choice is remembered: the
English landing page then opens the Catalan one, and back. A Catalan lesson of each game plays a step and its board
is painted where the renderer's geometry puts the riders and the pawn; every page links to the same page in the
other language. Each page says ``<html lang="ca">`` and shows no English message: none of the catalog's, and no
control labelled as on the English page of the same lesson (a string that never went through gettext).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from test_flanders import laid_out
from test_lessons import lesson_boards, wait_for_riders
from voila_page import (
    LOAD_TIMEOUT_MS,
    canvas_fingerprint,
    error_outputs,
    open_lesson,
    wait_for_all_painted,
    wait_for_canvas_change,
    wait_for_canvases,
)

from tutor.flamme_rouge.track import STAGES
from tutor.flanders.render import PLAYER_COLOURS, Geometry
from tutor.ui.drawing import hex_to_rgb
from tutor.server.voila_adapter import NO_KERNEL_ID

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
LOCALE = REPO / "tutor" / "locale"
CHOICE = "rules-tutor-language"
FR_LESSON = "ca/flamme_rouge/03_movement.ipynb"
FLANDERS_LESSON = "ca/flanders/02_a_turn.ipynb"
NEXT_STEP = re.compile(r"^(Next step|Pas següent)")
ROLL = re.compile(r"^(Roll the dice|Tira els daus)")
TOLERANCE = 14


def _wait_for_text_pages(voila_factory, voila_server, page) -> None:
    deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000  # the server renders them in the background at start
    while "Pages without a board ready" not in voila_factory.log(voila_server):
        assert time.monotonic() < deadline, "the pages without a board were not rendered"
        page.wait_for_timeout(200)


def _kernel(page) -> str:
    return json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]


def _expect_lang_ca(page) -> None:
    assert page.evaluate("document.documentElement.lang") == "ca"


def _language_links(page) -> dict[str, str]:
    """The language links at the top of the page: language -> href ("" for the page's own language)."""
    nav = page.locator("nav.tutor-language")
    return {
        item.get_attribute("data-language"): item.get_attribute("href") or ""
        for item in nav.locator("[data-language]").all()
    }


def test_the_catalan_landing_page_offers_english_and_remembers_the_choice(
    page, page_errors, voila_server, voila_factory
):
    from playwright.sync_api import expect

    _wait_for_text_pages(voila_factory, voila_server, page)
    open_lesson(page, voila_server, "ca/index.ipynb", wait_for="a[href$='.ipynb']")
    assert _kernel(page) == NO_KERNEL_ID  # rendered once, served without a kernel: the links still come
    expect(page.get_by_role("heading", name="Tutor de regles")).to_be_visible()
    nav = page.get_by_role("navigation", name="Idioma")
    expect(nav).to_have_text("English · Català")
    assert _language_links(page) == {"en": "/voila/render/index.ipynb", "ca": ""}
    expect(nav.locator("[aria-current=page]")).to_have_text("Català")
    expect(page.locator("a[href='flamme_rouge/02_energy_phase.ipynb']")).to_have_text("2. La fase d'energia")

    nav.get_by_role("link", name="English").click()  # the choice: English
    expect(page.get_by_role("heading", name="Rules tutor")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/index.ipynb")
    assert page.evaluate(f"localStorage.getItem('{CHOICE}')") == "en"
    page.goto(f"{voila_server}/voila/render/ca/index.ipynb")  # the Catalan landing page now opens the English one
    expect(page.get_by_role("heading", name="Rules tutor")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/index.ipynb")

    page.get_by_role("navigation", name="Language").get_by_role("link", name="Català").click()
    expect(page.get_by_role("heading", name="Tutor de regles")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.evaluate(f"localStorage.getItem('{CHOICE}')") == "ca"
    page.goto(f"{voila_server}/voila/render/index.ipynb")  # and the English landing page the Catalan one
    expect(page.get_by_role("heading", name="Tutor de regles")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/ca/index.ipynb")

    page.get_by_role("link", name="Flamme Rouge, pas a pas").click()  # a welcome page, in Catalan
    expect(page.get_by_role("heading", name="Flamme Rouge, pas a pas")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/voila/render/ca/flamme_rouge/00_welcome.ipynb") and _kernel(page) == NO_KERNEL_ID
    assert _language_links(page)["en"] == "/voila/render/flamme_rouge/00_welcome.ipynb"
    assert error_outputs(page) == [] and page_errors == []
    _expect_lang_ca(page)


def test_a_catalan_flamme_rouge_lesson_paints_its_riders_and_plays_a_step(page, page_errors, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, FR_LESSON)
    expect(page.get_by_role("heading", name="3. El moviment i els bloquejos")).to_be_visible()
    canvases = wait_for_canvases(page)
    painted = wait_for_all_painted(page)
    assert len(painted) == canvases and all(painted), f"painted pixels per canvas: {painted}"
    boards = lesson_boards(FR_LESSON)
    assert len(boards) == canvases
    for index, (view, race) in enumerate(boards):
        assert wait_for_riders(page, index, view, race) == {}, f"board {index}: riders not drawn as the engine says"

    race = page.locator(".tutor-race").first
    before = canvas_fingerprint(page)
    race.get_by_role("button", name=NEXT_STEP).click()
    assert wait_for_canvas_change(page, before) != before, "the step did not redraw the board"
    expect(race.locator(".tutor-log")).to_contain_text("green-S")  # the frontmost rider moved first

    links = _language_links(page)
    assert links == {"en": "/voila/render/flamme_rouge/03_movement.ipynb", "ca": ""}
    assert page.request.get(voila_server + links["en"]).ok
    expect(page.locator(".tutor-nav a[href='../index.ipynb']")).to_have_count(1)  # ca/index.ipynb: stays in ca/
    assert error_outputs(page) == [] and page_errors == []
    _expect_lang_ca(page)


def _pixel(page, geo: Geometry, point) -> tuple[int, int, int]:
    scale = page.evaluate("document.querySelectorAll('canvas')[0].width") / geo.width
    found = page.evaluate(
        """([x, y]) => Array.from(document.querySelectorAll('canvas')[0].getContext('2d')
        .getImageData(Math.floor(x), Math.floor(y), 1, 1).data)""",
        [point[0] * scale, point[1] * scale],
    )
    return tuple(found[:3])


def test_a_catalan_flanders_lesson_paints_the_pawn_and_rolls(page, page_errors, voila_server):
    from playwright.sync_api import expect

    open_lesson(page, voila_server, FLANDERS_LESSON)
    expect(page.get_by_role("heading", name="2. Un torn: tira, tria dos daus, agafa la carta")).to_be_visible()
    wait_for_canvases(page)
    assert all(wait_for_all_painted(page))
    geo = laid_out(page, 2)
    x, y = geo.pawn_centre(0, 0)
    colour, deadline = hex_to_rgb(PLAYER_COLOURS[0]), time.monotonic() + 30
    while max(abs(a - b) for a, b in zip(_pixel(page, geo, (x - 9, y)), colour)) > TOLERANCE:
        assert time.monotonic() < deadline, f"p1's pawn is not on its starting line ({colour})"
        page.wait_for_timeout(100)

    tutor = page.locator(".tutor-flanders").first
    before = canvas_fingerprint(page)
    tutor.get_by_role("button", name=ROLL).click()
    assert wait_for_canvas_change(page, before) != before, "the roll did not redraw the board"
    expect(tutor.locator(".iff-log")).to_contain_text("1-2-4")  # the lesson's loaded first roll

    assert _language_links(page) == {"en": "/voila/render/flanders/02_a_turn.ipynb", "ca": ""}
    page.get_by_role("navigation", name="Idioma").get_by_role("link", name="English").click()
    expect(page.get_by_role("heading", name="2. A turn: roll, choose two dice, take the card")).to_be_visible(
        timeout=LOAD_TIMEOUT_MS
    )
    assert error_outputs(page) == [] and page_errors == []


FALLBACK_MESSAGES = (
    "Next step",
    "Finish round",
    "Restart",
    "Board in words",
    "No animation",
    "Roll the dice",
    "What happened",
    "All lessons",
    "not started",
    "For teachers",
    "End of the lesson",
)
"""English messages the widgets and pages show today, used while there is no catalog template to read."""


def english_messages() -> list[str]:
    """The English messages of the catalog (each msgid's literal parts of 8 characters or more, placeholders cut
    out), or the fallback list while there is no catalog yet."""
    catalogs = sorted(LOCALE.rglob("*.pot")) or sorted(LOCALE.rglob("*.po"))
    if not catalogs:
        return list(FALLBACK_MESSAGES)
    from babel.messages.pofile import read_po

    found: set[str] = set()
    for path in catalogs:
        with path.open("rb") as file:
            for message in read_po(file):
                for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
                    found |= {part.strip() for part in re.split(r"\{[^}]*\}", msgid or "") if len(part.strip()) >= 8}
    return sorted(found)


def test_the_catalan_pages_show_no_english_message(page, voila_server):
    shown: dict[str, str] = {}
    for notebook, wait_for in (
        ("ca/index.ipynb", "a[href$='.ipynb']"),
        (FR_LESSON, "canvas"),
        (FLANDERS_LESSON, "canvas"),
    ):
        open_lesson(page, voila_server, notebook, wait_for=wait_for)
        if wait_for == "canvas":
            wait_for_canvases(page)
            wait_for_all_painted(page)
        shown[notebook] = page.evaluate("document.body.innerText")
    english = {
        notebook: [message for message in english_messages() if message in text] for notebook, text in shown.items()
    }
    assert english == {notebook: [] for notebook in shown}


_CONTROLS_JS = """() => [...document.querySelectorAll('button, label, summary, option, .widget-toggle-button')]
    .filter(e => e.getClientRects().length).map(e => e.innerText.trim()).filter(t => t)"""
SAME_IN_BOTH = re.compile(r"^([\W\d_]*|Normal|Bots|English|Català|(p\d|[a-z]+-[SR])\b.*)$")
"""Labels that are the same in English and Catalan: symbols, numbers, two words, names of riders and players."""


STAGE_NAMES = {title for title, *_rest in STAGES.values()}
"""The stages' names, kept in every language (as the rulebook's stage cards print them)."""


@pytest.mark.parametrize("lesson", [FR_LESSON, FLANDERS_LESSON, "ca/flamme_rouge/07_full_race.ipynb"])
def test_no_control_of_a_catalan_lesson_is_labelled_as_on_the_english_page(page, voila_server, lesson):
    labels = {}
    for notebook in (lesson, lesson.removeprefix("ca/")):
        open_lesson(page, voila_server, notebook, wait_for="canvas")
        wait_for_canvases(page)
        labels[notebook] = set(page.evaluate(_CONTROLS_JS))
    same = {
        label
        for label in labels[lesson] & labels[lesson.removeprefix("ca/")]
        if not SAME_IN_BOTH.match(label) and label not in STAGE_NAMES
    }
    assert same == set(), f"labelled in English on the Catalan page: {sorted(same)}"
