"""pytest -rA text and JUnit XML parsers on real pytest 8 output (tests/fixtures/grader/)."""

from __future__ import annotations

import pytest
from parser_fixtures import by_key, failing, read_fixture

from reviewer.model.check import CheckStatus
from reviewer.parsers import parse_output
from reviewer.parsers.junit import UnsafeXML
from reviewer.parsers.junit import parse as parse_junit
from reviewer.parsers.pytest_text import banner
from reviewer.parsers.pytest_text import parse as parse_pytest

FAIL, ERROR, PASS, SKIP = CheckStatus.FAIL, CheckStatus.ERROR, CheckStatus.PASS, CheckStatus.SKIP
F = "test_basic.py::"

PYTEST_EXPECTED = {
    F + "test_plain_pass": PASS,
    F + "test_plain_fail": FAIL,
    F + "test_param[a b-a-b]": PASS,
    F + "test_param[A  B-a-b]": FAIL,
    F + "test_param[x-x]": PASS,
    F + "test_exception": FAIL,
    F + "test_needs_db": ERROR,
    "skip:test_basic.py:43": SKIP,
    "skip:test_basic.py:49": SKIP,
    F + "test_xfail": SKIP,
    F + "test_xpass": PASS,
    F + "test_xpass_strict": FAIL,
    F + "TestGroup::test_method_pass": PASS,
    F + "TestGroup::test_method_fail": FAIL,
}


@pytest.mark.parametrize("name", ["basic.txt", "basic.color.txt"])
def test_pytest_every_outcome(name):
    text = read_fixture(f"pytest/{name}")
    checks = parse_output(text, "pytest")
    assert {c.key: c.status for c in checks} == PYTEST_EXPECTED
    c = by_key(checks)
    fail = c[F + "test_plain_fail"]
    assert "AssertionError: assert '--hello-world-' == 'hello-world'" in fail.message
    assert fail.location == "test_basic.py:20"
    assert not any("\x1b" in x.message for x in checks)
    param = c[F + "test_param[A  B-a-b]"]
    assert "assert 'a--b' == 'a-b'" in param.message and param.location == "test_basic.py:25"
    exc = c[F + "test_exception"]
    assert "KeyError: 'b'" in exc.message and "about to look up a key" in exc.message
    assert exc.location == "test_basic.py:31"
    setup = c[F + "test_needs_db"]
    assert "ConnectionError: database is not running" in setup.message and setup.location == "test_basic.py:36"
    assert "[XPASS(strict)] must stay broken" in c[F + "test_xpass_strict"].message
    method = c[F + "TestGroup::test_method_fail"]
    assert "underscores should become dashes" in method.message and method.location == "test_basic.py:73"
    skip = c["skip:test_basic.py:43"]
    assert skip.message == "no network in the grader" and skip.location == "test_basic.py:43"
    assert c[F + "test_xfail"].message == "known unicode bug"
    assert "captured output of a passing test" in c[F + "TestGroup::test_method_pass"].message
    # The final "5 failed, 4 passed ..." line is not a check.
    assert not any("passed" in k or "failed" in k for k in c)


def test_pytest_collection_error():
    checks = parse_output(read_fixture("pytest/collect_error.txt"), "pytest")
    assert {c.key: c.status for c in checks} == {"collect:test_broken.py": ERROR}
    assert "No module named 'slugs'" in checks[0].message
    assert checks[0].location == "test_broken.py:3"


def test_pytest_sections_without_summary():
    text = read_fixture("pytest/basic.txt").split("= short test summary info =")[0]
    checks = parse_pytest(text)
    assert failing(checks) == {
        "test_needs_db": ERROR, "test_plain_fail": FAIL, "test_param[A  B-a-b]": FAIL,
        "test_exception": FAIL, "test_xpass_strict": FAIL, "TestGroup.test_method_fail": FAIL,
    }


def test_banner():
    assert banner("==== FAILURES ====", "=") == "FAILURES"
    assert banner("____ test_x_ ____", "_") == "test_x_"
    assert banner("________", "_") is None
    assert banner("=" * 50, "=") is None


