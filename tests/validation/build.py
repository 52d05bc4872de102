#!/usr/bin/env python3
"""Build, settle and import the validation corpus.

    python build.py --regrade                 run every grader afresh, write recorded/
    python build.py --settle                  settle verdicts by notation-only repairs
    python build.py --expected                write expected.toml from corpus.toml
    python build.py --import DIR [--reviewer PATH]
                                              import every run with `reviewer import`
    python build.py --prove [--reviewer PATH] import into a temp folder, `reviewer check`,
                                              compare `reviewer failures --json` with expected.toml

With no option: --regrade, --settle, --expected. Needs Python >= 3.11 with pytest (and
tomli_w for --expected) and Go >= 1.19. Exit status 1 when anything disagrees.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus.toml"
RECORDED = ROOT / "recorded"
SHIM = ROOT / "tools" / "shim.py"
RUN_DIR = "/work/run"  # what the grading folder is called in recorded output
LIFTS = ["lift-limit:int-max-str-digits", "lift-limit:recursion"]


def load_corpus() -> dict:
    with CORPUS.open("rb") as handle:
        corpus = tomllib.load(handle)
    for run_id, run in corpus["runs"].items():
        task, _, model = run_id.partition("--")
        run["task"], run["model"] = task, model
        run.setdefault("checks", {})
    return corpus


# ----------------------------------------------------------------------------- workspaces

def lay_workspace(corpus: dict, run_id: str, repairs: list[str], base: Path) -> Path:
    """Lay out the run's files and its grader as a harness would; return the grading folder.

    Repairs here only re-express: grade-where-saved moves the grading folder, go-package
    renames a package clause, everything else puts the shim in the program's place.
    """
    run = corpus["runs"][run_id]
    task = corpus["tasks"][run["task"]]
    code = ROOT / "tasks" / run["task"] / "runs" / run["model"]
    shutil.copytree(code, base, dirs_exist_ok=True)
    attempt_files = [p.relative_to(base) for p in base.rglob("*") if p.is_file()]
    cwd = base
    shim_repairs = []
    for repair in repairs:
        kind, _, args = repair.partition(":")
        if kind == "grade-where-saved":
            cwd = base / args
        elif kind == "go-package":
            old, new = args.split(":")
            for rel in attempt_files:
                if rel.suffix == ".go":
                    path = base / rel
                    text = path.read_text()
                    path.write_text(re.sub(rf"(?m)^package {re.escape(old)}\b", f"package {new}", text))
        else:
            shim_repairs.append(repair)
    for name in task["grader_files"]:
        shutil.copy(ROOT / "tasks" / run["task"] / "grader" / name, cwd / name)
    if shim_repairs:
        program = task["program"]
        if not program:
            raise SystemExit(f"{run_id}: {shim_repairs} need a program the checker runs")
        recorded = f"_recorded_{program}"
        (cwd / program).rename(cwd / recorded)
        shutil.copy(SHIM, cwd / program)
        (cwd / "_shim.json").write_text(json.dumps({"program": recorded, "repairs": shim_repairs}))
    return cwd


def grader_env() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONINTMAXSTRDIGITS", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def machine_paths(base: Path) -> list[str]:
    """Absolute paths of this machine that must never appear in recorded output."""
    paths = {str(base), os.path.realpath(base), str(ROOT), tempfile.gettempdir() + "/",
             str(Path.home()) + "/", sys.prefix, os.path.realpath(sys.prefix)}
    try:
        goroot = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True).stdout
        if goroot.strip():
            paths.add(goroot.strip())
    except OSError:
        pass
    paths.add(str(ROOT.parent) + "/")
    return sorted(p for p in paths if p not in ("/", ""))


def scrub(text: str, base: Path, strict: bool = True) -> str:
    """Temp folder -> /work/run, host name -> grader-host; strict: fail on any machine path."""
    for path in sorted({os.path.realpath(base), str(base)}, key=len, reverse=True):
        text = text.replace(path, RUN_DIR)
    text = re.sub(r'hostname="[^"]*"', 'hostname="grader-host"', text)
    if strict:
        for path in machine_paths(base):
            if path in text:
                raise SystemExit(f"a machine path survived scrubbing: {path}")
    return text


def grade(corpus: dict, run_id: str, repairs: list[str] = ()) -> tuple[int, str]:
    """Run the task's grader on the run (with repairs) in a fresh temp folder.

    Output of the unrepaired grader is recorded, so it must come out free of machine paths;
    output of a repaired one only feeds the settlement and is scrubbed without that check.
    """
    started = time.monotonic()
    run = corpus["runs"][run_id]
    task = corpus["tasks"][run["task"]]
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        base = Path(tmp)
        cwd = lay_workspace(corpus, run_id, list(repairs), base)
        merge = task["format"] != "junit"  # JUnit XML is stdout alone
        proc = subprocess.run(shlex.split(task["command"]), cwd=cwd, env=grader_env(),
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT if merge else subprocess.DEVNULL,
                              timeout=600)
        text = scrub(proc.stdout.decode("utf-8", errors="replace"), base, strict=not repairs)
        if os.environ.get("BUILD_VERBOSE"):
            print(f"  graded {run_id} {list(repairs)} in {time.monotonic() - started:.1f} s",
                  file=sys.stderr)
        return proc.returncode, text


# -------------------------------------------------------------------------------- parsing

def parse(fmt: str, text: str) -> dict[str, str]:
    """Check id (as reviewer names it, `grader:<key>`) -> pass|fail|error|skip."""
    checks: dict[str, str] = {}
    if fmt == "pytest":
        words = {"PASSED": "pass", "FAILED": "fail", "ERROR": "error", "SKIPPED": "skip"}
        for line in text.splitlines():
            match = re.match(r"^(PASSED|FAILED|ERROR)\s+(\S+)", line)
            if match:
                checks["grader:" + match.group(2)] = words[match.group(1)]
        return checks
    if fmt == "junit":
        tree = ET.fromstring(text)
        for case in tree.iter("testcase"):
            status = "pass"
            if case.find("failure") is not None:
                status = "fail"
            elif case.find("error") is not None:
                status = "error"
            elif case.find("skipped") is not None:
                status = "skip"
            checks[f"grader:{case.get('classname')}::{case.get('name')}"] = status
        return checks
    if fmt == "go-test":
        for line in text.splitlines():
            event = None
            if line.startswith("{"):
                try:
                    event = json.loads(line)
                except ValueError:
                    event = None
            if event is not None:
                if event.get("Test") and event.get("Action") in ("pass", "fail", "skip"):
                    checks["grader:" + event["Test"]] = event["Action"]
                continue
            match = re.match(r"^\s*--- (PASS|FAIL|SKIP): (\S+)", line)
            if match:
                checks["grader:" + match.group(2)] = match.group(1).lower()
            match = re.match(r"^FAIL\s+(\S+) \[build failed\]", line)
            if match:
                checks["grader:build:" + match.group(1)] = "fail"
            if line.startswith("found packages "):
                checks["grader:build"] = "fail"
        return checks
    raise SystemExit(f"unknown format {fmt}")


def failing(fmt: str, text: str) -> set[str]:
    return {key for key, status in parse(fmt, text).items() if status in ("fail", "error")}


# ------------------------------------------------------------------------------ commands

def regrade(corpus: dict, workers: int) -> bool:
    ok = True
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        results = dict(zip(corpus["runs"], pool.map(lambda r: grade(corpus, r), corpus["runs"])))
    for run_id, (status, output) in sorted(results.items()):
        folder = RECORDED / run_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "grader.out").write_text(output)
        (folder / "exit_status").write_text(f"{status}\n")
        fmt = corpus["tasks"][corpus["runs"][run_id]["task"]]["format"]
        got, want = failing(fmt, output), set(corpus["runs"][run_id]["checks"])
        mark = "ok" if got == want else "MISMATCH"
        ok &= got == want
        print(f"{mark:8} {run_id:26} exit {status}  {len(got)} failing")
        for key in sorted(got ^ want):
            print(f"         {'unexpected' if key in got else 'missing'}: {key}")
    return ok


def experiments(corpus: dict) -> list[tuple[str, str, tuple[str, ...], str]]:
    """(run, check, repairs, expectation) for every settlement experiment."""
    plan = []
    for run_id, run in corpus["runs"].items():
        task = corpus["tasks"][run["task"]]
        for check, verdict in run["checks"].items():
            plan.append((run_id, check, (), "fail"))
            if verdict["verdict"] == "specification":
                if not verdict.get("repairs") and not verdict.get("hand"):
                    raise SystemExit(f"{run_id} {check}: specification without a repair")
                for key in ("repairs", "hand"):
                    if verdict.get(key):
                        plan.append((run_id, check, tuple(verdict[key]), "pass"))
            else:
                tried = [tuple(r) if isinstance(r, list) else (r,) for r in verdict.get("tried", [])]
                if task["program"]:
                    tried.append(tuple(LIFTS))
                for repairs in tried:
                    plan.append((run_id, check, repairs, "fail"))
                if verdict.get("stated"):
                    plan.append((run_id, check, tuple(verdict["stated"]), "pass"))
    return plan


def settle(corpus: dict, workers: int) -> bool:
    plan = experiments(corpus)
    gradings = sorted({(run_id, repairs) for run_id, _, repairs, _ in plan})
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        outputs = dict(zip(gradings, pool.map(lambda g: grade(corpus, g[0], g[1]), gradings)))
    ok = True
    lines = ["# Written by build.py --settle: every settlement experiment and its result.",
             "# control = the unmodified program under the unmodified oracle.", ""]
    for run_id, check, repairs, want in plan:
        fmt = corpus["tasks"][corpus["runs"][run_id]["task"]]["format"]
        status, output = outputs[(run_id, repairs)]
        got = parse(fmt, output).get(check, "pass" if status == 0 else "missing")
        got = "fail" if got == "error" else got
        good = got == want
        ok &= good
        label = ", ".join(repairs) if repairs else "control"
        print(f"{'ok' if good else 'WRONG':5} {run_id:26} {check:58} {label:70} -> {got}")
        lines += ["[[experiment]]", f"run = {json.dumps(run_id)}", f"check = {json.dumps(check)}",
                  f"repairs = {json.dumps(list(repairs))}", f"expected = {json.dumps(want)}",
                  f"result = {json.dumps(got)}", ""]
    (ROOT / "settlement.toml").write_text("\n".join(lines))
    return ok


def write_expected(corpus: dict) -> None:
    import tomli_w

    runs = {}
    for run_id, run in corpus["runs"].items():
        session = corpus["tasks"][run["task"]]["session"]
        entry = {"task": run["task"], "model": run["model"],
                 "outcome": "fail" if run["checks"] else "pass", "plant": run["plant"],
                 "failures": {}}
        tables = {"near_misses": {}, "repairs": {}, "stated_repairs": {}}
        for check, verdict in run["checks"].items():
            entry["failures"][check] = verdict["verdict"]
            if verdict.get("near_miss"):
                tables["near_misses"][check] = verdict["near_miss"]
            if verdict.get("repairs"):
                tables["repairs"][check] = list(verdict["repairs"])
            if verdict.get("stated"):
                tables["stated_repairs"][check] = list(verdict["stated"])
        entry["failures"] = dict(sorted(entry["failures"].items()))
        entry.update({k: dict(sorted(v.items())) for k, v in tables.items() if v})
        runs[f"{session}/{run_id}"] = entry
    text = tomli_w.dumps({"format": 1, "runs": dict(sorted(runs.items()))})
    (ROOT / "expected.toml").write_text(text)
    print(f"wrote expected.toml ({len(runs)} runs)")


def import_all(corpus: dict, into: Path, reviewer: str) -> bool:
    ok = True
    for run_id, run in corpus["runs"].items():
        task = corpus["tasks"][run["task"]]
        recorded = RECORDED / run_id
        grader_dir = f"tasks/{run['task']}/grader"
        command = [reviewer, "import", task["format"], f"tasks/{run['task']}/runs/{run['model']}",
                   "--into", str(into), "--session", task["session"],
                   "--grader-output", f"recorded/{run_id}/grader.out",
                   "--brief", task["brief"], "--task", run["task"], "--model", run["model"],
                   "--exit-status", (recorded / "exit_status").read_text().strip(),
                   "--grader-command", task["command"], "--rerun-command", task["command"]]
        for name in task["grader_files"]:
            command += ["--grader-file", f"{grader_dir}/{name}"]
        if task["program"]:
            command += ["--program", task["program"]]
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        print(f"{'ok' if proc.returncode == 0 else 'FAILED':6} {run_id}: {proc.stdout.strip()} {proc.stderr.strip()}")
        ok &= proc.returncode == 0
    return ok


def expected_failures() -> set[str]:
    with (ROOT / "expected.toml").open("rb") as handle:
        expected = tomllib.load(handle)
    return {f"{key}#{check}" for key, run in expected["runs"].items() for check in run["failures"]}


def prove(corpus: dict, reviewer: str) -> bool:
    with tempfile.TemporaryDirectory(prefix="prove-") as tmp:
        into = Path(tmp) / "sessions"
        if not import_all(corpus, into, reviewer):
            return False
        check = subprocess.run([reviewer, "check", str(into)], capture_output=True, text=True)
        print(f"reviewer check: exit {check.returncode}")
        print(check.stdout.replace(str(into), "SESSIONS").strip())
        listed = subprocess.run([reviewer, "failures", str(into), "--json"],
                                capture_output=True, text=True)
        got = {row["id"] for row in json.loads(listed.stdout)}
        want = expected_failures()
        print(f"reviewer failures: {len(got)} listed, expected.toml: {len(want)}")
        for key in sorted(got - want):
            print(f"  listed, not expected: {key}")
        for key in sorted(want - got):
            print(f"  expected, not listed: {key}")
        return check.returncode == 0 and got == want


HAND_ONLY = ("swap-lines", "go-package")


def rescore_check(corpus: dict, reviewer: str) -> bool:
    """Diagnostic, never a verdict: does `reviewer rescore` agree with the hand settlement?

    Every reviewer-syntax repair of the settlement (specification repairs, stated repairs,
    tried repairs) is re-scored by reviewer in its sandbox; a flip is expected exactly where
    the hand settlement saw one.
    """
    plan: dict[tuple[str, tuple[str, ...]], list[tuple[str, str]]] = {}
    for run_id, check, repairs, want in experiments(corpus):
        if not repairs or any(r.split(":")[0] in HAND_ONLY for r in repairs):
            continue
        run = corpus["runs"][run_id]
        verdict = run["checks"][check]
        explicit = list(verdict.get("repairs", [])), list(verdict.get("stated", []))
        tried = [list(t) if isinstance(t, list) else [t] for t in verdict.get("tried", [])]
        if list(repairs) not in (*explicit, *tried):
            continue  # the blanket lifts tried on every capability failure: hand only
        session = corpus["tasks"][run["task"]]["session"]
        plan.setdefault((run_id, repairs), []).append((f"{session}/{run_id}#{check}", want))
    ok = True
    lines = ["# Written by build.py --rescore-check: what `reviewer rescore` made of each",
             "# reviewer-syntax repair of the settlement. Diagnostic of the tool under test;",
             "# verdicts come from settlement.toml, never from here.", ""]
    with tempfile.TemporaryDirectory(prefix="rescore-") as tmp:
        into = Path(tmp) / "sessions"
        if not import_all(corpus, into, reviewer):
            return False
        for (_run_id, repairs), failures in sorted(plan.items()):
            command = [reviewer, "rescore", str(into), "--reviewer", "validation", "--json"]
            for failure, _ in failures:
                command += ["--failure", failure]
            for repair in repairs:
                command += ["--repair", repair]
            proc = subprocess.run(command, capture_output=True, text=True)
            results = {}
            for line in proc.stdout.splitlines():
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if isinstance(row, dict) and "failure" in row:
                    results[row["failure"]] = row
            for failure, want in failures:
                row = results.get(failure, {})
                after = row.get("after", "no result")
                agrees = (after == "pass") == (want == "pass") and bool(row)
                ok &= agrees
                note = row.get("summary", proc.stderr.strip().replace(str(into), "SESSIONS")[:200])
                print(f"{'agrees' if agrees else 'DIFFERS':8} {failure:95} {', '.join(repairs):60} "
                      f"hand {want}, reviewer {after}")
                lines += ["[[rescore]]", f"failure = {json.dumps(failure)}",
                          f"repairs = {json.dumps(list(repairs))}", f"hand = {json.dumps(want)}",
                          f"reviewer_before = {json.dumps(row.get('before', ''))}",
                          f"reviewer_after = {json.dumps(after)}",
                          f"reviewer_flipped = {json.dumps(bool(row.get('flipped')))}",
                          f"summary = {json.dumps(note)}", f"agrees = {json.dumps(agrees)}", ""]
    (ROOT / "reviewer-rescore.toml").write_text("\n".join(lines))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regrade", action="store_true")
    parser.add_argument("--settle", action="store_true")
    parser.add_argument("--expected", action="store_true")
    parser.add_argument("--import", dest="import_into", metavar="SESSIONS_DIR")
    parser.add_argument("--prove", action="store_true")
    parser.add_argument("--rescore-check", action="store_true")
    parser.add_argument("--reviewer", default=shutil.which("reviewer") or "reviewer")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    corpus = load_corpus()
    everything = not (args.regrade or args.settle or args.expected or args.import_into
                      or args.prove or args.rescore_check)
    ok = True
    if args.regrade or everything:
        ok &= regrade(corpus, args.workers)
    if args.settle or everything:
        ok &= settle(corpus, args.workers)
    if args.expected or everything:
        write_expected(corpus)
    if args.import_into:
        ok &= import_all(corpus, Path(args.import_into).resolve(), args.reviewer)
    if args.prove:
        ok &= prove(corpus, args.reviewer)
    if args.rescore_check:
        ok &= rescore_check(corpus, args.reviewer)
    print("OK" if ok else "PROBLEMS (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
