"""``go test -json`` decoded for a reader: the Output its events carry, which is what ``go test -v``
prints (the same runs, recorded both ways by Go 1.19; timings and addresses differ between runs)."""

from __future__ import annotations

import json
import re

import pytest
from parser_fixtures import read_fixture

from reviewer.parsers import readable_output
from reviewer.parsers.go_test import decode_json

RUN_TO_RUN = re.compile(r"0x[0-9a-f]+|\d+\.\d+s|goroutine \d+")
"""What differs between two runs of the same tests: addresses, timings, goroutine numbers."""
ORDERED = ["subtests", "mixed", "panic", "timeout", "initpanic", "parallel", "compile", "typeerr", "vetfail", "twopkgs"]


def normal(text: str) -> str:
    return RUN_TO_RUN.sub("N", text)


def verbose_without_go_summary(name: str) -> str:
    """The ``-v`` output less the go command's own last ``FAIL`` line (not part of the test2json stream)."""
    text = read_fixture(f"go/{name}.v.txt")
    return text[: -len("FAIL\n")] if text.endswith("\nFAIL\n") else text


@pytest.mark.parametrize("name", ORDERED)
def test_decoded_json_is_what_go_test_v_printed(name: str) -> None:
    assert normal(decode_json(read_fixture(f"go/{name}.json.txt"))) == normal(verbose_without_go_summary(name))


def test_packages_run_in_parallel_decode_to_the_same_lines() -> None:
    decoded = normal(decode_json(read_fixture("go/multi.json.txt"))).splitlines()
    assert sorted(decoded) == sorted(normal(verbose_without_go_summary("multi")).splitlines())


def test_plain_lines_in_the_stream_are_kept_and_other_events_print_nothing() -> None:
    stream = "\n".join([
        "# example.com/x",
        json.dumps({"Action": "start", "Package": "x"}),
        json.dumps({"Action": "output", "Package": "x", "Test": "TestA", "Output": "\tpanic: boom\n"}),
        json.dumps({"Action": "build-output", "ImportPath": "x", "Output": "x.go:1: bad\n"}),
        json.dumps({"Action": "fail", "Package": "x", "Test": "TestA"}),
        "{not json",
    ]) + "\n"
    assert decode_json(stream) == "# example.com/x\n\tpanic: boom\nx.go:1: bad\n{not json\n"


def test_only_a_go_test_json_stream_has_a_readable_form() -> None:
    stream = read_fixture("go/panic.json.txt")
    assert readable_output(stream, "go-test-json") == decode_json(stream)
    assert readable_output(stream) == decode_json(stream)  # no format recorded: detected
    assert readable_output(stream, "fallback") is None  # the run says what it is
    assert readable_output(read_fixture("go/panic.v.txt")) is None
    assert readable_output("") is None
