"""The instrument is honest, on the real corpus with its real graders, run for real in the sandbox:
the planted notation failures flip with their repairs, capability failures do not flip, and no
repair breaks a passing check. Every re-score leaves a record that parses and names its repairs."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rescorekit import corpus_copy, sandbox_tool

from reviewer.model.repair import parse_repair
from reviewer.rescore.engine import compare_grader
from reviewer.store.sessions.store import SessionStore

NOTATION = {
    "oracle-2026-10/connected--atlas-7b#oracle": (
        ["map-value:connected:true:yes", "map-value:connected:false:no"],
        ["test_triangle_is_connected", "test_two_separate_edges", "test_cycle_beside_a_separate_edge",
         "test_isolated_node", "test_single_node"], "oracle_connected.py::"),
    "oracle-2026-10/eulerian--delta-pro#oracle": (
        ["rename-key:trail:path", "separator:path:->:\\s", "map-value:result:impossible:none"],
        ["test_koenigsberg_has_no_walk", "test_square_walk_closes", "test_tail_walk_runs_between_odd_nodes"],
        "oracle_eulerian.py::"),
    "oracle-2026-10/mst--breeze-large#oracle": (
        ["rename-key:edges:edge_count", "rename-key:tree:edges"],
        ["test_six_nodes_edges_form_a_spanning_tree", "test_six_nodes_edges_add_up_to_weight"], "oracle_mst.py::"),
    "oracle-2026-10/fast-expt--cobalt-mini#oracle": (
        ["rename-key:steps:mults", "lift-limit:int-max-str-digits"],
        ["test_mults_within_log_bound", "test_mults_within_log_bound_huge_exponent"], "oracle_fast_expt.py::"),
}
"""The planted notation failures (tests/corpus/README.md) and the repairs that re-express them."""

STATED = {
    "pounce-2026-11/roman-go--fjord-xl#heldout:build:roman": "grade-where-saved:roman",
    "oracle-2026-10/fast-expt--gale-13b#oracle:oracle_fast_expt.py::test_small_powers": "rename-key:result:value",
}
"""Capability failures a repair of what the brief states would pass: the brief says "In this
folder", and names the key value where gale-13b printed result."""

KEY_RENAMES = {
    "eulerian": ["rename-key:trail:path"],
    "mst": ["rename-key:edges:edge_count", "rename-key:tree:edges"],
    "fast-expt": ["rename-key:steps:mults"],
}
"""Per oracle task, the key renames alone of its notation plant (connected's plant is a vocabulary)."""

PLANT_REPAIRS = {
    "connected": NOTATION["oracle-2026-10/connected--atlas-7b#oracle"][0],
    "eulerian": NOTATION["oracle-2026-10/eulerian--delta-pro#oracle"][0],
    "mst": NOTATION["oracle-2026-10/mst--breeze-large#oracle"][0],
    "fast-expt": NOTATION["oracle-2026-10/fast-expt--cobalt-mini#oracle"][0],
    "depth": ["lift-limit:recursion"],
}
"""Per oracle task, every repair of its notation plant (depth's: the recursion limit lifted, which
cannot save a program that recurses without end)."""


