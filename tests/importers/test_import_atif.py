"""ATIF trajectories (Harbor's fixtures in tests/importers/atif, written by its own models) through the real command line."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import tomli
from hypothesis import given, settings
from hypothesis import strategies as st
from importkit import checked, listed, run_cli, snapshot

from reviewer.store.logs.atif_log import MAX_STEPS, find_trajectories, iter_trajectories
from reviewer.store.logs.spec import NotFormat
from reviewer.store.sessions.store import SessionStore

FIXTURES = Path(__file__).resolve().parent / "atif"
JOB = FIXTURES / "job"
SINGLE = FIXTURES / "single"
HELLO = "hello-world__Qx7cLdA"
CSV = "fix-csv-parser__Bn4kPq2"
LONG = "long-task__Tm3vYy9"
CODEX = "sum-column__Zt8wRr1"


def imported(capsys: pytest.CaptureFixture[str], into: Path, *sources: Path, session: str = "atif") -> tuple[SessionStore, str]:
    """Import ``sources`` with the real CLI; (the loaded store, stderr)."""
    code, out, err = run_cli(capsys, "import", "atif", *map(str, sources), "--into", str(into), "--session", session)
    assert code == 0, err
    assert out.startswith("imported ")
    store = SessionStore(into)
    store.scan()
    return store, err


def run_of(store: SessionStore, run_id: str) -> Any:
    return next(r for r in store.runs if r.id == run_id)


def manifest(into: Path, run_id: str, session: str = "atif") -> dict[str, Any]:
    return tomli.loads((into / session / "runs" / run_id / "run.toml").read_text())


def checks_of(store: SessionStore, run: Any) -> list[Any]:
    return [c for g in store.grader_checks(run) for c in g.checks]


def turn_texts(store: SessionStore, run: Any) -> list[str]:
    return [f"{t.role}: {t.text}" for t in store.transcript(run).turns]


def test_job_folder_one_run_per_trial_with_rewards_as_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    store, err = imported(capsys, into, JOB)
    rows = {r["run"]: r for r in listed(capsys, into)}
    assert set(rows) == {HELLO, CSV, LONG, CODEX}
    assert {k: (r["task"], r["outcome"], r["failures"]) for k, r in rows.items()} == {
        HELLO: ("hello-world", "pass", 0),
        CSV: ("fix-csv-parser", "fail", 1),
        LONG: ("long-task", "fail", 1),
        CODEX: ("sum-column", "error", 1),
    }
    assert {k: r["model"] for k, r in rows.items()} == {
        HELLO: "claude-sonnet-4-5", CSV: "openai/gpt-5", LONG: "anthropic/claude-opus-4-1", CODEX: "gpt-5-codex"}
    assert "trajectory.cont-1.json" in err and "trajectory.summarization-1-summary.json" in err and "not as runs of their own" in err
    checked(capsys, into)
    long_checks = {c.key: c.status.value for c in checks_of(store, run_of(store, LONG))}
    assert long_checks == {"build": "pass", "correctness": "fail"}
    csv_output = store.text(run_of(store, CSV).grader("harbor-verifier").output_ref).text
    assert "FAILED tests/test_outputs.py::test_quoted_comma" in csv_output


def test_claude_code_v17_subagent_files_and_trial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, JOB / HELLO)
    run = run_of(store, HELLO)
    assert store.text(run.brief_ref).text.startswith("Create hello.py that prints `Hello, world!`")
    files = {f.path: store.text(f.ref).text for f in run.attempts[0].files}
    assert files == {"hello.py": "print('Hello, world!')\n", "README.md": "# hello\n\nRun `python3 hello.py`; it prints `Hello, world!`.\n"}
    texts = turn_texts(store, run)
    start = texts.index("harness: [subagent claude-code-subagent (task-explore-1): 3 steps: Explore /app]")
    assert texts[start + 1] == "user: [subagent claude-code-subagent] List the files in /app and say whether a Python file exists."
    assert "harness: [end of subagent claude-code-subagent]" in texts[start:]
    assert "system: [context compaction, boundary replace] Context compaction performed" in texts
    turns = store.transcript(run).turns
    task = turns[1].tool_calls[0]
    assert task.name == "Task" and task.output == "/app is empty: no Python file yet."
    assert json.loads(task.arguments) == {"description": "Explore /app", "prompt": "List the files in /app", "subagent_type": "Explore"}
    read = next(c for t in turns for c in t.tool_calls if c.name == "Read")
    assert read.arguments == "/app/README.md" and "Run `python3 hello.py`" in read.output
    assert turns[-1].attempt == 1 and turns[-1].text.startswith("Done:")
    meta = manifest(into, HELLO)["run"]["metadata"]
    assert meta["schema_version"] == "ATIF-v1.7" and meta["trajectory_id"] == HELLO
    assert meta["agent"] == {"name": "claude-code", "version": "2.0.58", "model_name": "claude-sonnet-4-5", "extra": {"permission_mode": "bypassPermissions"}}
    assert meta["embedded_subagents"] == ["task-explore-1"] and meta["container_workdir"] == "/app"
    assert meta["tool_call_extras"] == [{"step_id": 2, "tool_call_id": "toolu_01", "extra": {"timeout_ms": 120000}}]
    assert {"step_id": 5, "source_call_id": "toolu_04", "extra": {"is_error": False}} in meta["observation_extras"]
    assert meta["harbor_trial"]["rewards"] == {"reward": 1.0} and meta["harbor_trial"]["trial_name"] == HELLO
    assert meta["final_metrics"]["total_cost_usd"] == 0.0126


def test_openhands_v14_edits_metrics_and_failing_reward(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, JOB / CSV)
    run = run_of(store, CSV)
    files = {f.path: store.text(f.ref).text for f in run.attempts[0].files}
    assert files["tests/test_reader.py"].startswith("from csvkit.reader import parse_line\n\n\ndef test_quoted_comma_issue_42():")
    assert files["edits.diff"] == ("--- a/csvkit/reader.py\n+++ b/csvkit/reader.py\n@@ edit 1 @@\n"
                                   "-    return line.split(',')\n+    return next(csv.reader([line]))\n")
    texts = turn_texts(store, run)
    assert texts[0].startswith("system: You are OpenHands agent")
    assert texts[2] == "assistant: <reasoning>\nThe split is probably a plain str.split(',').\n</reasoning>\n\nLet me look at the reader first."
    bash = store.transcript(run).turns[2].tool_calls[0]
    assert (bash.name, json.loads(bash.arguments)) == ("execute_bash", {"command": "sed -n 1,40p csvkit/reader.py", "is_input": "false"})
    meta = manifest(into, CSV)["run"]["metadata"]
    first = meta["step_metrics"][0]
    assert (first["prompt_token_ids"], first["completion_token_ids"], first["logprobs"]) == ("4 values", "2 values", "2 values")
    assert meta["step_counts"] == {"agent": 6, "system": 1, "user": 1}
    grader = manifest(into, CSV)["grader"][0]
    assert grader["check"] == [{"key": "reward", "status": "fail", "message": "reward 0.0"}]


def test_terminus_v15_continuation_summary_subagent_and_reward_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, JOB / LONG)
    assert [r.id for r in store.runs] == [LONG]
    run = store.runs[0]
    texts = turn_texts(store, run)
    task = "user: Build the project in /app with `make`, fix whatever stops the build, and make `make test` pass."
    assert texts.count(task) == 1, "the continuation's copied steps are not repeated"
    cont = next(i for i, t in enumerate(texts) if "continues in" in t)
    assert texts[cont].endswith("trajectory.cont-1.json; 3 steps copied from before it not repeated]")
    assert texts[cont + 1] == "user: Summary from the previous agent: the build passes; run `make test` next."
    summary = next(i for i, t in enumerate(texts) if t.startswith("harness: [subagent terminus-2-summarization-summary"))
    assert summary < cont and texts[summary + 2].startswith("assistant: [subagent terminus-2-summarization-summary] The build now passes")
    keys = store.transcript(run).turns[1].tool_calls[0]
    assert keys.name == "bash_command" and json.loads(keys.arguments) == {"keystrokes": "cd /app && make\n", "duration": 1.0}
    meta = manifest(into, LONG)["run"]["metadata"]
    assert meta["harbor_trial"]["reward_source"] == "verifier/reward.json"
    assert meta["continuation_segments"] == [f"{LONG}/agent/trajectory.cont-1.json"]
    assert meta["subagent_files"] == ["trajectory.summarization-1-summary.json"]
    assert "(stored in metadata/tool_definitions.json" in meta["tool_definitions"] or meta["tool_definitions"][0]["function"]["name"] == "bash_command"
    assert {f.path for f in run.attempts[0].files} == {"answer.md"}


def test_codex_v16_content_parts_apply_patch_and_timed_out_trial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trial = tmp_path / "job" / CODEX
    shutil.copytree(JOB / CODEX, trial)
    image = trial / "agent" / "images" / "expected_totals.png"
    image.unlink()
    os.mkfifo(image)  # a referenced image is named, never opened: a FIFO would block a reader that opened it
    (trial / "agent" / "images" / "step_4_plot.png").unlink()
    (trial / "agent" / "images" / "step_4_plot.png").symlink_to("/etc/passwd")
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, tmp_path / "job")
    run = run_of(store, CODEX)
    assert run.outcome == "error"
    assert [(c.key, c.status.value, c.message) for c in checks_of(store, run)] == [
        ("AgentTimeoutError", "error", "AgentTimeoutError: Agent execution timed out after 600.0 seconds")]
    brief = store.text(run.brief_ref).text
    assert brief.endswith("[image: images/expected_totals.png (image/png)]")
    files = {f.path: store.text(f.ref).text for f in run.attempts[0].files}
    assert files["sum_column.py"] == "import csv, sys\n\npath, column = sys.argv[1], sys.argv[2]\nwith open(path) as f:\n    print(sum(float(row[column]) for row in csv.DictReader(f)))\n"
    assert files["apply_patch.patch"].startswith("*** Begin Patch\n*** Add File: sum_column.py\n")
    turns = store.transcript(run).turns
    shell = turns[1].tool_calls[0]
    assert json.loads(shell.arguments) == {"command": "head -3 data.csv", "workdir": "/app", "timeout_ms": 10000}
    assert turns[3].tool_calls[0].arguments == "python sum_column.py data.csv price && python plot.py"
    assert turns[3].tool_calls[0].output == "3.75\n\n[image: images/step_4_plot.png (image/png)]"
    assert turns[-1].role == "harness" and turns[-1].text.startswith("trial error: AgentTimeoutError")
    assert "root:" not in json.dumps(snapshot_text(into))


def snapshot_text(into: Path) -> list[str]:
    return [data.decode("utf-8", "replace") for data in snapshot(into).values()]


def test_single_files_outside_a_trial_have_no_grader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, SINGLE / "mini-swe-agent__django-11099.json", SINGLE / "voice-notes.json")
    mini, voice = run_of(store, "mini-swe-agent__django-11099"), run_of(store, "voice-notes")
    assert (mini.outcome, voice.outcome, mini.graders, voice.graders) == ("unknown", "unknown", (), ())
    patch = next(f for f in mini.attempts[0].files if f.path == "patch.diff")
    assert store.text(patch.ref).text.startswith("diff --git a/django/contrib/auth/validators.py")
    assert manifest(into, "mini-swe-agent__django-11099")["run"]["metadata"]["notes"] == "Converted from mini-swe-agent trajectory format to ATIF"
    assert store.text(voice.brief_ref).text.endswith("[audio: audio/memo.wav (audio/wav)]")
    assert {f.path: store.text(f.ref).text for f in voice.attempts[0].files} == {"notes.txt": "Buy milk. Call Ana at five.\n"}


def test_reimport_is_byte_identical_and_ids_are_stable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    imported(capsys, into, JOB, SINGLE)
    first = snapshot(into / "atif")
    store, _ = imported(capsys, into, JOB, SINGLE)
    assert snapshot(into / "atif") == first
    again, _ = imported(capsys, tmp_path / "other", SINGLE, JOB)
    assert sorted(r.id for r in again.runs) == sorted(r.id for r in store.runs)


def test_a_trajectory_named_in_its_agent_folder_reads_its_trial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    agent = JOB / LONG / "agent"
    store, _ = imported(capsys, into, agent / "trajectory.json", agent / "trajectory.cont-1.json")
    assert [(r.id, r.outcome) for r in store.runs] == [(LONG, "fail")]
    store, _ = imported(capsys, tmp_path / "by-folder", agent)
    assert [(r.id, r.outcome) for r in store.runs] == [(LONG, "fail")]


def test_a_step_of_a_multi_step_trial_takes_its_step_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trial = tmp_path / "job" / "two-steps__A1b2C3d"
    step = trial / "steps" / "write"
    shutil.copytree(JOB / HELLO / "agent", step / "agent")
    result = json.loads((JOB / HELLO / "result.json").read_text())
    result["step_results"] = [{"step_name": "setup", "verifier_result": {"rewards": {"reward": 1.0}}},
                              {"step_name": "write", "verifier_result": {"rewards": {"reward": 0.25}}}]
    result["verifier_result"] = None
    result["task_name"] = "two-steps"
    trial.mkdir(parents=True, exist_ok=True)
    (trial / "result.json").write_text(json.dumps(result))
    (step / "verifier").mkdir()
    (step / "verifier" / "test-stdout.txt").write_text("step write: 1 of 4 checks passed\n")
    store, _ = imported(capsys, tmp_path / "sessions", tmp_path / "job")
    run = store.runs[0]
    assert (run.id, run.task, run.outcome) == ("two-steps__A1b2C3d-write", "two-steps", "fail")
    assert [(c.key, c.message) for c in checks_of(store, run)] == [("reward", "reward 0.25")]
    assert store.text(run.grader("harbor-verifier").output_ref).text == "step write: 1 of 4 checks passed\n"


def test_the_reader_yields_one_trajectory_at_a_time(tmp_path: Path) -> None:
    found = find_trajectories(JOB)
    assert found.roots == [f"{t}/agent/trajectory.json" for t in (CSV, HELLO, LONG, CODEX)]
    assert found.parts == [f"{LONG}/agent/trajectory.cont-1.json", f"{LONG}/agent/trajectory.summarization-1-summary.json"]
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema_version": "ATIF-v1.6", "steps": [')
    trajectories = iter_trajectories([(found.base, found.roots[0]), (str(tmp_path), "broken.json")])
    first = next(trajectories)
    assert first.source == f"job/{CSV}/agent/trajectory.json" and first.version == (1, 4)
    assert first.trial is not None and first.trial.rewards == {"reward": 0.0}
    with pytest.raises(NotFormat) as caught:
        next(trajectories)
    assert caught.value.source == f"{tmp_path.name}/broken.json" and "not valid JSON" in caught.value.reason


# ---- damaged and hostile files -------------------------------------------------------------


def hello_doc() -> dict[str, Any]:
    return json.loads((JOB / HELLO / "agent" / "trajectory.json").read_text())


def one_error(capsys: pytest.CaptureFixture[str], source: Path, into: Path) -> str:
    code, out, err = run_cli(capsys, "import", "atif", str(source), "--into", str(into))
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert not (into.exists() and any(into.iterdir())), "nothing is written when an import fails"
    return err


@pytest.mark.parametrize(("text", "why"), [
    ('{"schema_version": "ATIF-v1.7", "agent": {"name": "x"}, "steps": [{"step_id": 1, "source": "us', "not valid JSON"),
    ('{"messages": [{"role": "user", "content": "x"}], "info": {}}', "use the mini-swe-agent format"),
    ('{"schema_version": "1.4", "steps": []}', "not \"ATIF-v<major>.<minor>\""),
    ('{"schema_version": "ATIF-v1.7", "steps": {"1": {}}}', "`steps` is missing or not a list"),
    ('[1, 2, 3]', "not a JSON object"),
    ('{"schema_version": "ATIF-v1.7", "steps": ["\xff\xfe"]}', "not UTF-8"),
    ('{"schema_version": "ATIF-v1.7", "steps": ' + "[" * 50_000 + "]" * 50_000 + "}", "nested"),
])
def test_a_damaged_file_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str) -> None:
    source = tmp_path / "trajectory.json"
    source.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    err = one_error(capsys, source, tmp_path / "sessions")
    assert err.startswith(f"reviewer import: {tmp_path.name}/trajectory.json: not an atif file (") and why in err, err


def test_a_folder_with_no_trajectory_says_what_it_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "notes.json").write_text('{"a": 1}')
    (tmp_path / "logs" / "result.json").write_text('{"a": 1}')
    err = one_error(capsys, tmp_path / "logs", tmp_path / "sessions")
    assert "no ATIF trajectory found (1 file skipped: notes.json: not an ATIF trajectory" in err


def test_wrong_types_everywhere_still_give_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {"schema_version": "ATIF-v1.7", "session_id": ["x"], "trajectory_id": 7, "agent": "claude", "notes": {"a": 1},
           "final_metrics": [1], "extra": "x", "continued_trajectory_ref": 5, "subagent_trajectories": {"a": 1},
           "steps": [None, 3, "text", [], {"source": 1, "message": {"type": "image"}},
                     {"source": "agent", "message": [1, None, {"type": "text", "text": ["x"]}, {"type": "image", "source": "nope"}],
                      "reasoning_content": 5, "tool_calls": [None, {"function_name": ["x"], "arguments": [1, 2], "tool_call_id": {}}, {"arguments": None}],
                      "observation": {"results": [None, {"source_call_id": [], "content": 5, "subagent_trajectory_ref": [None, 1, {"trajectory_id": 3}]}]},
                      "metrics": [], "extra": {"context_management": "x"}, "is_copied_context": "yes", "model_name": 4},
                     {"source": "user", "message": None, "observation": "x"}]}
    source = tmp_path / "odd.json"
    source.write_text(json.dumps(doc))
    store, _ = imported(capsys, tmp_path / "sessions", source)
    run = store.runs[0]
    assert (run.id, run.model, run.outcome) == ("odd", "unknown", "unknown")
    texts = turn_texts(store, run)
    assert "harness: [a step that is not an object: 3]" in texts
    assert any(t.startswith("harness: [step with source '1']") for t in texts)
    checked(capsys, tmp_path / "sessions")


def test_links_loops_and_paths_out_of_the_folder_are_never_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "trajectory.json").write_text(json.dumps({**hello_doc(), "steps": [{"step_id": 1, "source": "user", "message": "SECRET-STEP"}]}))
    job = tmp_path / "job" / "t__1" / "agent"
    job.mkdir(parents=True)
    doc = hello_doc()
    doc["continued_trajectory_ref"] = "trajectory.cont-1.json"
    doc["steps"][1]["observation"]["results"][0]["subagent_trajectory_ref"] = [
        {"trajectory_path": "../../../secret/trajectory.json"}, {"trajectory_path": str(secret / "trajectory.json")},
        {"trajectory_path": "linked.json"}, {"trajectory_path": "s3://bucket/sub.json"}, {"trajectory_path": "fifo.json"}]
    (job / "trajectory.json").write_text(json.dumps(doc))
    (job / "trajectory.cont-1.json").write_text(json.dumps({**hello_doc(), "continued_trajectory_ref": "trajectory.json"}))
    (job / "linked.json").symlink_to(secret / "trajectory.json")
    os.mkfifo(job / "fifo.json")
    (tmp_path / "job" / "t__1" / "result.json").symlink_to(secret / "trajectory.json")
    (tmp_path / "job" / "elsewhere").symlink_to(secret, target_is_directory=True)
    into = tmp_path / "sessions"
    store, err = imported(capsys, into, tmp_path / "job")
    assert [r.id for r in store.runs] == ["t__1"]
    everything = "\n".join(snapshot_text(into))
    assert "SECRET-STEP" not in everything
    notes = manifest(into, "t__1")["run"]["metadata"]["import_notes"]
    notes = "\n".join(notes) if isinstance(notes, list) else (into / "atif" / "runs" / "t__1" / "metadata" / "import_notes.json").read_text()
    for expected in ("'../../../secret/trajectory.json': not read", "'s3://bucket/sub.json': not read", "linked.json: not read: is a symbolic link",
                     "fifo.json: not read: is a FIFO", "already read (a loop of continuations)", "result.json: not read: is a symbolic link"):
        assert expected in notes, (expected, notes)
    assert "elsewhere/: a symbolic link (not followed)" in err


def test_escapes_and_markup_in_every_field_are_kept_as_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = "[@click=app.quit]x[/] [/b] \x1b]0;PWNED\x07 \x1b[2J \x9b31m \u202eevil\u202c \x00nul"
    doc = hello_doc()
    doc["agent"]["name"] = doc["agent"]["model_name"] = payload
    for step in doc["steps"]:
        step["message"] = payload
        for call in step.get("tool_calls", []):
            call["function_name"] = payload
            call["arguments"] = {"command": payload, "file_path": f"/app/{payload}.py", "content": payload}
        for result in step.get("observation", {}).get("results", []):
            result["content"] = payload
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps(doc))
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", "atif", str(source), "--into", str(into))
    assert code == 0, err
    assert "\x1b" not in out + err and "\x9b" not in out + err
    store = SessionStore(into)
    store.scan()
    run = store.runs[0]
    assert "[@click=app.quit]x[/] [/b]" in run.model and "PWNED" in run.model
    assert payload.replace("\x00", "") in store.text(run.brief_ref).text.replace("\x00", "").replace("\ufffd", "")
    code, out, err = run_cli(capsys, "list", str(into))
    assert code == 0 and "\x1b" not in out + err and "\x9b" not in out and "[@click=app.quit]" in out


def test_a_step_bomb_is_cut_to_the_budget_with_a_visible_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    steps = [{"step_id": i + 1, "source": "agent" if i % 2 else "user", "message": f"m{i}"} for i in range(MAX_STEPS + 2_500)]
    source = tmp_path / "many.json"
    source.write_text(json.dumps({"schema_version": "ATIF-v1.6", "agent": {"name": "a", "version": "1"}, "steps": steps}))
    store, err = imported(capsys, tmp_path / "sessions", source)
    assert f"steps: the first {MAX_STEPS:,} of {MAX_STEPS + 2_500:,} kept" in err
    turns = store.transcript(store.runs[0]).turns
    assert "transcript cut" in turns[0].text and f"steps: the first {MAX_STEPS:,} of {MAX_STEPS + 2_500:,} kept" in turns[0].text
    assert turns[1].text == "m0" and "turns were not imported" in turns[-1].text


def test_a_huge_message_is_cut_in_the_transcript_and_kept_whole_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = hello_doc()
    doc["steps"][-1]["message"] = "Z" * 3_000_000
    source = tmp_path / "big.json"
    source.write_text(json.dumps(doc))
    into = tmp_path / "sessions"
    store, _ = imported(capsys, into, source)
    last = store.transcript(store.runs[0]).turns[-1]
    assert "truncated" in last.text and len(last.text) < 100_000
    assert "Z" * 3_000_000 in (into / "atif" / "runs" / "big" / "transcript.full.json").read_text()


def test_deep_nesting_inside_fields_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep: Any = "bottom"
    for _ in range(900):
        deep = {"d": deep}
    doc = hello_doc()
    doc["extra"] = deep
    doc["steps"][2]["tool_calls"][0]["arguments"] = {"x": deep, "file_path": "/app/a.py", "content": "a"}
    source = tmp_path / "deep.json"
    source.write_text(json.dumps(doc))
    store, _ = imported(capsys, tmp_path / "sessions", source)
    assert store.runs[0].outcome == "unknown"
    checked(capsys, tmp_path / "sessions")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
step_fields = ["step_id", "timestamp", "source", "model_name", "message", "reasoning_content", "tool_calls", "observation",
               "metrics", "is_copied_context", "llm_call_count", "extra", "reasoning_effort"]
steps = st.lists(
    st.dictionaries(st.sampled_from(step_fields), json_values | st.sampled_from(["agent", "user", "system"])
                    | st.lists(st.dictionaries(st.sampled_from(["tool_call_id", "function_name", "arguments", "extra"]), json_values), max_size=2)
                    | st.fixed_dictionaries({"results": st.lists(st.dictionaries(
                        st.sampled_from(["source_call_id", "content", "subagent_trajectory_ref", "extra"]), json_values), max_size=2)})),
    max_size=5,
) | json_values
trajectories = st.fixed_dictionaries(
    {"schema_version": st.sampled_from(["ATIF-v1.4", "ATIF-v1.5", "ATIF-v1.6", "ATIF-v1.7", "ATIF-v9.9"]) | json_values, "steps": steps},
    optional={k: json_values for k in ("session_id", "trajectory_id", "agent", "notes", "final_metrics", "continued_trajectory_ref",
                                       "extra", "subagent_trajectories", "unknown")},
)


@settings(max_examples=int(os.environ.get('ATIF_FUZZ', '80')), deadline=None)
@given(doc=trajectories | json_values, in_trial=st.booleans(), result=json_values)
def test_any_json_gives_a_run_or_one_error_line(doc: object, in_trial: bool, result: object, tmp_path_factory: pytest.TempPathFactory) -> None:
    from reviewer.cli import main

    tmp = tmp_path_factory.mktemp("atif-fuzz")
    folder = tmp / "t__1" / "agent" if in_trial else tmp
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trajectory.json").write_text(json.dumps(doc))
    if in_trial:
        (tmp / "t__1" / "result.json").write_text(json.dumps(result))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["import", "atif", str(folder / "trajectory.json"), "--into", str(tmp / "sessions")])
    assert code in (0, 1), err.getvalue()
    if code == 1:
        assert err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()
    else:
        store = SessionStore(tmp / "sessions")
        store.scan()
        assert len(store.runs) == 1 and not store.errors
