"""go test -json and go test -v parsers on real output of go1.19 (tests/fixtures/grader/go/)."""

from __future__ import annotations

import json

import pytest
from parser_fixtures import by_key, failing, read_fixture

from reviewer.model.check import CheckStatus
from reviewer.parsers import detect_format, parse_output
from reviewer.parsers.go_test import parse_json, parse_verbose

FAIL, ERROR, PASS, SKIP = CheckStatus.FAIL, CheckStatus.ERROR, CheckStatus.PASS, CheckStatus.SKIP
BOTH = pytest.mark.parametrize("ext", ["v", "json"])


def parse(name: str, ext: str):
    text = read_fixture(f"go/{name}.{ext}.txt")
    return parse_output(text, "go-test-json" if ext == "json" else "go-test-v")


@BOTH
def test_subtests_parent_and_child_fail(ext):
    checks = parse("subtests", ext)
    assert failing(checks) == {"TestA": FAIL, "TestA/two": FAIL}
    c = by_key(checks)
    assert {k: v.status for k, v in c.items() if not v.failing} == {"TestA/one": PASS, "TestB": PASS, "TestB/three": PASS}
    assert "Double(2) = 5, want 4" in c["TestA/two"].message
    assert c["TestA/two"].location == "sub_test.go:13"
    assert "TestA/two" in c["TestA"].message  # the parent says which subtest failed
    assert not any(k.startswith(("package:", "build:")) for k in c)  # the package FAIL is a summary


@BOTH
def test_mixed_errorf_fatal_skip_table(ext):
    checks = parse("mixed", ext)
    assert failing(checks) == {
        "TestAbs": FAIL, "TestClampTable": FAIL, "TestClampTable/above": FAIL, "TestFatal": FAIL, "TestColour": FAIL,
    }
    c = by_key(checks)
    assert c["TestSkipped"].status == SKIP and "needs a network connection" in c["TestSkipped"].message
    assert c["TestAdd"].status == PASS
    assert c["TestClampTable/inside"].status == PASS and c["TestClampTable/below"].status == PASS
    abs_msg = c["TestAbs"].message
    assert "calc_test.go:19: Abs(-12) = -12, want 12" in abs_msg and "calc_test.go:22: Abs(-40)" in abs_msg
    assert "=== RUN" not in abs_msg and "--- FAIL" not in abs_msg
    assert c["TestAbs"].location == "calc_test.go:19"
    # Output printed before t.Fatal (between === RUN and --- FAIL) is part of the message.
    assert "preparing fixture data" in c["TestFatal"].message
    assert "fixture file missing" in c["TestFatal"].message and "never printed" not in c["TestFatal"].message
    # The colour escapes the test printed are stripped from the message.
    assert "mismatch: Add(1, 1) = 2, want 3" in c["TestColour"].message
    assert "\x1b" not in c["TestColour"].message


@BOTH
def test_panic_is_attributed_to_the_running_test(ext):
    checks = parse("panic", ext)
    assert failing(checks) == {"TestLast": FAIL}
    c = by_key(checks)
    assert "index out of range [3] with length 3" in c["TestLast"].message
    assert c["TestLast"].location.endswith("p_test.go:10")
    assert c["TestBefore"].status == PASS and "TestAfter" not in c


@BOTH
def test_timeout_is_attributed_to_the_unfinished_test(ext):
    checks = parse("timeout", ext)
    assert failing(checks) == {"TestSlow": FAIL}
    c = by_key(checks)
    assert "panic: test timed out after 1s" in c["TestSlow"].message
    assert c["TestSlow"].location.endswith("slow_test.go:12")
    assert c["TestQuick"].status == PASS


@BOTH
def test_panic_outside_any_test_is_a_package_check(ext):
    checks = parse("initpanic", ext)
    assert failing(checks) == {"package:example.com/initpanic": FAIL}
    msg = checks[0].message
    assert "limit must be read from the environment" in msg and "FAIL\texample.com" not in msg
    assert checks[0].location.endswith("cfg_test.go:7")


@BOTH
def test_parallel_subtests(ext):
    checks = parse("parallel", ext)
    assert failing(checks) == {"TestSquares": FAIL, "TestSquares/n=3": FAIL}
    assert "Square(3) = 6, want 9" in by_key(checks)["TestSquares/n=3"].message


