"""Inspect scores as graders: one ``[[grader]]`` per scorer, its checks recorded from the value.

Status of a score value (documented in ``reviewer import --help``):

- letters: ``C`` (correct) passes; ``I`` (incorrect), ``N`` (no answer) and ``P`` (partial)
  fail, the message saying which;
- booleans: true passes, false fails; numbers (and numeric strings): 1 or more passes,
  less fails (partial credit is not a pass);
- words: yes/true/correct/pass/passed/success pass, no/false/incorrect/fail/failed fail;
- anything else (null, other text) is a ``skip`` check saying the value was not understood;
- a value that is an object gives one check per key, a list one check per item.

A scalar value gives one check keyed ``score``. The grader output is a readable rendering of
the score (value, answer, explanation, metadata) plus the sandbox commands that ran *inside
that scorer* (found through the events' span tree; Inspect runs its own sandbox probes, so the
first sandbox event is never assumed to be the verification). Sandbox events outside any
scorer are returned separately and kept as run metadata.
"""

from __future__ import annotations

import math
from typing import Any

from reviewer.store.logs.ids import as_text, cut
from reviewer.store.logs.spec import CheckSpec, GraderSpec
from reviewer.store.logs.tomlsafe import json_text

LETTERS = {"C": ("pass", "correct"), "I": ("fail", "incorrect"), "N": ("fail", "no answer"), "P": ("fail", "partially correct")}
PASS_WORDS = frozenset({"yes", "true", "correct", "pass", "passed", "success"})
FAIL_WORDS = frozenset({"no", "false", "incorrect", "fail", "failed", "failure"})
EVENT_OUTPUT_CAP = 200_000


def value_status(value: Any) -> tuple[str, str]:
    """(status, a few words on why) for one score value."""
    if isinstance(value, bool):
        return ("pass", "true") if value else ("fail", "false")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return "skip", "not a number"
        return ("pass", f"{value} >= 1") if value >= 1 else ("fail", f"{value} < 1")
    if isinstance(value, str):
        word = value.strip()
        if word.upper() in LETTERS and len(word) == 1:
            return LETTERS[word.upper()]
        try:
            return value_status(float(word))
        except ValueError:
            pass
        if word.lower() in PASS_WORDS:
            return "pass", word
        if word.lower() in FAIL_WORDS:
            return "fail", word
    return "skip", "value not understood as pass or fail"


def score_checks(value: Any, message: str) -> list[CheckSpec]:
    """The checks of one score value (see the module docstring)."""
    if isinstance(value, dict):
        items = [(as_text(k) or "value", v) for k, v in value.items()]
    elif isinstance(value, list):
        items = [(f"value[{i}]", v) for i, v in enumerate(value)]
    else:
        items = [("score", value)]
    checks = []
    for key, v in items:
        status, why = value_status(v)
        text = f"value {json_text(v)}: {why}"
        checks.append(CheckSpec(key, status, message=f"{text}\n{message}".strip()))
    return checks


def render_field(name: str, value: Any) -> str:
    """``name: value``; multi-line text indented below the name."""
    if isinstance(value, str) and "\n" in value:
        body = "\n".join("  " + line for line in value.split("\n"))
        return f"{name}:\n{body}"
    if isinstance(value, str):
        return f"{name}: {value}"
    if isinstance(value, dict):
        lines = [f"{name}:"]
        for k, v in value.items():
            lines.append("  " + render_field(as_text(k), v).replace("\n", "\n  "))
        return "\n".join(lines)
    return f"{name}: {json_text(value)}"


def render_score(name: str, score: dict[str, Any], target: Any) -> str:
    """A readable text rendering of one score."""
    lines = [f"scorer: {name}", render_field("value", score.get("value"))]
    for key in ("answer", "explanation"):
        if score.get(key) not in (None, ""):
            lines.append(render_field(key, as_text(score.get(key))))
    if score.get("metadata"):
        lines.append(render_field("metadata", score.get("metadata")))
    for key, value in score.items():
        if key not in ("value", "answer", "explanation", "metadata") and value not in (None, [], {}, ""):
            lines.append(render_field(as_text(key), value))
    if target not in (None, "", []):
        lines.append(render_field("target", target if isinstance(target, str) else json_text(target)))
    return "\n".join(lines) + "\n"


