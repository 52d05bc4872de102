"""Blind means blind for the headless commands: with other reviewers' labels on disk and blind mode
on, nothing a command prints is derived from them (no verdict, count, share, name or note).

The census below runs every command it lists as a user would (a subprocess) and looks for the
other reviewers' traces. With blind mode off the same census must find them, so it can fail.
Every command of the CLI is either visited here, exempt (it is for after labelling), or named
with the census that covers it; a new command that is none of these fails the last test.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from clikit import cli

from reviewer.cli import build_parser
from reviewer.store.settings.config import config_path

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
CENSUS: dict[str, list[list[str]]] = {
    "label": [["--failure", F2, "--verdict", "specification"], ["--failure", F1, "--verdict", "deferred", "--note", "mine"]],
    "failures": [[], ["--json"], ["--unlabelled"], ["--unlabelled", "--json"], ["--task", "connected"]],
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
    "rescore": "re-runs a grader in the sandbox and prints check results; reads no labels",
    "serve": "serves the app itself: the screen census covers what it shows",
}
TRACES = ("bob", "carol", "secret", "capability", "2 decided", "3 decided")
"""What the other reviewers left: their names, their notes, the verdict only they gave, their counts."""


@pytest.fixture
def others_labelled(folder: Path) -> Path:
    """bob says capability to all three failures, carol specification to one; both with notes."""
    for fid in (F1, F2, F3):
        assert cli("label", str(folder), "--failure", fid, "--verdict", "capability", "--reviewer", "bob",
                   "--note", "bob secret").returncode == 0
    assert cli("label", str(folder), "--failure", F3, "--verdict", "specification", "--reviewer", "carol",
               "--note", "carol secret").returncode == 0
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
