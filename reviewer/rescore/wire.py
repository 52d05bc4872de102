"""What a re-score sends back from where its sandbox ran: JSON text, read here as data only.

:func:`perform` is the work an executor runs (:mod:`reviewer.parallel`), on this machine or on a
cluster's worker: it runs one :class:`~reviewer.rescore.engine.Grading` (a comparison, or an
observation) and returns its result as a JSON document. It never raises: a grading that cannot
run, a sandbox missing on that machine, a cancel, or any other trouble is a document too.

:func:`read_result` is the only way a result comes back in: :func:`json.loads` (no object of any
class is made from what arrived), then every field checked for its type and turned into the
frozen records the rest of reviewer reads. Anything else, or anything over :data:`RESULT_CAP`, is
refused as :class:`BadResult`. What recorded code printed reaches the client only as strings in
that document, and nothing in it is ever run, imported or unpickled there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from reviewer.model.observation import Invocation, Observation
from reviewer.model.repair import Repair, RepairKind
from reviewer.rescore.engine import (
    CheckResult,
    Comparison,
    Grading,
    NotRerunnable,
    compare_task,
    observe_task,
)
from reviewer.rescore.sandbox import Cancelled, Limits, Outcome, SandboxUnavailable

PROTOCOL = 1
"""The version of the documents below; a worker running another one is refused."""
RESULT_CAP = 64 << 20
"""The largest result read (the sandbox caps each run's output at 8 MiB)."""
KINDS = {"not-rerunnable": NotRerunnable, "sandbox-unavailable": SandboxUnavailable, "cancelled": Cancelled}


class BadResult(Exception):
    """A result that is not a document this version of reviewer writes: refused, nothing read from it."""


def perform(task: Grading, cancelled: Callable[[], bool]) -> str:
    """Run ``task`` in the sandbox of this machine; its result as a JSON document (never raises)."""
    try:
        if task.observe_only:
            return dump({"protocol": PROTOCOL, "observation": observation_doc(observe_task(task, cancel=cancelled))})
        return dump({"protocol": PROTOCOL, "comparison": comparison_doc(compare_task(task, cancel=cancelled))})
    except BaseException as exc:  # noqa: BLE001 - every trouble goes back as data, never as a raised object
        kind = next((name for name, cls in KINDS.items() if isinstance(exc, cls)), "failed")
        text = str(exc) or type(exc).__name__
        return dump({"protocol": PROTOCOL, "error": {"kind": kind, "message": text}})


def worker_check() -> str:
    """Whether this machine can run re-scores: ``{"protocol": N, "sandbox": ""}``, or the sandbox's
    problem (bubblewrap missing or not working); a worker's answer before any work is sent."""
    from reviewer.rescore.sandbox import require_sandbox

    try:
        require_sandbox()
        problem = ""
    except SandboxUnavailable as exc:
        problem = str(exc)
    return dump({"protocol": PROTOCOL, "sandbox": problem})


def read_worker_check(text: str) -> str:
    """The problem a worker's :func:`worker_check` reported ("" when it can run re-scores)."""
    try:
        f = Fields(json.loads(text[:1 << 20]), "the worker's answer")
        if f.get("protocol", int) != PROTOCOL:
            return (f"it runs another version of reviewer (protocol {f.value.get('protocol')!r}, here {PROTOCOL}): "
                    "install the same reviewer on the workers")
        return str(f.get("sandbox", str))
    except (ValueError, RecursionError, BadResult) as exc:
        return f"its answer to the sandbox check could not be read ({exc})"


def dump(doc: dict[str, Any]) -> str:
    """A document as ASCII JSON (escapes and all, as text)."""
    return json.dumps(doc, ensure_ascii=True)


def outcome_doc(o: Outcome) -> dict[str, Any]:
    return {"exit_status": o.exit_status, "output": o.output, "truncated": o.truncated, "seconds": o.seconds,
            "stopped": o.stopped, "limit": o.limit, "memory": o.memory}


def invocation_doc(i: Invocation) -> dict[str, Any]:
    return {"argv": list(i.argv), "stdin": i.stdin, "stdout": i.stdout, "stderr": i.stderr,
            "exit_status": i.exit_status, "test": i.test, "cut": list(i.cut), "seconds": i.seconds}


def observation_doc(o: Observation) -> dict[str, Any]:
    return {"grading": o.grading, "program": o.program, "at": o.at,
            "invocations": [invocation_doc(i) for i in o.invocations], "dropped": o.dropped,
            "exit_status": o.exit_status, "stopped": o.stopped}


def comparison_doc(c: Comparison) -> dict[str, Any]:
    return {"run_key": c.run_key, "grader": c.grader,
            "repairs": [[r.kind.value, list(r.args), r.reason] for r in c.repairs],
            "command": c.command, "cwd": c.cwd, "runtime": c.runtime, "sandbox": c.sandbox,
            "limits": c.limits.as_table(),
            "checks": [[x.key, x.recorded, x.before, x.after, x.message] for x in c.checks],
            "before": outcome_doc(c.before), "after": outcome_doc(c.after), "seconds": c.seconds, "at": c.at,
            "notes": list(c.notes),
            "observation": observation_doc(c.observation) if c.observation is not None else None}


def read_result(text: str | bytes, task: Grading) -> Comparison | Observation:
    """The result of ``task`` from its document; raises NotRerunnable, SandboxUnavailable or
    Cancelled as the worker said, and BadResult for anything that is not such a document (or is
    about another grading)."""
    if not isinstance(text, (str, bytes)):
        raise BadResult(f"a result is JSON text, and this is {type(text).__name__}")
    if len(text) > RESULT_CAP:
        raise BadResult(f"a result of {len(text) >> 20} MiB, over {RESULT_CAP >> 20} MiB")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadResult(f"a result that is not JSON ({exc})") from None
    top = Fields(doc, "the result")
    if top.get("protocol", int) != PROTOCOL:
        raise BadResult(f"a result of protocol {doc.get('protocol')!r}, and this reviewer reads {PROTOCOL}: "
                        "run the same reviewer on the workers")
    if "error" in doc:
        error = Fields(doc["error"], "the error")
        kind, message = error.get("kind", str), error.get("message", str)
        raise KINDS.get(kind, RuntimeError)(message)
    if task.observe_only:
        observation = read_observation(top.get("observation", dict))
        if observation.grading != task.grading_id:
            raise BadResult(f"the result of {task.grading_id} is about {observation.grading}")
        return observation
    comparison = read_comparison(Fields(top.get("comparison", dict), "the comparison"))
    if (comparison.run_key, comparison.grader) != (task.run_key, task.grader):
        raise BadResult(f"the result of {task.grading_id} is about {comparison.run_key}#{comparison.grader}")
    return comparison


class Fields:
    """The fields of one JSON object, each taken with the type it must have (BadResult otherwise)."""

    def __init__(self, value: Any, what: str) -> None:
        if not isinstance(value, dict):
            raise BadResult(f"{what} is not an object")
        self.value, self.what = value, what

    def get(self, key: str, kind: type | tuple[type, ...]) -> Any:
        value = self.value.get(key)
        wanted = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, wanted) or (isinstance(value, bool) and bool not in wanted):  # true is no number
            raise BadResult(f"{self.what}: {key} is not {' or '.join(k.__name__ for k in wanted)}")
        return value

    def number(self, key: str) -> float:
        return float(self.get(key, (int, float)))

    def status(self, key: str) -> int | None:
        value = self.get(key, (int, type(None)))
        return value if isinstance(value, int) else None

    def strings(self, key: str) -> tuple[str, ...]:
        items = self.get(key, list)
        if not all(isinstance(i, str) for i in items):
            raise BadResult(f"{self.what}: {key} is not a list of strings")
        return tuple(items)


