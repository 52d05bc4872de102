#!/usr/bin/env python3
"""Build the holdout corpus: re-run every grader, or import every run into reviewer.

    python build.py --regrade
    python build.py --import SESSIONS_DIR [--reviewer PATH_TO_reviewer]

Run it with a Python that has pytest and tomli_w (reviewer's own venv does).

--regrade   re-runs every held-out grader for real, each in a fresh temporary folder
            holding the run's code and the grader's files, and rewrites the recorded
            output (runs/<run>/grader.out, grader.xml or grader.json) and the exit status
            in meta.toml. Inspect runs are re-made by material/inspect-2026-12/make_logs.py
            in the Inspect venv (.venv-inspect next to this file) when it exists. The
            output is scrubbed of machine paths (the temporary folder becomes /work/run,
            the Python environment /opt/venv) and the build fails if any path of this
            machine is left in a deliverable file.
--import    imports every run with the documented `reviewer import` CLI into a fresh
            SESSIONS_DIR, then runs `reviewer check` and `reviewer failures --json` and
            compares the failing checks with expected.toml (exit 1 on any difference).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
import zipfile
import zlib
from pathlib import Path

import tomli_w

HERE = Path(__file__).resolve().parent
MATERIAL = HERE / "material"

# task -> (brief, grader files under graders/, program the checker runs)
TASKS = {
    "brackets": ("brackets.md", ["oracle_brackets.py"], "brackets.py"),
    "bigfact": ("bigfact.md", ["oracle_bigfact.py"], "fact.py"),
    "topo": ("topo.md", ["oracle_topo.py"], "topo.py"),
    "merge": ("merge.md", ["oracle_merge.py"], "merge.py"),
    "luhn": ("luhn.md", ["oracle_luhn.py"], "luhn.py"),
    "factor": ("factor.md", ["oracle_factor.py"], "factor.py"),
    "datediff": ("datediff.md", ["datediff/go.mod", "datediff/datediff_heldout_test.go"], ""),
    "det": ("det.md", ["det/go.mod", "det/det_heldout_test.go"], ""),
    "shortest-path": ("shortest-path.md", ["oracle_shortest.py"], "shortest.py"),
}

OUTPUT_NAME = {"pytest": "grader.out", "pytest-color": "grader.out", "junit": "grader.xml",
               "go-test-v": "grader.out", "go-test-json": "grader.json"}
IMPORT_FORMAT = {"pytest": "pytest", "pytest-color": "pytest", "junit": "junit",
                 "go-test-v": "go-test", "go-test-json": "go-test"}


def grader_command(fmt: str, files: list[str]) -> tuple[str, str]:
    """(command as the harness ran it, command that re-runs it printing to stdout)."""
    oracle = Path(files[0]).name
    if fmt == "pytest":
        cmd = f"python -m pytest -rA {oracle}"
        return cmd, cmd
    if fmt == "pytest-color":
        cmd = f"python -m pytest -rA --color=yes {oracle}"
        return cmd, cmd
    if fmt == "junit":
        return (f"python -m pytest -rA --junitxml=grader.xml {oracle}",
                f"python -m pytest -p no:terminal --junitxml=/dev/stdout {oracle}")
    if fmt == "go-test-v":
        cmd = "go test -count=1 -v ./..."
        return cmd, cmd
    if fmt == "go-test-json":
        cmd = "go test -count=1 -json ./..."
        return cmd, cmd
    raise ValueError(fmt)


def load_runs() -> list[dict]:
    runs = []
    for meta_path in sorted(MATERIAL.glob("*/runs/*/meta.toml")):
        run_dir = meta_path.parent
        meta = tomllib.loads(meta_path.read_text())
        session = run_dir.parent.parent.name
        brief, files, program = TASKS[meta["task"]]
        runs.append({**meta, "session": session, "run": run_dir.name, "dir": run_dir,
                     "brief": run_dir.parent.parent / "briefs" / brief,
                     "grader_files": [run_dir.parent.parent / "graders" / f for f in files]})
    return runs


# ---------------------------------------------------------------- machine paths

def machine_paths() -> list[str]:
    """Absolute paths of this machine that must not appear in a deliverable."""
    found = {str(HERE), str(HERE.parent), sys.prefix, sys.base_prefix, sys.exec_prefix,
             str(Path.home())}
    for var in ("GOPATH", "GOCACHE", "GOMODCACHE"):
        try:
            value = subprocess.run(["go", "env", var], capture_output=True, text=True).stdout.strip()
        except OSError:
            value = ""
        if value:
            found.add(value)
    for p in HERE.glob(".venv*"):
        found.add(str(p))
    return sorted(p for p in found if p and p not in ("/", "/work", "/tmp", "/usr", "/opt"))


def scrub(text: str, workdir: str) -> str:
    for real in sorted({workdir, os.path.realpath(workdir)}, key=len, reverse=True):
        text = text.replace(real, "/work/run")
    for real, fake in ((sys.prefix, "/opt/venv"), (sys.base_prefix, "/opt/python"),
                       (str(Path.home()), "/home/user")):
        text = text.replace(real, fake)
    return text


def eval_members(path: Path) -> dict[str, str]:
    """Text of every member of an Inspect .eval (deflate or zstd entries)."""
    out = {}
    with zipfile.ZipFile(path) as zf, open(path, "rb") as raw:
        for info in zf.infolist():
            raw.seek(info.header_offset)
            header = raw.read(30)
            name_len, extra_len = struct.unpack("<HH", header[26:30])
            raw.seek(info.header_offset + 30 + name_len + extra_len)
            data = raw.read(info.compress_size)
            if info.compress_type == 93:
                import zstandard
                data = zstandard.ZstdDecompressor().decompressobj().decompress(data)
            elif info.compress_type == zipfile.ZIP_DEFLATED:
                data = zlib.decompress(data, -15)
            out[info.filename] = data.decode("utf-8", "replace")
    return out


def check_no_machine_paths() -> None:
    bad = []
    needles = machine_paths()
    for path in sorted(HERE.rglob("*")):
        rel = path.relative_to(HERE)
        if not path.is_file() or rel.parts[0].startswith(".venv") or "__pycache__" in rel.parts:
            continue
        if path.suffix == ".eval":
            texts = eval_members(path).items()
        else:
            texts = [("", path.read_text("utf-8", "replace"))]
        for member, text in texts:
            for needle in needles:
                if needle in text:
                    bad.append(f"{rel}{'!' + member if member else ''}: contains {needle}")
            if re.search(r"/tmp/(tmp|holdout-)[A-Za-z0-9_]{4,}", text):
                bad.append(f"{rel}{'!' + member if member else ''}: contains a temporary folder")
        if path.stat().st_size > 200_000:
            bad.append(f"{rel}: larger than 200 KB")
    if bad:
        sys.exit("machine paths or oversized files left:\n  " + "\n  ".join(bad))
    print(f"checked: no machine path ({len(needles)} looked for) in any deliverable")


# ---------------------------------------------------------------- regrade

def grader_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "GO"))}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "/usr/bin:/bin")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["COLUMNS"] = "80"
    env["LANG"] = env.get("LANG", "C.UTF-8")
    return env


def strip_junit(xml: str) -> str:
    xml = re.sub(r' timestamp="[^"]*"', "", xml)
    return re.sub(r' hostname="[^"]*"', "", xml)


def regrade_one(run: dict) -> None:
    fmt = run["format"]
    command, _ = grader_command(fmt, [str(f) for f in run["grader_files"]])
    with tempfile.TemporaryDirectory(prefix="holdout-") as work:
        code = run["dir"] / "code"
        for f in sorted(code.rglob("*")):
            if f.is_file():
                dest = Path(work) / f.relative_to(code)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, dest)
        for g in run["grader_files"]:
            shutil.copyfile(g, Path(work) / g.name)
        argv = shlex.split(command)
        if argv[0] == "python":
            argv[0] = sys.executable
        # one stream, as a harness capturing `2>&1` sees it (Go prints build errors on stderr)
        proc = subprocess.run(argv, cwd=work, env=grader_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        if fmt == "junit":
            text = strip_junit((Path(work) / "grader.xml").read_text())
        else:
            text = proc.stdout
        text = scrub(text, work)
    out = run["dir"] / OUTPUT_NAME[fmt]
    out.write_text(text)
    meta_path = run["dir"] / "meta.toml"
    meta = tomllib.loads(meta_path.read_text())
    meta["exit_status"] = proc.returncode
    meta["outcome"] = "pass" if proc.returncode == 0 else "fail"
    meta["grader_command"] = command
    meta_path.write_bytes(tomli_w.dumps(meta).encode())
    print(f"  {run['session']}/{run['run']}: exit {proc.returncode} -> {out.name}")


def regrade_inspect(runs: list[dict]) -> None:
    session_dir = MATERIAL / "inspect-2026-12"
    inspect_python = HERE / ".venv-inspect" / "bin" / "python"
    if not inspect_python.exists():
        print("  inspect: no .venv-inspect, keeping the recorded .eval logs")
        return
    env = grader_env()
    proc = subprocess.run([str(inspect_python), "make_logs.py", str(Path(sys.executable).parent)],
                          cwd=session_dir, env=env, capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        sys.exit("make_logs.py failed:\n" + proc.stdout + proc.stderr)
    print("  " + proc.stdout.strip().replace("\n", "\n  "))
    for run in runs:
        log = session_dir / "logs" / f"{run['run']}.eval"
        sample = json.loads(eval_members(log)[f"samples/{run['task']}_epoch_1.json"])
        score = next(iter(sample["scores"].values()))
        meta_path = run["dir"] / "meta.toml"
        meta = tomllib.loads(meta_path.read_text())
        meta["exit_status"] = score["metadata"]["exit_status"]
        meta["outcome"] = "pass" if score["value"] == "C" else "fail"
        meta["grader_command"] = score["metadata"]["command"]
        meta_path.write_bytes(tomli_w.dumps(meta).encode())


def regrade() -> None:
    runs = load_runs()
    print(f"regrading {len(runs)} runs")
    for run in runs:
        if run["format"] != "inspect":
            regrade_one(run)
    regrade_inspect([r for r in runs if r["format"] == "inspect"])
    check_no_machine_paths()


# ---------------------------------------------------------------- import

def find_reviewer(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).parent / "reviewer"
    if beside.exists():
        return str(beside)
    found = shutil.which("reviewer")
    if not found:
        sys.exit("reviewer not found: pass --reviewer PATH")
    return found


def import_commands(runs: list[dict], into: Path, reviewer: str) -> list[list[str]]:
    help_text = subprocess.run([reviewer, "import", "--help"], capture_output=True, text=True).stdout
    has_program = "--program" in help_text
    cmds = []
    for run in runs:
        if run["format"] == "inspect":
            continue
        command, rerun = grader_command(run["format"], [str(f) for f in run["grader_files"]])
        cmd = [reviewer, "import", IMPORT_FORMAT[run["format"]], str(run["dir"] / "code"),
               "--into", str(into), "--session", run["session"],
               "--grader-output", str(run["dir"] / OUTPUT_NAME[run["format"]]),
               "--brief", str(run["brief"]), "--task", run["task"], "--model", run["model"],
               "--exit-status", str(run["exit_status"]), "--grader-command", command]
        for g in run["grader_files"]:
            cmd += ["--grader-file", str(g)]
        cmd += ["--rerun-command", rerun]
        if has_program and TASKS[run["task"]][2]:
            cmd += ["--program", TASKS[run["task"]][2]]
        cmds.append(cmd)
    logs = sorted((MATERIAL / "inspect-2026-12" / "logs").glob("*.eval"))
    if logs:
        cmds.append([reviewer, "import", "inspect", *map(str, logs), "--into", str(into),
                     "--session", "inspect-2026-12"])
    return cmds


def do_import(into: Path, reviewer: str) -> None:
    if into.exists() and any(into.iterdir()):
        sys.exit(f"{into} is not empty: give a fresh folder")
    into.mkdir(parents=True, exist_ok=True)
    runs = load_runs()
    for cmd in import_commands(runs, into, reviewer):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"import failed ({proc.returncode}): {shlex.join(cmd)}\n{proc.stdout}{proc.stderr}")
    check = subprocess.run([reviewer, "check", str(into)], capture_output=True, text=True)
    print(check.stdout.strip())
    failures = json.loads(subprocess.run([reviewer, "failures", str(into), "--json"],
                                         capture_output=True, text=True, check=True).stdout)
    got = {f["id"] for f in failures}
    problems = [] if check.returncode == 0 else ["reviewer check reported problems"]
    expected_path = HERE / "expected.toml"
    if expected_path.exists():
        expected = tomllib.loads(expected_path.read_text())
        want = {f"{rid}#{check_id}" for rid, r in expected["runs"].items() for check_id in r.get("failures", {})}
        problems += [f"expected failure not listed: {i}" for i in sorted(want - got)]
        problems += [f"listed failure not in expected.toml: {i}" for i in sorted(got - want)]
        listed = json.loads(subprocess.run([reviewer, "list", str(into), "--json"],
                                           capture_output=True, text=True, check=True).stdout)
        runs_seen = {f"{r['session']}/{r['run']}" for r in listed} if isinstance(listed, list) else set()
        if runs_seen and runs_seen != set(expected["runs"]):
            problems.append(f"runs differ: missing {sorted(set(expected['runs']) - runs_seen)}, "
                            f"extra {sorted(runs_seen - set(expected['runs']))}")
        for r in listed:
            want_run = expected["runs"].get(f"{r['session']}/{r['run']}")
            for field in ("task", "model", "outcome"):
                if want_run and r[field] != want_run[field]:
                    problems.append(f"{r['session']}/{r['run']}: {field} {r[field]!r}, expected {want_run[field]!r}")
        print(f"{len(got)} failures listed, {len(want)} expected, {len(runs_seen)} runs")
    if problems:
        sys.exit("\n".join(problems))
    print("import ok")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--regrade", action="store_true", help="re-run every grader and rewrite the outputs")
    ap.add_argument("--import", dest="into", metavar="SESSIONS_DIR", help="import every run into a fresh folder")
    ap.add_argument("--reviewer", help="the reviewer executable (default: beside this Python, else on PATH)")
    ap.add_argument("--print-commands", action="store_true", help="with --import: print the import commands")
    args = ap.parse_args()
    if not args.regrade and not args.into:
        ap.error("give --regrade and/or --import SESSIONS_DIR")
    if args.regrade:
        regrade()
    if args.into:
        reviewer = find_reviewer(args.reviewer)
        if args.print_commands:
            for cmd in import_commands(load_runs(), Path(args.into), reviewer):
                print(shlex.join(cmd))
        do_import(Path(args.into), reviewer)


if __name__ == "__main__":
    main()
