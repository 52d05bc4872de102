"""The report census's pages (tests/reliability/report_census.py) in Debian's chromium: every
hostile payload is text; nothing runs, opens a dialog, or loads from anywhere."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reliability"))
from scriptload import load_script  # noqa: E402

census = load_script(Path(__file__).resolve().parents[1] / "reliability" / "report_census.py")
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (pip install '.[test]')")

DOM = """() => ({
  scripts: document.scripts.length,
  active: document.querySelectorAll('iframe,object,embed,img,link,base,form,input,video,audio,source').length,
  handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
  links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')).filter(h => !h.startsWith('#')),
  title: document.title,
  markers: (document.body.innerText.match(/\u00a7P\\d\\d\u00a7/g) || []).length,
})"""


def test_the_hostile_report_is_inert_in_the_browser(browser: Any, tmp_path: Path) -> None:
    figures, pages = census.measure(tmp_path)
    assert (figures.elements, figures.raw) == (0, 0), figures.details
    for page_file in pages:
        context = browser.new_context()
        requests: list[str] = []
        dialogs: list[str] = []
        context.on("request", lambda r, seen=requests: seen.append(r.url))
        page = context.new_page()
        page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
        page.goto(page_file.as_uri())
        page.wait_for_load_state("load")
        dom = page.evaluate(DOM)
        assert requests == [page_file.as_uri()], requests  # nothing fetched: no image, font, style or frame
        assert dialogs == [] and page.evaluate("typeof window.PWNED") == "undefined"
        assert (dom["scripts"], dom["active"], dom["handlers"], dom["links"]) == (0, 0, 0, []), dom
        assert dom["title"].startswith("Review report: \u00a7P90\u00a7 <img src=x onerror=alert(1)> <script>"), dom["title"]
        assert dom["markers"] >= 14, dom
        context.close()
