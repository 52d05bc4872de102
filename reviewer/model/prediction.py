"""A judge's prediction on one failure, and the judge protocol's answer (pure data and rules).

A *judge* is anything that, given one failure, says specification or capability: a user's command
speaking the judge protocol (``reviewer judge --command``), or one of the project's own
instruments (``--builtin evidence``, ``--builtin rescore``). What it says is a
:class:`Prediction`, kept like a label (``<session>/predictions/<judge>.toml``) and scored against
the humans. A prediction is never a label.

The protocol (version :data:`PROTOCOL_VERSION`): the judge reads one JSON document on its stdin
(the failure: brief, graded code, check and grader output, transcript, evidence, re-scores; its
schema is :data:`INPUT_SCHEMA`) and writes one JSON object on its stdout, :data:`ANSWER_SCHEMA`::

    {"version": 1, "verdict": "specification", "confidence": 0.8, "rationale": "..."}

``verdict`` is ``specification``, ``capability`` or ``abstain`` (``null`` is an abstention too);
``confidence`` (optional) is the judge's probability, 0 to 1, that its verdict is right;
``rationale`` (optional) is free text, kept up to :data:`MAX_RATIONALE` characters;
``judge_version`` (optional) names the judge's own version (a model name, a prompt's hash). Any
other key is ignored. :func:`parse_answer` holds an answer to this, every way it can fail
becoming :class:`BadAnswer` with a one-line reason.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from reviewer.model.label import OnFailure, Verdict
from reviewer.model.records import record

PROTOCOL_VERSION = 1
"""The judge protocol's version: the ``version`` of every input document, and of an answer that gives one."""
MAX_ANSWER = 1 << 20
"""Bytes of a judge's stdout read at most: an answer past this is refused, the judge stopped."""
MAX_RATIONALE = 8_000
"""Characters of a rationale kept (the rest cut, with a marker)."""
MAX_JUDGE_VERSION = 200
MAX_NESTING = 64
"""Brackets an answer may open before any closes: deeper is refused before it is parsed."""
JUDGE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
"""A judge's name is the stem of its predictions file: lower-case ASCII letters, digits, ``_`` and ``-``."""
BUILTIN_JUDGES = ("evidence", "rescore")
"""The project's own instruments, run by ``reviewer judge --builtin NAME`` under their own names
(no command judge may take one)."""
ABSTAIN = "abstain"

ANSWER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "reviewer judge answer",
    "type": "object",
    "required": ["verdict"],
    "properties": {
        "version": {"const": PROTOCOL_VERSION},
        "verdict": {"enum": ["specification", "capability", ABSTAIN, None]},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "rationale": {"type": "string"},
        "judge_version": {"type": "string", "maxLength": MAX_JUDGE_VERSION},
    },
}
"""What a judge writes on its stdout (one JSON object; whitespace around it is allowed)."""

TEXT_PROPERTIES: dict[str, Any] = {"path": {"type": "string"}, "text": {"type": "string"},
                                   "truncated": {"type": "boolean"}, "error": {"type": "string"}}
TEXT: dict[str, Any] = {"type": "object", "properties": TEXT_PROPERTIES}
INPUT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "reviewer judge input",
    "type": "object",
    "required": ["protocol", "version", "failure", "brief", "code", "grader", "transcript", "evidence", "rescores"],
    "properties": {
        "protocol": {"const": "reviewer-judge"},
        "version": {"const": PROTOCOL_VERSION},
        "failure": {"type": "object", "properties": {
            "id": {"type": "string"}, "session": {"type": "string"}, "run": {"type": "string"},
            "task": {"type": "string"}, "model": {"type": "string"}, "check": {"type": "string"},
            "check_name": {"type": "string"}, "status": {"enum": ["fail", "error"]},
            "message": {"type": "string"}, "message_truncated": {"type": "boolean"}}},
        "brief": TEXT,
        "code": {"type": "object", "properties": {
            "attempt": {"type": ["integer", "null"]}, "attempts": {"type": "integer"},
            "files": {"type": "array", "items": {"type": "object", "properties": TEXT_PROPERTIES | {
                "outside_expected": {"type": "boolean"}}}},
            "files_left_out": {"type": "integer"}}},
        "grader": {"type": "object", "properties": {
            "name": {"type": "string"}, "command": {"type": "string"}, "cwd": {"type": "string"},
            "exit_status": {"type": ["integer", "null"]}, "output": TEXT,
            "checks": {"type": "array", "items": {"type": "object", "properties": {
                "check": {"type": "string"}, "status": {"enum": ["pass", "fail", "error", "skip"]}}}},
            "source": {"type": "array", "items": TEXT}}},
        "transcript": {"type": "object", "properties": {
            "turns": {"type": "array", "items": {"type": "object", "properties": {
                "role": {"type": "string"}, "text": {"type": "string"}, "attempt": {"type": ["integer", "null"]},
                "nudge": {"type": "boolean"}, "tool_calls": {"type": "array"}}}},
            "turns_left_out": {"type": "integer"}, "error": {"type": "string"}}},
        "evidence": {"type": ["object", "null"], "description": "as `reviewer show --json` prints it"},
        "evidence_error": {"type": "string"},
        "rescores": {"type": "array", "items": {"type": "object", "properties": {
            "repairs": {"type": "array", "items": {"type": "string"}}, "at": {"type": "string"},
            "reproduced": {"type": "boolean"}, "flipped": {"type": "boolean"},
            "recorded": {"type": "string"}, "before": {"type": "string"}, "after": {"type": "string"},
            "summary": {"type": "string"}, "stated": {"type": "string"}}}},
        "observation": {"type": ["object", "null"]},
    },
}
"""What a judge reads on its stdin: one document per failure, then end of file."""


