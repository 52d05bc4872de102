"""Build the bundled example corpus in ``sessions/`` from ``tests/corpus/material/``.

Run it with the project's interpreter::

    .venv/bin/python tests/corpus/build.py

Every session folder under ``material/`` becomes a session folder under ``sessions/`` in the
layout described by ``sessions/README.md``. The builder plays the harness:

* it copies each attempt's files as the model "saved" them,
* it really runs every grader (``go test``, ``pytest``, the candidate runner, the golden
  checker) in a fresh temporary workspace and saves its raw output,
* it really runs the commands the model ran in its transcript and records their output,
* it writes the manifests (``session.toml``, ``run.toml``, ``transcript.toml``) with ``tomli_w``
  and sorted keys, so two builds give the same tree apart from timing numbers.

Machine paths are scrubbed from everything recorded: the temporary workspace becomes
``/work/run`` and the toolchain locations become neutral ones; the build fails if a real path
of this machine is left anywhere in the tree. ``go test -json`` timestamps are moved onto the
session's own date (keeping the real sub-second spacing).

Material layout (per session)::

    material/<session>/session.toml     [session] harness facts, [workspace], [graders.<id>]
    material/<session>/briefs/*.md      shared briefs (copied to sessions/<session>/briefs/)
    material/<session>/graders/*        grader sources (copied to sessions/<session>/graders/)
    material/<session>/setup/*          files the harness puts in every workspace (copied too)
    material/<session>/runs/<run>/run.toml          the run as authored (see README.md here)
    material/<session>/runs/<run>/attempts/<n>/...  the files of attempt n

A material file named ``*.py.txt`` is recorded without the ``.txt`` (so that nothing under
``tests/`` looks like a test module or ``conftest.py`` to pytest).
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
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import tomli_w

HERE = Path(__file__).resolve().parent
MATERIAL = HERE / "material"
PROJECT = HERE.parents[1]
SESSIONS = PROJECT / "sessions"
KEEP_IN_SESSIONS = {"README.md"}
FORMAT = 1
NEUTRAL_WORKSPACE = "/work/run"
COMMAND_TIMEOUT = 300
RENAMED_SUFFIXES = (".py.txt",)
SHARED_DIRS = ("briefs", "graders", "setup")


class BuildError(Exception):
    """The material is inconsistent or a command misbehaved."""


# --------------------------------------------------------------------------- small helpers


def recorded_name(rel: str) -> str:
    """The path a material file is recorded under (``x.py.txt`` -> ``x.py``)."""
    for suffix in RENAMED_SUFFIXES:
        if rel.endswith(suffix):
            return rel[: -len(".txt")]
    return rel


def material_files(folder: Path) -> dict[str, Path]:
    """Files under ``folder`` as {recorded relative path: material path}, sorted."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            found[recorded_name(path.relative_to(folder).as_posix())] = path
    return found


def sort_keys(value: Any) -> Any:
    """Recursively sort the keys of every table (arrays keep their order)."""
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    return value


def write_toml(path: Path, data: dict[str, Any]) -> None:
    """Write a manifest: keys sorted inside every table, multi-line strings where they help.

    The top-level tables keep the order given (``format``, then ``session``/``run``, then the
    arrays of tables), so a manifest reads top-down like the README's examples.
    """
    ordered = {key: sort_keys(value) for key, value in data.items()}
    text = tomli_w.dumps(ordered, multiline_strings=True)
    if tomllib.loads(text) != ordered:  # the writer must round-trip exactly
        raise BuildError(f"{path}: TOML does not round-trip")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def read_toml(path: Path) -> dict[str, Any]:
    """Read a material TOML file."""
    with path.open("rb") as fh:
        return tomllib.load(fh)


def parse_time(value: str) -> datetime:
    """An RFC 3339 string as an aware datetime."""
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


# --------------------------------------------------------------------------- the sandbox


