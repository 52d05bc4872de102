"""Finding 10 (first part): ``import --session runs`` / ``--session labels`` reports success for data nobody sees.

The loader skips the top-level folders ``runs`` and ``labels`` of a sessions folder (names the
format reserves), so an import into one of them used to print ``imported N run(s)`` while the
app, ``list`` and ``check`` show nothing of it. Live: a well-formed session written by hand
under each reserved name loads no run. Contained: the import refuses the name with a message,
exit 2, and writes nothing; a session name derived from a source that comes out as a reserved
name is refused too (exit 1) instead of being written where it is never shown.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 10
TITLE = "import --session runs / labels reports success and writes data the loader never shows"
RESERVED = ("runs", "labels")


def reviewer(*argv: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in a child process."""
    code = "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], check=False, capture_output=True, text=True, timeout=120)


def trajectory(folder: Path, stem: str) -> Path:
    """A small mini-swe-agent trajectory."""
    path = folder / f"{stem}.traj.json"
    messages = [{"role": "system", "content": "You are a shell agent."}, {"role": "user", "content": "Fix the bug."},
                {"role": "assistant", "content": "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"}, {"role": "user", "content": "diff"}]
    path.write_text(json.dumps({"info": {"exit_status": "Submitted", "submission": "diff"}, "messages": messages}))
    return path


def hidden_by_loader(work: Path, traj: Path) -> dict[str, int]:
    """Runs the loader shows of a session imported normally, then renamed to each reserved name."""
    from reviewer.store.sessions.scan import scan

    shown = {}
    for name in RESERVED:
        root = work / f"by-hand-{name}"
        made = reviewer("import", "mini-swe-agent", str(traj), "--into", str(root), "--session", "visible")
        if made.returncode != 0:
            return {}
        shown["visible"] = len(scan(root).runs)
        shutil.move(str(root / "visible"), str(root / name))
        shown[name] = len(scan(root).runs)
    return shown


def check(work: Path) -> Outcome:
    """Show the loader hides the reserved names, then try to import into them."""
    sources = work / "sources"
    sources.mkdir()
    traj = trajectory(sources, "task-1")
    shown = hidden_by_loader(work, traj)
    live = shown.get("visible") == 1 and all(shown.get(n) == 0 for n in RESERVED)
    into = work / "sessions"
    results = {name: reviewer("import", "mini-swe-agent", str(traj), "--into", str(into), "--session", name) for name in RESERVED}
    derived_src = work / "derived"
    derived_src.mkdir()
    # an Inspect log without task name or run id whose file is called runs.json: the default session name is "runs"
    derived_log = derived_src / "runs.json"
    derived_log.write_text(json.dumps({"version": 2, "status": "success", "eval": {"task": "", "model": "m"}, "samples": [
        {"id": 1, "epoch": 1, "input": "hi", "messages": [{"role": "user", "content": "hi"}], "scores": {}}]}))
    derived = reviewer("import", "inspect", str(derived_log), "--into", str(into))
    written = sorted(p.name for p in into.iterdir()) if into.exists() else []
    refused = all(r.returncode == 2 and "reserved" in r.stderr and "imported" not in r.stdout for r in results.values())
    derived_ok = derived.returncode == 1 and "reserved" in derived.stderr
    contained = refused and derived_ok and not (set(written) & set(RESERVED))
    detail = "\n".join(
        [f"loader shows {shown}"]
        + [f"--session {n}: exit {r.returncode}: {(r.stdout + r.stderr).strip()}" for n, r in results.items()]
        + [f"derived name: exit {derived.returncode}: {(derived.stdout + derived.stderr).strip()}", f"folders written: {written}"]
    )
    return Outcome(contained, live, detail, {"reserved_names_refused": sum(r.returncode == 2 for r in results.values())})