def reviewer(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line."""
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], check=False, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sandbox_tool()
    return corpus_copy(tmp_path_factory.mktemp("rescore"))


@pytest.fixture(scope="module")
def planted(corpus: Path) -> dict[str, dict]:
    """Every planted notation failure re-scored through `reviewer rescore --json`, by failure id."""
    out: dict[str, dict] = {}
    for grading, (repairs, keys, prefix) in NOTATION.items():
        args = ["rescore", str(corpus), "--reviewer", "ann", "--json"]
        for key in keys:
            args += ["--failure", f"{grading}:{prefix}{key}"]
        for r in repairs:
            args += ["--repair", r]
        done = reviewer(*args)
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():
            obj = json.loads(line)
            out[obj["failure"]] = obj
    return out


def test_every_planted_notation_failure_flips(planted: dict[str, dict]) -> None:
    wanted = {f"{g}:{p}{k}" for g, (_, keys, p) in NOTATION.items() for k in keys}
    assert set(planted) == wanted
    for fid, obj in planted.items():
        assert (obj["recorded"], obj["before"], obj["after"], obj["flipped"]) == ("fail", "fail", "pass", True), fid
        assert obj["reproduced"] is True
        assert not [c for c in obj["checks"] if c["recorded"] == "pass" and c["after"] != "pass"], fid


def test_each_record_parses_and_names_its_repairs(corpus: Path, planted: dict[str, dict]) -> None:
    for fid, obj in planted.items():
        record = Path(obj["record"])
        assert record.is_relative_to(corpus) and record.name == "ann.toml"
        doc = tomllib.loads(record.read_text())
        tables = [t for t in doc["rescore"] if fid in t["failures"]]
        assert len(tables) == 1
        assert tables[0]["repairs"] == obj["repairs"]
        assert fid in tables[0]["flipped"]
        assert [parse_repair(r) for r in tables[0]["repairs"]]
        assert tables[0]["sandbox"].startswith("bubblewrap")


def test_a_repair_of_what_the_brief_states_passes_only_as_evidence_for_capability(corpus: Path) -> None:
    """Run on request, such a repair makes the check pass, and that is reported as evidence for
    capability: never a flip, never counted; --all-proposed never proposes it."""
    for fid, repair in STATED.items():
        done = reviewer("rescore", str(corpus), "--reviewer", "cat", "--json", "--failure", fid, "--repair", repair)
        assert done.returncode == 0, done.stderr
        [obj] = [json.loads(line) for line in done.stdout.splitlines()]
        assert (obj["after"], obj["flipped"], obj["flipped_by_stated"]) == ("pass", False, True), fid
        assert "brief" in obj["stated"]
    stats = json.loads(reviewer("stats", str(corpus), "--json").stdout)
    rows = {(r["task"], r["model"]) for r in stats["repaired_by_notation"]}
    assert ("roman-go", "fjord-xl") not in rows and ("fast-expt", "gale-13b") not in rows


def test_all_proposed_flips_every_planted_notation_failure_and_no_capability_failure(tmp_path: Path) -> None:
    """What the issue checks on the bundled corpus: `rescore sessions --all-proposed --json`."""
    sandbox_tool()
    fresh = corpus_copy(tmp_path)
    done = reviewer("rescore", str(fresh), "--all-proposed", "--json", "--reviewer", "ann")
    assert done.returncode == 0, done.stderr
    results = {json.loads(line)["failure"]: json.loads(line) for line in done.stdout.splitlines()}
    flipped = {fid for fid, r in results.items() if r["flipped"]}
    notation = {f"{g}:{p}{k}" for g, (_, keys, p) in NOTATION.items() for k in keys}
    assert notation <= flipped
    assert not flipped & set(capability_failures())
    assert not [(fid, c["key"]) for fid, r in results.items() for c in r["checks"]
                if c["recorded"] == "pass" and c["before"] == "pass" and c["after"] != "pass"]


def test_the_stats_table_counts_the_repaired_checks(corpus: Path, planted: dict[str, dict]) -> None:
    done = reviewer("stats", str(corpus), "--json")
    rows = {(r["task"], r["model"]): r for r in json.loads(done.stdout)["repaired_by_notation"]}
    assert rows[("connected", "atlas-7b")]["repaired"] == 5
    assert rows[("connected", "atlas-7b")]["passing_before"] == 1
    assert rows[("connected", "atlas-7b")]["passing_after"] == 6
    assert rows[("fast-expt", "cobalt-mini")]["repaired"] == 2
    assert all(r["broken"] == 0 for r in rows.values())
    assert "checks repaired by notation alone" in reviewer("stats", str(corpus)).stdout


def capability_failures() -> list[str]:
    expected = tomllib.loads((Path(__file__).resolve().parents[1] / "corpus" / "expected.toml").read_text())
    return [f"{run}#{check}" for run, table in expected["runs"].items()
            for check, verdict in table["failures"].items() if verdict == "capability"]


def test_key_renames_flip_no_capability_failure(corpus: Path) -> None:
    """The plant's key renames alone, then all its repairs, on the same task's capability runs:
    every capability failure still fails (a foreign repair may break other checks of a program
    that already printed the checker's notation; that is not a flip and is not counted)."""
    store = SessionStore(corpus)
    store.scan()
    tool = sandbox_tool()
    capability = capability_failures()
    oracle = sorted({fid.partition("#")[0] for fid in capability if fid.startswith("oracle-2026-10/")})
    assert len(oracle) == 8  # connected x3, depth, eulerian, fast-expt x2, mst
    tried = 0
    for run_key in oracle:
        run = store.run(run_key)
        assert run is not None
        failing = {fid.partition("#")[2].partition(":")[2] for fid in capability if fid.startswith(run_key + "#")}
        for texts in (KEY_RENAMES.get(run.task), PLANT_REPAIRS[run.task]):
            if not texts:
                continue
            c = compare_grader(store, run, "oracle", tuple(parse_repair(t) for t in texts), tool=tool)
            rows = {row.key: row for row in c.checks}
            for key in failing:
                assert rows[key].before == "fail" and rows[key].after == "fail", (run_key, texts, rows[key])
                tried += 1
    assert tried >= 7


def test_stdout_repairs_are_refused_where_no_output_is_read(corpus: Path) -> None:
    for fid in ("pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman",
                "rank-2026-09/percent-change--ember-9b#runner:test 3"):
        done = reviewer("rescore", str(corpus), "--reviewer", "ann", "--failure", fid, "--repair", "rename-key:a:b")
        assert done.returncode == 1
        assert "nothing to re-express" in done.stderr


def test_no_repair_breaks_a_passing_grading(corpus: Path) -> None:
    """The shim in place, limits lifted, repairs whose notation the passing program does not use:
    every check still passes (the shim passes the program's output through unchanged)."""
    store = SessionStore(corpus)
    store.scan()
    tool = sandbox_tool()
    passing = {"connected--cobalt-mini": ["map-value:connected:true:yes", "map-value:connected:false:no"],
               "eulerian--atlas-7b": NOTATION["oracle-2026-10/eulerian--delta-pro#oracle"][0],
               "mst--atlas-7b": ["rename-key:tree:edges"],
               "fast-expt--breeze-large": NOTATION["oracle-2026-10/fast-expt--cobalt-mini#oracle"][0]}
    for run_id, texts in passing.items():
        run = store.run(f"oracle-2026-10/{run_id}")
        assert run is not None and run.outcome == "pass"
        c = compare_grader(store, run, "oracle", tuple(parse_repair(t) for t in texts), tool=tool)
        assert all(row.recorded == "pass" for row in c.checks)
        assert c.broken == (), (run_id, [r for r in c.checks if r.after != "pass"])
