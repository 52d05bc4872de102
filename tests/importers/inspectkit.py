"""An Inspect-shaped code-generation log, written by the tests as .json and as .eval (zstd/deflate).

The log has three samples over two epochs, two scorers (``verify``: C/I with the test run in
its explanation; ``style``: a dict of numbers that always passes), attachments, a model retry
inside one epoch (a failed write, then a second one), and sandbox events: Inspect's own probe
before the solver, the model's tool runs, and inside the ``verify`` scorer's span a probe
*before* the real test command. Which epochs fail is fixed in :data:`EXPECTED`.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import zstandard

TASK_INPUT = "Write `solution.py` with a function `{name}` that {what}. Tests will import it."
SYSTEM = "You are a careful Python programmer. Save files with the write_file tool."
SAMPLES = {
    "add": ("add(a, b)", "returns the sum of a and b"),
    "fizzbuzz": ("fizzbuzz(n)", "returns Fizz, Buzz, FizzBuzz or the number as text"),
    7: ("parse_int(s)", "parses a decimal integer, raising ValueError on junk"),
}
VERDICTS = {("add", 1): "C", ("add", 2): "I", ("fizzbuzz", 1): "I", ("fizzbuzz", 2): "C", (7, 1): "C", (7, 2): "error"}
EXPECTED = {
    "add-epoch-1": "pass",
    "add-epoch-2": "fail",
    "fizzbuzz-epoch-1": "fail",
    "fizzbuzz-epoch-2": "pass",
    "7-epoch-1": "pass",
    "7-epoch-2": "error",
}
TEST_COMMAND = "python -m pytest -q test_solution.py"


def attachment(text: str, store: dict[str, str]) -> str:
    """Store text as an attachment and return its reference."""
    key = hashlib.md5(text.encode()).hexdigest()
    store[key] = text
    return f"attachment://{key}"


def code_for(sample: Any, verdict: str) -> str:
    """The code the model wrote."""
    name = SAMPLES[sample][0].split("(")[0]
    body = "    return None  # wrong on purpose\n" if verdict == "I" else "    ...  # a correct body\n"
    return f"def {name}(*args):\n{body}"


def span(i: str, kind: str, name: str, parent: str | None = None) -> dict[str, Any]:
    """A span_begin event."""
    e = {"event": "span_begin", "id": i, "span_id": i, "type": kind, "name": name, "timestamp": "2026-11-02T10:00:00+00:00"}
    if parent:
        e["parent_id"] = parent
    return e


def sandbox(span_id: str, cmd: str, result: int, output: str) -> dict[str, Any]:
    """A sandbox exec event."""
    return {"event": "sandbox", "span_id": span_id, "action": "exec", "cmd": cmd, "result": result, "output": output, "timestamp": "2026-11-02T10:00:01+00:00"}


def sample(sample_id: Any, epoch: int) -> dict[str, Any]:
    """One sample epoch."""
    verdict = VERDICTS[(sample_id, epoch)]
    store: dict[str, str] = {}
    name, what = SAMPLES[sample_id]
    task = TASK_INPUT.format(name=name, what=what)
    code = code_for(sample_id, verdict)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": attachment(task, store), "source": "input"},
        {"role": "assistant", "content": "I will write the file.", "tool_calls": [
            {"id": "call_1", "function": "write_file", "arguments": {"path": "/workspace/../sol.py", "content": "oops"}, "type": "function"}]},
        {"role": "tool", "tool_call_id": "call_1", "function": "write_file", "content": "", "error": {"type": "permission", "message": "path outside the workspace"}},
        {"role": "assistant", "content": [{"type": "text", "text": "Retrying in the workspace."}], "tool_calls": [
            {"id": "call_2", "function": "write_file", "arguments": {"path": "solution.py", "content": attachment(code, store)}, "type": "function"}]},
        {"role": "tool", "tool_call_id": "call_2", "function": "write_file", "content": "wrote solution.py"},
        {"role": "assistant", "content": f"Done.\n\n```python\n{code}```\n"},
    ]
    if sample_id == "fizzbuzz":
        messages = messages[:2] + messages[-1:]
    test_out = "1 passed in 0.01s" if verdict == "C" else "F\nAssertionError: assert None == 3\n1 failed in 0.02s"
    events = [
        span("s0", "init", "init"),
        sandbox("s0", "bash --login -c 'uname -a'", 0, "Linux probe"),
        span("s1", "solvers", "solvers"),
        sandbox("s1", "cat solution.py", 0, code),
        span("s2", "scorers", "scorers"),
        span("s3", "scorer", "verify", "s2"),
        sandbox("s3", "bash --login -c 'pwd'", 0, "/workspace"),
        sandbox("s3", TEST_COMMAND, 0 if verdict == "C" else 1, test_out),
        span("s4", "scorer", "style", "s2"),
    ]
    doc: dict[str, Any] = {
        "id": sample_id,
        "epoch": epoch,
        "input": attachment(task, store),
        "target": "tests in test_solution.py",
        "messages": messages,
        "output": {"model": "mock-model-1", "choices": [{"message": messages[-1], "stop_reason": "stop"}], "usage": {"input_tokens": 120, "output_tokens": 40}},
        "metadata": {"difficulty": "easy", "bracket [x]": "\x1b[31mred\x1b[0m"},
        "store": {},
        "events": events,
        "attachments": store,
        "model_usage": {"mockllm/model": {"input_tokens": 120}},
        "total_time": 1.5,
    }
    if verdict == "error":
        doc["error"] = {"message": "RuntimeError: sandbox died", "traceback": "Traceback ...\nRuntimeError: sandbox died"}
        doc["scores"] = {}
    else:
        explanation = f"The following verification code was executed:\n\n```\n{TEST_COMMAND}\n```\n{test_out}"
        doc["scores"] = {
            "verify": {"value": verdict, "answer": code, "explanation": explanation, "metadata": {"exit": 0 if verdict == "C" else 1}},
            "style": {"value": {"lint": 1.0, "docstring": True}, "explanation": "clean"},
        }
    return doc


def header() -> dict[str, Any]:
    """The log header (everything but the samples)."""
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "eval_id": "EvalCodeGen42",
            "run_id": "RunCodeGen42",
            "created": "2026-11-02T10:00:00+00:00",
            "task": "demo/codegen",
            "task_id": "T1",
            "model": "mockllm/model",
            "dataset": {"name": "codegen", "samples": 3},
            "config": {"epochs": 2},
            "packages": {"inspect_ai": "0.3.210"},
            "scorers": [{"name": "verify"}, {"name": "style"}],
        },
        "plan": {"name": "plan", "steps": [{"solver": "system_message"}, {"solver": "generate"}]},
        "results": {"total_samples": 6, "scores": [{"name": "verify", "metrics": {"accuracy": {"name": "accuracy", "value": 0.5}}}]},
        "stats": {"started_at": "2026-11-02T10:00:00+00:00", "completed_at": "2026-11-02T10:05:00+00:00"},
    }


def all_samples() -> list[dict[str, Any]]:
    """Every sample epoch, in a shuffled order (the importer must not depend on it)."""
    return [sample(s, e) for e in (2, 1) for s in ("fizzbuzz", 7, "add")]


def write_json_log(path: Path) -> Path:
    """The log as one .json document."""
    doc = {**header(), "samples": all_samples(), "reductions": [{"scorer": "verify", "samples": []}]}
    path.write_text(json.dumps(doc, indent=1))
    return path


def eval_entries() -> list[tuple[str, bytes]]:
    """The entries of an .eval archive."""
    entries = [("_journal/start.json", json.dumps({k: header()[k] for k in ("version", "eval", "plan")}).encode())]
    for s in all_samples():
        entries.append((f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s).encode()))
    entries.append(("reductions.json", b'[{"scorer": "verify", "samples": []}]'))
    entries.append(("header.json", json.dumps(header()).encode()))
    return entries


def write_deflate_eval(path: Path) -> Path:
    """The log as an .eval archive with deflate entries (what zipfile writes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in eval_entries():
            z.writestr(name, data)
    return path


def write_zstd_zip(path: Path, entries: list[tuple[str, bytes]], content_size: bool = True) -> Path:
    """A ZIP whose entries use method 93 (zstd), written by hand as Inspect >= 0.3.206 does."""
    cctx = zstandard.ZstdCompressor(level=3, write_content_size=content_size)
    local = bytearray()
    central = bytearray()
    for name, data in entries:
        packed = cctx.compress(data)
        crc = zlib.crc32(data) & 0xFFFFFFFF
        raw = name.encode()
        offset = len(local)
        local += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63, 0, 93, 0, 0x5B21, crc, len(packed), len(data), len(raw), 0)
        local += raw + packed
        central += struct.pack(
            "<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 63, 63, 0, 93, 0, 0x5B21, crc, len(packed), len(data), len(raw), 0, 0, 0, 0, 0, offset
        )
        central += raw
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(central), len(local), 0)
    path.write_bytes(bytes(local + central + end))
    return path


def write_zstd_eval(path: Path) -> Path:
    """The log as an .eval archive with zstd-compressed entries."""
    return write_zstd_zip(path, eval_entries())
