"""SWE-agent (retry agent, SWE-bench evaluation) and mini-swe-agent trajectories made by the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from importkit import checked, failure_ids, listed, run_cli

from reviewer.store.logs.swebench import report_checks
from reviewer.store.sessions.store import SessionStore

INSTANCE = "astropy__astropy-12907"
ISSUE = "Modeling's `separability_matrix` does not compute separability correctly for nested CompoundModels"


def attempt(n: int, patch: str | None) -> dict[str, Any]:
    """One attempt of the retry agent, as DefaultAgent.get_trajectory_data writes it."""
    history = [
        {"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": "Here is a demonstration ...", "agent": "main", "is_demo": True},
        {"role": "user", "content": f"ISSUE:\n{ISSUE}", "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": "Let me look.\n```\nopen astropy/modeling/separable.py\n```", "thought": "Let me look.", "action": "open astropy/modeling/separable.py\n", "agent": "main", "message_type": "action"},
        {"role": "tool", "content": "[File: separable.py (317 lines total)]", "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": f"Attempt {n}: submitting.", "thought": "submit", "action": "submit", "agent": "main", "message_type": "action"},
        {"role": "tool", "content": "submitted", "agent": "main", "message_type": "observation"},
    ]
    return {
        "trajectory": [{"action": "open astropy/modeling/separable.py", "observation": "...", "thought": "Let me look.", "response": "..."}],
        "history": history,
        "info": {"exit_status": "submitted", "submission": patch, "model_stats": {"instance_cost": 0.1 * n, "api_calls": 3}},
        "replay_config": json.dumps({"agent": {"model": {"name": "model-z"}}, "problem_statement": {"id": INSTANCE}}),
        "environment": "main",
    }


def patch(tag: str) -> str:
    """A small unified diff."""
    return f"diff --git a/astropy/modeling/separable.py b/astropy/modeling/separable.py\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+{tag}\n"


def retry_traj(folder: Path) -> Path:
    """A retry-agent trajectory: two attempts, the second chosen as best."""
    attempts = [attempt(1, patch("first")), attempt(2, patch("second"))]
    doc = {"attempts": attempts, **json.loads(json.dumps(attempts[1]))}
    doc["info"]["best_attempt_idx"] = 1
    path = folder / f"{INSTANCE}.traj"
    path.write_text(json.dumps(doc, indent=2))
    return path


def swebench_folder(root: Path) -> Path:
    """logs/run_evaluation/<run>/<model>/<instance>/ with report.json, test_output.txt, eval.sh."""
    inst = root / "logs" / "run_evaluation" / "run1" / "model-z" / INSTANCE
    inst.mkdir(parents=True)
    report = {
        INSTANCE: {
            "patch_is_None": False,
            "patch_exists": True,
            "patch_successfully_applied": True,
            "resolved": False,
            "tests_status": {
                "FAIL_TO_PASS": {"success": ["astropy/modeling/tests/test_separable.py::test_one"], "failure": ["astropy/modeling/tests/test_separable.py::test_nested[cm4-result4]"]},
                "PASS_TO_PASS": {"success": ["astropy/modeling/tests/test_separable.py::test_keep"], "failure": ["astropy/modeling/tests/test_models.py::test_broke"]},
                "FAIL_TO_FAIL": {"success": [], "failure": ["astropy/x.py::test_flaky"]},
                "PASS_TO_FAIL": {"success": [], "failure": []},
            },
        }
    }
    (inst / "report.json").write_text(json.dumps(report))
    (inst / "test_output.txt").write_text("+ pytest -rA astropy/modeling/tests/test_separable.py\nFAILED astropy/modeling/tests/test_separable.py::test_nested[cm4-result4]\n")
    (inst / "eval.sh").write_text("#!/bin/bash\npytest -rA astropy/modeling/tests/test_separable.py\n")
    return root / "logs"


def test_retry_agent_attempts_and_swebench_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    traj = retry_traj(tmp_path)
    evaluation = swebench_folder(tmp_path / "eval")
    into = tmp_path / "sessions"
    code, _, err = run_cli(capsys, "import", "swe-agent", str(traj), "--swebench", str(evaluation), "--into", str(into), "--session", "swe")
    assert code == 0, err
    rows = listed(capsys, into)
    assert [(r["run"], r["attempts"], r["outcome"], r["checks"], r["failures"]) for r in rows] == [(INSTANCE, 2, "fail", 4, 2)]
    checked(capsys, into)
    store = SessionStore(into)
    store.scan()
    run = store.run(f"swe/{INSTANCE}")
    assert run is not None and run.model == "model-z" and run.task == INSTANCE
    patches = [store.text(a.files[0].ref).text for a in run.attempts]
    assert [a.files[0].path for a in run.attempts] == ["patch.diff", "patch.diff"]
    assert "+first" in patches[0] and "+second" in patches[1]
    grader = run.graders[0]
    assert grader.name == "swebench" and grader.attempt == 2
    assert "FAILED astropy" in store.text(grader.output_ref).text
    assert store.text(grader.source_refs[0]).text.startswith("#!/bin/bash")
    assert ISSUE in store.brief(run).text and "demonstration" not in store.brief(run).text
    turns = store.transcript(run).turns
    assert [t.text for t in turns if t.role == "harness"] == [
        "retry agent: attempt 1 of 2 (environment reset)",
        "retry agent: attempt 2 of 2 (environment reset)",
    ]
    assert [t.attempt for t in turns if t.attempt is not None] == [1, 2]
    opened = next(t for t in turns if t.tool_calls and t.tool_calls[0].name == "open")
    assert opened.tool_calls[0].output == "[File: separable.py (317 lines total)]"
    assert run.metadata["best_attempt"] == 2
    assert run.metadata["swebench"]["swebench_FAIL_TO_FAIL"]["failure"] == ["astropy/x.py::test_flaky"]


def test_swebench_failures_are_exactly_the_failing_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    run_cli(capsys, "import", "swe-agent", str(retry_traj(tmp_path)), "--swebench", str(swebench_folder(tmp_path / "e")), "--into", str(into), "--session", "swe")
    prefix = f"swe/{INSTANCE}#swebench:"
    assert failure_ids(into)[f"swe/{INSTANCE}"] == [
        f"{prefix}astropy/modeling/tests/test_separable.py::test_nested[cm4-result4]",
        f"{prefix}astropy/modeling/tests/test_models.py::test_broke",
    ]


def test_report_without_applied_patch() -> None:
    checks = report_checks({"patch_exists": True, "patch_successfully_applied": False, "resolved": False})
    assert [(c.key, c.status) for c in checks] == [("patch", "fail")]
    assert [(c.key, c.status) for c in report_checks({"patch_is_None": True})] == [("patch", "fail")]


def test_trajectory_without_evaluation_has_no_grader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = attempt(1, None)
    path = tmp_path / "django__django-1.traj"
    path.write_text(json.dumps(doc))
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "swe-agent", str(path), "--into", str(into))[0] == 0
    rows = listed(capsys, into)
    assert [(r["session"], r["run"], r["outcome"], r["checks"], r["files"]) for r in rows] == [
        ("swe-agent-django__django-1", "django__django-1", "unknown", 0, 1)
    ]
    store = SessionStore(into)
    store.scan()
    assert store.runs[0].attempts[0].note.startswith("no submission")


def test_mini_swe_agent_v11(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Please solve this issue: the tests fail", "extra": {}},
        {"role": "assistant", "content": "THOUGHT: look\n\n```mswea_bash_command\nls -la\n```", "extra": {"actions": [{"command": "ls -la"}], "cost": 0.01}},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nsetup.py\n</output>", "extra": {"returncode": 0}},
        {"role": "assistant", "content": "```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```"},
        {"role": "exit", "content": "Submitted", "extra": {"exit_status": "Submitted", "submission": "diff --git a/setup.py b/setup.py\n"}},
    ]
    doc = {
        "info": {"exit_status": "Submitted", "submission": "diff --git a/setup.py b/setup.py\n", "mini_version": "2.0.0", "model_stats": {"instance_cost": 0.02, "api_calls": 2}, "config": {"model": {"model_name": "claude-x"}}},
        "messages": messages,
        "trajectory_format": "mini-swe-agent-1.1",
    }
    path = tmp_path / "sympy__sympy-20590.traj.json"
    path.write_text(json.dumps(doc))
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "mini-swe-agent", str(path), "--into", str(into))[0] == 0
    checked(capsys, into)
    store = SessionStore(into)
    store.scan()
    run = store.runs[0]
    assert (run.session, run.id, run.model) == ("mini-swe-agent-sympy__sympy-20590", "sympy__sympy-20590", "claude-x")
    assert store.text(run.attempts[0].files[0].ref).text == "diff --git a/setup.py b/setup.py\n"
    turns = store.transcript(run).turns
    assert [t.role for t in turns] == ["system", "user", "assistant", "assistant", "harness"]
    assert turns[2].tool_calls[0].arguments == "ls -la" and "setup.py" in turns[2].tool_calls[0].output
    assert run.metadata["info"]["exit_status"] == "Submitted"


@pytest.mark.parametrize(
    ("fmt", "content", "why"),
    [
        ("swe-agent", {"messages": [{"role": "user", "content": "x"}], "info": {}}, "looks like a mini-swe-agent trajectory; use the mini-swe-agent format"),
        ("swe-agent", {"info": {}}, "no `trajectory`, `history` or `attempts` list"),
        ("swe-agent", [1, 2, 3], "not a JSON object"),
        ("mini-swe-agent", {"history": [], "info": {}}, "looks like a SWE-agent trajectory; use the swe-agent format"),
        ("mini-swe-agent", {"info": {}}, "no `messages` list"),
        ("mini-swe-agent", [{"no": "role"}], "`messages` must be a non-empty list of {role, content} objects"),
    ],
)
def test_wrong_trajectory_gets_one_line(fmt: str, content: object, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.traj"
    path.write_text(json.dumps(content))
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", fmt, str(path), "--into", str(into))
    assert code == 1 and out == ""
    assert err == f"reviewer import: {path}: not a {fmt} file ({why})\n"
    assert not into.exists() or not any(into.iterdir())
