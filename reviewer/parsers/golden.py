"""Parser for golden-set results: partial checks of answers against a fixed list of cases.

This is the project's own format for the results of a golden-set grader (JSON)::

    {"cases": [
      {"id": "hydrant-distance",
       "question": "how far from a hydrant can i park",
       "answer": "the answer text that was graded",
       "checks": [
         {"kind": "contains", "expect": "15", "passed": false, "detail": "not found"},
         {"kind": "contains", "expect": ["1,000", "1000"], "passed": true},
         {"kind": "citesLaw", "expect": "§ 21-1003(m)", "passed": true}
       ]}
    ]}

A bare list of cases is accepted too. ``kind`` is one of ``contains`` (``expect`` a string or
a list of alternatives, any one of which is enough), ``notContains``, ``lead`` (the first
word), ``citesLaw`` (text a shown citation must contain), ``citesId`` (the start of a cited
id), ``scope`` (the scope the answer had to choose) and ``unanswered`` (nothing may be shown);
other kinds are shown as they are. ``passed`` true -> pass, false -> fail, missing or null ->
skip (the check was not evaluated). ``detail`` is the grader's own note.

Each case x check is a check with key ``<case id>:<kind>`` (a second ``contains`` of a case
becomes ``<case id>:contains#2``); a case without checks is one check ``<case id>`` that is
skipped. The message names the expectation, the detail, the question and the answer (the
answer capped at :data:`ANSWER_CAP` characters; after :data:`CONTEXT_CHECKS` checks of one
case, a pointer to the case's first check instead). Ids and kinds are cut to 200 characters
in keys.
"""

from __future__ import annotations

import json
from typing import Any

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.text import head, key_part, strip_ansi, unique_keys

ANSWER_CAP = 4_000
CONTEXT_CHECKS = 20
"""Checks of one case that repeat its question and answer; later ones point to the first."""


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def describe(kind: str, expect: Any) -> str:
    """A sentence naming what a check expected."""
    if kind == "contains":
        if isinstance(expect, list):
            alts = ", ".join(_show(x) for x in expect)
            return f"the answer must contain one of {alts}" if len(expect) > 1 else f"the answer must contain {alts}"
        return f"the answer must contain {_show(expect)}"
    if kind == "notContains":
        return f"the answer must not contain {_show(expect)}"
    if kind == "lead":
        return f"the answer must lead with {_show(expect)}"
    if kind == "citesLaw":
        return f"a shown citation must contain {_show(expect)}"
    if kind == "citesId":
        return f"a shown citation id must start with {_show(expect)}"
    if kind == "scope":
        return f"the scope must be {_show(expect)}"
    if kind == "unanswered":
        return "nothing the model wrote may be shown (the question must stay unanswered)"
    return f"{kind}: {_show(expect)}" if expect is not None else kind


def _status(passed: Any) -> CheckStatus:
    if passed is True:
        return CheckStatus.PASS
    if passed is False:
        return CheckStatus.FAIL
    if isinstance(passed, str):
        low = passed.strip().lower()
        if low in ("true", "pass", "passed", "yes"):
            return CheckStatus.PASS
        if low in ("false", "fail", "failed", "no"):
            return CheckStatus.FAIL
    return CheckStatus.SKIP


def _case(case: dict[str, Any], index: int) -> list[Check]:
    case_id = key_part(strip_ansi(str(case.get("id") or f"case {index}")).strip()) or f"case {index}"
    question = strip_ansi(str(case.get("question") or ""))
    answer = strip_ansi(str(case.get("answer") if case.get("answer") is not None else ""))
    context = []
    if question:
        context.append(f"question: {head(question, ANSWER_CAP)}")
    context.append("answer:\n" + (head(answer, ANSWER_CAP) if answer else "(empty)"))
    shown = "\n".join(context)
    checks = case.get("checks")
    if not isinstance(checks, list) or not checks:
        return [Check(case_id, case_id, CheckStatus.SKIP, "no checks\n\n" + shown)]
    out: list[Check] = []
    for item in checks:
        if not isinstance(item, dict):
            continue
        kind = strip_ansi(str(item.get("kind") or "check")).strip() or "check"
        status = _status(item.get("passed"))
        lines = [describe(kind, item.get("expect"))]
        if status == CheckStatus.SKIP:
            lines.append("(not evaluated)")
        detail = item.get("detail")
        if detail not in (None, ""):
            lines.append(f"detail: {strip_ansi(str(detail))}")
        key = f"{case_id}:{key_part(kind)}"
        if len(out) >= CONTEXT_CHECKS:  # keep the output linear in the input
            shown = f"(question and answer: see {out[0].key})"
        out.append(Check(key, key, status, "\n".join(lines) + "\n\n" + shown))
    return out


def parse(text: str) -> list[Check]:
    """Checks from a golden-set results document; raises ValueError when it is not one."""
    value = json.loads(text)
    cases = value.get("cases") if isinstance(value, dict) else value
    if not isinstance(cases, list):
        raise ValueError("not a golden-set results document")
    out: list[Check] = []
    for i, case in enumerate(cases):
        if isinstance(case, dict):
            out.extend(_case(case, i))
    return unique_keys(out)


def looks_like(value: Any) -> bool:
    """True for a decoded JSON value shaped like golden-set results."""
    if not isinstance(value, dict) or not isinstance(value.get("cases"), list):
        return False
    return all(isinstance(c, dict) for c in value["cases"][:50])
