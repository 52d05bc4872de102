"""The judge protocol's answer: what parses, and a one-line reason for everything that does not."""

from __future__ import annotations

import json

import pytest

from reviewer.model.label import Verdict
from reviewer.model.prediction import (
    ANSWER_SCHEMA,
    INPUT_SCHEMA,
    MAX_ANSWER,
    MAX_RATIONALE,
    BadAnswer,
    judge_name_problem,
    parse_answer,
)


def test_a_full_answer_parses() -> None:
    answer = parse_answer(b'  {"version": 1, "verdict": "specification", "confidence": 0.8, "rationale": "key mults unstated",'
                          b' "judge_version": "gpt-x 2026", "extra": [1, 2]}\n')
    assert answer.verdict is Verdict.SPECIFICATION
    assert answer.confidence == 0.8 and isinstance(answer.confidence, float)
    assert answer.rationale == "key mults unstated" and answer.judge_version == "gpt-x 2026"


@pytest.mark.parametrize("word", ['"abstain"', "null"])
def test_abstentions(word: str) -> None:
    answer = parse_answer(f'{{"verdict": {word}}}'.encode())
    assert answer.verdict is None and answer.confidence is None and answer.rationale == ""


def test_integer_confidence_and_a_bom_are_fine() -> None:
    answer = parse_answer('\ufeff{"verdict": "capability", "confidence": 1}'.encode())
    assert answer.verdict is Verdict.CAPABILITY and answer.confidence == 1.0


BAD = [
    (b"", "no answer"),
    (b"   \n", "no answer"),
    (b'{"verdict": "specification", confidence: high', "not one JSON object"),
    (b'{"verdict": "spec"}', '"verdict" is'),
    (b'{"verdict": "Specification"}', '"verdict" is'),
    (b'{"confidence": 0.5}', 'no "verdict"'),
    (b'["specification"]', "a JSON list, not an object"),
    (b'"specification"', "a JSON str"),
    (b'{"verdict": "capability", "confidence": 1.5}', '"confidence" is'),
    (b'{"verdict": "capability", "confidence": -0.1}', '"confidence" is'),
    (b'{"verdict": "capability", "confidence": true}', '"confidence" is'),
    (b'{"verdict": "capability", "confidence": "high"}', '"confidence" is'),
    (b'{"verdict": "capability", "confidence": NaN}', "NaN is not a JSON number"),
    (b'{"verdict": "capability", "confidence": Infinity}', "Infinity is not a JSON number"),
    (b'{"verdict": "capability", "rationale": ["a"]}', '"rationale" is a JSON list'),
    (b'{"verdict": "capability", "judge_version": 3}', '"judge_version" is a JSON int'),
    (b'{"version": 2, "verdict": "capability"}', "protocol version"),
    (b'{"version": true, "verdict": "capability"}', "protocol version"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nests brackets deeper"),
    (b'{"verdict": "capability"} {"verdict": "specification"}', "not one JSON object"),
    (b'{"verdict": "capability", "n": ' + b"9" * 5000 + b"}", "cannot be read"),
]


@pytest.mark.parametrize(("data", "reason"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_what_does_not_parse_says_why_in_one_line(data: bytes, reason: str) -> None:
    with pytest.raises(BadAnswer) as caught:
        parse_answer(data)
    message = str(caught.value)
    assert reason in message, message
    assert "\n" not in message and len(message) < 300


def test_an_answer_over_the_cap_is_refused_without_parsing() -> None:
    with pytest.raises(BadAnswer, match="over 1024 KiB"):
        parse_answer(b'{"verdict": "capability", "rationale": "' + b"x" * MAX_ANSWER + b'"}')


def test_a_long_rationale_is_cut_with_a_marker() -> None:
    answer = parse_answer(json.dumps({"verdict": "capability", "rationale": "y" * (MAX_RATIONALE + 500)}).encode())
    assert answer.rationale.startswith("y" * MAX_RATIONALE) and answer.rationale.endswith("[cut: 500 more characters]")


def test_escape_sequences_in_a_rationale_are_data_not_a_failure() -> None:
    """The answer keeps what the judge said; every place that shows it sanitises it (tests of the views)."""
    answer = parse_answer(json.dumps({"verdict": "specification", "rationale": "\x1b]0;title\x07\x9b2J"}).encode())
    assert answer.rationale == "\x1b]0;title\x07\x9b2J"


@pytest.mark.parametrize("name", ["gpt-judge", "a", "judge_2", "x" * 63])
def test_judge_names(name: str) -> None:
    assert judge_name_problem(name) == ""


@pytest.mark.parametrize("name", ["", "Judge", "../x", "a/b", ".hidden", "-x", "x" * 64, "a b", "ж"])
def test_names_that_cannot_name_a_file_are_refused(name: str) -> None:
    assert "not a judge name" in judge_name_problem(name)


def test_the_schemas_are_json_and_carry_the_version() -> None:
    for schema in (ANSWER_SCHEMA, INPUT_SCHEMA):
        assert json.loads(json.dumps(schema)) == schema
    assert ANSWER_SCHEMA["properties"]["version"] == {"const": 1} == INPUT_SCHEMA["properties"]["version"]
    assert set(INPUT_SCHEMA["required"]) >= {"failure", "brief", "code", "grader", "transcript", "evidence", "rescores"}