def test_summary_split_keeps_param_ids_with_dashes():
    text = "=== short test summary info ===\nFAILED t.py::test_a[x - y] - AssertionError: no\n=== 1 failed in 0.1s ===\n"
    checks = parse_pytest(text)
    assert [(c.key, c.message) for c in checks] == [("t.py::test_a[x - y]", "AssertionError: no")]


JUNIT_EXPECTED = {
    "test_basic::test_plain_pass": PASS,
    "test_basic::test_plain_fail": FAIL,
    "test_basic::test_param[a b-a-b]": PASS,
    "test_basic::test_param[A  B-a-b]": FAIL,
    "test_basic::test_param[x-x]": PASS,
    "test_basic::test_exception": FAIL,
    "test_basic::test_needs_db": ERROR,
    "test_basic::test_skipped": SKIP,
    "test_basic::test_skip_inside": SKIP,
    "test_basic::test_xfail": SKIP,
    "test_basic::test_xpass": PASS,
    "test_basic::test_xpass_strict": FAIL,
    "test_basic.TestGroup::test_method_pass": PASS,
    "test_basic.TestGroup::test_method_fail": FAIL,
}


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_junit_every_outcome(family):
    checks = parse_output(read_fixture(f"junit/basic.{family}.xml"), "junit")
    assert {c.key: c.status for c in checks} == JUNIT_EXPECTED
    c = by_key(checks)
    fail = c["test_basic::test_plain_fail"]
    assert "AssertionError: assert '--hello-world-' == 'hello-world'" in fail.message
    assert fail.location == "test_basic.py:20"
    assert "database is not running" in c["test_basic::test_needs_db"].message
    assert c["test_basic::test_needs_db"].location == "test_basic.py:36"
    assert "no network in the grader" in c["test_basic::test_skipped"].message


def test_junit_file_and_line_attributes():
    c = by_key(parse_output(read_fixture("junit/basic.xunit1.xml"), "junit"))
    assert c["test_basic::test_plain_pass"].location == "test_basic.py:13"  # as written (pytest: 0-based)


@pytest.mark.parametrize("family", ["xunit1", "xunit2"])
def test_junit_collection_error(family):
    checks = parse_output(read_fixture(f"junit/collect_error.{family}.xml"), "junit")
    assert {c.key: c.status for c in checks} == {"test_broken": ERROR}
    assert "No module named 'slugs'" in checks[0].message and checks[0].location == "test_broken.py:3"


def test_junit_nested_suites_and_bare_root():
    nested = (
        '<testsuites><testsuite name="outer"><testsuite name="inner">'
        '<testcase classname="pkg.A" name="one"><failure message="bad">a_test.go:5: bad</failure></testcase>'
        '</testsuite><testcase classname="pkg.B" name="two"/></testsuite>'
        '<testsuite name="other"><testcase name="three"><skipped/></testcase></testsuite></testsuites>'
    )
    c = by_key(parse_junit(nested))
    assert {k: v.status for k, v in c.items()} == {"pkg.A::one": FAIL, "pkg.B::two": PASS, "three": SKIP}
    assert c["pkg.A::one"].location == "a_test.go:5"
    bare = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuite name="s"><testcase classname="c" name="n"><error message="boom"/></testcase></testsuite>'
    )
    assert [(x.key, x.status, x.message) for x in parse_junit(bare)] == [("c::n", ERROR, "boom")]


def test_junit_refuses_doctype_and_entities():
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
        '<testsuite><testcase name="x"><failure message="&lol2;"/></testcase></testsuite>'
    )
    with pytest.raises(UnsafeXML):
        parse_junit(bomb)
    for status in (1, 0):  # refused: a failing check whatever the exit status, never the passing fallback
        checks = parse_output(bomb, "junit", exit_status=status)
        assert [(c.key, c.status) for c in checks] == [("unreadable:output", ERROR)]
        assert "DOCTYPE" in checks[0].message