class EventSpans:
    """Which scorer each event ran under, from ``span_begin`` events or older ``step`` events."""

    def __init__(self, events: list[Any]) -> None:
        self.spans: dict[str, tuple[str, str, str]] = {}
        self.step_scorer: dict[int, str] = {}
        stack: list[str] = []
        for i, e in enumerate(events):
            if not isinstance(e, dict):
                continue
            kind = e.get("event")
            if kind == "span_begin":
                self.spans[as_text(e.get("id"))] = (as_text(e.get("type")), as_text(e.get("name")), as_text(e.get("parent_id")))
            elif kind == "step" and as_text(e.get("type")) == "scorer":
                if e.get("action") == "begin":
                    stack.append(as_text(e.get("name")))
                elif stack:
                    stack.pop()
            if stack:
                self.step_scorer[i] = stack[-1]

    def scorer_of(self, index: int, event: dict[str, Any]) -> str | None:
        """The scorer an event ran under, or None."""
        span = as_text(event.get("span_id"))
        seen = set()
        while span and span not in seen and span in self.spans:
            seen.add(span)
            kind, name, parent = self.spans[span]
            if kind == "scorer":
                return name
            span = parent
        return self.step_scorer.get(index)


def render_sandbox(event: dict[str, Any]) -> str:
    """A sandbox event as ``$ cmd`` / exit / output text."""
    action = as_text(event.get("action")) or "exec"
    what = as_text(event.get("cmd")) if action == "exec" else f"{action} {as_text(event.get('file'))}"
    lines = [f"$ {what}"]
    if event.get("input"):
        lines.append(f"[stdin] {cut(as_text(event.get('input')), 2_000)[0]}")
    if event.get("result") is not None:
        lines.append(f"[exit {as_text(event.get('result'))}]")
    output = event.get("output")
    if output not in (None, ""):
        lines.append(cut(as_text(output), EVENT_OUTPUT_CAP)[0])
    return "\n".join(lines)


def sandbox_by_scorer(events: Any) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    """Sandbox events grouped by scorer name, and a summary of those outside any scorer."""
    if not isinstance(events, list):
        return {}, []
    spans = EventSpans(events)
    inside: dict[str, list[str]] = {}
    outside: list[dict[str, Any]] = []
    for i, e in enumerate(events):
        if not isinstance(e, dict) or e.get("event") != "sandbox":
            continue
        scorer = spans.scorer_of(i, e)
        if scorer:
            inside.setdefault(scorer, []).append(render_sandbox(e))
        else:
            outside.append(
                {
                    "action": as_text(e.get("action")),
                    "cmd": cut(as_text(e.get("cmd") or e.get("file")), 500)[0],
                    "result": e.get("result"),
                    "output": cut(as_text(e.get("output")), 2_000)[0],
                    "timestamp": as_text(e.get("timestamp")),
                }
            )
    return inside, outside


def scorer_graders(scores: Any, target: Any, events: Any) -> tuple[list[GraderSpec], list[dict[str, Any]]]:
    """One grader per scorer with recorded checks; and the sandbox events outside scorers."""
    inside, outside = sandbox_by_scorer(events)
    graders: list[GraderSpec] = []
    if not isinstance(scores, dict):
        return graders, outside
    for name, score in scores.items():
        name = as_text(name) or "score"
        score = score if isinstance(score, dict) else {"value": score}
        output = render_score(name, score, target)
        if inside.get(name):
            output += "\nsandbox commands run by this scorer:\n\n" + "\n\n".join(inside[name]) + "\n"
        explanation = as_text(score.get("explanation"))
        answer = as_text(score.get("answer"))
        short = answer if answer and "\n" not in answer.strip() and len(answer) <= 200 else ""
        message = "\n".join(x for x in (f"answer: {short.strip()}" if short else "", explanation) if x)
        graders.append(GraderSpec(name=name, output=output, command=f"inspect scorer {name}", checks=score_checks(score.get("value"), message)))
    return graders, outside