class BadAnswer(Exception):
    """A judge's answer that cannot be used; the message is one line saying why."""


@record
class Answer:
    """A judge's answer on one failure, as read from its stdout.

    Attributes:
        verdict: specification or capability; None when the judge abstains.
        confidence: the judge's probability that its verdict is right, 0-1; None when it gave none.
        rationale: why (cut at :data:`MAX_RATIONALE` characters).
        judge_version: the judge's own version, "" when it named none.
    """

    verdict: Verdict | None
    confidence: float | None = None
    rationale: str = ""
    judge_version: str = ""


@record
class Prediction(OnFailure):
    """What one judge said about one failure (an abstention when ``verdict`` is None).

    Attributes:
        session, run, check: which failure (check is ``<grader>:<key>``).
        judge: the judge's name (its predictions file's stem).
        verdict: specification or capability; None: the judge abstained.
        confidence: 0-1, None when the judge gave none.
        rationale: the judge's reason.
        predicted_at: RFC 3339 UTC time the answer came.
        command: the judge's command line as given (``builtin:evidence`` for a built-in judge).
        judge_version: the version the judge named ("" when none).
        evidence: the failure's evidence hash when it was judged: a prediction whose failure
            changed since (brief, check, code or output) is *stale* and counts nowhere.
        seconds: how long the judge took.
    """

    session: str
    run: str
    check: str
    judge: str
    verdict: Verdict | None
    confidence: float | None = None
    rationale: str = ""
    predicted_at: str = ""
    command: str = ""
    judge_version: str = ""
    evidence: str = ""
    seconds: float = 0.0

    @property
    def abstained(self) -> bool:
        """The judge gave no verdict."""
        return self.verdict is None


def judge_name_problem(name: str) -> str:
    """Why ``name`` cannot name a judge ("" when it can)."""
    if not JUDGE_NAME.match(name):
        return (f"{name!r} is not a judge name: lower-case ASCII letters, digits, '_' and '-', at most 63, "
                "starting with a letter or digit (it names the predictions file)")
    return ""


def cut_rationale(text: str) -> str:
    """A rationale kept to :data:`MAX_RATIONALE` characters, with a marker saying how much went."""
    if len(text) <= MAX_RATIONALE:
        return text
    return text[:MAX_RATIONALE] + f" …[cut: {len(text) - MAX_RATIONALE:,} more characters]"


def nesting(text: str) -> int:
    """The deepest bracket nesting of JSON text (strings skipped), counted without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_NESTING:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def quoted_start(text: str, limit: int = 60) -> str:
    """The first characters of an answer, for a message (escapes made visible by ``repr``)."""
    head = text[:limit]
    return repr(head) + ("…" if len(text) > limit else "")


def parse_answer(data: bytes) -> Answer:
    """A judge's stdout as an :class:`Answer`; :class:`BadAnswer` (one line) when it is not one."""
    if len(data) > MAX_ANSWER:
        raise BadAnswer(f"the answer is over {MAX_ANSWER >> 10} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadAnswer(f"the answer is not UTF-8 (byte {exc.start})") from None
    text = text.strip().removeprefix("\ufeff").strip()
    if not text:
        raise BadAnswer("the judge wrote no answer on its stdout")
    if nesting(text) > MAX_NESTING:
        raise BadAnswer(f"the answer nests brackets deeper than {MAX_NESTING}")
    try:
        doc = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        raise BadAnswer(f"the answer is not one JSON object ({exc.msg}: line {exc.lineno} column {exc.colno}); "
                        f"it began {quoted_start(text)}") from None
    except (RecursionError, ValueError) as exc:
        raise BadAnswer(f"the answer cannot be read: {str(exc)[:120]}") from None
    if not isinstance(doc, dict):
        raise BadAnswer(f"the answer is a JSON {type(doc).__name__}, not an object; it began {quoted_start(text)}")
    return answer_from(doc)


def refuse_constant(name: str) -> Any:
    """``json``'s hook for NaN and Infinity, which are not JSON."""
    raise ValueError(f"{name} is not a JSON number")


def answer_from(doc: dict[str, Any]) -> Answer:
    """The fields of a parsed answer, checked."""
    version = doc.get("version", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise BadAnswer(f"the answer is of protocol version {str(version)[:20]!r}; this reviewer speaks version "
                        f"{PROTOCOL_VERSION}")
    if "verdict" not in doc:
        raise BadAnswer('the answer has no "verdict" (specification, capability or abstain)')
    word = doc["verdict"]
    if word is None or word == ABSTAIN:
        verdict = None
    elif isinstance(word, str) and word in (Verdict.SPECIFICATION.value, Verdict.CAPABILITY.value):
        verdict = Verdict(word)
    else:
        raise BadAnswer(f'"verdict" is {str(word)[:40]!r}: want "specification", "capability" or "abstain"')
    confidence = doc.get("confidence")
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not math.isfinite(confidence) \
                or not 0 <= confidence <= 1:
            raise BadAnswer(f'"confidence" is {str(confidence)[:40]!r}: want a number from 0 to 1')
        confidence = float(confidence)
    rationale = doc.get("rationale", "")
    if rationale is None:
        rationale = ""
    if not isinstance(rationale, str):
        raise BadAnswer(f'"rationale" is a JSON {type(rationale).__name__}, not a string')
    version_text = doc.get("judge_version", "")
    if not isinstance(version_text, str):
        raise BadAnswer(f'"judge_version" is a JSON {type(version_text).__name__}, not a string')
    return Answer(verdict, confidence, cut_rationale(rationale), version_text[:MAX_JUDGE_VERSION])


def verdict_word(verdict: Verdict | None) -> str:
    """``specification``, ``capability`` or ``abstain``."""
    return ABSTAIN if verdict is None else verdict.value
