"""The three evidence figures over the bundled corpus, computed from ``reviewer show --json``.

    .venv/bin/python tests/analysis/corpus_figures.py [--json] [PATH] [--expected FILE]

``--expected`` names the ground truth in the format of ``tests/corpus/expected.toml`` (``[runs."SESSION/RUN"]``
with ``failures`` and ``near_misses`` tables; a near miss of kind ``limit`` is an interpreter limit
the crash names): recorded failures kept outside the project are measured the same way
(``tests/holdout/figures.py`` imports and observes such a corpus first).

For every failure planted in ``tests/corpus/expected.toml``: specification failures whose
evidence points at their cause (an unmet unstated demand, a near miss of an unstated notation,
or a known interpreter limit that stopped the program); planted notation near misses found (of
the planted kind); capability failures given a hint towards specification (target: at most 1
in 10). Prints the figures and the failures that miss.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXPECTED = REPO / "tests" / "corpus" / "expected.toml"


@dataclass
class Figures:
    """The three figures and the failures behind each miss."""

    specification: int = 0
    pointed: int = 0
    planted_near_misses: int = 0
    near_misses_found: int = 0
    capability: int = 0
    capability_hinted: int = 0
    misses: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return {
            "specification": self.specification, "pointed_at_cause": self.pointed,
            "planted_near_misses": self.planted_near_misses, "near_misses_found": self.near_misses_found,
            "capability": self.capability, "capability_hinted_towards_specification": self.capability_hinted,
            "misses": self.misses,
        }

    def lines(self) -> list[str]:
        """The figures for a person."""
        return [
            f"specification failures pointed at their cause: {self.pointed} of {self.specification}",
            f"planted notation near misses found: {self.near_misses_found} of {self.planted_near_misses}",
            (f"capability failures given a hint towards specification: {self.capability_hinted} of {self.capability}"
             f" ({100 * self.capability_hinted / max(self.capability, 1):.1f}%, target at most 10%)"),
            *(f"  miss: {m}" for m in self.misses),
        ]


def planted(expected: Path = EXPECTED) -> dict[str, tuple[str, str]]:
    """{failure id: (verdict, planted near-miss kind or "")}."""
    doc = tomllib.loads(expected.read_text(encoding="utf-8"))
    out = {}
    for run, spec in doc["runs"].items():
        for check, verdict in spec["failures"].items():
            out[f"{run}#{check}"] = (verdict, spec.get("near_misses", {}).get(check, ""))
    return out


def show_json(root: Path, expected: Path = EXPECTED) -> dict[str, dict[str, Any]]:
    """``reviewer show --json`` for every planted failure (through the command's own function)."""
    from reviewer.commands.show import show_json as show
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root, use_index=False)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "figures"))
    return {fid: show(labeller, fid) for fid in planted(expected)}


def compute(shown: dict[str, dict[str, Any]], expected: Path = EXPECTED) -> Figures:
    """The figures from the JSON of every planted failure."""
    f = Figures()
    for fid, (verdict, kind) in planted(expected).items():
        ev = shown[fid]["evidence"]
        towards = bool(ev and ev["towards_specification"])
        if verdict == "specification":
            f.specification += 1
            f.pointed += towards
            if not towards:
                f.misses.append(f"specification not pointed at: {fid}")
        else:
            f.capability += 1
            f.capability_hinted += towards
            if towards:
                f.misses.append(f"capability hinted towards specification: {fid} ({'; '.join(ev['causes'])})")
        if kind:
            f.planted_near_misses += 1
            found = bool(ev) and (any(nm["kind"] == kind for nm in ev["near_misses"])
                                  or (kind == "limit" and bool(ev["crash"] and ev["crash"]["limit"])))
            f.near_misses_found += found
            if not found:
                f.misses.append(f"{kind} near miss not found: {fid}")
    return f


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=REPO / "sessions")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--expected", type=Path, default=EXPECTED, help="the ground truth (expected.toml's format)")
    args = parser.parse_args()
    figures = compute(show_json(args.path, args.expected), args.expected)
    print(json.dumps(figures.as_dict(), indent=1) if args.json else "\n".join(figures.lines()))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