@dataclass
class Sandbox:
    """A temporary area where workspaces are made and commands run, and how to scrub it."""

    root: Path
    workspace: Path = field(init=False)
    env: dict[str, str] = field(init=False)
    replacements: list[tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.workspace = self.root / "ws"
        bin_dir = self.root / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "python"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        shim.chmod(0o755)
        (self.root / "home").mkdir()
        self.env = {
            "PATH": f"{bin_dir}:/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.root / "home"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
            "TERM": "dumb",
            "COLUMNS": "100",
            "LINES": "40",
            "TMPDIR": str(self.root / "tmp"),
            "GOTOOLCHAIN": "local",
            "GOPROXY": "off",
            "GOFLAGS": "-mod=mod -count=1",
            "GO111MODULE": "on",
            "GOCACHE": str(self.root / "gocache"),
            "GOPATH": str(self.root / "gopath"),
            "GOTELEMETRY": "off",
            "CGO_ENABLED": "0",
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        }
        (self.root / "tmp").mkdir()
        self.replacements = self._replacements()

    def _replacements(self) -> list[tuple[str, str]]:
        pairs: dict[str, str] = {}

        def add(real: str | Path | None, neutral: str) -> None:
            if not real:
                return
            for variant in {str(real), os.path.realpath(real)}:
                if len(variant) > 1:
                    pairs.setdefault(variant, neutral)

        add(self.workspace, NEUTRAL_WORKSPACE)
        add(self.root, "/work/tmp")
        add(self.go_root(), "/usr/local/go")
        add(sys.prefix, "/opt/venv")
        add(sys.base_prefix, "/usr/local")
        add(PROJECT, "/work/project")
        add(Path.home(), "/home/user")
        return sorted(pairs.items(), key=lambda p: -len(p[0]))

    def go_root(self) -> str | None:
        """GOROOT of the installed Go, or None when Go is missing."""
        go = shutil.which("go", path=self.env["PATH"])
        if not go:
            return None
        out = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, env=self.env)
        return out.stdout.strip() or None

    def forbidden(self) -> list[str]:
        """Real paths that must never appear in the recorded tree."""
        return [real for real, _ in self.replacements]

    def scrub(self, text: str) -> str:
        """Replace every real path of this machine by its neutral stand-in."""
        for real, neutral in self.replacements:
            text = text.replace(real, neutral)
        return text

    def prepare(self, layers: list[dict[str, Path]], remove: list[str] = ()) -> None:
        """Make a fresh workspace: each layer's files copied in order, then ``remove`` globs."""
        if self.workspace.exists():
            shutil.rmtree(self.workspace)
        self.workspace.mkdir()
        for layer in layers:
            for rel, src in layer.items():
                dest = self.workspace / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
        for pattern in remove:
            for path in sorted(self.workspace.rglob("*")):
                if path.is_file() and fnmatch.fnmatch(path.name, pattern):
                    path.unlink()

    def run(self, command: str, cwd: str = "") -> tuple[int, str]:
        """Run ``command`` with bash in the workspace folder ``cwd``; (exit status, output)."""
        folder = self.workspace / cwd if cwd else self.workspace
        if not folder.is_dir():
            raise BuildError(f"no folder {cwd!r} in the workspace for {command!r}")
        proc = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT,
        )
        text = proc.stdout.decode("utf-8", errors="replace")
        return proc.returncode, self.scrub(text)


# --------------------------------------------------------------------------- go -json times

GO_TIME = re.compile(r'"Time":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)"')


def rebase_go_times(text: str, base: datetime) -> str:
    """Move ``go test -json`` timestamps onto ``base``, keeping their real spacing."""
    first: datetime | None = None

    def replace(match: re.Match[str]) -> str:
        nonlocal first
        stamp = datetime.fromisoformat(match.group(1) + match.group(3).replace("Z", "+00:00"))
        if first is None:
            first = stamp
        moved = base + (stamp - first)
        fraction = match.group(2) or ""
        return f'"Time":"{moved.astimezone(timezone.utc):%Y-%m-%dT%H:%M:%S}{fraction}Z"'

    return GO_TIME.sub(replace, text)


