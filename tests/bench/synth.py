"""A synthetic sessions folder of N runs with realistic sizes, for the benchmark.

Per run: a 2 KB brief (shared by the runs of a task, as harnesses do), 3 code files of 100 to
300 lines, a 5 KB `go test -v` grader output with some failures, 6 transcript turns; about a
fifth of the failures are labelled by reviewer "bench". Files with the same content are hard
links to one copy so that 100,000 runs fit on disk and are written quickly.

:func:`add_big_runs` adds a run with a 20,000-line code file and one whose grader output is a
single 10 MB line; :func:`generate_export` writes a folder whose label files hold a given
number of labels (several reviewers, real evidence fingerprints) for the export benchmark.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import tomli_w

RUNS_PER_SESSION = 1000
MODELS = [f"model-{i:02d}" for i in range(10)]


def brief_text(task: int) -> str:
    """About 2 KB of Markdown."""
    para = (
        f"Task {task}: write a function that reads lines from standard input, parses each as a "
        "key=value record, and prints a summary with the keys sorted. Values are integers; "
        "report errors for malformed lines on standard error and keep going. "
    )
    return f"# Task {task}\n\n" + "\n\n".join([para] * 6) + "\n\n- keep it small\n- no dependencies\n"


def code_text(variant: int, lines: int) -> str:
    """A Go-looking file of ``lines`` lines."""
    body = [f"package task{variant % 7}", "", "import \"fmt\"", ""]
    i = 0
    while len(body) < lines:
        body += [f"func helper{i}(x int) int {{", f"\t// step {i} of variant {variant}", f"\treturn x*{i % 9 + 1} + {variant}", "}", ""]
        i += 1
    return "\n".join(body[:lines]) + "\n"


def grader_text(variant: int, failing: int) -> str:
    """About 5 KB of `go test -v` output with ``failing`` failing tests."""
    out = []
    for t in range(24):
        name = f"TestCase{t:02d}"
        out.append(f"=== RUN   {name}")
        if t < failing:
            out.append(f"--- FAIL: {name} (0.00s)")
            out.append(f"    task_test.go:{20 + t}: Summary(input {t}) = \"count={t + variant % 3}\", want \"count={t}\"")
            out.append(f"    task_test.go:{21 + t}: keys were not sorted: got [b a], want [a b] (variant {variant})")
        else:
            out.append(f"--- PASS: {name} (0.00s)")
    out.append("FAIL" if failing else "PASS")
    out.append(f"{'FAIL' if failing else 'ok  '}\texample.com/task\t0.004s")
    text = "\n".join(out) + "\n"
    return text + "# padding " + "x" * max(0, 5000 - len(text)) + "\n"


def transcript_doc(variant: int) -> dict:
    """Six turns, one of them a harness nudge."""
    turns = [
        {"role": "user", "text": "Please write the program described in the brief."},
        {"role": "assistant", "text": f"Writing task.go (variant {variant}).", "attempt": 1,
         "tool_call": [{"name": "write_file", "arguments": "{\"path\": \"task.go\"}", "output": "ok"}]},
        {"role": "harness", "text": "tests fail to build: carry on", "nudge": True},
        {"role": "assistant", "text": "Fixed the build.", "attempt": 1},
        {"role": "tool", "text": "go test ./...\nFAIL"},
        {"role": "assistant", "text": "Done; some tests still fail."},
    ]
    return {"format": 1, "turn": turns}


RUN_TOML = """format = 1

[run]
task = "{task}"
model = "{model}"
access = "gateway"
outcome = "{outcome}"
brief = "../../briefs/{task}.md"
transcript = "transcript.toml"

[[attempt]]
files = [{files}]

