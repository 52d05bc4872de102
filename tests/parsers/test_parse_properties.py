"""Property tests: parse_output never raises, always returns checks with unique keys.

Inputs: arbitrary text, decoded binary garbage, and random mutations (cuts, deletions,
insertions, duplications) of the real fixtures, under every format name.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parser_fixtures import all_fixtures, read_fixture

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers import FORMATS, detect_format, parse_output

FIXTURES = [read_fixture(rel) for rel in all_fixtures()]
FORMAT_ARG = st.sampled_from([None, "auto", *FORMATS])
PROPS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


def assert_valid(checks: list[Check]) -> None:
    assert isinstance(checks, list) and checks
    keys = [c.key for c in checks]
    assert len(set(keys)) == len(keys)
    for c in checks:
        assert isinstance(c, Check) and isinstance(c.key, str) and c.key
        assert isinstance(c.status, CheckStatus)
        assert isinstance(c.message, str) and isinstance(c.location, str)


@st.composite
def mutated_fixture(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(FIXTURES))
    for _ in range(draw(st.integers(0, 4))):
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 400)))
        op = draw(st.sampled_from(["cut", "delete", "insert", "duplicate", "swap"]))
        if op == "cut":
            text = text[:i]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            noise = draw(st.sampled_from(["", "\n", "{", "}", '"', "\x00", "\x1b[31m", "=== RUN   TestZ\n",
                                          "--- FAIL: TestZ (0.00s)\n", "FAIL\tpkg [build failed]\n", "# pkg\n",
                                          "<!ENTITY x 'y'>", "</testcase>", "____ x ____\n", "FAILED a.py::b\n"]))
            text = text[:i] + noise + draw(st.text(max_size=20)) + text[i:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


@PROPS
@given(text=st.text(), fmt=FORMAT_ARG, exit_status=st.one_of(st.none(), st.integers(-3, 300)))
def test_any_text(text, fmt, exit_status):
    assert_valid(parse_output(text, fmt, exit_status=exit_status))
    assert detect_format(text) in FORMATS


@PROPS
@given(data=st.binary(max_size=2_000), encoding=st.sampled_from(["utf-8", "latin-1"]), fmt=FORMAT_ARG)
def test_binary_garbage(data, encoding, fmt):
    assert_valid(parse_output(data.decode(encoding, "replace"), fmt))


@PROPS
@given(text=mutated_fixture(), fmt=FORMAT_ARG)
def test_mutated_fixtures(text, fmt):
    assert_valid(parse_output(text, fmt))
    assert detect_format(text) in FORMATS


@PROPS
@given(value=st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(
        st.sampled_from(["cases", "checks", "id", "kind", "expect", "passed", "errors", "total", "candidates",
                         "name", "Action", "Test", "Package", "Output", "answer", "x"]), inner, max_size=5)),
    max_leaves=25,
), fmt=FORMAT_ARG)
def test_json_shaped_garbage(value, fmt):
    assert_valid(parse_output(json.dumps(value), fmt))


def test_ten_megabyte_single_line():
    for text in ("x" * 10_000_000, "=== RUN   " + "T" * 10_000_000, '{"Action":"output","Output":"' + "a" * 10_000_000,
                 "\x1b[" + "1;" * 5_000_000, "ab.go:1" * 1_500_000, "<testsuite>" + "<" * 10_000_000,
                 "FAILED " + "a" * 10_000_000, '{"cases": [' * 300_000):
        for fmt in (None, *FORMATS):
            assert_valid(parse_output(text, fmt))


def test_nul_bytes_and_odd_inputs():
    for text in ("\x00" * 1000, "\r\n" * 100, "\ufeff", " ", "{" * 100_000, "[" * 100_000, "<a>" * 10_000):
        assert_valid(parse_output(text))
    assert_valid(parse_output(b"=== RUN TestX\n--- FAIL: TestX (0.00s)\n"))  # type: ignore[arg-type]


def _many_lines_inputs() -> list[tuple[str | None, str]]:
    n = 20_000
    long_pkg = "example.com/" + "p" * 100_000
    return [
        ("go-test-v", "".join(f"--- FAIL: T{i} (0.00s)\n" for i in range(n))),
        ("go-test-v", "".join(f"--- FAIL: {'/'.join(['a'] * k)} (0.00s)\n" for k in range(1, 600))),
        ("go-test-v", "# dep\n" + "dep.go:1:1: undefined: x\n" * n + "".join(f"FAIL\tp{i} [build failed]\n" for i in range(n))),
        ("go-test-v", "".join(f"=== RUN   T{i}\n" for i in range(n)) + "\n" * 3 + "panic: test timed out\n" + "x\n" * n
         + "FAIL\tpkg\t1.0s\n"),
        ("go-test-v", ("".join(f"--- FAIL: T{i} (0.00s)\n" for i in range(5_000)) + f"FAIL\t{long_pkg}1\t0.1s\n"
                       + "".join(f"--- FAIL: T{i} (0.00s)\n" for i in range(5_000)) + f"FAIL\t{long_pkg}2\t0.1s\n")),
        ("go-test-json", "".join(json.dumps({"Action": "fail", "Package": "p", "Test": f"T{i}"}) + "\n" for i in range(n))),
        ("golden", json.dumps({"cases": [{"id": "c" * 300_000, "question": "q" * 100_000, "answer": "a" * 100_000,
                                          "checks": [{}] * n}]})),
        ("candidate", json.dumps({"candidates": [{"name": "n" * 300_000, "total": 10**12, "errors": ["test 1: x"] * 1000},
                                                 {"name": "m", "total": 3}]})),
        ("pytest", "=== short test summary info ===\nFAILED a.py::b - x\n" + "  more\n" * n),
        ("junit", "<testsuites>" + '<testcase classname="c" name="n"><failure>a.py:1: E</failure></testcase>' * n
         + "</testsuites>"),
    ]


def test_many_lines_output_stays_linear():
    """Many-line adversarial inputs: every parser returns, and its output is linear in its input."""
    for fmt, text in _many_lines_inputs():
        for f in (fmt, None):
            checks = parse_output(text, f)
            assert_valid(checks)
            size = sum(len(c.key) + len(c.name) + len(c.message) + len(c.location) for c in checks)
            # Linear, not quadratic: a name may repeat in a bounded number of keys and messages.
            assert size <= 100 * len(text) + 2_000_000, (fmt, size, len(text))
