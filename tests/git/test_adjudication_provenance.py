"""Adjudications keep their provenance: evidence, adjudicator, the verdicts settled; unanimity needs --override."""

from __future__ import annotations

import csv
import io
import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from gitkit import cli, many_failures

from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.labels.adjudication import Unanimous, adjudicate_failure, adjudications, consensus
from reviewer.store.labels.final import read_adjudications
from reviewer.store.sessions.store import SessionStore

S, C = "specification", "capability"


@pytest.fixture
def folder_with_votes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """T00: A and B agree (specification); T01: they disagree; T02: only A decided; T03: nobody."""
    root = tmp_path / "sessions"
    ids = many_failures(root, 4)
    for fid, who, verdict in ((ids[0], "A", S), (ids[0], "B", S), (ids[1], "A", S), (ids[1], "B", C), (ids[2], "A", C)):
        assert main(["label", str(root), "--failure", fid, "--verdict", verdict, "--reviewer", who]) == 0
    capsys.readouterr()
    return root, ids


def labeller(root: Path, who: str) -> Labeller:
    store = SessionStore(root)
    store.scan()
    return Labeller(store, LabelStore(root, who))


def test_consensus_is_the_question_the_app_asks(folder_with_votes: tuple[Path, list[str]]) -> None:
    root, _ = folder_with_votes
    agree = consensus(root, "m", "run1", "heldout:T00")
    assert agree.unanimous is Verdict.SPECIFICATION and agree.describe() == "all 2 reviewers say specification (A, B)"
    assert consensus(root, "m", "run1", "heldout:T01").unanimous is None
    assert consensus(root, "m", "run1", "heldout:T02").describe() == "the only reviewer who decided says capability (A)"
    assert consensus(root, "m", "run1", "heldout:T02").unanimous is Verdict.CAPABILITY
    assert consensus(root, "m", "run1", "heldout:T03").verdicts == ()


def test_overriding_a_unanimous_verdict_needs_override(folder_with_votes: tuple[Path, list[str]]) -> None:
    root, ids = folder_with_votes
    done = cli("adjudicate", str(root), "--failure", ids[0], "--verdict", C, "--reviewer", "carol")
    assert done.returncode == 1 and "all 2 reviewers say specification (A, B)" in done.stderr
    assert "--override" in done.stderr and "Traceback" not in done.stderr
    assert read_adjudications(root, ["m"]) == {}
    with pytest.raises(Unanimous):
        adjudicate_failure(labeller(root, "carol"), ids[0], Verdict.CAPABILITY)
    done = cli("adjudicate", str(root), "--failure", ids[0], "--verdict", C, "--reviewer", "carol", "--override")
    assert done.returncode == 0, done.stderr
    assert "final verdict capability by carol (--reviewer)" in done.stdout
    assert adjudications(root).get("m", "run1", "heldout:T00").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]
    # a disagreement and a failure nobody decided need no override
    assert cli("adjudicate", str(root), "--failure", ids[1], "--verdict", C, "--reviewer", "carol").returncode == 0
    assert cli("adjudicate", str(root), "--failure", ids[3], "--verdict", S, "--reviewer", "carol").returncode == 0


def test_an_adjudication_records_evidence_adjudicator_and_what_it_settled(folder_with_votes: tuple[Path, list[str]]) -> None:
    root, ids = folder_with_votes
    lab = adjudicate_failure(labeller(root, "carol"), ids[1], Verdict.CAPABILITY, note="the grader was right")
    doc = tomllib.loads((root / "m" / "labels" / "_adjudicated" / "run1.toml").read_text())
    [entry] = doc["label"]
    assert doc["reviewer"] == "final"
    assert entry["adjudicator"] == "carol" and entry["note"] == "the grader was right"
    assert entry["settled"] == {"A": S, "B": C}
    [a_file] = (root / "m" / "labels").glob("a+*/run1.toml")  # "A" is not a plain lower-case name: slug + hash
    a_label = tomllib.loads(a_file.read_text())["label"][1]
    assert entry["evidence"] == a_label["evidence"] == lab.evidence and lab.evidence.startswith("sha256:")
    # the run is re-recorded: the adjudication is now stale in the export
    (root / "m" / "runs" / "run1" / "brief.md").write_text("a different brief\n")
    rows = [json.loads(x) for x in cli("export", str(root), "--final", "--format", "jsonl").stdout.splitlines()]
    [row] = [r for r in rows if r["check"] == "heldout:T01"]
    assert row["stale"] is True and row["adjudicator"] == "carol"


