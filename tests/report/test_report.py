"""``reviewer report``: one offline HTML file whose figures are those of ``reviewer stats --json``."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from reportkit import labelled_corpus
from sessionkit import RunSpec, write_session

from reviewer.cli import main

pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (pip install '.[test]')")


class Page(HTMLParser):
    """Tags, attributes and text of a page, and every figure cell's data."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.cells: list[tuple[dict[str, str | None], str]] = []
        self.open: list[tuple[dict[str, str | None], list[str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if "data-field" in a:
            self.open.append((a, []))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "b") and self.open:
            a, text = self.open.pop()
            self.cells.append((a, "".join(text)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for _, text in self.open:
            text.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def stats_json(capsys: pytest.CaptureFixture[str], root: Path, *flags: str) -> dict:
    assert main(["stats", str(root), "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def report(capsys: pytest.CaptureFixture[str], root: Path, out: Path, *flags: str) -> Page:
    assert main(["report", str(root), "-o", str(out), *flags]) == 0
    capsys.readouterr()
    return parse(out)


def json_value(doc: dict, a: dict[str, str | None]) -> object:
    """The figure of ``stats --json`` a cell names."""
    group, field = a["data-group"], a["data-field"]
    if group == "verifier_fnr":
        return doc["verifier_fnr"][{"value_low": "low", "value_high": "high"}.get(field or "", field)]
    if group == "rescores":  # the re-score tally (the count of flipped checks is read from the records)
        if field == "flipped":
            return int(a["data-value"] or -1)
        return next(r for r in doc["repaired_by_notation"] if r["model"] == a["data-model"] and r["task"] == a["data-task"])[field]
    if group == "model_tasks":
        entry = next(e for e in doc["model_tasks"] if e["model"] == a["data-model"] and e["task"] == a["data-task"])
    else:
        key = {"models": "model", "tasks": "task"}[group]
        entry = next(e for e in doc[group] if e[key] == a["data-name"])
    return entry[field]


def check_figures(page: Page, doc: dict) -> int:
    """Every rate cell equals stats --json, in its data and in the percentage shown; how many."""
    n = 0
    for a, text in page.cells:
        if a.get("data-group") == "tag" or a.get("data-field") == "specification_share":
            continue
        want = json_value(doc, a)
        if "data-value" not in a:
            assert want is None and text.strip() == "—", (a, want)
            continue
        got = float(a["data-value"] or "nan")
        assert got == pytest.approx(want), (a, want)
        if "rate" in (a["data-field"] or "") or a["data-group"] == "verifier_fnr":
            shown = float(text.split("%")[0])
            assert shown == pytest.approx(100 * float(want), abs=0.051), (a, text, want)  # type: ignore[arg-type]
            low, high = a["data-low"], a["data-high"]
            assert (float(low), float(high or "nan")) == (pytest.approx(entry_bound(doc, a, "low")), pytest.approx(entry_bound(doc, a, "high")))
        n += 1
    return n


def entry_bound(doc: dict, a: dict[str, str | None], side: str) -> object:
    return json_value(doc, a | {"data-field": f"{a['data-field']}_{side}"})


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return labelled_corpus(tmp_path / "sessions")


def test_final_report_figures_equal_stats_json(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = report(capsys, corpus, tmp_path / "r.html", "--final")
    doc = stats_json(capsys, corpus, "--final")
    assert check_figures(page, doc) > 100
    assert sum(1 for t, _ in page.tags if t == "svg") >= 4
    text = " ".join(page.text)
    assert "alice" in text and "bob" in text and "Disagreements (2)" in text
    assert "kappa" in text and "Specification failures (14)" in text


def test_report_is_self_contained(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    page = report(capsys, corpus, out, "--final")
    assert not [t for t, _ in page.tags if t in ("script", "link", "img", "iframe", "object", "embed")]
    for tag, a in page.tags:
        for attr in ("src", "href", "xlink:href", "action"):
            value = a.get(attr)
            assert value is None or value.startswith("#"), (tag, attr, value)
    raw = out.read_text()
    assert "url(" not in raw.replace("url(#", "") and "@import" not in raw
    assert "default-src 'none'" in raw
    assert out.stat().st_size < 400_000


def test_blind_report_shows_only_your_labels(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "xdg-config" / "reviewer"
    cfg.mkdir(parents=True)
    (cfg / "config.toml").write_text('reviewer = "alice"\n')
    out = tmp_path / "blind.html"
    page = report(capsys, corpus, out, )
    assert "bob" not in out.read_text()
    text = " ".join(page.text)
    assert "your own labels only (alice)" in text
    assert "Hidden: blind mode is on" in text and "reviewer report --final" in text
    assert check_figures(page, stats_json(capsys, corpus)) > 100


def test_predictions_are_scored_beside_the_baseline(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    preds = tmp_path / "linter.toml"
    preds.write_text(
        '[[prediction]]\nsession = "oracle-2026-10"\nrun = "connected--atlas-7b"\n'
        'check = "oracle:oracle_connected.py::test_single_node"\nflagged = true\n'
    )
    page = report(capsys, corpus, tmp_path / "r.html", "--final", "--predictions", str(preds))
    assert main(["score", str(preds), str(corpus), "--json"]) == 0
    score = json.loads(capsys.readouterr().out)
    text = " ".join(page.text)
    assert "Predictor scorecards" in text and "linter.toml" in text and "flag every failure" in text
    assert f"tp {score['tp']} · fp {score['fp']} · fn {score['fn']} · tn {score['tn']}" in text


def test_hostile_names_are_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sessions"
    write_session(root, "s1", [RunSpec("r1", task="<script>alert(1)</script>", model="$\\frac{1}{0}$ \x1b]0;x\x07[b]")])
    out = tmp_path / "r.html"
    page = report(capsys, root, out, "--final")
    raw = out.read_text()
    assert "<script>" not in raw and "\x1b" not in raw and "\x07" not in raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in raw
    assert any("$\\frac{1}{0}$" in t for t in page.text)  # a dollar sign stays a dollar sign in the plot too


def test_missing_matplotlib_says_how_to_install(corpus: Path, tmp_path: Path) -> None:
    code = ("import sys; sys.modules['matplotlib'] = None; from reviewer.cli import main; "
            f"sys.exit(main(['report', {str(corpus)!r}, '-o', {str(tmp_path / 'r.html')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "pip install 'reviewer[report]'" in done.stderr
    assert not (tmp_path / "r.html").exists()


def test_unwritable_output_is_an_error(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(corpus), "-o", str(tmp_path / "missing" / "r.html")]) == 1
    assert "not written" in capsys.readouterr().err


def test_a_model_that_passes_nothing_is_plotted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 0 of n: Wilson's lower bound comes out 1e-17 above the rate; matplotlib refused the negative bar
    root = tmp_path / "sessions"
    write_session(root, "s1", [RunSpec("r1", model="nil", checks=[{"key": f"k{i}", "status": "fail"} for i in range(14)]),
                               RunSpec("r2", model="all", outcome="pass", checks=[{"key": "a", "status": "pass"}])])
    page = report(capsys, root, tmp_path / "r.html", "--final")
    assert check_figures(page, stats_json(capsys, root, "--final")) > 4
    assert sum(1 for t, _ in page.tags if t == "svg") >= 2