# --------------------------------------------------------------------------- sessions and runs


@dataclass
class SessionMaterial:
    """One material session folder, read."""

    id: str
    folder: Path
    info: dict[str, Any]
    setup: dict[str, Path]
    graders: dict[str, dict[str, Any]]
    system_prompt: str

    @classmethod
    def read(cls, folder: Path) -> "SessionMaterial":
        data = read_toml(folder / "session.toml")
        setup_dir = data.get("workspace", {}).get("setup")
        setup = material_files(folder / setup_dir) if setup_dir else {}
        return cls(
            id=folder.name,
            folder=folder,
            info=data["session"],
            setup=setup,
            graders=data.get("graders", {}),
            system_prompt=data.get("workspace", {}).get("system_prompt", ""),
        )


def build_session(material: SessionMaterial, out_root: Path, sandbox: Sandbox) -> int:
    """Write one session folder; returns the number of runs."""
    out = out_root / material.id
    out.mkdir()
    for shared in SHARED_DIRS:
        for rel, src in material_files(material.folder / shared).items():
            dest = out / shared / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    run_dirs = sorted(p for p in (material.folder / "runs").iterdir() if p.is_dir())
    models: set[str] = set()
    started = parse_time(material.info["started"])
    for index, run_dir in enumerate(run_dirs):
        base = started + timedelta(minutes=6 * index + 2)
        models.add(build_run(material, run_dir, out / "runs" / run_dir.name, sandbox, base))
    info = dict(material.info)
    info["models"] = sorted(models)
    write_toml(out / "session.toml", {"format": FORMAT, "session": info})
    return len(run_dirs)


def build_run(
    session: SessionMaterial, run_dir: Path, out: Path, sandbox: Sandbox, base: datetime
) -> str:
    """Write one run folder; returns the model name."""
    spec = read_toml(run_dir / "run.toml")
    where = f"{session.id}/{run_dir.name}"
    attempts = read_attempts(run_dir)
    notes = spec.get("attempt", [])
    if len(notes) > len(attempts):
        raise BuildError(f"{where}: more [[attempt]] notes than attempt folders")

    for number, files in attempts.items():
        for rel, src in files.items():
            dest = out / "attempts" / str(number) / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)

    brief_src = session.folder / "briefs" / spec["brief"]
    if spec.get("brief_copy"):
        shutil.copyfile(brief_src, out / "brief.md")
        brief_ref = "brief.md"
    else:
        brief_ref = f"../../briefs/{spec['brief']}"

    graders = [
        grade(session, spec, g, attempts, out, sandbox, base + timedelta(minutes=i), where)
        for i, g in enumerate(spec.get("grader", []))
    ]
    check_outcome(where, spec, graders)

    transcript = build_transcript(session, spec, attempts, brief_src, graders, sandbox, where)
    write_toml(out / "transcript.toml", {"format": FORMAT, "turn": transcript})

    run_table: dict[str, Any] = {
        "task": spec["task"],
        "model": spec["model"],
        "access": spec["access"],
        "outcome": spec["outcome"],
        "brief": brief_ref,
        "transcript": "transcript.toml",
        "expected_dir": spec.get("expected_dir", ""),
    }
    if spec.get("metadata"):
        run_table["metadata"] = spec["metadata"]
    attempt_tables = []
    for number, files in attempts.items():
        table: dict[str, Any] = {"files": list(files)}
        note = notes[number - 1].get("note", "") if number <= len(notes) else ""
        if note:
            table["note"] = note
        attempt_tables.append(table)
    manifest = {"format": FORMAT, "run": run_table, "attempt": attempt_tables}
    if graders:
        manifest["grader"] = [g["record"] for g in graders]
    write_toml(out / "run.toml", manifest)
    return spec["model"]


