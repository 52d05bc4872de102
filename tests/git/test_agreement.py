"""Several reviewers: agreement and kappa, disagreements, blind mode, adjudication, export --final."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitkit import many_failures

from reviewer.cli import main
from reviewer.model.label import Label, Verdict
from reviewer.store.labels.agreement import agreement, disagreements, pairwise, read_label_set, visible_others

S, C, D = "specification", "capability", "deferred"
# failure:  T00 T01 T02 T03 T04 T05 T06 T07 T08 T09 T10 T11
A_SAYS = [S, S, S, S, S, S, C, C, C, C, D, None]
B_SAYS = [S, S, S, S, C, C, C, C, C, S, S, C]


@pytest.fixture
def two_reviewers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """Reviewers A and B label the same twelve failures through the CLI."""
    root = tmp_path / "sessions"
    ids = many_failures(root)
    for who, verdicts in (("A", A_SAYS), ("B", B_SAYS)):
        for fid, verdict in zip(ids, verdicts):
            if verdict is not None:
                assert main(["label", str(root), "--failure", fid, "--verdict", verdict, "--reviewer", who]) == 0
    capsys.readouterr()
    return root, ids


def test_kappa_matches_the_hand_computation(two_reviewers: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    """Both decided T00..T09 (T10: A deferred; T11: only B). a = A, b = B:
    s/s = 4 (T00-T03), s/c = 2 (T04, T05), c/c = 3 (T06-T08), c/s = 1 (T09); n = 10.
    po = (4 + 3) / 10 = 0.7. A says s in 6/10, B in 5/10:
    pe = 0.6 * 0.5 + 0.4 * 0.5 = 0.5. kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4."""
    root, _ = two_reviewers
    assert main(["agreement", str(root), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [pair] = doc["pairs"]
    assert (pair["a"], pair["b"], pair["n"]) == ("A", "B", 10)
    assert pair["percent"] == pytest.approx(70.0)
    assert pair["kappa"] == pytest.approx(0.4)
    assert pair["confusion"] == {
        "specification/specification": 4,
        "specification/capability": 2,
        "capability/specification": 1,
        "capability/capability": 3,
    }
    assert main(["agreement", str(root)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["a", "b", "n", "agree", "kappa", "s/s", "s/c", "c/s", "c/c"]
    assert table[1].split() == ["A", "B", "10", "70.0%", "0.400", "4", "2", "1", "3"]


def test_pairs_cover_every_pair_sorted_even_without_overlap(two_reviewers: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, ids = two_reviewers
    assert main(["label", str(root), "--failure", ids[11], "--verdict", S, "--reviewer", "C"]) == 0
    capsys.readouterr()
    assert main(["agreement", str(root), "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    assert [(p["a"], p["b"], p["n"]) for p in pairs] == [("A", "B", 10), ("A", "C", 0), ("B", "C", 1)]
    assert pairs[1]["percent"] is None and pairs[1]["kappa"] is None
    # B and C: one failure, B says c, C says s: po = 0, pe = 0 * 1 + 1 * 0 = 0, kappa = 0
    assert (pairs[2]["percent"], pairs[2]["kappa"]) == (0.0, 0.0)


def test_kappa_edge_cases() -> None:
    assert agreement(5, 0, 0, 0) == (100.0, 1.0)  # pe = 1: everyone said specification to everything
    assert agreement(0, 0, 0, 0) == (None, None)
    assert agreement(0, 3, 3, 0)[1] == pytest.approx(-1.0)  # po = 0, pe = 0.5


def test_disagreements_are_exactly_the_differing_failures(two_reviewers: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, ids = two_reviewers
    found = disagreements(root, ["m"])
    assert [d.failure_id for d in found] == [ids[4], ids[5], ids[9]]
    assert all(d.adjudicated is None for d in found)
    assert [(lab.reviewer, lab.verdict.value) for lab in found[0].labels] == [("A", S), ("B", C)]
    assert main(["adjudicate", str(root), "--failure", ids[4], "--verdict", C, "--note", "grader was right", "--reviewer", "carol"]) == 0
    after = {d.failure_id: d for d in disagreements(root, ["m"])}
    assert list(after) == [ids[4], ids[5], ids[9]]
    assert after[ids[4]].adjudicated.verdict is Verdict.CAPABILITY
    final = after[ids[4]].adjudicated
    assert (final.note, final.adjudicator) == ("grader was right", "carol")
    assert final.settled == (("A", Verdict.SPECIFICATION), ("B", Verdict.CAPABILITY))
    assert final.evidence.startswith("sha256:")
    assert after[ids[5]].adjudicated is None


def test_export_final_leaves_out_unadjudicated_disagreements(two_reviewers: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, ids = two_reviewers
    assert main(["export", str(root), "--final", "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert "3 failures left out" in err
    # 7 agreements, T10 (A deferred, B decided) and T11 (only B)
    assert [r["check"] for r in rows] == [f"heldout:T{i:02d}" for i in (0, 1, 2, 3, 6, 7, 8, 10, 11)]
    assert {r["reviewer"] for r in rows} == {"final"}
    assert main(["adjudicate", str(root), "--failure", ids[9], "--verdict", C, "--reviewer", "carol"]) == 0
    capsys.readouterr()
    assert main(["export", str(root), "--final", "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    final = {json.loads(line)["check"]: json.loads(line)["verdict"] for line in out.splitlines()}
    assert "2 failures left out" in err
    assert final["heldout:T09"] == C and "heldout:T04" not in final
    assert main(["adjudicate", str(root), "--failure", ids[9], "--clear"]) == 0
    capsys.readouterr()
    main(["export", str(root), "--final", "--format", "jsonl"])
    assert "3 failures left out" in capsys.readouterr().err


def test_adjudicate_refuses_unknown_failures_and_deferred(two_reviewers: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = two_reviewers
    assert main(["adjudicate", str(root), "--failure", "m/run1#heldout:nope", "--verdict", S]) == 1
    assert "no failing check" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["adjudicate", str(root), "--failure", "m/run1#heldout:T00", "--verdict", D])


def test_stale_and_orphan_labels_count_as_labelled(two_reviewers: tuple[Path, list[str]]) -> None:
    root, _ = two_reviewers
    (root / "m" / "runs" / "run1" / "brief.md").write_text("a different brief: every label is now stale\n")
    assert pairwise(read_label_set(root, ["m"]))[0].n == 10


def label(who: str, verdict: Verdict) -> Label:
    return Label("m", "run1", "heldout:T00", verdict, who, "2026-11-29T12:00:00Z")


def test_blind_mode_hides_others_until_i_decide() -> None:
    others = (label("B", Verdict.CAPABILITY),)
    assert visible_others(others, "A") is None
    assert visible_others(others + (label("A", Verdict.DEFERRED),), "A") is None
    assert visible_others(others, "A", revealed=True) == others
    assert visible_others(others, "A", blind=False) == others
    assert visible_others(others + (label("A", Verdict.SPECIFICATION),), "A") == others
