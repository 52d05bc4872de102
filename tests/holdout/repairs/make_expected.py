#!/usr/bin/env python3
"""Write expected.toml from the hand-written verdicts in each run's meta.toml, after
checking them against the repair experiments in repairs/results.toml.

    python repairs/make_expected.py

Checks, per failing check (exit 1 if any fails):
- the control re-grade fails exactly the checks meta.toml lists (nothing more, nothing less);
- a specification check with `repairs` is flipped by that notation experiment;
- a capability check is flipped by no notation or probe experiment; with `stated_repairs`
  it is flipped by that stated experiment.

Check ids are the ones `reviewer failures --json` prints after `build.py --import`:
pytest text `grader:<oracle>.py::<test>`, JUnit `grader:<module>::<test>`, Go
`grader:<Test>` or `grader:build:<package>`, Inspect `heldout_oracle:score`. Inspect runs
are named by reviewer `<sample id>-epoch-1`, `-2`, ... in the order the logs are given
to one `reviewer import inspect` (build.py gives them sorted by file name).
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import tomli_w

sys.dont_write_bytecode = True

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import build  # noqa: E402


def check_id(run: dict, name: str) -> str:
    oracle = Path(build.TASKS[run["task"]][1][0]).name
    if run["format"] in ("pytest", "pytest-color"):
        return f"grader:{oracle}::{name}"
    if run["format"] == "junit":
        return f"grader:{oracle.removesuffix('.py')}::{name}"
    return name if run["format"] == "inspect" else f"grader:{name}"


def main() -> None:
    runs = build.load_runs()
    results = tomllib.loads((HERE / "results.toml").read_text())["experiment"]
    by_run: dict[str, list[dict]] = {}
    for e in results:
        by_run.setdefault(e["run"], []).append(e)
    inspect_runs = sorted(r["run"] for r in runs if r["format"] == "inspect")
    problems, out = [], {}
    for run in runs:
        rid = f"{run['session']}/{run['run']}"
        exps = by_run.get(rid, [])
        failures = run.get("failures", {})
        if failures:
            control = next((e for e in exps if e["kind"] == "control"), None)
            if control is None:
                problems.append(f"{rid}: no experiments recorded")
                continue
            failed = {k for k in control["failed"] if not k.startswith("oracle:")}
            if failed != set(failures):
                problems.append(f"{rid}: control fails {sorted(failed)}, meta lists {sorted(failures)}")
        for name, verdict in failures.items():
            flips = {(e["kind"], tuple(e["repairs"])) for e in exps if name in e["flipped"]}
            if verdict == "specification":
                for reps in [run["repairs"][name]] if name in run.get("repairs", {}) else []:
                    if ("notation", tuple(reps)) not in flips:
                        problems.append(f"{rid}#{name}: notation repair {reps} did not flip it")
            else:
                bad = [r for k, r in flips if k in ("notation", "probe")]
                if bad:
                    problems.append(f"{rid}#{name}: capability flipped by notation {bad}")
                for reps in [run["stated_repairs"][name]] if name in run.get("stated_repairs", {}) else []:
                    if ("stated", tuple(reps)) not in flips:
                        problems.append(f"{rid}#{name}: stated repair {reps} did not flip it")
        if run["format"] == "inspect":
            n = inspect_runs.index(run["run"]) + 1
            key = f"{run['session']}/{run['task']}-epoch-1" + ("" if n == 1 else f"-{n}")
            model = "mockllm/" + run["model"]
        else:
            key, model = rid, run["model"]

        def ids(table: dict, keep=lambda v: True) -> dict:
            return {check_id(run, k): v for k, v in table.items() if keep(v)}  # noqa: B023 - used at once, in this iteration

        entry = {"task": run["task"], "model": model, "outcome": run["outcome"], "plant": run["plant"],
                 "failures": ids(failures)}
        if run.get("near_misses"):
            entry["near_misses"] = ids(run["near_misses"])
        if run.get("repairs"):
            entry["repairs"] = ids(run["repairs"])
        stated = {k: v for k, v in run.get("stated_repairs", {}).items()
                  if not any(r.startswith("custom:") for r in v)}
        if stated:
            entry["stated_repairs"] = ids(stated)
        out[key] = entry
    if problems:
        sys.exit("\n".join(problems))
    header = ("# Ground truth of the holdout corpus: written by repairs/make_expected.py from the\n"
              "# verdicts in material/*/runs/*/meta.toml, checked against repairs/results.toml.\n")
    (HERE.parent / "expected.toml").write_text(header + tomli_w.dumps({"format": 1, "runs": dict(sorted(out.items()))}))
    spec = sum(v == "specification" for e in out.values() for v in e["failures"].values())
    cap = sum(v == "capability" for e in out.values() for v in e["failures"].values())
    rep = sum(len(e.get("repairs", {})) for e in out.values())
    st = sum(len(e.get("stated_repairs", {})) for e in out.values())
    passes = sum(not e["failures"] for e in out.values())
    print(f"{len(out)} runs: {spec} specification failures ({rep} repairable by notation), "
          f"{cap} capability failures ({st} flipped only by stated repairs), {passes} passes")


if __name__ == "__main__":
    main()