def read_attempts(run_dir: Path) -> dict[int, dict[str, Path]]:
    """{attempt number: {recorded path: material file}} for attempts/1, attempts/2, ..."""
    folder = run_dir / "attempts"
    numbers = sorted(int(p.name) for p in folder.iterdir() if p.is_dir())
    if numbers != list(range(1, len(numbers) + 1)):
        raise BuildError(f"{run_dir}: attempt folders must be 1..n, found {numbers}")
    return {n: material_files(folder / str(n)) for n in numbers}


def grade(
    session: SessionMaterial,
    spec: dict[str, Any],
    grader: dict[str, Any],
    attempts: dict[int, dict[str, Path]],
    out: Path,
    sandbox: Sandbox,
    base: datetime,
    where: str,
) -> dict[str, Any]:
    """Really run one grader over one attempt; save its output; return its record."""
    kind = session.graders[grader["use"]]
    name = grader.get("name", "grader")
    attempt = grader.get("attempt", max(attempts))
    cwd = grader.get("cwd", spec.get("expected_dir", ""))
    command = grader.get("command", kind["command"])
    grader_files = {
        (f"{cwd}/" if cwd else "") + recorded_name(Path(f).name): session.folder / f
        for f in kind.get("files", [])
    }
    for extra in kind.get("data", []):  # data files the grader reads, copied beside it
        grader_files[(f"{cwd}/" if cwd else "") + Path(extra).name] = session.folder / extra
    sandbox.prepare([session.setup, attempts[attempt]], kind.get("remove", []))
    for rel, src in grader_files.items():
        dest = sandbox.workspace / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    status, output = sandbox.run(command, cwd)
    if kind.get("format") == "go-test-json":
        output = rebase_go_times(output, base)
    output_ref = f"grader/{name}.out"
    (out / "grader").mkdir(parents=True, exist_ok=True)
    (out / output_ref).write_text(output, encoding="utf-8")
    expected = grader.get("expect_exit")
    if expected is not None and expected != status:
        raise BuildError(f"{where}: grader {name} exited {status}, material expects {expected}")
    record: dict[str, Any] = {
        "name": name,
        "attempt": attempt,
        "command": command,
        "cwd": cwd,
        "exit_status": status,
        "output": output_ref,
        "format": kind["format"],
        "source": [f"../../{f}" for f in kind.get("files", [])]
        + [f"../../{f}" for f in kind.get("data", [])],
    }
    if "rerun" in kind:
        record["rerun"] = rerun_table(session, kind, record)
    print(f"  {where}: {name} on attempt {attempt} -> exit {status}")
    return {"record": record, "status": status}