@BOTH
@pytest.mark.parametrize(
    "name,line,loc",
    [
        ("compile", "syntax error: unexpected EOF, expecting }", "conv.go:11"),
        ("typeerr", "undefined: ToLower", "conv_test.go:6"),
        ("vetfail", "format %d has arg Name() of wrong type string", "v_test.go:7"),
    ],
)
def test_build_failures(ext, name, line, loc):
    checks = parse(name, ext)
    key = f"build:example.com/{name}"
    assert failing(checks) == {key: FAIL}
    assert line in checks[0].message and checks[0].location == loc


@BOTH
def test_found_packages_is_a_build_check(ext):
    checks = parse("twopkgs", ext)
    assert failing(checks) == {"build": FAIL}
    assert "found packages main (main.go) and shapes (shapes.go)" in checks[0].message


@BOTH
def test_a_build_check_does_not_carry_the_folder_name(ext, tmp_path):
    """The same code graded in two folders of other names (GOPATH mode names the package by its
    absolute folder; ``found packages`` names only the folder) has the same check ids: a
    re-score grades it in the sandbox's own folder."""
    import shutil
    import subprocess

    go = shutil.which("go")
    if go is None:
        pytest.skip("go is not installed")
    keys = []
    for case, files in (("gopath", {"roman.go": "package roman\nfunc X() int { return y }\n",
                                     "roman_test.go": 'package roman\nimport "testing"\nfunc TestX(t *testing.T) { X() }\n'}),
                        ("found", {"go.mod": "module roman\n", "roman.go": "package main\nfunc main() {}\n",
                                   "roman_test.go": 'package roman\nimport "testing"\nfunc TestX(t *testing.T) {}\n'})):
        for folder in ("roman", "elsewhere"):
            work = tmp_path / case / folder
            work.mkdir(parents=True)
            for name, text in files.items():
                (work / name).write_text(text)
            env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GOCACHE": str(tmp_path / "cache"), "GOFLAGS": "-mod=mod",
                   "GOPROXY": "off", "GOTOOLCHAIN": "local", "GO111MODULE": "off" if case == "gopath" else "on"}
            flag = "-json" if ext == "json" else "-v"
            out = subprocess.run([go, "test", flag, "."], cwd=work, env=env, capture_output=True, text=True, timeout=120)
            checks = parse_output(out.stdout + out.stderr, "go-test-json" if ext == "json" else "go-test-v")
            keys.append((case, sorted(c.key for c in checks if c.failing)))
    assert keys == [("gopath", ["build"]), ("gopath", ["build"]), ("found", ["build"]), ("found", ["build"])]


@BOTH
def test_multi_package_run(ext):
    checks = parse("multi", ext)
    c = by_key(checks)
    assert failing(checks) == {"TestMin": FAIL, "build:example.com/multi/broken": FAIL}
    assert "undefined: divide" in c["build:example.com/multi/broken"].message
    assert c["build:example.com/multi/broken"].location == "broken/broken.go:5"
    # TestMax exists in two packages: both keys are qualified with their package.
    assert c["example.com/multi/good.TestMax"].status == PASS
    assert c["example.com/multi/bad.TestMax"].status == PASS
    assert not any(k.startswith("package:") for k in c)


@pytest.mark.parametrize("name", ["subtests", "mixed", "panic", "timeout", "initpanic", "parallel", "multi",
                                  "compile", "typeerr", "vetfail", "twopkgs"])
def test_v_and_json_agree(name):
    v = {(c.key, c.status) for c in parse(name, "v")}
    j = {(c.key, c.status) for c in parse(name, "json")}
    assert v == j


# Go 1.24+ reports build errors as events, newer Go adds attr events and OutputType. The Go
# installed here (1.19) cannot print these, so the streams below follow the shapes that Go's own
# script tests (cmd/go/testdata/script/test_json_build.txt) check for.
def _events(*events: dict) -> str:
    return "\n".join(json.dumps(e) for e in events) + "\n"


