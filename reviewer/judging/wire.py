"""What a judge call sends back from where it ran: JSON text, read here as data only.

A :class:`JudgeTask` is one call, complete in itself: the failure's id, the judge's argv, its
timeout and the input document (built on the client, which reads the folder). It names no path of
the sessions folder, so a worker needs no shared disk; the judge command must exist on the worker
(:func:`worker_check` says where it does not).

:func:`perform` is the work an executor runs (:mod:`reviewer.parallel`), on this machine or on a
cluster's worker: one :func:`~reviewer.judging.process.call_judge`, its reply as a JSON document,
``{"protocol", "failure", "stdout" (base64), "stderr_tail", "seconds"}`` or, when the judge gave
no usable reply (timeout, a non-zero exit, a signal, cancelled, not startable),
``{"protocol", "failure", "problem": {"kind", "message"}}``. It never raises. The judge's stdout
is not parsed there: :func:`read_result` on the client reads the document with :func:`json.loads`
(no object of any class is made from it), checks every field, and parses the judge's answer with
the protocol's :func:`~reviewer.model.prediction.parse_answer`. The prediction is made on the client.
"""

from __future__ import annotations

import base64
import binascii
import json
import shutil
from collections.abc import Callable, Sequence
from typing import Any

from reviewer.judging.process import ANSWER_CAP, CHUNK, JudgeUnavailable, call_judge
from reviewer.model.prediction import ABSTAIN, Answer, BadAnswer, parse_answer
from reviewer.model.records import record

PROTOCOL = 1
"""The version of the documents below; a worker running another one is refused."""
RESULT_CAP = 4 * (ANSWER_CAP + CHUNK) // 3 + (64 << 10)
"""The largest result read: the judge's capped stdout in base64, with room for the rest."""
KINDS = ("unavailable", "cancelled", "failed")
"""Why a call gave no reply to read: the command did not start, the batch was stopped, anything else."""


@record
class JudgeTask:
    """One judge call, everything it needs carried with it.

    Attributes:
        failure: the failure's id (the client's key for the result).
        argv: the judge's command (the user's, never built from recorded text); empty for a
            built-in judge, which runs on the client only.
        timeout: seconds the judge may take.
        document: the failure's input document, one JSON line.
    """

    failure: str
    argv: tuple[str, ...]
    timeout: float
    document: bytes


@record
class JudgeReply:
    """A judge's answer as read on the client, and the seconds the call took."""

    answer: Answer
    seconds: float


class BadResult(Exception):
    """A result that is not a document this version of reviewer writes: refused, nothing read from it."""


class JudgeProblem(Exception):
    """The judge gave no usable answer; ``kind`` is one of :data:`KINDS`, the message one line."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def perform(task: JudgeTask, cancelled: Callable[[], bool]) -> str:
    """Run the judge on ``task``'s document here; the reply as a JSON document (never raises)."""
    try:
        reply = call_judge(task.argv, task.document, timeout=task.timeout, cancelled=cancelled)
    except JudgeUnavailable as exc:
        return problem_doc(task.failure, "unavailable", str(exc))
    except BaseException as exc:  # noqa: BLE001 - every trouble goes back as data, never as a raised object
        return problem_doc(task.failure, "failed", f"{type(exc).__name__}: {exc}")
    why = reply.problem(task.timeout)
    if why:
        return problem_doc(task.failure, "cancelled" if reply.stopped == "cancelled" else "failed", why)
    return answer_doc(task.failure, reply.stdout, reply.stderr_tail, reply.seconds)


def answer_doc(failure: str, stdout: bytes, stderr_tail: str = "", seconds: float = 0.0) -> str:
    """The document of a call that ended by itself: what the judge wrote, unread."""
    return dump({"protocol": PROTOCOL, "failure": failure, "stdout": base64.b64encode(stdout).decode("ascii"),
                 "stderr_tail": stderr_tail, "seconds": seconds})


