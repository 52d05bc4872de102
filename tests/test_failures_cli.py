"""Finding failures from the command line: ``failures``, unique prefixes, suggestions on a miss."""

from __future__ import annotations

import json
from pathlib import Path

from clikit import cli
from sessionkit import example_corpus

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"


def test_failures_json_lists_every_failure_of_the_bundled_corpus(tmp_path: Path) -> None:
    BUNDLED = example_corpus(tmp_path / "sessions")
    done = cli("failures", str(BUNDLED), "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    runs = json.loads(cli("list", str(BUNDLED), "--json").stdout)
    assert len(rows) == sum(r["failures"] for r in runs) > 0
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert {"id", "session", "run", "task", "model", "check", "verdict"} <= set(r)
        assert r["id"] == f"{r['session']}/{r['run']}#{r['check']}"
        assert "others" not in r  # blind by default
    # every listed id is found by show
    assert cli("show", str(BUNDLED), "--failure", rows[-1]["id"]).returncode == 0


def test_failures_filters_and_text_table(folder: Path) -> None:
    assert cli("label", str(folder), "--failure", F2, "--verdict", "capability", "--reviewer", "alice").returncode == 0
    def ids(*extra: str) -> list[str]:
        return [r["id"] for r in json.loads(cli("failures", str(folder), "--json", "--reviewer", "alice", *extra).stdout)]

    assert ids() == [F1, F2, F3]
    assert ids("--unlabelled") == [F1, F3]
    assert ids("--session", "s2") == [F2, F3] and ids("--task", "conn*") == [F2, F3]
    assert ids("--model", "model-a", "--task", "roman-go") == [F1] and ids("--model", "nope") == []
    text = cli("failures", str(folder), "--reviewer", "alice").stdout.splitlines()
    assert text[0].split() == ["ID", "TASK", "MODEL", "YOURS"]
    assert text[2].split() == [F2, "connected", "model-a", "capability"]
    assert text[-1].startswith("3 failures, 1 decided by alice (--reviewer)")


def test_a_unique_prefix_is_enough_everywhere(folder: Path) -> None:
    done = cli("show", str(folder), "--failure", "s2/r3#heldout:test_c")
    assert done.returncode == 0 and f"failure {F2}" in done.stdout
    done = cli("label", str(folder), "--failure", "s1/r", "--verdict", "specification", "--reviewer", "alice")
    assert done.returncode == 0 and done.stdout.startswith(f"{F1}: specification")
    done = cli("adjudicate", str(folder), "--failure", "s2/r3#heldout:test_t", "--verdict", "capability")
    assert done.returncode == 0 and done.stdout.startswith(f"{F3}: final verdict capability")


def test_an_ambiguous_prefix_names_the_matches(folder: Path) -> None:
    done = cli("show", str(folder), "--failure", "s2/r3")
    assert done.returncode == 1 and "is the start of 2 failure ids" in done.stderr
    assert F2 in done.stderr and F3 in done.stderr and "Traceback" not in done.stderr


def test_a_near_miss_suggests_the_closest_ids(folder: Path) -> None:
    for command in (["show"], ["label", "--verdict", "capability"], ["adjudicate", "--verdict", "capability"]):
        done = cli(command[0], str(folder), "--failure", "s2/r3#heldout:test_conected", *command[1:])
        assert done.returncode == 1, command
        assert "run s2/r3 has no failing check 'heldout:test_conected'; closest: " + F2 in done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    done = cli("show", str(folder), "--failure", "TestToRoman")
    assert "no failure id is or starts with 'TestToRoman'; closest: " + F1 in done.stderr
    done = cli("label", str(folder), "--failure", "s9/r1#x:y", "--verdict", "capability")
    assert "no run s9/r1" in done.stderr and "closest" in done.stderr


def test_the_app_resolves_its_failure_before_opening(folder: Path) -> None:
    """A bad --failure ends with the suggestion on the command line; the app never starts."""
    done = cli(str(folder), "--failure", "s1/r1#heldout:TestToRomn")
    assert done.returncode == 1
    assert done.stderr.startswith("reviewer --failure: run s1/r1 has no failing check") and F1 in done.stderr


def test_help_shows_the_apps_own_options_and_every_command() -> None:
    done = cli("--help")
    assert done.returncode == 0
    for text in ("PATH", "--failure ID", "--reviewer NAME", "config.toml", "exit status:", "COMMAND"):
        assert text in done.stdout, text
    for command in ("check", "list", "failures", "show", "label", "export", "agreement", "adjudicate"):
        assert f"\n  {command} " in done.stdout, command
