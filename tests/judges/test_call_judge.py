"""One judge call, run for real: the judge of tests/judges/script_judge.py as a subprocess, honest and hostile."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from reviewer.judging import JudgeUnavailable, call_judge
from reviewer.model.prediction import BadAnswer, parse_answer

JUDGE = Path(__file__).resolve().parent / "script_judge.py"
DOCUMENT = json.dumps({"evidence": {"counts": {"unstated": 1}, "near_misses": [1]}}).encode() + b"\n"


def argv(mode: str, *more: str) -> list[str]:
    return [sys.executable, str(JUDGE), "--mode", mode, *more]


def tagged(mode: str) -> tuple[list[str], str]:
    """The judge's argv with a tag of this test process, and the marker that finds its processes."""
    tag = f"t{os.getpid()}-{mode}-{time.monotonic_ns()}"
    return argv(mode, "--tag", tag), tag


def alive(marker: str) -> list[int]:
    """Processes whose command line holds ``marker``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def test_an_honest_judge_answers() -> None:
    reply = call_judge(argv("honest"), DOCUMENT, timeout=60)
    assert (reply.exit_status, reply.stopped, reply.problem(60)) == (0, "", "")
    answer = parse_answer(reply.stdout)
    assert answer.verdict is not None and answer.verdict.value == "specification" and answer.confidence == 0.9


def test_a_big_document_reaches_a_judge_that_reads_it_all() -> None:
    doc = json.dumps({"evidence": None, "pad": "z" * (8 << 20)}).encode()
    answer = parse_answer(call_judge(argv("honest"), doc, timeout=60).stdout)
    assert answer.verdict is None  # no evidence: it abstains, having read 8 MiB


def test_a_judge_that_never_reads_its_stdin_still_answers() -> None:
    reply = call_judge(argv("unread"), b"x" * (4 << 20), timeout=60)
    assert reply.problem(60) == "" and parse_answer(reply.stdout).verdict is not None


def test_a_huge_answer_is_cut_at_the_cap_and_the_judge_stopped() -> None:
    reply = call_judge(argv("huge", "--size", str(64 << 20)), DOCUMENT, timeout=60, answer_cap=1 << 20)
    assert reply.stopped == "answer-cap" and len(reply.stdout) <= (1 << 20) + (1 << 16)
    assert "answer passed 1024 KiB" in reply.problem(60)


def test_a_judge_that_hangs_is_stopped_at_its_timeout() -> None:
    started = time.monotonic()
    command, tag = tagged("hang")
    reply = call_judge(command, DOCUMENT, timeout=1.0)
    assert reply.stopped == "timeout" and reply.exit_status is None
    assert time.monotonic() - started < 30
    assert "did not answer within 1 s" in reply.problem(1.0)
    assert alive(tag) == []


def test_a_judge_killed_by_a_signal_says_so() -> None:
    reply = call_judge(argv("die"), DOCUMENT, timeout=60)
    assert reply.exit_status == -9 and "signal 9 (SIGKILL)" in reply.problem(60)


def test_a_judge_writing_to_stderr_forever_neither_blocks_nor_fills_memory() -> None:
    reply = call_judge(argv("stderr"), DOCUMENT, timeout=1.5, stderr_keep=4096)
    assert reply.stopped == "timeout"
    assert reply.stderr_bytes > 1 << 20  # it was drained as it came (a full pipe would have blocked it at 64 KiB)
    assert len(reply.stderr_tail) <= 4096 and "noise" in reply.problem(1.5)


def test_a_helper_left_holding_stdout_is_killed_and_the_answer_kept() -> None:
    started = time.monotonic()
    command, tag = tagged("linger")
    reply = call_judge(command, DOCUMENT, timeout=60)
    assert reply.left_behind and reply.exit_status == 0 and reply.problem(60) == ""
    assert parse_answer(reply.stdout).rationale == "lingering"
    assert time.monotonic() - started < 30  # not the judge's 3600 s, nor the timeout's 60 s
    assert alive(tag) == []


def test_a_nonzero_exit_is_a_failure_even_with_an_answer() -> None:
    reply = call_judge(argv("exit3"), DOCUMENT, timeout=60)
    assert reply.exit_status == 3 and reply.problem(60) == "the judge exited with status 3"


def test_malformed_and_deep_answers_do_not_parse() -> None:
    for mode, reason in (("malformed", "not one JSON object"), ("deep", "nests brackets deeper")):
        reply = call_judge(argv(mode), DOCUMENT, timeout=60)
        assert reply.problem(60) == ""
        with pytest.raises(BadAnswer, match=reason):
            parse_answer(reply.stdout)


def test_cancel_stops_a_running_judge_at_once() -> None:
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    command, tag = tagged("hang")
    reply = call_judge(command, DOCUMENT, timeout=600, cancelled=stop.is_set)
    timer.cancel()
    assert reply.stopped == "cancelled" and reply.problem(600) == "cancelled"
    assert alive(tag) == []


def test_a_command_that_does_not_exist_cannot_start() -> None:
    with pytest.raises(JudgeUnavailable, match="cannot start"):
        call_judge(["/nonexistent/judge"], DOCUMENT, timeout=5)