def problem_doc(failure: str, kind: str, message: str) -> str:
    """The document of a call that gave no reply to read."""
    return dump({"protocol": PROTOCOL, "failure": failure, "problem": {"kind": kind, "message": message}})


def answer_bytes(answer: Answer) -> bytes:
    """``answer`` as a judge writes it on its stdout (the built-in judges answer through the protocol too)."""
    verdict = ABSTAIN if answer.verdict is None else answer.verdict.value
    return dump({"verdict": verdict, "confidence": answer.confidence, "rationale": answer.rationale,
                 "judge_version": answer.judge_version}).encode("ascii")


def dump(doc: dict[str, Any]) -> str:
    """A document as ASCII JSON (escapes and all, as text)."""
    return json.dumps(doc, ensure_ascii=True)


def read_result(text: str | bytes, task: JudgeTask) -> JudgeReply:
    """The judge's answer on ``task`` from its result document.

    Raises :class:`JudgeProblem` when the judge gave no usable answer (as the worker said, or an
    answer that does not parse: kind ``failed``, the judge's last stderr line added), and
    :class:`BadResult` for anything that is not such a document, or is about another failure.
    """
    if not isinstance(text, (str, bytes)):
        raise BadResult(f"a result is JSON text, and this is {type(text).__name__}")
    if len(text) > RESULT_CAP:
        raise BadResult(f"a result of {len(text) >> 10} KiB, over {RESULT_CAP >> 10} KiB")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadResult(f"a result that is not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise BadResult("the result is not an object")
    if doc.get("protocol") != PROTOCOL or isinstance(doc.get("protocol"), bool):
        raise BadResult(f"a result of protocol {str(doc.get('protocol'))[:20]!r}, and this reviewer reads {PROTOCOL}: "
                        "run the same reviewer on the workers")
    if doc.get("failure") != task.failure:
        raise BadResult(f"the result of {task.failure} is about {str(doc.get('failure'))[:200]!r}")
    if "problem" in doc:
        problem = doc["problem"]
        if not (isinstance(problem, dict) and problem.get("kind") in KINDS and isinstance(problem.get("message"), str)):
            raise BadResult("the result's problem is not {kind, message}")
        raise JudgeProblem(problem["kind"], problem["message"])
    encoded, tail, seconds = doc.get("stdout"), doc.get("stderr_tail"), doc.get("seconds")
    if not (isinstance(encoded, str) and isinstance(tail, str) and isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)):
        raise BadResult("the result is not {stdout, stderr_tail, seconds}")
    try:
        stdout = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise BadResult("the result's stdout is not base64") from None
    try:
        answer = parse_answer(stdout)
    except BadAnswer as exc:
        last = tail.strip().splitlines()
        raise JudgeProblem("failed", f"{exc}" + (f"; its stderr ended: {last[-1][-300:]}" if last else "")) from None
    return JudgeReply(answer, float(seconds))


def worker_check(argv: Sequence[str]) -> str:
    """Whether this machine can run the judge: ``{"protocol": N, "missing": ""}``, or what is missing
    (its program found neither on PATH nor as an executable file); a worker's answer before any work."""
    program = argv[0] if argv else ""
    missing = "" if program and shutil.which(program) else f"the judge's program {program!r} is not found there"
    return dump({"protocol": PROTOCOL, "missing": missing})


def read_worker_check(text: str) -> str:
    """The problem a worker's :func:`worker_check` reported ("" when it can run the judge)."""
    try:
        doc = json.loads(text[:1 << 20])
    except (ValueError, RecursionError) as exc:
        return f"its answer to the judge check could not be read ({exc})"
    if not isinstance(doc, dict) or not isinstance(doc.get("missing"), str):
        return "its answer to the judge check is not {protocol, missing}"
    if doc.get("protocol") != PROTOCOL:
        return (f"it runs another version of reviewer (protocol {str(doc.get('protocol'))[:20]!r}, here {PROTOCOL}): "
                "install the same reviewer on the workers")
    return str(doc["missing"])
