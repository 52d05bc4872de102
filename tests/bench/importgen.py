"""Inputs for the import benchmark: mini-swe-agent trajectories and an Inspect ``.eval`` log.

:func:`write_trajectories` writes N ``*.traj.json`` files of about 20 messages each in the
current mini-swe-agent format (``trajectory_format = "mini-swe-agent-1.1"``: a system prompt,
the task, then command / observation pairs and the final submission), about 15 KB a file.

:func:`write_eval` writes an Inspect ``.eval`` of N samples with every entry zstd-compressed
(ZIP method 93), as Inspect writes them since v0.3.206: ``_journal/start.json``,
``samples/<id>_epoch_<n>.json`` (20 messages with tool calls, two scorers, events,
attachments), ``summaries.json``, ``reductions.json``, ``header.json``. The samples follow
Inspect's schema closely enough that ``inspect_ai.log.read_eval_log`` reads them.
Both are streamed to disk and deterministic for a given N.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import zstandard

SYSTEM = (
    "You are a helpful assistant that can interact with a computer shell to solve programming tasks.\n"
    "Your response must contain exactly ONE bash code block with ONE command (or commands connected "
    "with && or ||). Include a THOUGHT section before your command where you explain your reasoning.\n"
) * 4
TASK = (
    "Please solve this issue: the function `parse_duration` in `timeutil/parse.py` accepts "
    "'1h30m' but rejects '90m' and '1h 30m'. It should accept minutes on their own and "
    "whitespace between the parts, and raise ValueError with the offending text otherwise.\n"
) * 3


def observation(step: int, task: int) -> str:
    """The output of one command, about 600 bytes."""
    lines = [f"timeutil/parse.py:{10 + i}:    part = text[{i}:{i + step}]  # task {task}" for i in range(8)]
    return "<returncode>0</returncode>\n<output>\n" + "\n".join(lines) + "\n</output>"


def command(step: int) -> str:
    """One assistant turn: a thought and one bash block."""
    return (
        f"THOUGHT: step {step}: I need to look at how the parser splits the text before changing it, "
        "so I will print the relevant part of the file.\n\n"
        f"```mswea_bash_command\nsed -n '{step * 10},{step * 10 + 20}p' timeutil/parse.py\n```"
    )


def patch(task: int) -> str:
    """A small unified diff."""
    return (
        "diff --git a/timeutil/parse.py b/timeutil/parse.py\n--- a/timeutil/parse.py\n+++ b/timeutil/parse.py\n"
        f"@@ -10,7 +10,9 @@ def parse_duration(text):\n-    parts = PATTERN.fullmatch(text)\n"
        f"+    parts = PATTERN.fullmatch(text.replace(' ', ''))  # task {task}\n+    if parts is None:\n"
        "+        raise ValueError(text)\n"
    )


def trajectory(task: int, messages: int = 20) -> dict[str, Any]:
    """One mini-swe-agent trajectory of ``messages`` messages."""
    out: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": TASK + f"\n(instance {task})"}]
    step = 0
    while len(out) < messages - 2:
        step += 1
        out.append({"role": "assistant", "content": command(step)})
        out.append({"role": "user", "content": observation(step, task)})
    out.append({"role": "assistant", "content": "THOUGHT: done.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```"})
    out.append({"role": "user", "content": patch(task)})
    info = {
        "exit_status": "Submitted",
        "submission": patch(task),
        "model_stats": {"instance_cost": 0.0123, "api_calls": step + 1},
        "mini_version": "1.9.0",
        "config": {"model": {"model_name": f"bench-model-{task % 4}"}, "agent": {"step_limit": 0, "cost_limit": 3.0}},
    }
    return {"info": info, "messages": out, "trajectory_format": "mini-swe-agent-1.1"}


def write_trajectories(folder: Path, n: int, messages: int = 20) -> list[Path]:
    """``n`` trajectory files in ``folder`` (created); their paths, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for task in range(n):
        path = folder / f"bench__task-{task:05d}.traj.json"
        path.write_text(json.dumps(trajectory(task, messages), indent=2))
        paths.append(path)
    return paths


def attach(text: str, store: dict[str, str]) -> str:
    """``text`` as an attachment reference (as Inspect condenses long strings)."""
    key = hashlib.md5(text.encode()).hexdigest()
    store[key] = text
    return f"attachment://{key}"


