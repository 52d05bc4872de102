"""Every hostile payload in every field ``reviewer report`` shows; count what gets through.

    python tests/reliability/report_census.py [--json]

The folder of :mod:`hostile_text_census` (every payload of :mod:`censuskit` in every recorded
field, other reviewers' names, notes and tags), with its labels made specification (so the list
of specification failures shows every check, note and tag) and a re-score record whose repairs,
summary and grading carry the payloads too, in a folder whose own name is hostile. The report is
written with ``--final`` (agreement and disagreements shown) and read back as HTML:

- payloads / shown: payloads in the folder, and those whose marker reached the page's text;
- elements: tags outside the report's own vocabulary (``script``, ``iframe``, ``img``, a
  ``meta`` refresh, ...), attributes that run or fetch (``on*``, ``src``, a ``href`` or
  ``xlink:href`` not to ``#``, ``srcdoc``, ``formaction``), a style that fetches or runs
  (``url(``, ``@import``, ``expression(``, ``javascript:``);
- raw: control, C1, bidi and invisible characters in the file.

The test proves each detector on a page that does leak, then asserts all zero on the report.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from censuskit import (  # noqa: E402
    MARKER,
    REVIEWER,
    RUN,
    SESSION,
    bad_char,
    grader_name,
    marker,
    payloads,
    write_census_folder,
    write_toml,
)

SVG = {"svg", "g", "path", "defs", "clippath", "use", "text", "rect", "line", "polyline", "polygon", "circle",
       "style", "title", "desc", "metadata", "tspan", "pattern", "symbol", "ellipse",
       "rdf:rdf", "cc:work", "dc:type", "dc:format", "dc:date", "dc:creator", "cc:agent", "dc:title"}
OWN = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "b", "code", "nav", "ol",
       "li", "a", "section", "div", "figure", "table", "thead", "tbody", "tr", "th", "td", "span", "br", "footer", "ul"} | SVG
"""The elements the report itself writes (and matplotlib's SVG)."""
FETCHING = {"src", "srcset", "srcdoc", "formaction", "action", "data", "poster", "background", "ping"}
OWN_META = {("charset", "utf-8"), ("http-equiv", "Content-Security-Policy"), ("name", "viewport")}


@dataclass
class Figures:
    """What the report census counted."""

    payloads: int = 0
    shown: int = 0
    elements: int = 0
    raw: int = 0
    details: list[str] = field(default_factory=list)


class Scan(HTMLParser):
    """Elements and attributes that are not the report's own; the page's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in OWN:
            self.bad.append(f"element <{tag}>")
        if tag == "meta" and not any((k, v) in OWN_META or k == "content" for k, v in attrs):
            self.bad.append(f"meta {attrs}")
        for k, v in attrs:
            value = (v or "").strip().lower()
            if k.startswith("on") or k in FETCHING:
                self.bad.append(f"attribute {k}= on <{tag}>")
            elif k in ("href", "xlink:href") and not value.startswith("#"):
                self.bad.append(f"link {k}={value[:60]!r} on <{tag}>")
            elif k == "style" and ("javascript:" in value or "url(" in value.replace("url(#", "") or "expression(" in value):
                self.bad.append(f"{k}={value[:60]!r} on <{tag}>")
            if tag == "meta" and k == "http-equiv" and value != "content-security-policy":
                self.bad.append(f"meta http-equiv={value!r}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def inspect_page(raw: str, expected: int) -> Figures:
    """Count what got through in a page's HTML (``expected`` payloads were planted)."""
    scan = Scan()
    scan.feed(raw)
    scan.close()
    text = "".join(scan.text)
    styles = re.findall(r"<style>(.*?)</style>", raw, flags=re.S)
    bad = list(scan.bad)
    for css in styles:
        if "@import" in css or "url(" in css.replace("url(#", "") or "expression(" in css:
            bad.append(f"style fetches or runs: {css[:60]!r}")
    raw_chars = sorted({f"U+{ord(ch):04X}" for ch in raw if bad_char(ch)})
    shown = {int(m.group(1)) for m in MARKER.finditer(text)}
    return Figures(expected, len(shown & set(range(expected))), len(bad), len(raw_chars), bad[:20] + raw_chars[:20])


def hostile_record(root: Path, items: list) -> None:
    """A re-score record of the census run whose every string carries the payloads."""
    grading = f"{SESSION}/{RUN}#{grader_name(items)}"
    keys = [marker(i) + p.text[:2000] for i, p in enumerate(items) if p.name != "long-line"]
    text = " ".join(marker(i) + p.text for i, p in enumerate(items) if p.name != "long-line")
    write_toml(root / SESSION / "rescores" / "census.toml", {"format": 1, "reviewer": text[:300], "rescore": [{
        "grading": grading, "failures": [f"{grading}:{k}" for k in keys], "flipped": [f"{grading}:{k}" for k in keys],
        "repairs": [f"rename-key:{k[:80]}:x" for k in keys], "at": "2026-12-01T00:00:00Z " + text[:200],
        "reproduced": True, "summary": text, "output_after": text,
        "check": [{"key": k, "recorded": "fail", "before": "fail", "after": "pass", "message": text} for k in keys]}]})


def specification_labels(root: Path) -> None:
    """The census reviewer's labels, decided again as specification through the real labeller
    (current evidence, so they count), each with every payload in its note and a hostile tag."""
    from reviewer.model.label import Verdict
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    path = root / SESSION / "labels" / f"{REVIEWER}.toml"
    old = tomllib.loads(path.read_text(encoding="utf-8"))["label"]
    path.unlink()
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, REVIEWER))
    failures = [f for run in store.runs if run.id == RUN for f in store.failures(run)]
    for failure, lab in zip(failures, old):
        labeller.decide(failure.id, Verdict.SPECIFICATION, lab["note"], tuple(lab["tags"]))


