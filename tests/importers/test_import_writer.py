"""The shared writer: deterministic, atomic, re-import in place with labels kept, hostile ids."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from importkit import checked, failure_ids, listed, run_cli, snapshot
from inspectkit import header, sample, write_json_log, write_zstd_eval

from reviewer.importers import treewrite, writer
from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

FAILURE = "cg/add-epoch-2#verify:score"


def labeller(into: Path, who: str = "alice") -> Labeller:
    """A labeller on a freshly scanned folder."""
    store = SessionStore(into)
    store.scan()
    return Labeller(store, LabelStore(into, who))


def test_reimport_changes_nothing_and_labels_survive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_zstd_eval(tmp_path / "codegen.eval")
    into = tmp_path / "sessions"
    argv = ["import", "inspect", str(log), "--into", str(into), "--session", "cg"]
    assert run_cli(capsys, *argv)[0] == 0
    first = snapshot(into)
    ids_before = failure_ids(into)
    lab = labeller(into).decide(FAILURE, Verdict.SPECIFICATION, note="the brief never named the test file")
    [labels_file] = (into / "cg" / "labels" / "alice").iterdir()
    label_bytes = labels_file.read_bytes()
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "6 updated in place" in out
    assert snapshot(into) == first
    assert failure_ids(into) == ids_before
    assert labels_file.read_bytes() == label_bytes
    again = labeller(into)
    run, failure = again.find(FAILURE)
    state = again.state(run, failure)
    assert state.label is not None and state.label.note == lab.note and not state.stale
    assert not [p for p in into.iterdir() if p.name.startswith(".")]
    assert len(listed(capsys, into)) == 6


def test_same_source_gives_identical_bytes_in_two_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_json_log(tmp_path / "codegen.json")
    for name in ("a", "b"):
        assert run_cli(capsys, "import", "inspect", str(log), "--into", str(tmp_path / name))[0] == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_failed_write_leaves_the_old_session_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    log = write_zstd_eval(tmp_path / "codegen.eval")
    into = tmp_path / "sessions"
    argv = ["import", "inspect", str(log), "--into", str(into), "--session", "cg"]
    assert run_cli(capsys, *argv)[0] == 0
    labeller(into).decide(FAILURE, Verdict.CAPABILITY)
    before = snapshot(into, skip="-none-")
    real = treewrite.write_bytes
    calls = {"n": 0}

    def failing(dir_fd: int, rel: str, data: bytes) -> None:
        """Write files until the disk is "full"."""
        calls["n"] += 1
        if calls["n"] == 7:
            raise OSError(28, "No space left on device")
        real(dir_fd, rel, data)

    monkeypatch.setattr(treewrite, "write_bytes", failing)
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == "" and "No space left on device" in err and err.count("\n") == 1
    assert snapshot(into, skip="-none-") == before
    assert sorted(p.name for p in into.iterdir()) == ["cg"]


def test_failed_swap_rolls_back(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    log = write_zstd_eval(tmp_path / "codegen.eval")
    into = tmp_path / "sessions"
    argv = ["import", "inspect", str(log), "--into", str(into), "--session", "cg"]
    assert run_cli(capsys, *argv)[0] == 0
    labeller(into).decide(FAILURE, Verdict.CAPABILITY)
    before = snapshot(into, skip="-none-")
    real_rename = os.rename

    def rename(src: object, dst: object) -> None:
        """Fail the final rename of the built tree into place."""
        if str(src).endswith(".build") and str(dst).endswith("/cg"):
            raise OSError(5, "Input/output error")
        real_rename(src, dst)

    monkeypatch.setattr(writer.os, "rename", rename)
    assert run_cli(capsys, *argv)[0] == 1
    monkeypatch.setattr(writer.os, "rename", real_rename)
    assert snapshot(into, skip="-none-") == before
    assert sorted(p.name for p in into.iterdir()) == ["cg"]


def test_interrupted_swap_is_repaired_at_the_next_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_zstd_eval(tmp_path / "codegen.eval")
    into = tmp_path / "sessions"
    argv = ["import", "inspect", str(log), "--into", str(into), "--session", "cg"]
    assert run_cli(capsys, *argv)[0] == 0
    labeller(into).decide(FAILURE, Verdict.CAPABILITY)
    [labels_file] = (into / "cg" / "labels" / "alice").iterdir()
    labels = labels_file.read_bytes()
    os.rename(into / "cg", into / ".reviewer-import-0123.old-cg")
    (into / ".reviewer-import-4567.build").mkdir()
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "restored session cg" in err
    assert sorted(p.name for p in into.iterdir()) == ["cg"]
    assert labels_file.read_bytes() == labels


def test_a_folder_not_written_by_import_is_never_replaced(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_json_log(tmp_path / "codegen.json")
    before = snapshot(folder, skip="-none-")
    code, _, err = run_cli(capsys, "import", "inspect", str(log), "--into", str(folder), "--session", "s1")
    assert code == 1 and "was not written by reviewer import" in err
    assert snapshot(folder, skip="-none-") == before


def test_runs_from_other_sources_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    one = write_json_log(tmp_path / "one.json")
    two = write_zstd_eval(tmp_path / "two.eval")
    assert run_cli(capsys, "import", "inspect", str(one), "--into", str(into), "--session", "cg")[0] == 0
    code, out, _ = run_cli(capsys, "import", "inspect", str(two), "--into", str(into), "--session", "cg")
    assert code == 0 and "6 kept from other sources" in out
    runs = sorted(r["run"] for r in listed(capsys, into))
    assert len(runs) == 12 and "add-epoch-1" in runs and "add-epoch-1-2" in runs
    assert run_cli(capsys, "import", "inspect", str(two), "--into", str(into), "--session", "cg")[0] == 0
    assert sorted(r["run"] for r in listed(capsys, into)) == runs
    checked(capsys, into)


def hostile_log(path: Path) -> Path:
    """A log whose sample ids and file paths try to escape or collide."""
    samples = []
    for sid in ("../../etc/passwd", "a/b", "a-b", "x" * 5000, "\x1b]0;title\x07", "ünï#cødé", "   "):
        s = sample("add", 1)
        s["id"] = sid
        call = s["messages"][4]["tool_calls"][0]
        call["arguments"] = {"path": "../../../escape.py", "content": "print('hi')\n"}
        s["messages"][2]["tool_calls"][0]["arguments"] = {"path": "/abs/x.py", "content": "x"}
        s["messages"][3].pop("error")
        samples.append(s)
    doc = {**header(), "samples": samples}
    doc["eval"]["task"] = "../../evil task"
    doc["eval"]["run_id"] = "/tmp/x"
    path.write_text(json.dumps(doc))
    return path


def test_hostile_ids_and_paths_stay_inside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "deep" / "sessions"
    code, out, err = run_cli(capsys, "import", "inspect", str(hostile_log(tmp_path / "evil.json")), "--into", str(into))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["sessions"]
    rows = listed(capsys, into)
    assert len(rows) == 7 and len({r["run"] for r in rows}) == 7
    assert all(len(r["run"]) <= 100 for r in rows)
    assert {r["run"] for r in rows} >= {"etc-passwd-epoch-1", "a-b-epoch-1", "a-b-epoch-1-2"}
    checked(capsys, into)
    for p in into.rglob("*"):
        assert p.resolve().is_relative_to(into.resolve())
    store = SessionStore(into)
    store.scan()
    paths = {f.path for r in store.runs for f in r.attempts[0].files}
    assert paths == {"escape.py", "abs/x.py", "verify.answer.py"}
    note = store.runs[0].attempts[0].note
    assert "'../../../escape.py' stored as 'escape.py'" in note and "'/abs/x.py' stored as 'abs/x.py'" in note