def sample(i: int, epoch: int = 1) -> dict[str, Any]:
    """One Inspect sample of 20 messages: tool calls writing a file, two scorers, events."""
    store: dict[str, str] = {}
    task = f"Write `solution.py` with `solve(n)` returning the {i}-th triangular number. " * 4
    messages: list[dict[str, Any]] = [
        {"id": f"m{i}-0", "role": "system", "content": "You are a careful Python programmer. Use the tools.", "source": "generate"},
        {"id": f"m{i}-1", "role": "user", "content": attach(task, store), "source": "input"},
    ]
    for step in range(9):
        call = f"call_{i}_{step}"
        code = f"def solve(n):\n    # attempt {step}\n    return n * (n + 1) // 2 + {step % 2}\n"
        messages.append({
            "id": f"m{i}-{2 + 2 * step}", "role": "assistant", "source": "generate",
            "content": [{"type": "text", "text": f"Step {step}: writing the solution and running the tests."}],
            "tool_calls": [{"id": call, "function": "write_file", "arguments": {"path": "solution.py", "content": code}, "type": "function"}],
            "model": "bench-model",
        })
        messages.append({"id": f"m{i}-{3 + 2 * step}", "role": "tool", "tool_call_id": call, "function": "write_file", "content": f"wrote solution.py ({len(code)} bytes)"})
    verdict = "C" if i % 3 else "I"
    test_out = "3 passed in 0.02s" if verdict == "C" else "F\nE  assert solve(3) == 6\n1 failed, 2 passed in 0.03s"
    ts = "2026-11-02T10:00:00+00:00"
    events = [
        {"event": "sample_init", "timestamp": ts, "working_start": 0.0, "pending": False, "sample": {"input": "...", "id": i}, "state": {}},
        {"event": "span_begin", "timestamp": ts, "working_start": 0.1, "id": "s3", "type": "scorer", "name": "verify"},
        {"event": "sandbox", "timestamp": ts, "working_start": 0.2, "span_id": "s3", "action": "exec", "cmd": "python -m pytest -q", "result": 0 if verdict == "C" else 1, "output": test_out},
        {"event": "span_end", "timestamp": ts, "working_start": 0.3, "id": "s3"},
    ]
    final = messages[-2]
    return {
        "id": i,
        "epoch": epoch,
        "input": attach(task, store),
        "target": "tests in test_solution.py",
        "messages": messages,
        "output": {"model": "bench-model", "choices": [{"message": final, "stop_reason": "stop"}], "completion": "done", "usage": {"input_tokens": 900, "output_tokens": 300, "total_tokens": 1200}},
        "scores": {
            "verify": {"value": verdict, "answer": "solution.py", "explanation": f"python -m pytest -q\n{test_out}", "metadata": {"exit": 0 if verdict == "C" else 1}},
            "style": {"value": {"lint": 1.0, "docstring": 0.0}, "explanation": "lint clean"},
        },
        "metadata": {"difficulty": ["easy", "medium", "hard"][i % 3]},
        "store": {},
        "events": events,
        "model_usage": {"bench/model": {"input_tokens": 900, "output_tokens": 300, "total_tokens": 1200}},
        "total_time": 1.5,
        "working_time": 1.2,
        "uuid": f"uuid-{i:06d}",
        "attachments": store,
    }


def eval_spec(n: int) -> dict[str, Any]:
    """The ``eval`` object of the header."""
    return {
        "eval_id": "benchEval0001", "run_id": "benchRun0001", "created": "2026-11-02T10:00:00+00:00",
        "task": "bench/triangular", "task_id": "T1", "task_version": 0,
        "dataset": {"name": "triangular", "samples": n, "sample_ids": list(range(1, n + 1))},
        "model": "bench/model", "config": {"epochs": 1}, "packages": {"inspect_ai": "0.3.210"},
        "scorers": [{"name": "verify", "options": {}, "metrics": [], "metadata": {}}, {"name": "style", "options": {}, "metrics": [], "metadata": {}}],
    }


def header(n: int) -> dict[str, Any]:
    """The log header."""
    return {
        "version": 2,
        "status": "success",
        "eval": eval_spec(n),
        "plan": {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}},
        "results": {"total_samples": n, "completed_samples": n, "scores": [{"name": "verify", "scorer": "verify", "params": {}, "metrics": {"accuracy": {"name": "accuracy", "value": 0.667, "params": {}}}}]},
        "stats": {"started_at": "2026-11-02T10:00:00+00:00", "completed_at": "2026-11-02T10:05:00+00:00", "model_usage": {}},
    }


class ZstdZip:
    """A ZIP archive written entry by entry, each entry zstd-compressed (method 93)."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.central = bytearray()
        self.count = 0
        self.offset = 0
        self.cctx = zstandard.ZstdCompressor(level=3)

    def add(self, name: str, chunks: Iterator[bytes] | bytes) -> None:
        """One entry, compressed as it streams (``chunks`` may be one bytes value)."""
        parts = [chunks] if isinstance(chunks, bytes) else chunks
        comp = self.cctx.compressobj()
        packed = bytearray()
        crc = size = 0
        for part in parts:
            crc = zlib.crc32(part, crc)
            size += len(part)
            packed += comp.compress(part)
        packed += comp.flush()
        raw = name.encode()
        self.out.write(struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63, 0, 93, 0, 0x5B21, crc, len(packed), size, len(raw), 0) + raw)
        self.out.write(packed)
        self.central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 63, 63, 0, 93, 0, 0x5B21, crc, len(packed), size, len(raw), 0, 0, 0, 0, 0, self.offset)
        self.central += raw
        self.offset += 30 + len(raw) + len(packed)
        self.count += 1

    def close(self) -> None:
        """Write the central directory."""
        self.out.write(self.central)
        self.out.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, self.count, self.count, len(self.central), self.offset, 0))


def summary(s: dict[str, Any]) -> dict[str, Any]:
    """A sample's entry in ``summaries.json``."""
    return {"id": s["id"], "epoch": s["epoch"], "input": s["input"], "target": s["target"], "scores": s["scores"], "metadata": s["metadata"], "uuid": s["uuid"], "completed": True}


def write_eval(path: Path, n: int, samples: Iterator[dict[str, Any]] | None = None) -> Path:
    """An ``.eval`` of ``n`` samples (or of the given ``samples``), every entry zstd-compressed."""
    summaries = []
    with open(path, "wb") as out:
        z = ZstdZip(out)
        z.add("_journal/start.json", json.dumps({k: header(n)[k] for k in ("version", "eval", "plan")}).encode())
        for s in samples if samples is not None else (sample(i) for i in range(1, n + 1)):
            z.add(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s).encode())
            summaries.append(summary(s))
        z.add("summaries.json", json.dumps(summaries).encode())
        z.add("reductions.json", json.dumps([{"scorer": "verify", "samples": []}]).encode())
        z.add("header.json", json.dumps(header(n)).encode())
        z.close()
    return path
