"""Browser figures for the In Flanders Field lessons, in Chromium (modelled on bench_browser.py).

1. Page load: for every lessons/flanders page and an empty notebook (one empty code cell), the time from the
   page request to every canvas painted (pages without a canvas: to Voila's ``#loading`` gone), median of N
   loads after one warm-up load; the pages' loads alternate. Target: lesson / empty <= 1.5.
2. Click to canvas: on the GameTutor of 07_full_game, play (Roll, a pair, Stop, a card, End turn, Bots play ...),
   and on the quiz of 04_lines_tank_mines, an answer, Reveal and Try again; time, in the page, from the click's
   dispatch to the first animation frame whose canvas pixels differ, and to the last change before the board
   stays still (the end of the animation). Targets: median response < 100 ms, worst < 250 ms.

Run: ``python benchmarks/bench_flanders_browser.py [--loads 3] [--clicks 30]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_browser import CLICK_JS, report_clicks, run  # noqa: E402
from voila_page import open_lesson, wait_for_all_painted, wait_for_canvases  # noqa: E402

GAME_LESSON = "flanders/07_full_game.ipynb"
QUIZ_LESSON = "flanders/04_lines_tank_mines.ipynb"
# bench_browser's CLICK_JS finds the board from '.tutor-race, .tutor-quiz'; the Flanders tutor is '.tutor-flanders'.
FLANDERS_CLICK_JS = CLICK_JS.replace("'.tutor-race, .tutor-quiz'", "'.tutor-flanders, .tutor-quiz'")


def next_click(tutor):
    """The learner's next click: Bots play, a pair, Stop after one card, Roll, a card, End turn, else Restart."""
    if tutor.get_by_role("button", name="Bots play").is_enabled():
        return "bots play", tutor.get_by_role("button", name="Bots play")
    pairs = [b for b in tutor.locator("button", has_text=" = ").all() if b.is_enabled()]
    if pairs:
        return "take a pair", pairs[0]
    stop = tutor.get_by_role("button", name="Stop and carry out my cards")
    if stop.is_enabled():
        return "stop", stop
    roll = tutor.get_by_role("button", name="Roll")
    if roll.is_enabled():
        return "roll", roll
    plays = tutor.locator("button", has_text=": move")
    if plays.count():
        return "play a card", plays.last
    end = tutor.get_by_role("button", name="End turn")
    if end.is_enabled():
        return "end turn", end
    return "restart", tutor.get_by_role("button", name="Restart")


def bench_clicks(context, url: str, clicks: int) -> None:
    results: dict[str, list[tuple[float, float]]] = {}
    unchanged: list[str] = []

    def measure(page, kind: str, button) -> None:
        first, last = button.evaluate(FLANDERS_CLICK_JS, [700, 8_000])
        page.wait_for_timeout(150)
        if first is None:
            unchanged.append(kind)
        else:
            results.setdefault(kind, []).append((first, last))

    page = context.new_page()
    open_lesson(page, url, GAME_LESSON)
    wait_for_all_painted(page)
    tutor = page.locator(".tutor-flanders")
    for _ in range(clicks):
        kind, button = next_click(tutor)
        measure(page, kind, button)
    page.close()

    page = context.new_page()
    open_lesson(page, url, QUIZ_LESSON)
    wait_for_canvases(page)
    wait_for_all_painted(page)
    quiz = page.locator(".tutor-quiz")
    for _ in range(max(1, clicks // 6)):
        quiz.locator(".widget-toggle-button").first.click()
        page.wait_for_timeout(150)
        measure(page, "quiz reveal", quiz.get_by_role("button", name="Reveal"))
        measure(page, "quiz retry", quiz.get_by_role("button", name="Try again"))
    page.close()

    report_clicks(
        f"{clicks} clicks on the GameTutor of {GAME_LESSON}, Reveal / Try again on the quiz of {QUIZ_LESSON}",
        results,
        unchanged,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3, help="timed loads per page (after one warm-up)")
    parser.add_argument("--clicks", type=int, default=30)
    args = parser.parse_args()
    run(
        lambda site: sorted(f"flanders/{p.name}" for p in (site / "flanders").glob("*.ipynb")),
        lambda context, url: bench_clicks(context, url, args.clicks),
        args.loads,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
