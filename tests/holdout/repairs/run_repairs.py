#!/usr/bin/env python3
"""Hand-run repair experiments: settle every failing check by re-grading with the notation repaired.

    python repairs/run_repairs.py [RUN_GLOB]

For every run with failures (material/*/runs/*/meta.toml) it grades, each in a fresh
temporary folder and with the UNMODIFIED held-out grader:

  control   the program as recorded;
  notation  each repair set of meta `repairs` (specification checks): shim.py takes the
            program's place and only re-expresses its output / lifts an interpreter limit
            (for Go: `grade-where-saved:F` runs the unchanged test in folder F);
  stated    each set of meta `stated_repairs` (capability checks whose fix would change
            what the brief states, e.g. a stated key or vocabulary);
  probe     each set of meta `probes`: notation repairs tried on capability checks, which
            must flip nothing.
  edit      each set of meta `edits` (FILE, OLD, NEW replacements in a copy of the
            program): not a repair, evidence that a specification failure no notation
            repair can reach (in-process Go checker, input outside the brief) is a
            matter of an unstated detail and not of substance.

A check *flipped* when it failed in the control and passes after the repair. Results go
to repairs/results.toml (per experiment: failed before/after, flipped) and a readable
repairs/results.log. Run with a Python that has pytest and tomli_w.
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import tomli_w

sys.dont_write_bytecode = True

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (TASKS, load_runs, grader_env)

EDITS: list = []  # (file, old, new) applied to the laid-out copy of the program


def lay_out(run: dict, work: Path, grader_dir: Path) -> None:
    code = run["dir"] / "code"
    for f in sorted(code.rglob("*")):
        if f.is_file():
            dest = work / f.relative_to(code)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, dest)
    for name, old, new in EDITS:
        text = (work / name).read_text()
        if old not in text:
            raise ValueError(f"edit: {old!r} not in {name}")
        (work / name).write_text(text.replace(old, new))
    grader_dir.mkdir(parents=True, exist_ok=True)
    for g in run["grader_files"]:
        shutil.copyfile(g, grader_dir / g.name)


def python_statuses(run: dict, repairs: list[str]) -> dict[str, str]:
    """test name -> passed/failed, grading the (possibly shimmed) program with pytest."""
    program = build.TASKS[run["task"]][2]
    oracle = run["grader_files"][0].name
    with tempfile.TemporaryDirectory(prefix="holdout-rep-") as tmp:
        work = Path(tmp)
        lay_out(run, work, work)
        if repairs:
            os.replace(work / program, work / f"_orig_{program}")
            shutil.copyfile(HERE / "shim.py", work / program)
            (work / "_shim_repairs.json").write_text(json.dumps({"original": f"_orig_{program}", "repairs": repairs}))
        proc = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", oracle],
                              cwd=work, env=build.grader_env(), capture_output=True, text=True, timeout=900)
    statuses = {}
    for m in re.finditer(r"^(PASSED|FAILED|ERROR) \S+?::(\w+)", proc.stdout, re.M):
        statuses[m[2]] = "passed" if m[1] == "PASSED" else "failed"
    if not statuses:
        raise RuntimeError(f"no pytest result for {run['run']}:\n{proc.stdout[-2000:]}")
    return statuses


def go_statuses(run: dict, repairs: list[str]) -> dict[str, str]:
    folder = ""
    for r in repairs:
        kind, _, arg = r.partition(":")
        if kind != "grade-where-saved":
            raise ValueError(f"{r}: not applicable to an in-process Go checker")
        folder = arg
    with tempfile.TemporaryDirectory(prefix="holdout-rep-") as tmp:
        work = Path(tmp)
        grader_dir = work / folder if folder else work
        lay_out(run, work, grader_dir)
        proc = subprocess.run(["go", "test", "-count=1", "-json", "./..."], cwd=grader_dir,
                              env=build.grader_env(), capture_output=True, text=True, timeout=600)
    statuses, failed_tests = {}, False
    for line in proc.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("Test") and ev["Action"] in ("pass", "fail"):
            statuses[ev["Test"]] = "passed" if ev["Action"] == "pass" else "failed"
            failed_tests |= ev["Action"] == "fail"
    build_check = f"build:{'example.com/' + run['task'] if run['task'] == 'datediff' else 'example.com/matrix'}"
    built = "[build failed]" not in proc.stdout + proc.stderr
    statuses[build_check] = "passed" if built else "failed"
    return statuses


def inspect_statuses(run: dict, repairs: list[str]) -> dict[str, str]:
    """The Inspect scorer is C only when the whole oracle passes: one check."""
    tests = python_statuses(run, repairs)
    return {"heldout_oracle:score": "passed" if all(v == "passed" for v in tests.values()) else "failed",
            **{f"oracle:{k}": v for k, v in tests.items()}}


def statuses(run: dict, repairs: list[str]) -> dict[str, str]:
    if run["format"].startswith("go-test"):
        return go_statuses(run, repairs)
    if run["format"] == "inspect":
        return inspect_statuses(run, repairs)
    return python_statuses(run, repairs)


def main() -> None:
    pattern = sys.argv[1] if len(sys.argv) > 1 else "*"
    results_path = HERE / "results.toml"
    old = tomllib.loads(results_path.read_text()) if results_path.exists() else {"experiment": []}
    runs = [r for r in build.load_runs() if r["failures"] and fnmatch.fnmatch(f"{r['session']}/{r['run']}", pattern)]
    redone = {f"{r['session']}/{r['run']}" for r in runs}
    experiments = [e for e in old.get("experiment", []) if e["run"] not in redone]
    for run in runs:
        rid = f"{run['session']}/{run['run']}"
        control = statuses(run, [])
        failed_before = sorted(k for k, v in control.items() if v == "failed")
        experiments.append({"run": rid, "kind": "control", "repairs": [], "failed": failed_before, "flipped": []})
        print(f"{rid}: control fails {failed_before}")
        sets = []
        for kind in ("repairs", "stated_repairs", "probes", "edits"):
            for reps in run.get(kind, {}).values():
                label = {"repairs": "notation", "stated_repairs": "stated", "probes": "probe", "edits": "edit"}[kind]
                if (label, reps) not in sets:
                    sets.append((label, reps))
        for label, reps in sets:
            if label == "edit":
                EDITS[:] = [tuple(e) for e in reps]
                after = statuses(run, [])
                EDITS.clear()
                shown = [f"{f}: {old!r} -> {new!r}" for f, old, new in reps]
            else:
                after = statuses(run, reps)
                shown = reps
            failed_after = sorted(k for k, v in after.items() if v == "failed")
            flipped = sorted(k for k in failed_before if after.get(k) == "passed")
            experiments.append({"run": rid, "kind": label, "repairs": shown, "failed": failed_after, "flipped": flipped})
            print(f"   {label:8} {shown}: flipped {flipped}; still failing {failed_after}")
    experiments.sort(key=lambda e: (e["run"], ["control", "notation", "stated", "probe", "edit"].index(e["kind"]), e["repairs"]))
    results_path.write_bytes(tomli_w.dumps({"format": 1, "experiment": experiments}).encode())
    lines = []
    for e in experiments:
        head = f"{e['run']:40} {e['kind']:8} {' + '.join(e['repairs']) or '(as recorded)'}"
        lines.append(head)
        lines.append(f"    failed:  {', '.join(e['failed']) or '-'}")
        if e["kind"] != "control":
            lines.append(f"    flipped: {', '.join(e['flipped']) or '-'}")
    (HERE / "results.log").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
