"""Candidate-runner and golden-set parsers on documents made by tests/fixtures/grader/src/."""

from __future__ import annotations

import json

from parser_fixtures import by_key, failing, read_fixture

from reviewer.model.check import CheckStatus
from reviewer.parsers import parse_output
from reviewer.parsers.golden import describe

FAIL, ERROR, PASS, SKIP = CheckStatus.FAIL, CheckStatus.ERROR, CheckStatus.PASS, CheckStatus.SKIP


def test_candidate_single():
    checks = parse_output(read_fixture("candidate/single.json"), "candidate")
    assert [(c.key, c.status) for c in checks] == [
        ("test 0", PASS), ("test 1", FAIL), ("test 2", PASS), ("test 3", ERROR),
    ]
    c = by_key(checks)
    assert c["test 1"].message == "test 1: wrong answer 3"
    assert c["test 3"].message == "test 3: IndexError: list index out of range"


def test_candidate_multi():
    checks = parse_output(read_fixture("candidate/multi.json"), "candidate")
    assert failing(checks) == {
        "unsorted/test 0": FAIL, "unsorted/test 1": FAIL,
        "no-empty-check/test 1": FAIL, "no-empty-check/test 3": ERROR,
        "syntax-error/load": ERROR, "wrong-name/load": ERROR,
    }
    c = by_key(checks)
    assert [k for k in c if k.startswith("sorted-middle/")] == [f"sorted-middle/test {i}" for i in range(4)]
    assert all(c[f"sorted-middle/test {i}"].status == PASS for i in range(4))
    assert c["unsorted/test 2"].status == PASS
    assert not any(k.startswith(("syntax-error/test", "wrong-name/test")) for k in c)  # nothing ran
    assert "SyntaxError" in c["syntax-error/load"].message
    assert c["wrong-name/load"].message == "load: KeyError: 'median'"


def test_candidate_shapes():
    doc = {"passed": 0, "total": 3, "errors": [f"test {i}: NameError: name 'undefined_name' is not defined" for i in range(3)]}
    assert failing(parse_output(json.dumps(doc))) == {"test 0": ERROR, "test 1": ERROR, "test 2": ERROR}
    one = {"candidates": [{"name": "only", "passed": 1, "total": 1, "errors": []}]}
    assert [c.key for c in parse_output(json.dumps(one))] == ["test 0"]  # one candidate: no prefix
    odd = {"passed": 0, "total": 1, "errors": ["timed out", "test 0: wrong answer None"]}
    assert {c.key: c.status for c in parse_output(json.dumps(odd), "candidate")} == {"error": FAIL, "test 0": FAIL}


GOLDEN_EXPECTED = {
    "loan-period:contains": FAIL,
    "loan-period:citesLaw": FAIL,
    "loan-period:scope": PASS,
    "late-fee:contains": PASS,
    "late-fee:contains#2": PASS,
    "late-fee:notContains": FAIL,
    "late-fee:scope": PASS,
    "renew-online:lead": PASS,
    "renew-online:citesId": PASS,
    "renew-online:scope": PASS,
    "weather:scope": FAIL,
    "weather:unanswered": FAIL,
}


def test_golden_results():
    checks = parse_output(read_fixture("golden/results.json"), "golden")
    assert {c.key: c.status for c in checks} == GOLDEN_EXPECTED
    c = by_key(checks)
    contains = c["loan-period:contains"].message
    assert "must contain one of '21', 'three weeks'" in contains
    assert "You can keep a book for 14 days" in contains and "how long can i keep" in contains
    assert "must not contain '1.00'" in c["late-fee:notContains"].message
    assert "Tomorrow looks sunny." in c["weather:unanswered"].message


def test_golden_describe_and_unknown_verdicts():
    assert describe("lead", "no") == "the answer must lead with 'no'"
    assert describe("citesId", "X-1") == "a shown citation id must start with 'X-1'"
    assert describe("contains", ["7"]) == "the answer must contain '7'"
    doc = {"cases": [{"id": "c", "answer": "x" * 10_000, "checks": [{"kind": "contains", "expect": "y"}]}, {"id": "d"}]}
    checks = parse_output(json.dumps(doc))
    assert [(x.key, x.status) for x in checks] == [("c:contains", SKIP), ("d", SKIP)]
    assert len(checks[0].message) < 5_000
