"""Failure clusters across runs, and labelling a whole cluster with one undoable change."""

from __future__ import annotations

from pathlib import Path

from analysis_kit import fail, label, labeller
from sessionkit import RunSpec, write_session

from reviewer.analysis.clusters import (
    apply_cluster_label,
    clusters_of,
    find_clusters,
    message_signature,
    plan_cluster_label,
    render_clusters,
)
from reviewer.analysis.stats.facts import collect
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

WALK = "E       AssertionError: no walk read from path=: {}"


def cluster_folder(root: Path) -> Path:
    """Task `eulerian` run by four models; three fail `test_walk`, two with a KeyError."""
    write_session(root, "s", [
        RunSpec("a", task="eulerian", model="m-a", checks=[fail("test_walk", WALK.format("[]")), fail("test_key", "E       KeyError: 'path'")]),
        RunSpec("b", task="eulerian", model="m-b", checks=[fail("test_walk", WALK.format("['A']")), fail("test_key", "E       KeyError: 'trail'")]),
        RunSpec("c", task="eulerian", model="m-c", checks=[fail("test_walk", "E   assert 0 >= 2"), {"key": "test_key", "status": "pass"}]),
        RunSpec("d", task="eulerian", model="m-d", outcome="pass", checks=[{"key": "test_walk", "status": "pass"}]),
        RunSpec("e", task="roman", model="m-a", checks=[fail("test_walk", WALK.format("[]"))]),
    ])
    return root


def clusters(root: Path):
    store = SessionStore(root)
    store.scan()
    return find_clusters(collect(store))


def test_signatures_drop_values_paths_numbers_and_timings() -> None:
    assert message_signature("E       KeyError: 'path'") == message_signature("E       KeyError: 'trail'") == "KeyError: <s>"
    go = "    roman_test.go:24: ToRoman(4) returned \"IIII\", expected \"IV\"\n--- FAIL: TestX (0.00s)"
    assert message_signature(go) == "ToRoman(<n>) returned <s>, expected <s>"
    assert message_signature("./a/b/roman.go:20:9: undefined: strings") == "<path>: undefined: strings"
    assert message_signature("panic: bad at 0xc000012345 after 1.5s") == "panic: bad at <hex> after <t>"
    assert message_signature("") == ""


def test_check_and_message_clusters(tmp_path: Path) -> None:
    found = clusters(cluster_folder(tmp_path / "sessions"))
    by_key = {(c.kind, c.task, c.key): c for c in found}
    walk = by_key[("check", "eulerian", "heldout:test_walk")]
    assert walk.summary() == "fails for 3 of 4 models"
    assert walk.failure_ids == ("s/a#heldout:test_walk", "s/b#heldout:test_walk", "s/c#heldout:test_walk")
    key = by_key[("check", "eulerian", "heldout:test_key")]
    assert key.summary() == "fails for 2 of 4 models"
    # test_key's messages make the same set as its check cluster: not listed twice. test_walk's
    # two alike messages are a message cluster of their own; clusters never cross tasks.
    message = by_key[("message", "eulerian", "AssertionError: no walk read from path=: <v>")]
    assert message.failure_ids == ("s/a#heldout:test_walk", "s/b#heldout:test_walk")
    assert message.summary() == "fails for 2 of 4 models"
    assert ("message", "eulerian", "KeyError: <s>") not in by_key
    assert all(c.task != "roman" for c in found)
    assert set(clusters_of(found, "s/a#heldout:test_walk")) == {walk, message}
    text = render_clusters(found)
    assert "fails for 3 of 4 models" in text and "█" in text


def test_label_a_whole_cluster_with_confirmation_and_undo(tmp_path: Path) -> None:
    root = cluster_folder(tmp_path / "sessions")
    label(root, "alice", {"s/a#heldout:test_walk": Verdict.CAPABILITY, "s/b#heldout:test_walk": Verdict.SPECIFICATION})
    walk = next(c for c in clusters(root) if c.kind == "check" and c.key == "heldout:test_walk")
    lab = labeller(root, "alice")
    plan = plan_cluster_label(lab, walk.failure_ids, Verdict.SPECIFICATION)
    assert plan.to_change == ("s/a#heldout:test_walk", "s/c#heldout:test_walk")
    assert (plan.unchanged, plan.new, plan.overridden) == (1, 1, {"capability": 1})
    assert plan.message().startswith("Label 2 failures specification?")
    assert "1 unlabelled" in plan.message() and "1 now capability" in plan.message()
    assert apply_cluster_label(lab, plan) == 2
    state = {fid: lab.labels.get("s", fid[2], "heldout:test_walk") for fid in walk.failure_ids}
    assert {v.verdict for v in state.values()} == {Verdict.SPECIFICATION}
    assert plan_cluster_label(lab, walk.failure_ids, Verdict.SPECIFICATION).message().startswith("All 3 failures")
    lab.undo()
    assert lab.labels.get("s", "a", "heldout:test_walk").verdict is Verdict.CAPABILITY
    assert lab.labels.get("s", "b", "heldout:test_walk").verdict is Verdict.SPECIFICATION
    assert lab.labels.get("s", "c", "heldout:test_walk") is None
    missing = plan_cluster_label(lab, ["s/zz#heldout:test_walk"], Verdict.CAPABILITY)
    assert missing.missing == ("s/zz#heldout:test_walk",) and missing.to_change == ()