def rerun_table(session: SessionMaterial, kind: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """``[grader.rerun]``: how this grading can be run again (what the builder just did).

    The material's ``[graders.<id>.rerun]`` gives ``runtime``, ``program`` and ``reads`` (paths in
    the graded folder) and ``time_limit``; the rest is what :func:`grade` used.
    """
    spec = kind["rerun"]
    cwd = record["cwd"]
    table: dict[str, Any] = {
        "command": record["command"],
        "cwd": cwd,
        "runtime": spec.get("runtime", ""),
        "files": record["source"],
        "time_limit": spec.get("time_limit", 120),
    }
    setup_dir = session.folder / "setup"
    if session.setup and setup_dir.is_dir():
        table["setup"] = ["../../setup"]
    if kind.get("remove"):
        table["remove"] = kind["remove"]
    if spec.get("program"):
        table["program"] = (f"{cwd}/" if cwd else "") + spec["program"]
    if spec.get("reads"):
        table["reads"] = [(f"{cwd}/" if cwd else "") + r for r in spec["reads"]]
    return table


def check_outcome(where: str, spec: dict[str, Any], graders: list[dict[str, Any]]) -> None:
    """Catch authoring mistakes: a 'pass' run must have all graders exit 0, and vice versa."""
    statuses = [g["status"] for g in graders]
    if spec["outcome"] == "pass" and any(statuses):
        raise BuildError(f"{where}: outcome pass but grader exit statuses {statuses}")
    if spec["outcome"] != "pass" and statuses and not any(statuses):
        raise BuildError(f"{where}: outcome {spec['outcome']} but every grader passed")


def build_transcript(
    session: SessionMaterial,
    spec: dict[str, Any],
    attempts: dict[int, dict[str, Path]],
    brief_src: Path,
    graders: list[dict[str, Any]],
    sandbox: Sandbox,
    where: str,
) -> list[dict[str, Any]]:
    """The transcript: the brief, the authored turns with real tool output, the grading."""
    turns: list[dict[str, Any]] = []
    if session.system_prompt:
        turns.append({"role": "system", "text": session.system_prompt})
    turns.append({"role": "user", "text": brief_src.read_text(encoding="utf-8")})
    current = 0
    for authored in spec.get("turn", []):
        turn: dict[str, Any] = {"role": authored["role"], "text": authored.get("text", "")}
        if authored.get("nudge"):
            turn["nudge"] = True
        if "attempt" in authored:
            current = authored["attempt"]
            turn["attempt"] = current
        calls = []
        for rel in authored.get("write", []):
            files = attempts[current]
            if rel not in files:
                raise BuildError(f"{where}: turn writes {rel}, not in attempt {current}")
            content = files[rel].read_text(encoding="utf-8")
            calls.append(
                {
                    "name": "write_file",
                    "arguments": json.dumps({"path": rel, "content": content}, ensure_ascii=False),
                    "output": f"wrote {len(content.encode('utf-8'))} bytes to {rel}",
                }
            )
        for command in authored.get("run", []):
            sandbox.prepare([session.setup, attempts[current]])
            status, output = sandbox.run(command)
            if status:
                output += f"\n[exit status {status}]\n"
            calls.append(
                {
                    "name": "run_command",
                    "arguments": json.dumps({"command": command}, ensure_ascii=False),
                    "output": output,
                }
            )
        if calls:
            turn["tool_call"] = calls
        turns.append(turn)
    for g in graders:
        record = g["record"]
        place = f"in {record['cwd']}/" if record["cwd"] else "in the workspace folder"
        turns.append(
            {
                "role": "harness",
                "text": (
                    f"Grader {record['name']} ran `{record['command']}` {place} on attempt "
                    f"{record['attempt']}: exit status {record['exit_status']}."
                ),
            }
        )
    return turns


# --------------------------------------------------------------------------- main


def check_no_machine_paths(tree: Path, forbidden: list[str]) -> None:
    """Fail when any recorded file still carries a real path of this machine."""
    problems = []
    for path in sorted(tree.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for real in forbidden:
            if real in text:
                problems.append(f"{path.relative_to(tree)}: contains {real}")
    if problems:
        raise BuildError("machine paths left in the corpus:\n" + "\n".join(problems))


def main() -> int:
    """Rebuild sessions/ from the material; returns a process exit status."""
    if shutil.which("go") is None:
        print("build.py: Go is not installed (need `go` on PATH)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="corpus-build-") as tmp:
        tmp_root = Path(tmp)
        staging = tmp_root / "sessions"
        staging.mkdir()
        sandbox_root = tmp_root / "sandbox"
        sandbox_root.mkdir()
        sandbox = Sandbox(sandbox_root)
        total = 0
        for folder in sorted(p for p in MATERIAL.iterdir() if p.is_dir()):
            print(f"session {folder.name}")
            total += build_session(SessionMaterial.read(folder), staging, sandbox)
        check_no_machine_paths(staging, sandbox.forbidden() + [tmp])
        for entry in sorted(SESSIONS.iterdir()):
            if entry.name in KEEP_IN_SESSIONS:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        for entry in sorted(staging.iterdir()):
            shutil.move(str(entry), SESSIONS / entry.name)
    print(f"wrote {total} runs to {SESSIONS.relative_to(PROJECT)}/")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BuildError as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        sys.exit(1)
