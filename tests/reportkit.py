"""The example corpus copied and labelled by two reviewers, for the report, serve and browser tests.

The labels are made for the tests and the README's screenshots through the real labeller:
alice decides every failure but three, bob a dozen of them, disagreeing with her on two.
"""

from __future__ import annotations

from pathlib import Path

from sessionkit import example_corpus

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

REPO = Path(__file__).resolve().parents[1]
S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY
CLOCK = "2026-12-01T09:00:00Z"

# failure id (or the run part before '#') -> (verdict, tag, note) for alice
SPECIFICATION = {
    "golden-2026-08/golden-hydrant--breeze-large#": ("vocabulary-mismatch", "the brief never names the district in full"),
    "oracle-2026-10/connected--atlas-7b#": ("vocabulary-mismatch", "connected=true where the checker reads connected=yes"),
    "oracle-2026-10/connected--breeze-large#": ("vocabulary-mismatch", "the same yes/true vocabulary"),
    "oracle-2026-10/eulerian--delta-pro#": ("unpublished-key", "the walk is printed under another key"),
    "oracle-2026-10/fast-expt--cobalt-mini#oracle:oracle_fast_expt.py::test_mults_within_log_bound_huge_exponent": (
        "interpreter-limit", "dies printing a 31,000-digit value before the count"),
    "oracle-2026-10/fast-expt--cobalt-mini#oracle:oracle_fast_expt.py::test_mults_within_log_bound": (
        "unpublished-key", "the checker reads mults; the brief names only value"),
    "oracle-2026-10/mst--breeze-large#": ("type-mismatch", "edges is a count in the brief, a list in the checker"),
    "pounce-2026-11/roman-go--ember-9b#": ("wrong-folder", "graded in another package's folder"),
    "rank-2026-09/percent-change--ember-9b#": ("separator", "rounding was never stated"),
}
UNLABELLED = ("rank-2026-09/percent-change--fjord-xl#", "pounce-2026-11/roman-go--fjord-xl#", "oracle-2026-10/mst--delta-pro#")
BOB_DIFFERS = ("oracle-2026-10/connected--breeze-large#", "rank-2026-09/percent-change--ember-9b#")


def alice_verdict(failure_id: str) -> tuple[Verdict, tuple[str, ...], str] | None:
    """Alice's decision on a failure (None: left unlabelled)."""
    if failure_id.startswith(UNLABELLED):
        return None
    for prefix, (tag, note) in SPECIFICATION.items():
        if failure_id.startswith(prefix):
            return S, (tag,), note
    return C, (), ""


def labelled_corpus(root: Path) -> Path:
    """Copy the bundled corpus to ``root`` and label it as alice and bob (returns ``root``)."""
    example_corpus(root)
    store = SessionStore(root)
    store.scan()
    alice = Labeller(store, LabelStore(root, "alice"), clock=lambda: CLOCK)
    bob = Labeller(store, LabelStore(root, "bob"), clock=lambda: CLOCK)
    for i, failure in enumerate(f for run in store.runs for f in store.failures(run)):
        decided = alice_verdict(failure.id)
        if decided is None:
            continue
        verdict, tags, note = decided
        alice.decide(failure.id, verdict, note, tags)
        if i % 3 == 0 or failure.id.startswith(BOB_DIFFERS):
            other = (C if verdict is S else S) if failure.id.startswith(BOB_DIFFERS) else verdict
            bob.decide(failure.id, other, "", tags if other is verdict else ())
    return root


RESCORES = (
    ("oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_single_node",
     ("map-value:connected:true:yes", "map-value:connected:false:no")),
    ("oracle-2026-10/depth--cobalt-mini#oracle:oracle_depth.py::test_long_chain", ("lift-limit:recursion",)),
)
"""Two planted notation failures and their repairs: connected's five failures are labelled
specification by alice; depth--cobalt-mini's long chain (the recursion limit) she labelled
capability, so re-scoring it moves the re-scored pass rate above the corrected one."""


def rescore_corpus(root: Path, home: Path) -> list[dict[str, object]]:
    """Really re-score :data:`RESCORES` in ``root`` (bubblewrap sandbox, the real graders) as
    alice; the JSON line of each re-score. ``home`` holds the runs' private config folders."""
    import json
    import os
    import subprocess
    import sys

    env = os.environ | {"XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
                        "XDG_CACHE_HOME": str(home / "cache"), "GIT_CONFIG_GLOBAL": os.devnull}
    out = []
    for failure, repairs in RESCORES:
        argv = [sys.executable, "-m", "reviewer.cli", "rescore", str(root), "--failure", failure, "--reviewer", "alice",
                "--json", *(w for r in repairs for w in ("--repair", r))]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env, check=False)
        assert done.returncode == 0, done.stderr
        out += [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return out
