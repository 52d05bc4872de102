"""The served page (reviewer serve, in chromium) gets no raw tab either: a check's Go panic lines
reach the browser's terminal with their tabs expanded, as in a real terminal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import ESCAPES, SCREEN_HOOK, screen_text, serving, wait_for_panes
from sessionkit import RunSpec, write_session

pytest.importorskip("textual_serve", reason="reviewer serve needs textual-serve (pip install '.[test]')")
MESSAGE = "panic: served tab [recovered]\n\tpanic: served tab\n\tgot\t'a\tb'\n"


def test_the_served_page_receives_expanded_tabs(browser: Any, tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    write_session(root, "s1", [RunSpec("r1", checks=[{"key": "TestZero", "status": "fail", "message": MESSAGE}],
                                       output="=== RUN   TestZero\n" + MESSAGE + "--- FAIL: TestZero (0.00s)\n",
                                       attempts=[{"roman.go": "package roman\n\nfunc f() {\n\treturn\n}\n"}])])
    with serving(root, "--reviewer", "carol") as served:
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.add_init_script(SCREEN_HOOK)
        page.goto(served.url)
        wait_for_panes(page)
        deadline = time.monotonic() + 30
        while "    panic: served tab" not in screen_text(page) and time.monotonic() < deadline:
            time.sleep(0.2)
        received = page.evaluate("window.__screenText || ''")
        page.close()
    assert "    panic: served tab" in ESCAPES.sub("", received)
    assert "\t" not in received  # the recorded tabs, as spaces to the next stop: none sent raw
    assert "got\u2192'a\u2192 b'" in received  # in the check's message, a tab between words shows as →
