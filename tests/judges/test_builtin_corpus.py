"""The project's own instruments scored as judges against the bundled corpus's ground truth
(tests/corpus/expected.toml): the Evidence strip's hint, and the saved re-scores (really run in
bubblewrap). Each figure equals a computation by hand from the predictions files on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import cli
from judgekit import corpus_copy, expected, hand_kappa, hand_table, label_expected, predictions_on_disk

NOTATION_GRADINGS = ("oracle-2026-10/connected--atlas-7b#", "oracle-2026-10/eulerian--delta-pro#",
                     "oracle-2026-10/mst--breeze-large#", "oracle-2026-10/fast-expt--cobalt-mini#")
"""The planted notation failures the re-score flips (tests/corpus/README.md)."""


def scored(root: Path, judge: str) -> dict:
    """The judge's row against the ground truth in ``reviewer agreement --json``."""
    done = cli("agreement", str(root), "--json")
    assert done.returncode == 0, done.stderr
    return next(j for j in json.loads(done.stdout)["judges"] if (j["judge"], j["against"]) == (judge, "expected"))


def table_of(row: dict) -> tuple[int, int, int, int]:
    c = row["confusion"]
    return (c["specification/specification"], c["specification/capability"], c["capability/specification"],
            c["capability/capability"])


def test_the_evidence_judge_against_the_ground_truth(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    label_expected(root, "expected")
    done = cli("judge", str(root), "--builtin", "evidence")
    assert done.returncode == 0, done.stderr
    truth = expected()
    on_disk = predictions_on_disk(root, "evidence")
    assert set(on_disk) == set(truth) and None not in on_disk.values()
    row = scored(root, "evidence")
    table = hand_table(on_disk, truth)
    assert table_of(row) == table and row["n"] == 70 and row["labelled"] == 70
    ss, sc, cs, cc = table
    print(f"\nevidence judge on the bundled corpus: s/s {ss} s/c {sc} c/s {cs} c/c {cc}, kappa {row['kappa']}")
    # the corpus figures' targets (tests/analysis/test_corpus_figures.py): every specification failure
    # pointed at its cause, at most 1 in 10 capability failures hinted towards specification
    assert ss == 30 and cs == 0 and sc * 10 <= 40
    if sc:
        kappa, low, high = hand_kappa(*table)
        assert (row["kappa"], row["kappa_low"], row["kappa_high"]) == pytest.approx((kappa, low, high))
    else:  # agreeing on every failure: kappa 1, and the large-sample interval is the point
        assert (row["kappa"], row["kappa_low"], row["kappa_high"]) == (1.0, 1.0, 1.0)
    assert row["leans"] in (None, "the task")


@pytest.mark.slow
def test_the_rescore_judge_against_the_ground_truth(tmp_path: Path) -> None:
    """Every proposed repair really re-scored in bubblewrap, then the re-score judge: it calls
    specification exactly the failures a notation-only repair flipped, never a capability failure,
    and abstains where nothing was re-scored (its coverage says how far it reaches)."""
    from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox

    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"this test needs a working bubblewrap (CI installs it): {exc}")
    root = corpus_copy(tmp_path)
    rescored = cli("rescore", str(root), "--all-proposed", "--reviewer", "ann", "--json")
    assert rescored.returncode == 0, rescored.stderr
    flipped = {json.loads(line)["failure"] for line in rescored.stdout.splitlines() if json.loads(line).get("flipped")}
    label_expected(root, "expected")
    done = cli("judge", str(root), "--builtin", "rescore")
    assert done.returncode == 0, done.stderr
    truth = expected()
    on_disk = predictions_on_disk(root, "rescore")
    spec = {fid for fid, verdict in on_disk.items() if verdict == "specification"}
    assert spec == flipped and spec
    assert all(truth[fid] == "specification" for fid in spec)  # no capability failure flips
    assert all(any(fid.startswith(g) for fid in spec) for g in NOTATION_GRADINGS)
    row = scored(root, "rescore")
    table = hand_table(on_disk, truth)
    assert table_of(row) == table
    ss, sc, cs, cc = table
    assert sc == 0 and row["precision"] == 1.0
    assert row["recall_all"] == pytest.approx(ss / 30) and row["n"] + row["abstained"] + row["unpredicted"] == 70
    print(f"\nre-score judge on the bundled corpus: s/s {ss} s/c {sc} c/s {cs} c/c {cc}, coverage {row['n']}/70, "
          f"kappa {row['kappa']}, recall of all specification {row['recall_all']:.3f}")
    if cs + cc:
        kappa, low, high = hand_kappa(*table)
        assert (row["kappa"], row["kappa_low"], row["kappa_high"]) == pytest.approx((kappa, low, high))
    else:  # it only ever says specification where it speaks: kappa is undefined, and said so
        assert row["kappa"] is None
