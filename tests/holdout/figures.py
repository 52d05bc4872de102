"""The evidence and re-score figures on a corpus kept apart from the bundled one.

    .venv/bin/python tests/holdout/figures.py [--corpus tests/holdout] [--no-observe] [--rescore] [--json]

Imports the corpus with its own ``build.py --import`` (the documented ``reviewer import`` options)
into a temporary folder, observes every grading whose grader names the program it runs
(``reviewer rescore --observe``; ``--no-observe`` leaves that out), and prints, from ``reviewer show
--json``: specification failures pointed at their cause, planted near misses found, capability
failures given a hint towards specification. With ``--rescore``: ``reviewer rescore --all-proposed
--json``, the specification failures a notation repair explains that it flipped, the capability
failures it flipped (must be 0) and the passing checks it broke (must be 0).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO / "tests" / "analysis")]

from corpus_figures import compute, show_json  # noqa: E402


def reviewer_command() -> list[str]:
    """The reviewer of this interpreter's environment."""
    return [sys.executable, "-m", "reviewer.cli"]


def build(corpus: Path, into: Path) -> None:
    """The corpus imported with its own builder (which checks the failing checks against expected.toml)."""
    exe = Path(sys.executable).with_name("reviewer")
    done = subprocess.run([sys.executable, str(corpus / "build.py"), "--import", str(into), "--reviewer", str(exe)],
                          capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        raise SystemExit(f"the corpus did not import:\n{done.stdout}\n{done.stderr}")


def observe(sessions: Path) -> None:
    """Every grading naming its program, observed in the sandbox."""
    done = subprocess.run([*reviewer_command(), "rescore", str(sessions), "--observe", "--reviewer", "figures"],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode not in (0, 1):
        raise SystemExit(f"rescore --observe failed ({done.returncode}):\n{done.stderr}")


def planted(expected: Path) -> dict[str, tuple[str, bool]]:
    """{failure id: (verdict, a notation repair explains it)}."""
    doc = tomllib.loads(expected.read_text(encoding="utf-8"))
    return {f"{run}#{check}": (verdict, bool(spec.get("repairs", {}).get(check)))
            for run, spec in doc["runs"].items() for check, verdict in spec.get("failures", {}).items()}


def rescore_figures(sessions: Path, expected: Path) -> dict[str, Any]:
    """``rescore --all-proposed --json`` against the ground truth."""
    done = subprocess.run([*reviewer_command(), "rescore", str(sessions), "--all-proposed", "--json", "--reviewer", "figures"],
                          capture_output=True, text=True, timeout=3600)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    results = {r["failure"]: r for r in rows if "failure" in r and "error" not in r}
    truth = planted(expected)
    flipped = {fid for fid, r in results.items() if r["flipped"]}
    repairable = [fid for fid, (v, rep) in truth.items() if v == "specification" and rep]
    return {
        "exit_status": done.returncode,
        "repairable_specification": len(repairable),
        "repairable_flipped": sum(1 for fid in repairable if fid in flipped),
        "capability_flipped": sorted(fid for fid in flipped if truth.get(fid, ("",))[0] == "capability"),
        "broken_passing_checks": sum(1 for r in results.values() for c in r["checks"]
                                     if c["recorded"] == "pass" and c["before"] == "pass" and c["after"] != "pass"),
        "errors": [r for r in rows if "error" in r],
        "not_flipped": sorted(fid for fid in repairable if fid not in flipped),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=HERE, help="the corpus folder (build.py, expected.toml)")
    parser.add_argument("--no-observe", action="store_true", help="leave the observation out")
    parser.add_argument("--rescore", action="store_true", help="also re-score every proposal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    expected = args.corpus / "expected.toml"
    with tempfile.TemporaryDirectory(prefix="reviewer-figures-") as tmp:
        sessions = Path(tmp) / "sessions"
        build(args.corpus, sessions)
        if not args.no_observe:
            observe(sessions)
        figures = compute(show_json(sessions, expected), expected).as_dict()
        if args.rescore:
            figures["rescore"] = rescore_figures(sessions, expected)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"specification failures pointed at their cause: {figures['pointed_at_cause']} of {figures['specification']}")
        print(f"planted near misses found: {figures['near_misses_found']} of {figures['planted_near_misses']}")
        print(f"capability failures hinted towards specification: {figures['capability_hinted_towards_specification']} "
              f"of {figures['capability']}")
        for miss in figures["misses"]:
            print(f"  miss: {miss}")
        if args.rescore:
            r = figures["rescore"]
            print(f"rescore --all-proposed: {r['repairable_flipped']} of {r['repairable_specification']} repairable "
                  f"specification failures flipped, {len(r['capability_flipped'])} capability failures flipped, "
                  f"{r['broken_passing_checks']} passing checks broken")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
