"""How fast the pages without a board open: the landing page, a game's welcome page and the rules summaries.

The page-load part of ``bench_browser.py`` for these pages only: for each, and for an empty notebook (a kernel
that runs nothing, the floor no page can beat), the seconds from the request to Voila's ``#loading`` gone (the
text shown), median of N loads after one warm-up, the loads alternating so a busy machine slows them alike.
Target on a quiet machine: under 2 s, i.e. a text page costs little more than the empty notebook.

Run: ``python benchmarks/bench_text_pages.py [--loads 5]``
"""

from __future__ import annotations

import argparse

from bench_browser import run

TEXT_PAGES = ["index.ipynb", "flamme_rouge/00_welcome.ipynb", "flamme_rouge/rules_summary.ipynb",
              "flamme_rouge/rules_summary_peloton.ipynb", "flanders/rules_summary.ipynb"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    run(lambda site: TEXT_PAGES, lambda context, url: None, parser.parse_args().loads)


if __name__ == "__main__":
    main()
