"""A judge call as a task and its reply as data (reviewer.judging.wire), with the script judge run
for real: the task carries everything the call needs and pickles without the folder; the reply
document comes back as JSON text and is read on the client, its answer parsed there; every
document that is not one this reviewer writes is refused, and every way the judge fails is a
problem with its kind."""

from __future__ import annotations

import base64
import json
import pickle
import sys
from pathlib import Path

import pytest

from reviewer.judging.wire import (
    BadResult,
    JudgeProblem,
    JudgeTask,
    answer_bytes,
    answer_doc,
    perform,
    problem_doc,
    read_result,
    read_worker_check,
    worker_check,
)
from reviewer.model.label import Verdict
from reviewer.model.prediction import Answer, parse_answer

JUDGE = Path(__file__).resolve().parent / "script_judge.py"
DOCUMENT = json.dumps({"failure": {"id": "s/r#g:c"}, "evidence": {"counts": {"unstated": 1}, "near_misses": [1]}})


def task(*mode: str, timeout: float = 60.0) -> JudgeTask:
    return JudgeTask("s/r#g:c", (sys.executable, str(JUDGE), *mode), timeout, DOCUMENT.encode() + b"\n")


def never() -> bool:
    return False


def test_the_script_judge_s_answer_comes_back_as_text_and_is_parsed_on_the_client() -> None:
    one = task()
    text = perform(one, never)
    assert isinstance(text, str) and text.isascii()
    reply = read_result(text, one)
    assert reply.answer.verdict is Verdict.SPECIFICATION and reply.answer.confidence == 0.9
    assert reply.answer.judge_version == "script-judge 1" and reply.seconds > 0
    doc = json.loads(text)
    assert parse_answer(base64.b64decode(doc["stdout"])) == reply.answer  # unread on the worker: the judge's bytes


def test_a_task_pickles_with_its_document_and_nothing_else() -> None:
    one = task()
    assert pickle.loads(pickle.dumps(one)) == one


@pytest.mark.parametrize(("mode", "kind", "says"), [
    (("--mode", "malformed"), "failed", "the answer is not one JSON object"),
    (("--mode", "die"), "failed", r"signal 9 \(SIGKILL\)"),
    (("--mode", "exit3"), "failed", "exited with status 3"),
    (("--mode", "deep"), "failed", "nests brackets deeper"),
])
def test_every_way_the_judge_fails_is_a_problem_read_on_the_client(mode: tuple[str, ...], kind: str, says: str) -> None:
    one = task(*mode)
    with pytest.raises(JudgeProblem, match=says) as caught:
        read_result(perform(one, never), one)
    assert caught.value.kind == kind


def test_a_hang_is_stopped_at_the_timeout_and_a_cancel_is_said_as_such() -> None:
    hang = task("--mode", "hang", timeout=0.5)
    with pytest.raises(JudgeProblem, match="did not answer within 0.5 s") as late:
        read_result(perform(hang, never), hang)
    assert late.value.kind == "failed"
    with pytest.raises(JudgeProblem) as cancelled:
        read_result(perform(task("--mode", "hang"), lambda: True), task("--mode", "hang"))
    assert cancelled.value.kind == "cancelled"


def test_a_command_that_cannot_start_is_unavailable() -> None:
    gone = JudgeTask("s/r#g:c", ("/nonexistent/judge",), 5.0, b"{}\n")
    with pytest.raises(JudgeProblem, match="cannot start") as caught:
        read_result(perform(gone, never), gone)
    assert caught.value.kind == "unavailable"


def test_a_built_in_answer_goes_through_the_protocol_unchanged() -> None:
    for answer in (Answer(Verdict.CAPABILITY, None, "still fails"), Answer(None, None, "never re-scored"),
                   Answer(Verdict.SPECIFICATION, 0.25, "flipped \x1b[31m", "v2")):
        one = JudgeTask("s/r#g:c", (), 1.0, b"")
        assert read_result(answer_doc("s/r#g:c", answer_bytes(answer), "", 0.5), one).answer == answer


@pytest.mark.parametrize(("text", "says"), [
    (b"\x80 not json", "not JSON"),
    ("[1, 2]", "not an object"),
    (json.dumps({"protocol": 2, "failure": "s/r#g:c"}), "protocol '2'"),
    (json.dumps({"protocol": True, "failure": "s/r#g:c"}), "protocol 'True'"),
    (answer_doc("other/r#g:c", b"{}"), "is about 'other/r#g:c'"),
    (json.dumps({"protocol": 1, "failure": "s/r#g:c", "problem": {"kind": "boom", "message": "x"}}), "problem is not"),
    (json.dumps({"protocol": 1, "failure": "s/r#g:c", "stdout": "!!", "stderr_tail": "", "seconds": 1}), "not base64"),
    (json.dumps({"protocol": 1, "failure": "s/r#g:c", "stdout": "", "stderr_tail": "", "seconds": True}), "not {stdout"),
    ("[" * 100_000 + "]" * 100_000, "not JSON"),
    (" " * (8 << 20), "over"),
])
def test_a_result_that_is_not_a_reply_document_is_refused(text: str | bytes, says: str) -> None:
    with pytest.raises(BadResult, match=says):
        read_result(text, task())


def test_a_problem_document_says_its_kind() -> None:
    with pytest.raises(JudgeProblem, match="the judge exited with status 3") as caught:
        read_result(problem_doc("s/r#g:c", "failed", "the judge exited with status 3"), task())
    assert caught.value.kind == "failed"


def test_the_worker_check_finds_the_judge_s_program_or_says_it_is_missing(tmp_path: Path) -> None:
    assert read_worker_check(worker_check((sys.executable, "x.py"))) == ""
    assert read_worker_check(worker_check(("python3",))) == ""
    assert "'no-such-judge-program' is not found" in read_worker_check(worker_check(("no-such-judge-program",)))
    plain_file = tmp_path / "judge"
    plain_file.write_text("#!/bin/sh\n")  # not executable
    assert "is not found" in read_worker_check(worker_check((str(plain_file),)))
    assert "another version" in read_worker_check(json.dumps({"protocol": 9, "missing": ""}))
    assert "could not be read" in read_worker_check("not json")
