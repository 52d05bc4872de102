"""Blind means blind for the headless commands: with other reviewers' labels on disk and blind mode
on, nothing a command prints is derived from them (no verdict, count, share, name or note).

The census below runs every command it lists as a user would (a subprocess) and looks for the
other reviewers' traces. With blind mode off the same census must find them, so it can fail.
Every command of the CLI is either visited here, exempt (it is for after labelling), or named
with the census that covers it; a new command that is none of these fails the last test.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from clikit import cli

from reviewer.cli import build_parser
from reviewer.model.check import split_failure_id
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.store.predictions import save_predictions
from reviewer.store.settings.config import config_path

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
CENSUS: dict[str, list[list[str]]] = {
    "label": [["--failure", F2, "--verdict", "specification"], ["--failure", F1, "--verdict", "deferred", "--note", "mine"]],
    "failures": [[], ["--json"], ["--unlabelled"], ["--unlabelled", "--json"], ["--task", "connected"],
                 ["--judge", "judgebot"], ["--judge", "judgebot", "--json"], ["--judge-disagrees"],
                 ["--judged", "capability", "--json"]],
    "judge": [["--builtin", "evidence", "--json"], ["--builtin", "evidence", "--json", "--redo", "--unlabelled"]],
    "list": [[], ["--json"]],
    "check": [[]],
}
"""Commands visited in this order (alice labels first), with the arguments each is run with (after
PATH, and --reviewer alice for those that act for a reviewer)."""
EXEMPT = {"agreement", "export", "adjudicate"}
"""For after labelling: they exist to compare and settle reviewers' verdicts."""
ELSEWHERE = {
    "show": "the show command's own census (reviewer show prints the current reviewer's label only)",
    "stats": "the stats/report census (H4)",
    "report": "the stats/report census (H4)",
    "score": "scores a predictor against final verdicts: for after labelling",
    "commit": "commits the reviewer's own files; its message counts only those",
    "import": "writes runs, reads no labels",
    "themes": "lists themes, reads no labels",
    "help": "prints the guides shipped in the package; reads no folder",
    "rescore": "re-runs a grader in the sandbox and prints check results; reads no labels",
    "serve": "serves the app itself: the screen census covers what it shows",
}
TRACES = ("bob", "carol", "secret", "capability", "2 decided", "3 decided", "judgebot says")
"""What the other reviewers left: their names, their notes, the verdict only they gave, their counts;
and a judge (``reviewer judge``) that says capability, with a rationale of its own, on every failure
but F2 (alice's specification, where its specification may show once she has decided it)."""


@pytest.fixture
def others_labelled(folder: Path) -> Path:
    """bob says capability to all three failures, carol specification to one; both with notes."""
    for fid in (F1, F2, F3):
        assert cli("label", str(folder), "--failure", fid, "--verdict", "capability", "--reviewer", "bob",
                   "--note", "bob secret").returncode == 0
    assert cli("label", str(folder), "--failure", F3, "--verdict", "specification", "--reviewer", "carol",
               "--note", "carol secret").returncode == 0
    calls = {F1: Verdict.CAPABILITY, F2: Verdict.SPECIFICATION, F3: Verdict.CAPABILITY}
    save_predictions(folder, "judgebot", [Prediction(*split_failure_id(fid), "judgebot", v, 0.5, "judgebot says so")
                                          for fid, v in calls.items()])
    return folder


def census(folder: Path) -> dict[str, str]:
    """Every visited command's stdout and stderr, by command line."""
    seen = {}
    for command, variants in CENSUS.items():
        for extra in variants:
            done = cli(command, str(folder), *extra, "--reviewer", "alice") if command not in ("list", "check") \
                else cli(command, str(folder), *extra)
            assert done.returncode in (0, 1), done.stderr
            assert "Traceback" not in done.stderr
            seen[" ".join([command, *extra])] = done.stdout + done.stderr
    return seen


def leaks(seen: dict[str, str]) -> list[str]:
    """``command: trace`` for every trace of another reviewer found."""
    return [f"{cmd}: {trace}" for cmd, text in seen.items() for trace in TRACES if trace in text.lower()]


def test_blind_commands_show_nothing_of_other_reviewers(others_labelled: Path) -> None:
    seen = census(others_labelled)
    assert leaks(seen) == []
    assert len(seen) == sum(len(v) for v in CENSUS.values())
    assert "1 decided by alice (--reviewer)" in seen["failures"]  # alice's own count (F2) is shown
    assert "other reviewers' verdicts hidden" in seen["failures"]


def test_with_blind_off_the_census_finds_the_others(others_labelled: Path) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("blind = false\n")
    found = leaks(census(others_labelled))
    assert any(x.startswith("failures: bob") for x in found) and any("carol" in x for x in found)


def test_a_judge_shows_where_you_decided_and_is_hidden_elsewhere(others_labelled: Path) -> None:
    cli("label", str(others_labelled), "--failure", F2, "--verdict", "specification", "--reviewer", "alice")
    rows = json.loads(cli("failures", str(others_labelled), "--judge", "judgebot", "--json", "--reviewer", "alice").stdout)
    seen = {r["id"]: (r["judges"], r["judges_hidden"]) for r in rows}
    assert seen[F2] == ([{"judge": "judgebot", "verdict": "specification", "confidence": 0.5}], 0)
    assert seen[F1] == seen[F3] == ([], 1)
    refused = cli("failures", str(others_labelled), "--judged", "capability", "--unlabelled", "--reviewer", "alice")
    assert refused.returncode == 2 and "blind mode hides" in refused.stderr and refused.stdout == ""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("blind = false\n")
    listed = cli("failures", str(others_labelled), "--judged", "capability", "--unlabelled", "--reviewer", "alice")
    assert listed.returncode == 0 and [ln.split()[0] for ln in listed.stdout.splitlines()[1:-1]] == [F1, F3]


def test_disagreements_show_everyone_even_when_blind(others_labelled: Path) -> None:
    done = cli("failures", str(others_labelled), "--disagreements", "--reviewer", "alice")
    lines = done.stdout.splitlines()
    assert [ln.split()[0] for ln in lines[1:-1]] == [F3]
    assert "bob=capability carol=specification" in lines[1]


def subcommands() -> set[str]:
    """Every command the CLI knows."""
    parser = build_parser()
    return {name for a in parser._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices}


def test_every_command_is_in_the_census_exempt_or_covered_elsewhere() -> None:
    unclassified = subcommands() - set(CENSUS) - EXEMPT - set(ELSEWHERE)
    assert unclassified == set(), f"add these commands to the blind census: {sorted(unclassified)}"