def read_outcome(value: Any, what: str) -> Outcome:
    f = Fields(value, what)
    return Outcome(f.status("exit_status"), f.get("output", str), f.get("truncated", bool), f.number("seconds"),
                   f.get("stopped", str), f.get("limit", str), b"", f.get("memory", str))


def read_invocation(value: Any) -> Invocation:
    f = Fields(value, "a run of the program")
    return Invocation(f.strings("argv"), f.get("stdin", str), f.get("stdout", str), f.get("stderr", str),
                      f.status("exit_status"), f.get("test", str), f.strings("cut"), f.number("seconds"))


def read_observation(value: Any) -> Observation:
    f = Fields(value, "the observation")
    return Observation(f.get("grading", str), f.get("program", str), f.get("at", str),
                       tuple(read_invocation(i) for i in f.get("invocations", list)), f.get("dropped", int),
                       f.status("exit_status"), f.get("stopped", str))


def read_repair(value: Any) -> Repair:
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str) and isinstance(value[1], list)
            and all(isinstance(a, str) for a in value[1]) and isinstance(value[2], str)):
        raise BadResult("a repair is not [kind, [args], reason]")
    try:
        kind = RepairKind(value[0])
    except ValueError:
        raise BadResult(f"an unknown repair kind {value[0]!r}") from None
    return Repair(kind, tuple(value[1]), value[2])


def read_check(value: Any) -> CheckResult:
    if not (isinstance(value, list) and len(value) == 5 and all(isinstance(v, str) for v in value)):
        raise BadResult("a check is not [key, recorded, before, after, message]")
    return CheckResult(*value)


def read_limits(value: Any) -> Limits:
    f = Fields(value, "the limits")
    ints = {k: f.get(k, int) for k in ("cpu_seconds", "memory_mb", "processes", "file_size_mb", "disk_mb", "open_files")}
    return Limits(wall_seconds=f.number("wall_seconds"), **ints)


def read_comparison(f: Fields) -> Comparison:
    observed = f.value.get("observation")
    return Comparison(
        f.get("run_key", str), f.get("grader", str), tuple(read_repair(r) for r in f.get("repairs", list)),
        f.get("command", str), f.get("cwd", str), f.get("runtime", str), f.get("sandbox", str),
        read_limits(f.get("limits", dict)), tuple(read_check(c) for c in f.get("checks", list)),
        read_outcome(f.get("before", dict), "the control run"), read_outcome(f.get("after", dict), "the repaired run"),
        f.number("seconds"), f.get("at", str), f.strings("notes"),
        read_observation(observed) if observed is not None else None)

