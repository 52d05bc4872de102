"""In Debian's chromium: the served page needs its token on loopback, and a URL in a recorded run
is text: clicked, it opens nothing (no new page or popup, no navigation, no request to it)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import SCREEN_HOOK, Canary, click_text, followed, linked_folder, serving, wait_for_panes

pytest.importorskip("textual_serve", reason="reviewer serve needs textual-serve (pip install '.[test]')")


def test_loopback_refuses_the_browser_without_its_token(browser: Any, folder: Path) -> None:
    with serving(folder) as served:
        assert served.base.startswith("http://127.0.0.1:") and served.token and len(served.token) >= 24
        page = browser.new_page()
        for path in ("", "static/js/textual.js", "ws", "download/anything"):
            response = page.goto(served.base + path)
            assert response is not None and response.status == 403, path
            assert "needs its token" in page.inner_text("body"), path
        page.close()
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.add_init_script(SCREEN_HOOK)
        page.goto(served.url)
        assert page.url == served.base  # the token left the address bar for a cookie
        wait_for_panes(page)
        page.close()


def test_a_recorded_url_clicked_in_the_page_opens_nothing(browser: Any, tmp_path: Path) -> None:
    with Canary() as canary:
        link = canary.url("/recorded-link")
        root = linked_folder(tmp_path / "sessions", link)
        with serving(root, "--reviewer", "carol") as served:
            context = browser.new_context(viewport={"width": 1400, "height": 800})
            page = context.new_page()
            page.add_init_script(SCREEN_HOOK)
            page.goto(served.url)
            wait_for_panes(page)
            pages = len(context.pages)
            hovered_link = click_text(page, link)
            seen = followed(context, page, canary, served.base, pages)
            assert not hovered_link, "the terminal showed the recorded URL as a link"
            assert seen == {"new_pages": 0, "canary_requests": [], "left_page": False}, seen
            # behind the missing links addon: the page can open no window, even when asked by script
            assert page.evaluate(f"window.open({link!r}, '_blank')") is None
            assert page.evaluate(f"window.open({link!r}, '_self')") is None
            seen = followed(context, page, canary, served.base, pages)
            assert seen == {"new_pages": 0, "canary_requests": [], "left_page": False}, seen
            page.click("#terminal", position={"x": 5, "y": 5})
            page.keyboard.press("s")  # the tab still works: it labels
            deadline = time.monotonic() + 30
            while not (labels := sorted((root / "links" / "labels" / "carol").glob("*.toml"))) and time.monotonic() < deadline:
                time.sleep(0.2)
            context.close()
    assert labels and 'verdict = "specification"' in labels[0].read_text()
