"""Inspect AI logs: a code-generation log written by the test as .json, zstd .eval and deflate .eval."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest
from importkit import checked, failure_ids, listed, run_cli, snapshot
from inspectkit import (
    EXPECTED,
    TEST_COMMAND,
    all_samples,
    header,
    write_deflate_eval,
    write_json_log,
    write_zstd_eval,
    write_zstd_zip,
)

from reviewer.store.logs.evalzip import ArchiveTooLarge, EvalZip
from reviewer.store.logs.spec import NotFormat
from reviewer.store.sessions.store import SessionStore

WRITERS = {"json": write_json_log, "zstd": write_zstd_eval, "deflate": write_deflate_eval}
SUFFIX = {"json": ".json", "zstd": ".eval", "deflate": ".eval"}
pytestmark = pytest.mark.filterwarnings(  # a refused or finished log leaves no file open
    "error::ResourceWarning", "error::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(params=sorted(WRITERS))
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The same log in each container."""
    kind = request.param
    return WRITERS[kind](tmp_path / f"codegen-{kind}{SUFFIX[kind]}")


def test_zstd_entries_really_are_method_93(tmp_path: Path) -> None:
    path = write_zstd_eval(tmp_path / "z.eval")
    infos = zipfile.ZipFile(path).infolist()
    assert {i.compress_type for i in infos} == {93}
    with pytest.raises(NotImplementedError):
        zipfile.ZipFile(path).read("header.json")