def test_go124_build_events():
    text = _events(
        {"ImportPath": "m/calc [m/calc.test]", "Action": "build-output", "Output": "# m/calc [m/calc.test]\n"},
        {"ImportPath": "m/calc [m/calc.test]", "Action": "build-output", "Output": "calc/calc_test.go:3:11: undefined: y\n"},
        {"ImportPath": "m/calc [m/calc.test]", "Action": "build-fail"},
        {"Action": "start", "Package": "m/calc"},
        {"Action": "output", "Package": "m/calc", "Output": "FAIL\tm/calc [build failed]\n"},
        {"Action": "fail", "Package": "m/calc", "Elapsed": 0, "FailedBuild": "m/calc [m/calc.test]"},
        {"ImportPath": "m/dep", "Action": "build-output", "Output": "# m/dep\n"},
        {"ImportPath": "m/dep", "Action": "build-output", "Output": "dep/dep.go:4:2: undefined: z\n"},
        {"ImportPath": "m/dep", "Action": "build-fail"},
        {"Action": "start", "Package": "m/user"},
        {"Action": "output", "Package": "m/user", "Output": "FAIL\tm/user [build failed]\n"},
        {"Action": "fail", "Package": "m/user", "Elapsed": 0, "FailedBuild": "m/dep"},
    )
    assert detect_format(text) == "go-test-json"
    c = by_key(parse_output(text))
    assert set(c) == {"build:m/calc", "build:m/user"}
    assert "undefined: y" in c["build:m/calc"].message and c["build:m/calc"].location == "calc/calc_test.go:3"
    assert "undefined: z" in c["build:m/user"].message and c["build:m/user"].location == "dep/dep.go:4"


def test_attr_events_and_output_type_are_ignored():
    text = _events(
        {"Action": "start", "Package": "m/a"},
        {"Action": "run", "Package": "m/a", "Test": "TestX"},
        {"Action": "attr", "Package": "m/a", "Test": "TestX", "Key": "k", "Value": "v"},
        {"Action": "output", "Package": "m/a", "Test": "TestX", "Output": "=== RUN   TestX\n", "OutputType": "frame"},
        {"Action": "output", "Package": "m/a", "Test": "TestX", "Output": "    a_test.go:9: boom\n", "OutputType": "error"},
        {"Action": "output", "Package": "m/a", "Test": "TestX", "Output": "--- FAIL: TestX (0.00s)\n", "OutputType": "frame"},
        {"Action": "fail", "Package": "m/a", "Test": "TestX", "Elapsed": 0},
        {"Action": "output", "Package": "m/a", "Output": "FAIL\n"},
        {"Action": "fail", "Package": "m/a", "Elapsed": 0.01},
    )
    checks = parse_json(text)
    assert [(c.key, c.status, c.message.strip(), c.location) for c in checks] == [
        ("TestX", FAIL, "a_test.go:9: boom", "a_test.go:9")
    ]


def test_verbose_timeout_with_running_tests_list():
    # Go 1.20+ lists the running tests after a timeout panic.
    text = (
        "=== RUN   TestWait\n=== RUN   TestWait/slow\n"
        "panic: test timed out after 1s\nrunning tests:\n\tTestWait/slow (1s)\n\n"
        "goroutine 5 [running]:\nFAIL\tm/w\t1.010s\nFAIL\n"
    )
    assert failing(parse_verbose(text)) == {"TestWait": FAIL, "TestWait/slow": FAIL}


def test_verbose_package_timeout_without_tests():
    text = "panic: test timed out after 1s\n\ngoroutine 1 [running]:\nFAIL\tm/w\t1.002s\nFAIL\n"
    assert failing(parse_verbose(text)) == {"package:m/w": FAIL}


def test_verbose_test_output_that_looks_like_go_lines():
    text = (
        "=== RUN   TestDoc\n# Title\nFAIL something\nok then\n    doc_test.go:5: bad heading\n"
        "--- FAIL: TestDoc (0.00s)\nFAIL\nFAIL\tm/doc\t0.01s\nFAIL\n"
    )
    checks = parse_verbose(text)
    assert failing(checks) == {"TestDoc": FAIL}
    msg = checks[0].message
    assert "# Title" in msg and "FAIL something" in msg and "ok then" in msg and checks[0].location == "doc_test.go:5"


def test_summary_lines_without_tabs():
    text = (
        "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok   m/a 0.01s\n"
        "=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL m/b 0.02s\n"
    )
    assert {(c.key, c.status) for c in parse_verbose(text)} == {("m/a.TestA", PASS), ("m/b.TestA", FAIL)}


def test_json_parser_on_plain_text_reads_it_as_text_output():
    text = read_fixture("go/subtests.v.txt")
    assert [(c.key, c.status) for c in parse_json(text)] == [(c.key, c.status) for c in parse_verbose(text)]
