"""Finding 3: an import copies what a link in the received folder points at.

A received SWE-bench evaluation folder holds ``test_output.txt`` linking to a secret file
elsewhere on the machine and ``eval.sh`` linking to a "key file"; a received code folder for
``go-test`` holds its grader output as a link to the secret and a link to a folder of secrets.
Importing them must copy nothing behind a link (the session gets committed and shared) and
say what it skipped. Live: the links resolve outside the received folders and a plain ``open``
reads the secrets through them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 3
TITLE = "import swe-agent --swebench / go-test copy files that links in the received folder point at"
SECRET = "root:x:0:0:SECRET-PASSWD-LINE-5e1f"
KEY = "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-KEY-77aa"
INSTANCE = "demo__demo-1"


def reviewer(*argv: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in a child process."""
    code = "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], check=False, capture_output=True, text=True, timeout=120)


def fixture(work: Path) -> tuple[Path, Path, Path, list[Path]]:
    """(trajectory, evaluation folder, code folder, the links planted) with secrets outside them."""
    outside = work / "elsewhere"
    outside.mkdir()
    (outside / "passwd").write_text(SECRET + "\n")
    (outside / "id_ed25519").write_text(KEY + "\n")
    (outside / "keys").mkdir()
    (outside / "keys" / "token.txt").write_text(KEY + "\n")
    received = work / "received"
    inst = received / "eval" / "logs" / "run_evaluation" / "r1" / "model" / INSTANCE
    inst.mkdir(parents=True)
    report = {INSTANCE: {"resolved": False, "patch_successfully_applied": True,
                         "tests_status": {"FAIL_TO_PASS": {"success": [], "failure": ["tests/test_a.py::test_fix"]},
                                          "PASS_TO_PASS": {"success": ["tests/test_a.py::test_old"], "failure": []}}}}
    (inst / "report.json").write_text(json.dumps(report))
    links = [inst / "test_output.txt", inst / "eval.sh"]
    os.symlink(outside / "passwd", links[0])
    os.symlink(outside / "id_ed25519", links[1])
    traj = received / f"{INSTANCE}.traj"
    traj.write_text(json.dumps({
        "history": [{"role": "user", "content": "Fix the bug."}, {"role": "assistant", "content": "done", "action": "submit"}],
        "trajectory": [], "info": {"exit_status": "submitted", "submission": "diff --git a/x b/x\n"},
    }))
    code = received / "code"
    code.mkdir()
    (code / "main.go").write_text("package main\n")
    (received / "grader.out").write_text("=== RUN   TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:3: wrong\nFAIL\nFAIL\tdemo\t0.01s\n")
    links += [code / "config.txt", code / "secrets", received / "grader-link.out"]
    os.symlink(outside / "passwd", links[2])
    os.symlink(outside / "keys", links[3])
    os.symlink(outside / "passwd", links[4])
    return traj, received / "eval", code, links


def leaked(sessions: Path) -> list[str]:
    """Files of the sessions folder holding a secret."""
    found = []
    for folder, _dirs, names in os.walk(sessions):
        for name in names:
            data = (Path(folder) / name).read_bytes()
            if b"SECRET-" in data:
                found.append(str((Path(folder) / name).relative_to(sessions)))
    return sorted(found)


def check(work: Path) -> Outcome:
    """Plant the links, show them live, import, look for the secrets in the session."""
    traj, evaluation, code, links = fixture(work)
    received = work / "received"
    live = all(
        not os.path.realpath(p).startswith(str(received.resolve()) + os.sep) and (p.is_dir() or SECRET in p.read_text() or KEY in p.read_text())
        for p in links
    )
    sessions = work / "sessions"
    swe = reviewer("import", "swe-agent", str(traj), "--swebench", str(evaluation), "--into", str(sessions), "--session", "swe")
    go = reviewer("import", "go-test", str(code), "--grader-output", str(received / "grader.out"), "--into", str(sessions), "--session", "go")
    linked = reviewer("import", "go-test", str(code), "--grader-output", str(received / "grader-link.out"), "--into", str(sessions), "--session", "go2")
    found = leaked(sessions) if sessions.exists() else []
    said = "link" in swe.stderr and "link" in linked.stderr
    contained = not found and swe.returncode == 0 and go.returncode == 0 and linked.returncode != 0 and said
    detail = (
        f"swe-agent import exit {swe.returncode}: {swe.stdout.strip()} {swe.stderr.strip()}\n"
        f"go-test import exit {go.returncode}: {go.stdout.strip()} {go.stderr.strip()}\n"
        f"go-test import of a linked grader output exit {linked.returncode}: {linked.stderr.strip()}\n"
        f"files holding a secret: {found or 'none'}"
    )
    return Outcome(contained, live, detail, {"links_planted": len(links), "secrets_copied": len(found), "links_reported": said})