def test_one_run_per_sample_epoch_and_exactly_the_failing_epochs_fail(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", "inspect", str(log), "--into", str(into))
    assert code == 0, err
    assert "imported 6 runs" in out
    rows = listed(capsys, into)
    assert {r["run"]: r["outcome"] for r in rows} == EXPECTED
    assert {r["session"] for r in rows} == {"codegen-RunCodeGen42"}
    assert {r["task"] for r in rows} == {"add", "fizzbuzz", "7"}
    for r in rows:
        assert r["brief_chars"] > 0 and r["files"] >= 1 and r["turns"] >= 1
    checked(capsys, into)
    ids = failure_ids(into)
    assert ids["codegen-RunCodeGen42/add-epoch-2"] == ["codegen-RunCodeGen42/add-epoch-2#verify:score"]
    assert ids["codegen-RunCodeGen42/fizzbuzz-epoch-1"] == ["codegen-RunCodeGen42/fizzbuzz-epoch-1#verify:score"]
    assert all(not v for k, v in ids.items() if not k.endswith(("add-epoch-2", "fizzbuzz-epoch-1")))


def test_mapping_of_one_sample(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "inspect", str(log), "--into", str(into), "--session", "cg")[0] == 0
    store = SessionStore(into)
    store.scan()
    run = store.run("cg/add-epoch-2")
    assert run is not None and run.model == "mockllm/model" and run.task == "add"
    brief = store.brief(run).text
    assert "careful Python programmer" in brief and "Write `solution.py` with a function `add(a, b)`" in brief
    assert "attachment://" not in brief
    files = {f.path: store.text(f.ref).text for f in run.attempts[0].files}
    assert set(files) == {"solution.py"}
    assert files["solution.py"].startswith("def add(*args):") and "wrong on purpose" in files["solution.py"]
    turns = store.transcript(run).turns
    assert [t.role for t in turns] == ["system", "user", "assistant", "assistant", "assistant"]
    assert turns[2].tool_calls[0].output.startswith("[tool error] permission")
    assert turns[3].tool_calls[0].output == "wrote solution.py"
    assert turns[-1].attempt == 1
    grader = {g.name: g for g in run.graders}
    assert set(grader) == {"verify", "style"}
    verify_out = store.text(grader["verify"].output_ref).text
    assert f"$ {TEST_COMMAND}" in verify_out and "assert None == 3" in verify_out
    assert verify_out.index("$ bash --login -c 'pwd'") < verify_out.index(f"$ {TEST_COMMAND}")
    assert "uname" not in verify_out
    checks = {gc.grader: [(c.key, c.status.value) for c in gc.checks] for gc in store.grader_checks(run)}
    assert checks == {"verify": [("score", "fail")], "style": [("lint", "pass"), ("docstring", "pass")]}
    outside = run.metadata["sandbox_events_outside_scorers"]
    assert [e["cmd"] for e in outside] == ["bash --login -c 'uname -a'", "cat solution.py"]
    assert run.metadata["target"] == "tests in test_solution.py"
    assert run.metadata["sample_metadata"]["difficulty"] == "easy"
    replied = store.run("cg/fizzbuzz-epoch-1")
    assert replied is not None
    answers = {f.path: store.text(f.ref).text for f in replied.attempts[0].files}
    assert set(answers) == {"answer.md", "verify.answer.py"}
    assert answers["answer.md"].startswith("Done.") and answers["verify.answer.py"].startswith("def fizzbuzz")
    errored = store.run("cg/7-epoch-2")
    assert errored is not None and errored.graders == ()
    assert "sandbox died" in store.transcript(errored).turns[-1].text


def test_the_three_containers_give_the_same_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trees = []
    for kind, writer in sorted(WRITERS.items()):
        into = tmp_path / kind
        source = writer(tmp_path / f"log{SUFFIX[kind]}")
        assert run_cli(capsys, "import", "inspect", str(source), "--into", str(into), "--session", "s")[0] == 0
        tree = snapshot(into)
        tree = {k: v for k, v in tree.items() if not k.endswith((".import.toml", "session.toml", "run.toml"))}
        trees.append(tree)
    assert trees[0] == trees[1] == trees[2]


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    path = write_zstd_zip(tmp_path / "bomb.eval", [("header.json", b"{}"), ("samples/1_epoch_1.json", b" " * (8 << 20))])
    archive = EvalZip(path.read_bytes(), total_cap=1 << 20, entry_cap=1 << 20)
    assert archive.read("header.json") == b"{}"
    with pytest.raises(ArchiveTooLarge, match="zip bomb"):
        archive.read("samples/1_epoch_1.json")


def test_damaged_zstd_entry_is_a_format_error(tmp_path: Path) -> None:
    path = write_zstd_zip(tmp_path / "bad.eval", [("header.json", b'{"eval": {"task": "t"}}')])
    data = bytearray(path.read_bytes())
    data[30 + len("header.json") + 8] ^= 0xFF
    with pytest.raises(NotFormat):
        EvalZip(bytes(data)).read("header.json")


def test_wrong_files_get_one_line_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    cases = {
        "notes.txt": b"just some text\n",
        "other.json": b'{"hello": "world"}',
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "plain.zip": b"",
    }
    for name, data in cases.items():
        path = tmp_path / name
        if name.endswith(".zip"):
            with zipfile.ZipFile(path, "w") as z:
                z.writestr("readme.txt", "hi")
        else:
            path.write_bytes(data)
        code, out, err = run_cli(capsys, "import", "inspect", str(path), "--into", str(into))
        assert code == 1 and out == ""
        assert err.count("\n") == 1 and err.startswith(f"reviewer import: {path}: not an inspect file (")
    assert not into.exists() or list(into.iterdir()) == []


def test_truncated_archive_and_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    good = write_zstd_eval(tmp_path / "good.eval")
    cut = tmp_path / "cut.eval"
    cut.write_bytes(good.read_bytes()[:-200])
    code, _, err = run_cli(capsys, "import", "inspect", str(cut), "--into", str(into))
    assert code == 1 and "not an inspect file" in err and err.count("\n") == 1
    fifo = tmp_path / "pipe.eval"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "import", "inspect", str(fifo), "--into", str(into))
    assert code == 1 and "FIFO" in err and err.count("\n") == 1


def test_zstd_frames_without_content_size_still_read(tmp_path: Path) -> None:
    payload = b'{"eval": {"task": "t"}}' * 1000
    path = write_zstd_zip(tmp_path / "s.eval", [("header.json", payload)], content_size=False)
    assert EvalZip(path.read_bytes()).read("header.json") == payload


def test_log_without_sample_entries_uses_summaries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summaries = [{k: s[k] for k in ("id", "epoch", "input", "target", "scores") if k in s} for s in all_samples()]
    for s in summaries:
        s["input"] = "Write the function."
    path = write_zstd_zip(tmp_path / "nosamples.eval", [("header.json", json.dumps(header()).encode()), ("summaries.json", json.dumps(summaries).encode())])
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "inspect", str(path), "--into", str(into))[0] == 0
    rows = listed(capsys, into)
    assert {r["run"]: r["outcome"] for r in rows} == {**EXPECTED, "7-epoch-2": "unknown"}
    assert all(r["turns"] == 1 and r["brief_chars"] > 0 for r in rows)
    checked(capsys, into)
