"""Finding 12 (finding 2 of the 'promises under attack' pass): a recorded ``[grader.rerun].env``
set ``LD_PRELOAD`` to a shared object shipped as an attempt file; the sandbox handed the table's
environment to bubblewrap, so the object ran inside ``prlimit`` before any limit was set and could
exec the grader with none (605 processes under a limit of 256).

The fixture is a sessions folder with two runs of one grader (``python check.py``, which prints
its own ``Max processes`` line of ``/proc/self/limits`` and ``FOO``): ``r1`` ships ``evil.so``
(compiled here with gcc; its constructor prints, in every process it is loaded into, that
process's name and its ``Max processes`` line) and names it in ``env.LD_PRELOAD``; ``r2`` sets only
``FOO = "1"``.

Live: the loaded object runs inside ``prlimit`` with the process limit not yet set. With the code
before the fix (``REVIEWER_BEFORE_FIX_PYTHON`` names its Python): its ``reviewer rescore`` of
``r1``, whose record holds what the object printed. Otherwise the attack's reference: the old
engine's environment (the table's variables merged into what bubblewrap sets) given to this
tree's :func:`~reviewer.rescore.sandbox.run_sandboxed`, which puts it where the old code did.

Contained: ``reviewer check`` reports ``r1``'s ``LD_PRELOAD`` (exit 1); ``reviewer rescore`` of
``r1`` refuses it (exit 1) with nothing run: the object prints nowhere and no record is written;
and ``r2``'s permitted ``FOO`` reaches the grader, which prints the sandbox's process limit
already in force.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 12
TITLE = "LD_PRELOAD in a recorded [grader.rerun].env ran a shipped .so inside prlimit before any limit was set"
PROCESSES = 256
FAILURE_EVIL = "s1/r1#check:run"
FAILURE_OK = "s1/r2#check:run"
REPAIR = "map-value:ok:true:yes"
PRELOADED = re.compile(r"PRELOADED in (?P<comm>\S+): Max processes\s+(?P<soft>\S+)\s+(?P<hard>\S+)")
GRADER_LIMIT = re.compile(r"GRADER Max processes\s+(?P<soft>\S+)\s+(?P<hard>\S+)")
BEFORE_FIX = "REVIEWER_BEFORE_FIX_PYTHON"

SO_SOURCE = r"""
#include <stdio.h>
#include <string.h>

__attribute__((constructor)) static void preloaded(void) {
    char comm[64] = "?", line[256];
    FILE *f = fopen("/proc/self/comm", "r");
    if (f) {
        if (fgets(comm, sizeof comm, f)) comm[strcspn(comm, "\n")] = 0;
        fclose(f);
    }
    f = fopen("/proc/self/limits", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Max processes", 13)) fprintf(stderr, "PRELOADED in %s: %s", comm, line);
    fclose(f);
}
"""
CHECKER = """import os, subprocess, sys
print("FOO=" + os.environ.get("FOO", "(unset)"))
for line in open("/proc/self/limits"):
    if line.startswith("Max processes"):
        print("GRADER", line.strip())
out = subprocess.run([sys.executable, "prog.py"], check=False, capture_output=True, text=True).stdout
sys.exit(0 if out == "ok=yes\\n" else 1)
"""


def compile_so(work: Path) -> bytes:
    """The shared object's bytes (gcc -shared -fPIC)."""
    source = work / "evil.c"
    source.write_text(SO_SOURCE)
    target = work / "evil.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(target), str(source)], check=True,
                   capture_output=True, timeout=120)
    return target.read_bytes()


def build(root: Path, so: bytes) -> Path:
    """The sessions folder: ``r1`` ships evil.so and preloads it, ``r2`` sets ``FOO``."""
    from rescorekit import synthetic

    synthetic(root, {"prog.py": "print('ok=true')\n", "evil.so": ""}, CHECKER,
              {"program": "prog.py", "env": {"LD_PRELOAD": "/sandbox/in/ws/evil.so"}}, run_id="r1")
    (root / "s1" / "runs" / "r1" / "attempts" / "1" / "evil.so").write_bytes(so)
    synthetic(root, {"prog.py": "print('ok=true')\n"}, CHECKER, {"program": "prog.py", "env": {"FOO": "1"}}, run_id="r2")
    return root


