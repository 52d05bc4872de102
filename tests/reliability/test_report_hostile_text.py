"""The report census (report_census.py): every hostile payload reaches the report's page as
text, none as markup, script, a fetch or a raw control character. Its detectors are proven
first on a page that does leak, so their silence on the report means something."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scriptload import load_script

census = load_script(Path(__file__).with_name("report_census.py"))
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (pip install '.[test]')")

LEAKS = {
    "<script>alert(1)</script>": "element <script>",
    '<img src="x">': "element <img>",
    '<p onclick="alert(1)">': "attribute onclick=",
    '<a href="https://evil.example/">': "link href=",
    '<svg><use xlink:href="https://evil.example/#x"/></svg>': "link xlink:href=",
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">': "meta http-equiv='refresh'",
    '<p style="background: url(https://evil.example/)">': "style=",
    "<style>@import 'https://evil.example/x.css';</style>": "style fetches or runs",
    '<iframe srcdoc="x">': "element <iframe>",
    "\x1b]0;PWNED\x07": "U+001B",
    "\u202eevil": "U+202E",
    "\u200b": "U+200B",
    "\x9b2J": "U+009B",
}


def test_the_detectors_find_every_kind_of_leak() -> None:
    clean = '<!DOCTYPE html><html><head><meta charset=utf-8><title>t</title></head><body><p>\u00a7P00\u00a7 ok</p></body></html>'
    f = census.inspect_page(clean, 1)
    assert (f.shown, f.elements, f.raw) == (1, 0, 0), f.details
    for leak, what in LEAKS.items():
        f = census.inspect_page(clean.replace("ok", leak), 1)
        assert f.elements + f.raw >= 1 and any(what in d for d in f.details), (leak, f.details)
    assert census.inspect_page(clean.replace("\u00a7P00\u00a7", "&lt;P00&gt;"), 1).shown == 0


def test_every_payload_is_text_in_the_report(tmp_path: Path) -> None:
    figures, pages = census.measure(tmp_path)
    report = "\n".join(figures.details)
    assert figures.payloads == 15 and figures.shown == 15, report  # every payload was on the page
    assert (figures.elements, figures.raw) == (0, 0), report
    final, own = (p.read_text(encoding="utf-8") for p in pages)
    assert "Disagreements (15)" in re.sub(r"<[^>]+>", "", final)  # the hostile other reviewer's notes were listed
    text = re.sub(r"<[^>]+>", " ", own)
    assert "Specification failures (15)" in text and "flipped to pass with rename-key:\u00a7P00\u00a7" in text
    assert "Review report: \u00a7P90\u00a7 &lt;img src=x onerror=alert(1)&gt; &lt;script&gt;" in own  # the folder's name, escaped
