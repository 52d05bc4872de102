"""Every finding of the red-team passes (hostile folder, promises under attack), reproduced and shown contained.

    python tests/reliability/attacker_folder.py [--json] [--only N]

Each finding (``tests/reliability/attacks/fNN_*.py``) builds its own fixture, shows the attack
live where it can be shown without reviewer's fix (the code before the fix where
``REVIEWER_BEFORE_FIX_PYTHON`` names its Python, for the findings that can run it; else the attack's
reference), then runs reviewer's real code path. Figures:
findings, live (attacks shown to work without the fix), contained, escaped (must be 0), and each
finding's own figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "git")]

from attacks import Outcome, findings  # noqa: E402


def run_one(module: Any) -> tuple[Outcome, float]:
    """Run one finding's check in a fresh folder; a crash of the check counts as not contained."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"attack-{module.FINDING:02d}-") as work:
        try:
            outcome = module.check(Path(work))
        except Exception:
            outcome = Outcome(False, None, "the check itself crashed:\n" + traceback.format_exc())
    return outcome, time.monotonic() - started


def measure(only: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """Run the findings; (figures, lines for a person)."""
    figures: dict[str, Any] = {"findings": 0, "live": 0, "contained": 0, "escaped": 0, "cases": {}}
    lines = []
    for module in findings():
        if only is not None and module.FINDING != only:
            continue
        outcome, seconds = run_one(module)
        name = module.__name__.rpartition(".")[2]
        figures["findings"] += 1
        figures["live"] += outcome.live is True
        figures["contained"] += outcome.contained
        figures["escaped"] += not outcome.contained
        figures["cases"][name] = {"finding": module.FINDING, "contained": outcome.contained,
                                  "live": outcome.live, "seconds": round(seconds, 2), **outcome.figures}
        mark = "contained" if outcome.contained else "ESCAPED"
        lines.append(f"{module.FINDING:2d} {name}: {mark} (live: {outcome.live}) {module.TITLE}")
        if outcome.detail:
            lines.append("   " + outcome.detail.replace("\n", "\n   "))
    return figures, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", type=int, help="run only this finding")
    args = parser.parse_args()
    figures, lines = measure(args.only)
    print(json.dumps(figures, sort_keys=True) if args.json else "\n".join(lines))
    return 0 if figures["escaped"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