[[grader]]
name = "heldout"
command = "go test -v ./..."
exit_status = {status}
output = "grader/heldout.out"
format = "go-test-v"
"""


class Pool:
    """Writes each distinct content once and hard-links further copies."""

    def __init__(self, root: Path) -> None:
        self.dir = root / ".pool"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.made: dict[str, Path] = {}

    def place(self, key: str, content: str | bytes, target: Path) -> None:
        """Write ``content`` at ``target`` (a hard link to the first copy when possible)."""
        src = self.made.get(key)
        if src is None:
            src = self.dir / f"{len(self.made)}"
            src.write_bytes(content.encode() if isinstance(content, str) else content)
            self.made[key] = src
        try:
            os.link(src, target)
        except OSError:
            target.write_bytes(src.read_bytes())


def generate(root: Path, runs: int, seed: int = 1, labelled_share: float = 0.2,
             failing_choices: tuple[int, ...] = (0, 0, 1, 2, 3, 5)) -> dict[str, int]:
    """Write the folder; returns counts (runs, sessions, failures, labels)."""
    rng = random.Random(seed)
    pool = Pool(root)
    failures = labels = 0
    sessions = (runs + RUNS_PER_SESSION - 1) // RUNS_PER_SESSION
    for s in range(sessions):
        sid = f"sweep-{s:03d}"
        sdir = root / sid
        (sdir / "briefs").mkdir(parents=True, exist_ok=True)
        count = min(RUNS_PER_SESSION, runs - s * RUNS_PER_SESSION)
        tasks = sorted({(s * RUNS_PER_SESSION + i) // len(MODELS) for i in range(count)})
        for t in tasks:
            pool.place(f"brief{t % 50}", brief_text(t % 50), sdir / "briefs" / f"task-{t:05d}.md")
        (sdir / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {
            "harness": "synth", "harness_version": "1", "models": MODELS, "started": "2026-11-01T00:00:00Z"}}).encode())
        label_entries = []
        for i in range(count):
            n = s * RUNS_PER_SESSION + i
            task, model = n // len(MODELS), MODELS[n % len(MODELS)]
            rid = f"task-{task:05d}--{model}"
            rdir = sdir / "runs" / rid
            (rdir / "attempts" / "1").mkdir(parents=True)
            (rdir / "grader").mkdir()
            files = []
            for k in range(3):
                variant = (n + k * 13) % 40
                lines = 100 + (variant * 37 + k * 71) % 201
                name = f"part{k}.go"
                pool.place(f"code{k}-{variant}", code_text(variant, lines), rdir / "attempts" / "1" / name)
                files.append(name)
            failing = rng.choice(failing_choices)
            failures += failing
            pool.place(f"grader{n % 30}-{failing}", grader_text(n % 30, failing), rdir / "grader" / "heldout.out")
            pool.place(f"transcript{n % 20}", tomli_w.dumps(transcript_doc(n % 20)), rdir / "transcript.toml")
            (rdir / "run.toml").write_text(RUN_TOML.format(
                task=f"task-{task:05d}", model=model, outcome="fail" if failing else "pass",
                files=", ".join(f'"{f}"' for f in files), status=1 if failing else 0))
            for t in range(failing):
                if rng.random() < labelled_share:
                    label_entries.append({"run": rid, "check": f"heldout:TestCase{t:02d}",
                                          "verdict": rng.choice(["specification", "capability"]),
                                          "labelled_at": "2026-11-02T00:00:00Z", "evidence": "", "note": "", "tags": []})
        if label_entries:
            labels += len(label_entries)
            rows = [(e["run"], e["check"], e["verdict"], "") for e in label_entries]
            write_run_files(root / sid / "labels" / "bench", sid, "bench", rows)
    return {"runs": runs, "sessions": sessions, "failures": failures, "labels": labels}


BIG_SESSION = "zz-big"
BIG_LINES = 20_000
LONG_LINE = 10 << 20


def big_code(lines: int) -> str:
    """A Go file of ``lines`` lines."""
    body = ["package big", ""]
    i = 0
    while len(body) < lines:
        body += [f"func step{i}(x int) int {{", f"\treturn x + {i} // step {i}", "}"]
        i += 1
    return "\n".join(body[:lines]) + "\n"


def add_big_runs(root: Path) -> dict[str, str]:
    """Add session ``zz-big``: a run with a 20,000-line file, one with a 10 MB one-line output.

    Returns the failure id to open for each: ``{"bigfile": id, "longline": id}``.
    """
    sdir = root / BIG_SESSION
    sdir.mkdir(parents=True, exist_ok=True)
    (sdir / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {"harness": "synth"}}).encode())
    specs = {
        "bigfile": ("big.go", big_code(BIG_LINES), "--- FAIL: TestBig (0.00s)\nFAIL\n"),
        "longline": ("small.go", code_text(1, 120), "got " + "x" * (LONG_LINE - 4)),
    }
    ids = {}
    for rid, (name, code, output) in specs.items():
        rdir = sdir / "runs" / rid
        (rdir / "attempts" / "1").mkdir(parents=True, exist_ok=True)
        (rdir / "grader").mkdir(exist_ok=True)
        (rdir / "attempts" / "1" / name).write_text(code)
        (rdir / "grader" / "out.txt").write_text(output)
        (rdir / "brief.md").write_text(brief_text(1))
        (rdir / "transcript.toml").write_bytes(tomli_w.dumps(transcript_doc(1)).encode())
        doc = {"format": 1,
               "run": {"task": f"big-{rid}", "model": "model-big", "access": "local", "outcome": "fail",
                       "brief": "brief.md", "transcript": "transcript.toml"},
               "attempt": [{"files": [name]}],
               "grader": [{"name": "heldout", "command": "go test -v", "exit_status": 1, "output": "grader/out.txt",
                           "check": [{"key": "TestBig", "status": "fail", "message": "see the output"}]}]}
        (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())
        ids[rid] = f"{BIG_SESSION}/{rid}#heldout:TestBig"
    return ids


def label_file(session: str, reviewer: str, rows: list[tuple[str, str, str, str]]) -> bytes:
    """A format-1 labels file (``<session>/labels/<reviewer>.toml``, every run in one file) exactly as
    earlier versions wrote it, for (run, check, verdict, evidence) rows."""
    from reviewer.store.fs.tomlfile import string as toml_string

    out = [f"format = 1\nreviewer = {toml_string(reviewer)}\nsession = {toml_string(session)}\n"]
    for run_id, check, verdict, evidence in sorted(rows):
        out.append(f"\n[[label]]\ncheck = {toml_string(check)}\nevidence = {toml_string(evidence)}\n"
                   f"labelled_at = \"2026-11-02T00:00:00Z\"\nnote = \"\"\nrun = {toml_string(run_id)}\n"
                   f"tags = []\nverdict = {toml_string(verdict)}\n")
    return "".join(out).encode()


def write_run_files(folder: Path, session: str, reviewer: str, rows: list[tuple[str, str, str, str]]) -> int:
    """A reviewer's format-2 files (one per run, as the app writes them) in ``folder`` for
    (run, check, verdict, evidence) rows; how many files."""
    from reviewer.model.label import Label, Verdict
    from reviewer.store.labels import run_file_bytes, run_file_name

    by_run: dict[str, list[Label]] = {}
    for run_id, check, verdict, evidence in rows:
        by_run.setdefault(run_id, []).append(Label(session, run_id, check, Verdict(verdict), reviewer,
                                                   "2026-11-02T00:00:00Z", evidence))
    folder.mkdir(parents=True, exist_ok=True)
    for run_id, labels in by_run.items():
        (folder / run_file_name(run_id)).write_bytes(run_file_bytes(session, reviewer, run_id, labels, ()))
    return len(by_run)


def generate_export(root: Path, labels: int = 100_000, reviewers: int = 5, seed: int = 7) -> dict[str, int]:
    """A folder with exactly ``labels`` labels over runs with 18 to 22 failures each, by several reviewers.

    Each reviewer labels the same failures, with the evidence fingerprint the app would have
    written (one in twenty is stale); files are written exactly as the app writes them.
    """
    from reviewer.store.sessions.fingerprint import evidence_hash
    from reviewer.store.sessions.store import SessionStore

    per_reviewer = labels // reviewers
    runs = per_reviewer // 20 + per_reviewer // 100 + 1
    generate(root, runs, seed=seed, labelled_share=0.0, failing_choices=(18, 19, 20, 21, 22))
    store = SessionStore(root, use_index=False)
    store.scan()
    rng = random.Random(seed)
    chosen: list[tuple[str, str, str, str]] = []
    for run in store.runs:
        for f in store.failures(run):
            if len(chosen) == per_reviewer:
                break
            stale = rng.random() < 0.05
            chosen.append((run.session, run.id, f.check_id, "sha256:" + "0" * 32 if stale else evidence_hash(store, run, f)))
    if len(chosen) < per_reviewer:
        raise RuntimeError("not enough failures for the labels asked for")
    written = 0
    for r in range(reviewers):
        reviewer = f"reviewer-{r}"
        count = per_reviewer + (labels - per_reviewer * reviewers if r == reviewers - 1 else 0)
        rows = chosen[:count] if count <= len(chosen) else chosen + chosen[: count - len(chosen)]
        by_session: dict[str, list[tuple[str, str, str, str]]] = {}
        for session, run_id, check, evidence in rows:
            verdict = "specification" if rng.random() < 0.3 else "capability"
            by_session.setdefault(session, []).append((run_id, check, verdict, evidence))
        for session, session_rows in by_session.items():
            write_run_files(root / session / "labels" / reviewer, session, reviewer, session_rows)
        written += len(rows)
    return {"runs": runs, "labels": written}
