"""A synthetic sessions folder of N runs with realistic sizes, for the benchmark.

Per run: a 2 KB brief (shared by the runs of a task, as harnesses do), 3 code files of 100 to
300 lines, a 5 KB `go test -v` grader output with some failures, 6 transcript turns; about a
fifth of the failures are labelled by reviewer "bench". Files with the same content are hard
links to one copy so that 100,000 runs fit on disk and are written quickly.
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
        src = self.made.get(key)
        if src is None:
            src = self.dir / f"{len(self.made)}"
            src.write_bytes(content.encode() if isinstance(content, str) else content)
            self.made[key] = src
        try:
            os.link(src, target)
        except OSError:
            target.write_bytes(src.read_bytes())


def generate(root: Path, runs: int, seed: int = 1, labelled_share: float = 0.2) -> dict[str, int]:
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
            failing = rng.choice([0, 0, 1, 2, 3, 5])
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
            (sdir / "labels").mkdir()
            (sdir / "labels" / "bench.toml").write_bytes(tomli_w.dumps(
                {"format": 1, "reviewer": "bench", "session": sid, "label": label_entries}).encode())
    return {"runs": runs, "sessions": sessions, "failures": failures, "labels": labels}
