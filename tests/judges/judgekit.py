"""What the judge tests share: a private copy of the bundled corpus, its ground truth, the script judge,
and kappa computed by hand (not through the project's code)."""

from __future__ import annotations

import math
import shutil
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SESSIONS = REPO / "sessions"
EXPECTED = REPO / "tests" / "corpus" / "expected.toml"
SCRIPT_JUDGE = Path(__file__).resolve().parent / "script_judge.py"
Z95 = 1.959963984540054


def corpus_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled corpus (never the checkout's own sessions/)."""
    dest = tmp_path / "sessions"
    shutil.copytree(SESSIONS, dest, symlinks=True)
    return dest


def expected() -> dict[str, str]:
    """The corpus's ground truth: failure id -> intended verdict."""
    doc = tomllib.loads(EXPECTED.read_text())
    return {f"{run}#{check}": verdict for run, t in doc["runs"].items() for check, verdict in t["failures"].items()}


def label_expected(root: Path, reviewer: str) -> None:
    """Label every failure of the copy with its intended verdict, as ``reviewer`` (the real labelling flow)."""
    from reviewer.model.label import Verdict
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, reviewer))
    for fid, verdict in expected().items():
        labeller.decide(fid, Verdict(verdict))


def script_command(*more: str) -> str:
    """The script judge's command line as a user would type it."""
    return " ".join([sys.executable, str(SCRIPT_JUDGE), *more])


def predictions_on_disk(root: Path, judge: str) -> dict[str, str | None]:
    """failure id -> verdict (None: abstained), read from the files with tomllib alone."""
    out: dict[str, str | None] = {}
    for path in sorted(root.glob(f"*/predictions/{judge}.toml")):
        doc = tomllib.loads(path.read_text())
        for t in doc.get("prediction", []):
            out[f"{t['session']}/{t['run']}#{t['check']}"] = t["verdict"]
        for t in doc.get("abstention", []):
            out[f"{t['session']}/{t['run']}#{t['check']}"] = None
    return out


def hand_table(predicted: dict[str, str | None], truth: dict[str, str]) -> tuple[int, int, int, int]:
    """(ss, sc, cs, cc), the judge's verdict first, over the failures both decided."""
    cells = {"ss": 0, "sc": 0, "cs": 0, "cc": 0}
    for fid, human in truth.items():
        said = predicted.get(fid)
        if said is not None:
            cells[said[0] + human[0]] += 1
    return cells["ss"], cells["sc"], cells["cs"], cells["cc"]


def hand_kappa(ss: int, sc: int, cs: int, cc: int) -> tuple[float, float, float]:
    """Cohen's kappa and its 95% interval (large-sample SE), written out from the textbook formula."""
    n = ss + sc + cs + cc
    po = (ss + cc) / n
    judge_spec, human_spec = (ss + sc) / n, (ss + cs) / n
    pe = judge_spec * human_spec + (1 - judge_spec) * (1 - human_spec)
    kappa = (po - pe) / (1 - pe)
    se = math.sqrt(po * (1 - po) / (n * (1 - pe) ** 2))
    return kappa, max(-1.0, kappa - Z95 * se), min(1.0, kappa + Z95 * se)
