"""Take the README's screenshots of the report and of the app in a browser, from the real thing.

    python tests/browser/screenshots.py [--out themes/screenshots]

Labels the example corpus as the tests do (``tests/reportkit.py``) in a temporary folder, writes
``reviewer report --final`` there and screenshots its top in chromium, then runs ``reviewer
serve`` on it and screenshots the app in a browser tab. Writes ``report.png`` and ``serve.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from browserkit import ARGS, CHROMIUM, SCREEN_HOOK, serving, wait_for_panes
from reportkit import REPO, labelled_corpus


def main() -> int:
    """Write the two screenshots."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=REPO / "themes" / "screenshots")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from reviewer.cli import main as reviewer

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")  # the default theme and settings
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        root = labelled_corpus(Path(tmp) / "sessions")
        report = Path(tmp) / "report.html"
        assert reviewer(["report", str(root), "-o", str(report), "--final"]) == 0
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1500})
            page.goto(report.as_uri())
            page.screenshot(path=str(args.out / "report.png"))
            with serving(root, "--reviewer", "alice") as served:
                page = browser.new_page(viewport={"width": 1600, "height": 900})
                page.add_init_script(SCREEN_HOOK)
                page.goto(served.url)
                wait_for_panes(page)
                page.click("#terminal")
                for key in ("j", "j", "j"):
                    page.keyboard.press(key)
                    time.sleep(0.3)
                time.sleep(1.5)
                page.screenshot(path=str(args.out / "serve.png"))
            browser.close()
    print(f"wrote {args.out / 'report.png'} and {args.out / 'serve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
