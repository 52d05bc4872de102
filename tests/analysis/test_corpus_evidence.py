"""On the bundled corpus: every planted specification failure points at its cause, the
connected=yes/connected=true failures are vocabulary near misses, and no capability failure is
given a near miss towards specification."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from sessionkit import example_corpus

from reviewer.analysis.evidence.engine import evidence_for
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

REPO = Path(__file__).resolve().parents[2]
SESSIONS = REPO / "sessions"
EXPECTED = REPO / "tests" / "corpus" / "expected.toml"


def planted() -> dict[str, Verdict]:
    """{failure id: intended verdict} from the corpus author's list."""
    doc = tomllib.loads(EXPECTED.read_text())
    return {f"{run}#{check}": Verdict(v) for run, spec in doc["runs"].items() for check, v in spec["failures"].items()}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    if not EXPECTED.is_file() or not any(SESSIONS.glob("*/runs/*/run.toml")):
        pytest.skip("the example corpus is not built")
    store = SessionStore(example_corpus(tmp_path_factory.mktemp("corpus") / "sessions"))
    store.scan()
    evidence = {f.id: evidence_for(store, run, f) for run in store.runs for f in store.failures(run)}
    return planted(), evidence


def test_every_planted_failure_is_found(corpus) -> None:
    intended, evidence = corpus
    assert set(intended) == set(evidence)


def test_every_specification_failure_points_at_its_cause(corpus) -> None:
    intended, evidence = corpus
    spec = [fid for fid, v in intended.items() if v is Verdict.SPECIFICATION]
    assert len(spec) == 30
    missing = [fid for fid in spec if not evidence[fid].causes]
    assert missing == []


def test_connected_vocabulary_failures_are_near_misses(corpus) -> None:
    intended, evidence = corpus
    connected = [fid for fid in intended if fid.startswith("oracle-2026-10/connected--atlas-7b#")]
    assert len(connected) == 5
    for fid in connected:
        [nm] = evidence[fid].near_misses
        assert nm.notations[0].startswith("vocabulary:") and nm.kind == "vocabulary" and nm.towards, fid
        assert {nm.wanted, nm.found} in ({"yes", "true"}, {"no", "false"})
        assert nm.wanted_key == nm.found_key == "connected"


def test_no_capability_failure_gets_a_near_miss_towards_specification(corpus) -> None:
    intended, evidence = corpus
    flagged = [fid for fid, v in intended.items() if v is Verdict.CAPABILITY and any(nm.towards for nm in evidence[fid].near_misses)]
    assert flagged == []
    roman = evidence["pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman"]
    assert roman.pairs and not roman.near_misses  # IIII vs IV was read, and is a wrong answer


def test_wrong_numerals_are_input_bound_not_unstated(corpus) -> None:
    _, evidence = corpus
    roman = evidence["pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman"]
    assert roman.unstated == ()
    assert {"IV", "MMMCMXCIX"} <= {d.value for d in roman.demands if d.bound}
