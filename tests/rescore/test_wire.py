"""The result document a re-score sends back from its sandbox: read back exactly, refused when it is
anything else (another type, another grading, another protocol, not JSON, too big), and what
recorded code printed stays text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.model.check import Check, CheckStatus
from reviewer.model.observation import Invocation, Observation
from reviewer.model.repair import Repair, RepairKind
from reviewer.model.rerun import Rerun
from reviewer.rescore.engine import CheckResult, Comparison, Grading, NotRerunnable
from reviewer.rescore.sandbox import Cancelled, Limits, Outcome, SandboxUnavailable
from reviewer.rescore.stage import Inputs
from reviewer.rescore.wire import (
    PROTOCOL,
    RESULT_CAP,
    BadResult,
    comparison_doc,
    dump,
    perform,
    read_result,
    read_worker_check,
)

HOSTILE = "\x1b]52;c;cHduZWQ=\x07\x1b[2J<b>not markup</b> \ud800 {\"error\": 1}"

TASK = Grading("s1/r1", "check", "fallback", Rerun("python check.py"), Inputs(attempt=(("prog.py", b"print(1)\n"),)),
               (Check("t", "t", CheckStatus.FAIL),), (Repair(RepairKind.MAP_VALUE, ("", "true", "yes")),))


def comparison(run_key: str = "s1/r1") -> Comparison:
    outcome = Outcome(1, HOSTILE, False, 0.5, "", "", b"", "watched")
    seen = Observation("s1/r1#check", "prog.py", "2026-01-01T00:00:00Z",
                       (Invocation(("prog.py", HOSTILE), "in", HOSTILE, "", -9, "t", ("stdout",), 0.25),), 2, None, "")
    return Comparison(run_key, "check", (Repair(RepairKind.LIFT_LIMIT, ("recursion",), "revealed: " + HOSTILE),),
                      "python check.py", "", "python 3.11", "bubblewrap 0.8.0", Limits(wall_seconds=7.5),
                      (CheckResult("t", "fail", "fail", "pass", HOSTILE),), outcome,
                      Outcome(0, "ok", True, 0.25, "wall time limit", "", b"", "cgroup"), 1.75,
                      "2026-01-01T00:00:00Z", ("a note", HOSTILE), seen)


def document(value: Comparison) -> str:
    return dump({"protocol": PROTOCOL, "comparison": comparison_doc(value)})


def test_a_comparison_reads_back_exactly_and_its_text_stays_text() -> None:
    text = document(comparison())
    assert text.isascii() and "\x1b" not in text
    assert read_result(text, TASK) == comparison()


@pytest.mark.parametrize("change, why", [
    (lambda d: d.update(protocol=PROTOCOL + 1), "protocol"),
    (lambda d: d["comparison"].update(seconds="1"), "seconds"),
    (lambda d: d["comparison"].update(checks=[["t", "fail"]]), "a check"),
    (lambda d: d["comparison"].update(repairs=[["run-shell", ["rm"], ""]]), "unknown repair kind"),
    (lambda d: d["comparison"]["before"].update(exit_status=True), "exit_status"),
    (lambda d: d["comparison"]["limits"].update(memory_mb=None), "memory_mb"),
    (lambda d: d["comparison"].update(notes="one note"), "notes"),
    (lambda d: d["comparison"]["observation"].update(invocations=[{"argv": [1]}]), "argv"),
    (lambda d: d.pop("comparison"), "comparison"),
])
def test_anything_else_is_refused(change: object, why: str) -> None:
    doc = json.loads(document(comparison()))
    change(doc)  # type: ignore[operator]
    with pytest.raises(BadResult, match=why):
        read_result(json.dumps(doc), TASK)


def test_a_result_about_another_grading_is_refused() -> None:
    with pytest.raises(BadResult, match="is about s1/r2#check"):
        read_result(document(comparison("s1/r2")), TASK)


@pytest.mark.parametrize("text", ["not json", "[1, 2]", "{\"protocol\": 1}", b"\xff\xfe", "[" * 100_000])
def test_what_is_not_a_document_is_refused(text: str | bytes) -> None:
    with pytest.raises(BadResult):
        read_result(text, TASK)


def test_a_result_over_the_cap_is_refused_unparsed() -> None:
    with pytest.raises(BadResult, match="MiB"):
        read_result(" " * (RESULT_CAP + 1), TASK)


@pytest.mark.parametrize("kind, raised", [("not-rerunnable", NotRerunnable), ("sandbox-unavailable", SandboxUnavailable),
                                          ("cancelled", Cancelled), ("failed", RuntimeError)])
def test_a_worker_s_error_is_raised_as_its_kind(kind: str, raised: type[Exception]) -> None:
    text = dump({"protocol": PROTOCOL, "error": {"kind": kind, "message": HOSTILE}})
    with pytest.raises(raised) as caught:
        read_result(text, TASK)
    assert str(caught.value) == HOSTILE


def test_perform_never_raises_and_says_why(tmp_path: Path) -> None:
    """A grading whose runtime is missing where it runs: the trouble comes back as a document."""
    task = Grading("s1/r1", "check", "", Rerun("go test", runtime="go>=99"), Inputs(), (), TASK.repairs)
    doc = json.loads(perform(task, lambda: False))
    assert doc["protocol"] == PROTOCOL and doc["error"]["kind"] in ("not-rerunnable", "sandbox-unavailable")
    with pytest.raises((NotRerunnable, SandboxUnavailable)):
        read_result(json.dumps(doc), task)


def test_a_worker_check_that_cannot_be_read_is_a_problem() -> None:
    assert read_worker_check(dump({"protocol": PROTOCOL, "sandbox": ""})) == ""
    assert "bwrap" in read_worker_check(dump({"protocol": PROTOCOL, "sandbox": "no bwrap"}))
    assert "another version of reviewer" in read_worker_check(dump({"protocol": 99, "sandbox": ""}))
    assert "could not be read" in read_worker_check("<html>")
