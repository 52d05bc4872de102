"""Parser for candidate-runner results: generated functions run against (args, expected) tests.

The document is JSON, either one candidate::

    {"passed": 1, "total": 3, "errors": ["test 0: wrong answer -1", "test 2: wrong answer -2"]}

or several, each with a name::

    {"candidates": [{"name": "a", "passed": 3, "total": 3, "errors": []}, ...]}

(a bare JSON list of candidate objects is read the same way). Each error string is a check:

- ``test <i>: wrong answer <repr>`` -> fail, key ``test <i>``;
- ``test <i>: <ExceptionName>: <message>`` -> error, key ``test <i>``;
- ``load: <ExceptionName>: <message>`` (the code did not load or lacks the function) -> error,
  key ``load``;
- any other string -> fail, key ``error``.

The tests ``0 .. total-1`` that no error names are pass checks ``test <i>`` (not after a load
error, and at most :data:`MAX_PASS_CHECKS` of them). With several candidates every key is
prefixed ``<name>/`` (the name cut to 200 characters, else ``candidate <index>``).
"""

from __future__ import annotations

import json
from typing import Any

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.text import key_part, strip_ansi

MAX_PASS_CHECKS = 10_000


def _error_check(line: str, prefix: str) -> tuple[int | None, Check]:
    """One error string -> (test index or None, check)."""
    text = strip_ansi(line).strip()
    head, sep, rest = text.partition(":")
    head = head.strip()
    if sep and head == "load":
        key = f"{prefix}load"
        return None, Check(key, key, CheckStatus.ERROR, text)
    words = head.split()
    if sep and len(words) == 2 and words[0] == "test" and words[1].isdigit():
        index = int(words[1])
        key = f"{prefix}test {index}"
        detail = rest.strip()
        wrong = detail.startswith("wrong answer") or not _names_exception(detail)
        status = CheckStatus.FAIL if wrong else CheckStatus.ERROR
        return index, Check(key, key, status, text)
    key = f"{prefix}error"
    return None, Check(key, key, CheckStatus.FAIL, text)


def _names_exception(detail: str) -> bool:
    """``NameError: name 'x' is not defined`` -> True (an identifier before the first colon)."""
    name, sep, _ = detail.partition(":")
    name = name.strip()
    return bool(sep) and name.replace(".", "_").isidentifier()


def _count(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


def _candidate(doc: dict[str, Any], prefix: str) -> list[Check]:
    errors = doc.get("errors")
    if isinstance(errors, str):
        errors = [errors]
    if not isinstance(errors, list):
        errors = []
    checks: list[tuple[int, int, Check]] = []
    failed: set[int] = set()
    loaded = True
    for n, item in enumerate(errors):
        index, check = _error_check(item if isinstance(item, str) else json.dumps(item), prefix)
        if index is not None:
            failed.add(index)
        elif check.key.endswith("load"):
            loaded = False
        checks.append((index if index is not None else -1, n, check))
    total = _count(doc.get("total"))
    if loaded and total is not None:
        for i in range(min(total, MAX_PASS_CHECKS)):
            if i not in failed:
                key = f"{prefix}test {i}"
                checks.append((i, -1, Check(key, key, CheckStatus.PASS, "")))
    if not checks and doc.get("passed") is not None:
        key = f"{prefix}tests"
        passed = _count(doc.get("passed"))
        checks.append((0, 0, Check(key, key, CheckStatus.PASS if passed else CheckStatus.FAIL,
                                   f"passed {doc.get('passed')} of {doc.get('total')}")))
    checks.sort(key=lambda t: (t[0], t[1]))
    return [c for _, _, c in checks]


def _candidates(value: Any) -> list[dict[str, Any]] | None:
    if isinstance(value, dict) and isinstance(value.get("candidates"), list):
        value = value["candidates"]
    elif isinstance(value, dict) and ("errors" in value or "passed" in value):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return value
    return None


def parse(text: str) -> list[Check]:
    """Checks from a candidate-runner document; raises ValueError when it is not one."""
    cands = _candidates(json.loads(text))
    if cands is None:
        raise ValueError("not a candidate-runner document")
    several = len(cands) > 1
    out: list[Check] = []
    for i, cand in enumerate(cands):
        name = cand.get("name")
        label = key_part(strip_ansi(str(name)).strip()) if name not in (None, "") else f"candidate {i}"
        out.extend(_candidate(cand, f"{label}/" if several else ""))
    return out


def looks_like(value: Any) -> bool:
    """True for a decoded JSON value shaped like candidate-runner results."""
    if isinstance(value, dict) and isinstance(value.get("candidates"), list):
        return True
    return isinstance(value, dict) and isinstance(value.get("errors"), list) and (
        "passed" in value or "total" in value)