def reviewer(python: str, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The command line of the reviewer ``python`` imports."""
    env = {**os.environ, **{f"XDG_{k}_HOME": str(home / k.lower()) for k in ("CONFIG", "DATA", "CACHE")}}
    return subprocess.run([python, "-m", "reviewer.cli", *args], capture_output=True, text=True, timeout=300,
                          check=False, env=env, cwd=home)


def records(root: Path) -> str:
    """Every re-score record under ``root``, as text."""
    return "".join(p.read_text(errors="replace") for p in sorted(root.glob("*/rescores/*.toml")))


def reference_run(so: bytes) -> str:
    """The old engine's environment in this tree's sandbox: the recorded LD_PRELOAD is set by
    bubblewrap for prlimit and everything after it (what the code before the fix did); the output."""
    from rescorekit import sandbox_tool

    from reviewer.rescore.layout import fresh_staging, write
    from reviewer.rescore.runtime import find_python, python_executable
    from reviewer.rescore.sandbox import IN, Limits, run_sandboxed

    py = find_python(python_executable())
    with fresh_staging() as staging:
        write(staging, "ws/evil.so", so)
        env = {"PATH": "/usr/bin:/bin", "HOME": "/sandbox/home", "TMPDIR": "/sandbox/tmp", "LANG": "C.UTF-8"}
        env.update({"LD_PRELOAD": f"{IN}/ws/evil.so"})  # engine.environment before the fix: env.update(rerun.env)
        out = run_sandboxed(sandbox_tool(), staging, ["/bin/sh", "-c", "grep 'Max processes' /proc/self/limits"],
                            binds=list(py.binds), env=env, limits=Limits(processes=PROCESSES, wall_seconds=30))
    return out.output


def unlimited_in_prlimit(text: str) -> list[str]:
    """The soft process limit the object saw each time it ran inside ``prlimit`` before the
    sandbox's was set."""
    return [m.group("soft") for m in PRELOADED.finditer(text) if m.group("comm") == "prlimit" and m.group("soft") != str(PROCESSES)]


def check(work: Path) -> Outcome:
    """Show the preloaded object running before the limits, then this tree refusing it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rescore"))
    if not shutil.which("gcc"):
        return Outcome(False, None, "gcc is needed to build the attacker's shared object")
    so = compile_so(work)
    home = work / "home"
    home.mkdir()

    before = os.environ.get(BEFORE_FIX)
    if before:
        old_root = build(work / "old" / "sessions", so)
        old = reviewer(before, "rescore", str(old_root), "--failure", FAILURE_EVIL, "--repair", REPAIR, "--reviewer",
                       "red", "--json", home=home)
        old_text, which_old = records(old_root) + old.stdout + old.stderr, f"the code before the fix ({BEFORE_FIX})"
    else:
        old_text, which_old = reference_run(so), "the reference (the old engine's environment in this sandbox)"
    escaped = unlimited_in_prlimit(old_text)
    live = bool(escaped)

    root = build(work / "new" / "sessions", so)
    checked = reviewer(sys.executable, "check", str(root), home=home)
    refused = reviewer(sys.executable, "rescore", str(root), "--failure", FAILURE_EVIL, "--repair", REPAIR,
                       "--reviewer", "red", "--json", home=home)
    refused_records = records(root)
    allowed = reviewer(sys.executable, "rescore", str(root), "--failure", FAILURE_OK, "--repair", REPAIR,
                       "--reviewer", "red", "--json", home=home)
    allowed_records = records(root)
    grader_limits = [(m.group("soft"), m.group("hard")) for m in GRADER_LIMIT.finditer(allowed_records)]
    check_text = checked.stdout + checked.stderr
    refused_text = refused.stdout + refused.stderr
    contained = (
        checked.returncode == 1 and "LD_PRELOAD" in check_text and "r1" in check_text
        and refused.returncode == 1 and "LD_PRELOAD" in refused_text and "PRELOADED" not in refused_text
        and not refused_records
        and allowed.returncode == 0 and "FOO=1" in allowed_records and "PRELOADED" not in allowed_records
        and bool(grader_limits) and all(limit == (str(PROCESSES), str(PROCESSES)) for limit in grader_limits)
    )
    said = next((line.strip() for line in check_text.splitlines() if "LD_PRELOAD" in line), "(nothing)")
    detail = "\n".join([
        f"{which_old}: the preloaded object printed {len(PRELOADED.findall(old_text))} time(s); inside prlimit, Max processes "
        f"{escaped[0] if escaped else '(never ran there)'} where the sandbox's is {PROCESSES}",
        f"this tree: reviewer check exit {checked.returncode}: {said[:200]}",
        f"reviewer rescore of r1: exit {refused.returncode}, object ran: {'PRELOADED' in refused_text}, "
        f"records written: {bool(refused_records)}",
        f"reviewer rescore of r2 (FOO=1): exit {allowed.returncode}, FOO reached the grader: {'FOO=1' in allowed_records}, "
        f"the grader's Max processes (soft, hard): {sorted(set(grader_limits))}",
    ])
    figures = {"old": which_old.split(" (")[0], "old_prlimit_max_processes": escaped[0] if escaped else None,
               "check_exit": checked.returncode, "refused_exit": refused.returncode, "refused_records": bool(refused_records),
               "allowed_exit": allowed.returncode, "grader_max_processes": grader_limits[0][0] if grader_limits else None}
    return Outcome(contained, live, detail, figures)
