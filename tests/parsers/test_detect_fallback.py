"""detect_format on every fixture, the fallback parser, and parse_output's contract."""

from __future__ import annotations

import pytest
from parser_fixtures import all_fixtures, exit_code, read_fixture

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers import FORMATS, detect_format, parse_output
from reviewer.parsers.fallback import looks_failed
from reviewer.parsers.text import MESSAGE_CAP, find_location, strip_ansi, unique_keys
from reviewer.parsers.unreadable import reason


def expected_format(rel: str) -> str:
    if rel.startswith("go/"):
        text = read_fixture(rel)
        # Before Go 1.24 a -json run that only failed to build prints no JSON at all: the text
        # is the same as -v output, and it parses the same either way.
        return "go-test-json" if rel.endswith(".json.txt") and '"Action"' in text else "go-test-v"
    return {"pytest": "pytest", "junit": "junit", "candidate": "candidate", "golden": "golden"}[rel.split("/")[0]]


@pytest.mark.parametrize("rel", all_fixtures())
def test_detect_every_fixture(rel):
    assert detect_format(read_fixture(rel)) == expected_format(rel)


@pytest.mark.parametrize("rel", all_fixtures())
def test_auto_equals_explicit_and_failures_match_exit_code(rel):
    text = read_fixture(rel)
    auto = parse_output(text)
    assert auto == parse_output(text, expected_format(rel))
    assert all(c.key and c.name for c in auto)
    if rel.startswith(("go/", "pytest/", "junit/")):
        assert any(c.failing for c in auto) == (exit_code(rel) != 0)


def test_formats():
    assert FORMATS == ("go-test-json", "go-test-v", "pytest", "junit", "candidate", "golden", "fallback")


@pytest.mark.parametrize("rel", ["go/subtests.v.txt", "pytest/basic.txt", "junit/basic.xunit2.xml"])
def test_fallback_forced(rel):
    text = read_fixture(rel)
    [check] = parse_output(text, "fallback", exit_status=exit_code(rel))
    assert (check.key, check.status) == ("run", CheckStatus.FAIL)
    assert check.message == text.strip("\n")
    [ok] = parse_output(text, "fallback", exit_status=0)
    assert ok.status == CheckStatus.PASS


def test_fallback_without_exit_status_guesses():
    assert parse_output("all good\n")[0].status == CheckStatus.PASS
    assert parse_output("Traceback (most recent call last):\n  ...\nValueError: x\n")[0].status == CheckStatus.FAIL
    assert parse_output("make: *** [all] Error 2\nerror: linker failed\n")[0].status == CheckStatus.FAIL
    assert not looks_failed("5 passed, 0 failed")
    assert looks_failed("5 passed, 2 failed")


def test_fallback_keeps_the_tail_stripped():
    text = "\x1b[31m" + "a" * 50_000 + "END\x1b[0m"
    [check] = parse_output(text, exit_status=3)
    assert check.status == CheckStatus.FAIL and check.message.endswith("aEND")
    assert "\x1b" not in check.message and len(check.message) < MESSAGE_CAP + 100


def test_parser_finding_nothing_falls_back():
    [check] = parse_output("no tests ran in 0.01s\n", "pytest", exit_status=5)
    assert (check.key, check.status) == ("run", CheckStatus.FAIL)
    assert parse_output('<testsuite name="empty"/>', "junit", exit_status=0)[0].key == "run"


@pytest.mark.parametrize(("text", "fmt", "why"), [
    ("{}", "candidate", "candidate: not a candidate-runner document"),
    ("not xml", "junit", "junit: no XML element"),
    ('<!DOCTYPE t [<!ENTITY a "b">]><testsuite><testcase name="x"><failure/></testcase></testsuite>', "junit",
     "junit: it declares a DOCTYPE or ENTITY, refused"),
    ('<testsuite><testcase name="x"><failure></testcase>', "junit", "junit: not well-formed XML (mismatched tag"),
    ('{"checks": [', "golden", "golden: "),
])
def test_a_refused_or_broken_document_is_a_failing_unreadable_check_never_a_pass(text: str, fmt: str, why: str) -> None:
    [check] = parse_output(text, fmt, exit_status=0)
    assert (check.key, check.name, check.status) == ("unreadable:output", "unreadable grader output", CheckStatus.ERROR)
    assert check.failing and reason(check).startswith(why), check.message


def test_unknown_format_name_detects():
    assert parse_output(read_fixture("golden/results.json"), "no-such-format")[0].key == "loan-period:contains"


def test_strip_ansi():
    assert strip_ansi("\x1b[1m\x1b[31mE   x\x1b[0m \x1b]0;title\x07ok \x1b[2K\x1b(B") == "E   x ok "
    assert strip_ansi("plain") == "plain"


def test_find_location():
    assert find_location("    x_test.go:12: boom", ("_test.go", ".go")) == "x_test.go:12"
    assert find_location("\t/tmp/a/b.go:5 +0x1\n\t/tmp/a/b_test.go:9 +0x2", ("_test.go", ".go")) == "/tmp/a/b_test.go:9"
    assert find_location("./roman.go:3:1: syntax error", (".go",)) == "roman.go:3"
    assert find_location(".go:.go:1", (".go",)) == ""


def test_unique_keys_after_dedupe_collisions():
    s = CheckStatus.PASS
    checks = unique_keys([Check("a", "a", s), Check("a", "a", s), Check("a#2", "a#2", s)])
    assert len({c.key for c in checks}) == 3
