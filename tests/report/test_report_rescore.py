"""The report shows what re-scoring did, from records made by really re-scoring the corpus in the
bubblewrap sandbox: the checks flipped, the re-scored pass rates that count them (equal to
``reviewer stats --json``), and each specification failure's re-score."""

from __future__ import annotations

import html
import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from reportkit import labelled_corpus, rescore_corpus
from test_report import check_figures, parse

from reviewer.cli import main
from reviewer.rescore.record import latest_for
from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox

pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (pip install '.[test]')")
DEPTH = "oracle-2026-10/depth--cobalt-mini#oracle:oracle_depth.py::test_long_chain"
TRIANGLE = "oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_triangle_is_connected"


@pytest.fixture(scope="module")
def rescored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    """The labelled corpus with two real re-scores saved (made once for the module)."""
    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"the re-score report tests need a working bubblewrap: {exc}")
    base = tmp_path_factory.mktemp("rescored")
    root = labelled_corpus(base / "sessions")
    return root, rescore_corpus(root, base / "home")


@pytest.fixture
def corpus(rescored: tuple[Path, list[dict[str, object]]], tmp_path: Path) -> Path:
    """A private copy of the re-scored corpus."""
    return Path(shutil.copytree(rescored[0], tmp_path / "sessions", symlinks=True))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def record_flips(root: Path) -> set[str]:
    """Failing checks flipped to pass, read straight from the record files."""
    out = set()
    for path in root.glob("*/rescores/*.toml"):
        for t in tomllib.loads(path.read_text())["rescore"]:
            out |= {f"{t['grading']}:{c['key']}" for c in t["check"]
                    if c["recorded"] in ("fail", "error") and c["before"] in ("fail", "error") and c["after"] == "pass"}
    return out


def test_the_real_rescores_flipped_what_was_planted(rescored: tuple[Path, list[dict[str, object]]]) -> None:
    root, lines = rescored
    assert [(r["failure"], r["flipped"], r["reproduced"]) for r in lines] == [
        ("oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_single_node", True, True),
        (DEPTH, True, True)]
    assert len(record_flips(root)) == 6  # connected's five failing checks and depth's long chain
    entry = latest_for(root, DEPTH)
    assert entry is not None and entry.repairs == ("lift-limit:recursion",)


def test_report_figures_equal_stats_json_with_the_rescored_rates(corpus: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    run(capsys, "report", str(corpus), "-o", str(out), "--final")
    page = parse(out)
    doc = json.loads(run(capsys, "stats", str(corpus), "--json", "--final"))
    assert check_figures(page, doc) > 100
    rescored_cells = [a for a, _ in page.cells if a.get("data-field") == "rescored_pass_rate"]
    assert len(rescored_cells) >= len(doc["models"]) + len(doc["tasks"])
    cobalt = next(m for m in doc["models"] if m["model"] == "cobalt-mini")
    atlas = next(m for m in doc["models"] if m["model"] == "atlas-7b")
    # depth's long chain was labelled capability: re-scoring it adds one check; connected's flips were
    # already specification
    assert cobalt["rescored_passed"] == cobalt["passed"] + cobalt["specification"] + 1
    assert atlas["rescored_passed"] == atlas["passed"] + atlas["specification"]
    flipped = next(a for a, _ in page.cells if a.get("data-group") == "rescores" and a.get("data-field") == "flipped")
    assert int(flipped["data-value"] or -1) == len(record_flips(corpus)) == 6
    tally = {(a["data-task"], a["data-model"], a["data-field"]): int(a["data-value"] or -1)
             for a, _ in page.cells if a.get("data-group") == "rescores" and "data-task" in a}
    want = {(r["task"], r["model"], f): r[f] for r in doc["repaired_by_notation"]
            for f in ("passing_before", "passing_after", "repaired")}
    assert tally == want and want[("connected", "atlas-7b", "repaired")] == 5 and want[("depth", "cobalt-mini", "repaired")] == 1


def spec_row(raw: str, failure_id: str) -> str:
    """The text of the specification list's row that names ``failure_id``."""
    rows = [r for r in raw.split("<tr>") if html.escape(failure_id, quote=True) in r and "class=\"id\"" in r]
    assert len(rows) == 1, failure_id
    return html.unescape(re.sub(r"<[^>]+>", " ", rows[0]))


def test_each_specification_failure_says_what_its_rescore_did(corpus: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    run(capsys, "report", str(corpus), "-o", str(out), "--final")
    raw = out.read_text()
    row = spec_row(raw, TRIANGLE)
    assert "flipped to pass with map-value:connected:true:yes, map-value:connected:false:no" in row
    assert "1/6 -> 6/6" in row
    assert "not re-scored" in spec_row(raw, "oracle-2026-10/mst--breeze-large#oracle:oracle_mst.py::test_six_nodes_edges_form_a_spanning_tree")
    text = re.sub(r"\s+", " ", "".join(parse(out).text))
    assert "Re-scores: only the notation repaired" in text and "6 failing checks passed" in text


def test_a_blind_report_shows_rescores_but_no_other_reviewer(corpus: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bob.html"
    run(capsys, "report", str(corpus), "-o", str(out), "--reviewer", "bob")
    raw = out.read_text()
    assert "alice" not in raw  # the records are alice's: their figures are shown, never her name
    page = parse(out)
    doc = json.loads(run(capsys, "stats", str(corpus), "--json", "--reviewer", "bob"))
    assert check_figures(page, doc) > 50
    assert any(a.get("data-field") == "rescored_pass_rate" for a, _ in page.cells)


def test_without_a_record_there_is_no_rescored_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = labelled_corpus(tmp_path / "sessions")
    out = tmp_path / "r.html"
    run(capsys, "report", str(root), "-o", str(out), "--final")
    raw = out.read_text()
    assert "rescored_pass_rate" not in raw and "id=rescores" not in raw
    doc = json.loads(run(capsys, "stats", str(root), "--json", "--final"))
    assert "rescored_pass_rate" not in doc["models"][0] and doc["repaired_by_notation"] == []


def test_an_unreadable_record_is_a_warning_not_a_silence(corpus: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (corpus / "rank-2026-09" / "rescores").mkdir()
    (corpus / "rank-2026-09" / "rescores" / "eve.toml").write_text("format = 1\nrescore = [\n")
    assert main(["report", str(corpus), "-o", str(tmp_path / "r.html"), "--final"]) == 0
    err = capsys.readouterr().err
    assert "eve.toml" in err and "not written over" in err