def test_the_adjudicator_is_in_every_export_format(folder_with_votes: tuple[Path, list[str]]) -> None:
    root, ids = folder_with_votes
    adjudicate_failure(labeller(root, "carol"), ids[1], Verdict.CAPABILITY)
    toml_rows = tomllib.loads(cli("export", str(root), "--final").stdout)["label"]
    jsonl_rows = [json.loads(x) for x in cli("export", str(root), "--final", "--format", "jsonl").stdout.splitlines()]
    csv_rows = list(csv.DictReader(io.StringIO(cli("export", str(root), "--final", "--format", "csv").stdout)))
    for rows in (toml_rows, jsonl_rows, csv_rows):
        by_check = {r["check"]: r["adjudicator"] for r in rows}
        assert by_check["heldout:T01"] == "carol" and by_check["heldout:T00"] == "", rows
    assert list(jsonl_rows[0]) == list(csv_rows[0]) == list(toml_rows[0])  # the same fields in the same order
    everyone = [json.loads(x) for x in cli("export", str(root), "--format", "jsonl").stdout.splitlines()]
    assert {r["adjudicator"] for r in everyone} == {""}


def test_old_adjudication_files_are_read_compatibly_and_migrated_on_the_next_write(
        folder_with_votes: tuple[Path, list[str]]) -> None:
    root, ids = folder_with_votes
    old = {"format": 1, "reviewer": "final", "session": "m", "label": [
        {"run": "run1", "check": "heldout:T01", "verdict": C, "labelled_at": "2026-11-01T00:00:00Z",
         "evidence": "", "tags": [], "note": "adjudicated by dana: brief says nothing: really"},
        {"run": "run1", "check": "heldout:T03", "verdict": S, "labelled_at": "2026-11-01T00:00:00Z",
         "evidence": "", "tags": [], "note": "adjudicated by erin"},
    ]}
    path = root / "m" / "labels" / "_adjudicated.toml"
    path.write_text(tomli_w.dumps(old))
    found = read_adjudications(root, ["m"])
    assert (found[("m", "run1", "heldout:T01")].adjudicator, found[("m", "run1", "heldout:T01")].note) == (
        "dana", "brief says nothing: really")
    assert (found[("m", "run1", "heldout:T03")].adjudicator, found[("m", "run1", "heldout:T03")].note) == ("erin", "")
    rows = {json.loads(x)["check"]: json.loads(x) for x in cli("export", str(root), "--final", "--format", "jsonl").stdout.splitlines()}
    assert rows["heldout:T01"]["adjudicator"] == "dana" and rows["heldout:T01"]["note"] == "brief says nothing: really"
    assert path.read_text() == tomli_w.dumps(old)  # reading changes nothing on disk
    adjudicate_failure(labeller(root, "carol"), ids[2], Verdict.SPECIFICATION, override=True)
    assert not path.exists()  # moved into the new layout, one file per run
    entries = {t["check"]: t for t in tomllib.loads((path.parent / "_adjudicated" / "run1.toml").read_text())["label"]}
    assert entries["heldout:T01"]["adjudicator"] == "dana" and entries["heldout:T01"]["note"] == "brief says nothing: really"
    assert entries["heldout:T03"]["adjudicator"] == "erin" and entries["heldout:T03"]["note"] == ""
    assert entries["heldout:T02"]["adjudicator"] == "carol" and entries["heldout:T02"]["settled"] == {"A": C}


def test_agreement_list_names_the_disagreeing_failures(folder_with_votes: tuple[Path, list[str]]) -> None:
    root, ids = folder_with_votes
    done = cli("agreement", str(root), "--list")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert "1 failure where reviewers disagree:" in lines
    assert f"  {ids[1]}  A=specification B=capability" in lines
    adjudicate_failure(labeller(root, "carol"), ids[1], Verdict.CAPABILITY)
    doc = json.loads(cli("agreement", str(root), "--list", "--json").stdout)
    assert doc["disagreements"] == [{"id": ids[1], "verdicts": {"A": S, "B": C},
                                     "adjudicated": {"verdict": C, "adjudicator": "carol"}}]
    assert f"{ids[1]}  A=specification B=capability  adjudicated capability by carol" in cli("agreement", str(root), "--list").stdout
    assert "disagreements" not in json.loads(cli("agreement", str(root), "--json").stdout)