def build(base: Path) -> tuple[Path, int]:
    """The census folder for the report (its own name hostile); the number of payloads."""
    items = payloads(big_line=0)
    root = base / "\u00a7P90\u00a7 <img src=x onerror=alert(1)> <script>alert(1)<\u2215script> \u202eevil \u200b"
    write_census_folder(root, items)
    specification_labels(root)
    hostile_record(root, items)
    return root, len(items)


def measure(base: Path) -> tuple[Figures, list[Path]]:
    """Write the census folder's reports (``--final``: agreement and disagreements;
    ``--reviewer``: the census reviewer's specification list) and count what got through in both."""
    from reviewer.cli import main

    root, n = build(base)
    pages = []
    total = Figures(n)
    for flags in (["--final"], ["--reviewer", REVIEWER]):
        out = base / f"report{len(pages)}.html"
        code = main(["report", str(root), "-o", str(out), *flags])
        if code != 0:
            raise SystemExit(f"reviewer report {' '.join(flags)} exited {code}")
        pages.append(out)
        f = inspect_page(out.read_text(encoding="utf-8"), n)
        total.elements += f.elements
        total.raw += f.raw
        total.details += [f"{flags[0]}: {d}" for d in f.details]
        total.shown = min(f.shown, total.shown) if pages[1:] else f.shown
    return total, pages


def main() -> int:
    """Run the census and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures, pages = measure(Path(tmp))
        sizes = [p.stat().st_size for p in pages]
    public = {k: v for k, v in figures.__dict__.items() if k != "details"} | {"report_bytes": max(sizes)}
    if args.json:
        print(json.dumps(public))
    else:
        print("  ".join(f"{k} {v}" for k, v in public.items()))
        for d in figures.details:
            print("  " + d)
    return 0 if (figures.elements, figures.raw) == (0, 0) and figures.shown == figures.payloads else 1


if __name__ == "__main__":
    sys.exit(main())
