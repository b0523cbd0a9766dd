import os, pytest
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases
pytestmark = pytest.mark.browser
NB = os.environ.get("SHOT_NB", "flamme_rouge/03_movement.ipynb").split(",")
SIZES = [tuple(map(int, s.split("x"))) for s in os.environ.get("SHOT_SIZES", "390x844").split(",")]

@pytest.mark.parametrize("nb", NB)
def test_shot(browser, voila_server, nb):
    for w, h in SIZES:
        context = browser.new_context(viewport={"width": w, "height": h})
        page = context.new_page()
        open_lesson(page, voila_server, nb)
        wait_for_canvases(page)
        wait_for_all_painted(page)
        page.wait_for_timeout(1500)
        name = nb.replace("/", "_").replace(".ipynb", "")
        page.screenshot(path=f"/tmp/shots/{name}_{w}.png", full_page=False)
        # full content: screenshot each widget
        for i, el in enumerate(page.locator(".tutor-race, .tutor-quiz, .tutor-breakaway, .tutor-flanders").all()):
            if el.evaluate("w => !w.parentElement.closest('.tutor-race, .tutor-quiz, .tutor-breakaway, .tutor-flanders')"):
                el.screenshot(path=f"/tmp/shots/{name}_{w}_w{i}.png")
        context.close()
