"""A session that reads a harness's own log in place: the same runs and failure ids as an import of
that log, labels saved, committed and counted like any, every defect of the log a problem."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "importers"))
import inspectkit  # noqa: E402
from importkit import SHARED_FIXTURES, run_cli  # noqa: E402

from reviewer.model.label import Verdict  # noqa: E402
from reviewer.model.run import LazyRun  # noqa: E402
from reviewer.store.git import commit_reviewer  # noqa: E402
from reviewer.store.labels import Labeller, LabelStore  # noqa: E402
from reviewer.store.sessions.fingerprint import evidence_hash  # noqa: E402
from reviewer.store.sessions.store import SessionStore  # noqa: E402

WRITERS = {
    "json": (inspectkit.write_json_log, "log.json"),
    "deflate": (inspectkit.write_deflate_eval, "log.eval"),
    "zstd": (inspectkit.write_zstd_eval, "log.eval"),
}


def in_place(root: Path, session: str, log: Path, fmt: str) -> Path:
    """A session folder holding ``log`` (a file or a folder, copied in) named in its session.toml."""
    folder = root / session
    folder.mkdir(parents=True)
    if log.is_dir():
        shutil.copytree(log, folder / log.name)
    else:
        shutil.copy(log, folder / log.name)
    (folder / "session.toml").write_text(f'format = 1\n\n[log]\nformat = "{fmt}"\npath = "{log.name}"\n')
    return root


def imported(capsys: pytest.CaptureFixture[str], root: Path, session: str, fmt: str, sources: list[Path]) -> Path:
    """The same log imported with the real command line."""
    code, _, err = run_cli(capsys, "import", fmt, *map(str, sources), "--into", str(root), "--session", session)
    assert code == 0, err
    return root


def seen(store: SessionStore) -> dict[str, object]:
    """Everything the review shows of a folder: runs, failure ids, texts, transcripts, checks, fingerprints."""
    corpus = store.scan()
    shown: dict[str, object] = {"errors": corpus.errors, "runs": list(corpus.runs)}
    for run in corpus.runs:
        failures = store.failures(run)
        shown[run.key] = (
            run.task, run.model, run.outcome, run.metadata,
            store.brief(run),
            [(f.path, store.text(f.ref)) for a in run.attempts for f in a.files],
            store.transcript(run),
            store.grader_checks(run),
            [(f.id, evidence_hash(store, run, f)) for f in failures],
        )
    return shown


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_an_inspect_log_read_in_place_is_the_import_of_it(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write, name = WRITERS[kind]
    log = write(tmp_path / name)
    a = seen(SessionStore(imported(capsys, tmp_path / "imported", "evals", "inspect", [log]), use_index=False))
    b = seen(SessionStore(in_place(tmp_path / "in-place", "evals", log, "inspect"), use_index=False))
    assert a == b
    ids = [fid for key, value in a.items() if "/" in key for fid, _ in value[-1]]  # type: ignore[index]
    assert ids == ["evals/add-epoch-2#verify:score", "evals/fizzbuzz-epoch-1#verify:score"]
    assert b["errors"] == []


def shared(folder: str) -> list[Path]:
    base = SHARED_FIXTURES / folder
    return sorted(p for p in base.iterdir() if p.is_file()) if base.is_dir() else []


@pytest.mark.skipif(not SHARED_FIXTURES.is_dir(), reason="../shared/fixtures is absent")
@pytest.mark.parametrize("log", shared("inspect-ai"), ids=lambda p: p.name)
def test_every_real_inspect_log_reads_in_place_as_it_imports(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = seen(SessionStore(imported(capsys, tmp_path / "imported", "real", "inspect", [log]), use_index=False))
    b = seen(SessionStore(in_place(tmp_path / "in-place", "real", log, "inspect"), use_index=False))
    assert a == b
    assert b["runs"]


@pytest.mark.skipif(not SHARED_FIXTURES.is_dir(), reason="../shared/fixtures is absent")
@pytest.mark.parametrize(("folder", "fmt"), [("mini-swe-agent", "mini-swe-agent"), ("swe-agent", "swe-agent")])
def test_a_real_trajectory_folder_reads_in_place_as_it_imports(folder: str, fmt: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    files = shared(folder)
    a = seen(SessionStore(imported(capsys, tmp_path / "imported", "trajs", fmt, files), use_index=False))
    b = seen(SessionStore(in_place(tmp_path / "in-place", "trajs", SHARED_FIXTURES / folder, fmt), use_index=False))
    assert a == b
    assert len(b["runs"]) == len(files)  # type: ignore[arg-type]


def test_trajectories_in_sub_folders_read_in_place_as_they_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from importgen import write_trajectories

    trajs = tmp_path / "out"
    for i, path in enumerate(write_trajectories(tmp_path / "flat", 6)):
        instance = trajs / f"inst-{i}"
        instance.mkdir(parents=True)
        shutil.copy(path, instance / ("same.traj.json" if i in (2, 4) else path.name))  # two ids claimed twice
    files = sorted(trajs.rglob("*.traj.json"), key=lambda p: p.relative_to(trajs).as_posix())
    a = seen(SessionStore(imported(capsys, tmp_path / "imported", "t", "mini-swe-agent", files), use_index=False))
    b = seen(SessionStore(in_place(tmp_path / "in-place", "t", trajs, "mini-swe-agent"), use_index=False))
    assert a == b
    assert sorted(r.id for r in b["runs"]) == sorted(["same", "same-2", *(p.name[:-10] for p in files if p.name != "same.traj.json")])  # type: ignore[union-attr]


def test_a_second_open_takes_the_runs_and_their_ids_from_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.store.fs import keys

    monkeypatch.setattr(keys, "RACY_NS", 0)  # a log written a moment ago counts as settled
    root = in_place(tmp_path / "sessions", "evals", inspectkit.write_zstd_eval(tmp_path / "log.eval"), "inspect")
    log = root / "evals" / "log.eval"
    first = SessionStore(root)
    runs = first.scan().runs
    assert first.save_index()
    again = SessionStore(root)
    warm = again.scan().runs
    assert warm == runs and all(type(r) is LazyRun for r in warm)
    assert [f.id for r in warm for f in again.failures(r)] == [f.id for r in runs for f in first.failures(r)]
    assert again.text(warm[0].brief_ref).text == first.text(runs[0].brief_ref).text
    inspectkit.write_deflate_eval(log)  # the log changed: read again, nothing stale kept
    changed = SessionStore(root)
    assert not any(type(r) is LazyRun for r in changed.scan().runs)


def test_labels_on_runs_read_in_place_are_saved_committed_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = in_place(tmp_path / "sessions", "evals", inspectkit.write_zstd_eval(tmp_path / "log.eval"), "inspect")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "config", "user.name", "Test Person"], check=True)
    subprocess.run(["git", "-C", str(root), "config", "user.email", "test@example.com"], check=True)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-qm", "the log"], check=True)
    for who, verdict in (("alice", Verdict.SPECIFICATION), ("bob", Verdict.CAPABILITY)):
        store = SessionStore(root)
        store.scan()
        Labeller(store, LabelStore(root, who)).decide("evals/add-epoch-2#verify:score", verdict, note=f"{who}'s")
    assert (root / "evals" / "labels" / "alice" / "add-epoch-2.toml").is_file()
    result = commit_reviewer(root, "alice")
    assert result.committed and [Path(p).as_posix() for p in result.paths] == ["evals/labels/alice/add-epoch-2.toml"]
    tracked = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    assert tracked == ["evals/labels/alice/add-epoch-2.toml", "evals/log.eval", "evals/session.toml"]
    code, out, err = run_cli(capsys, "failures", str(root), "--json", "--reviewer", "alice")
    assert code == 0, err
    assert {f["id"]: f["verdict"] for f in json.loads(out)} == {
        "evals/add-epoch-2#verify:score": "specification", "evals/fizzbuzz-epoch-1#verify:score": None}
    code, out, _ = run_cli(capsys, "export", str(root), "--format", "jsonl")
    assert code == 0 and [json.loads(line)["reviewer"] for line in out.splitlines()] == ["alice", "bob"]
    code, out, _ = run_cli(capsys, "agreement", str(root), "--json")
    assert code == 0 and json.loads(out)["pairs"][0]["n"] == 1
    code, out, _ = run_cli(capsys, "stats", str(root), "--json", "--reviewer", "alice")
    assert code == 0 and json.loads(out)["overall"]["corrected_passed"] == json.loads(out)["overall"]["passed"] + 1


def test_a_log_named_on_the_command_line_keeps_its_labels_beside_it_or_where_labels_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = inspectkit.write_zstd_eval(tmp_path / "2026-run.eval")
    code, out, err = run_cli(capsys, "failures", str(log), "--json", "--reviewer", "alice")
    assert code == 0, err
    assert [f["id"] for f in json.loads(out)] == ["2026-run/add-epoch-2#verify:score", "2026-run/fizzbuzz-epoch-1#verify:score"]
    code, out, err = run_cli(capsys, "label", str(log), "--failure", "2026-run/add", "--verdict", "capability", "--reviewer", "alice")
    assert code == 0, err
    assert (tmp_path / "sessions" / "2026-run" / "labels" / "alice" / "add-epoch-2.toml").is_file()
    elsewhere = tmp_path / "team-labels"
    elsewhere.mkdir()
    code, _, err = run_cli(capsys, "label", str(log), "--labels", str(elsewhere), "--failure", "2026-run/fizz",
                           "--verdict", "specification", "--reviewer", "bob")
    assert code == 0, err
    assert (elsewhere / "2026-run" / "labels" / "bob" / "fizzbuzz-epoch-1.toml").is_file()
    code, out, _ = run_cli(capsys, "check", str(log))
    assert code == 0 and "6 runs in 1 session" in out
    with pytest.raises(SystemExit) as stopped:
        run_cli(capsys, "list", str(tmp_path), "--labels", str(elsewhere))
    assert stopped.value.code == 2 and "--labels is for a harness log" in capsys.readouterr().err


def test_a_trajectory_folder_named_on_the_command_line_opens_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from importgen import write_trajectories

    write_trajectories(tmp_path / "trajs", 3)
    code, out, err = run_cli(capsys, "list", str(tmp_path / "trajs"), "--json")
    assert code == 0, err
    assert sorted(r["run"] for r in json.loads(out)) == ["bench__task-00000", "bench__task-00001", "bench__task-00002"]
    assert {r["session"] for r in json.loads(out)} == {"trajs"}


def problems(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, list[str]]:
    code, out, _ = run_cli(capsys, "check", str(root))
    return code, [line for line in out.splitlines() if ": " in line and not line.startswith(("ok", "problems"))]


def test_a_damaged_sample_is_one_problem_and_the_rest_of_the_log_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = inspectkit.eval_entries()
    damaged = [(n, d[: len(d) // 2] if n.startswith("samples/add_epoch_1") else d) for n, d in entries]
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in damaged:
            z.writestr(name, data)
    root = in_place(tmp_path / "sessions", "evals", path, "inspect")
    code, found = problems(capsys, root)
    assert code == 1
    assert len(found) == 1 and found[0].startswith("evals/log.eval: samples/add_epoch_1.json:"), found
    samples = [n for n, _ in entries if n.startswith("samples/")]
    assert len(SessionStore(root).scan().runs) == len(samples) - 1


@pytest.mark.parametrize("damage", ["truncated", "not-zip", "empty", "fifo", "link-out", "escapes"])
def test_a_log_that_cannot_be_read_is_one_clear_problem(damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = inspectkit.write_zstd_eval(tmp_path / "good.eval")
    root = tmp_path / "sessions"
    (root / "evals").mkdir(parents=True)
    log = root / "evals" / "log.eval"
    if damage == "truncated":
        log.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    elif damage == "not-zip":
        log.write_bytes(b"\x1b]52;c;aGk=\x07 not a log")
    elif damage == "empty":
        log.write_bytes(b"")
    elif damage == "fifo":
        os.mkfifo(log)
    elif damage == "link-out":
        log.symlink_to(good)
    else:  # a sample whose id and texts carry terminal escapes
        entries = [(n, d.replace(b'"add"', b'"add\\u001b]0;pwned\\u0007\\u009b2J"')) for n, d in inspectkit.eval_entries()]
        inspectkit.write_zstd_zip(log, entries)
    (root / "evals" / "session.toml").write_text('format = 1\n[log]\nformat = "inspect"\npath = "log.eval"\n')
    code, out, _ = run_cli(capsys, "check", str(root))
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    if damage == "escapes":
        assert code == 0, out
        code, out, _ = run_cli(capsys, "failures", str(root))
        assert code == 0 and "add" in out and "\x1b" not in out and "\x9b" not in out and "\x07" not in out
        return
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("evals/log.eval")]
    assert len(lines) == 1, out
    assert {"truncated": "not a ZIP", "not-zip": "neither an .eval", "empty": "neither an .eval", "fifo": "not a log file",
            "link-out": "symbolic link"}[damage] in lines[0]


def test_a_trajectory_that_is_not_json_is_named_and_the_others_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from importgen import write_trajectories

    trajs = tmp_path / "trajs"
    write_trajectories(trajs, 3)
    (trajs / "bench__task-00001.traj.json").write_bytes(b'{"messages": [')
    root = in_place(tmp_path / "sessions", "t", trajs, "mini-swe-agent")
    (root / "t" / "trajs" / "elsewhere.traj.json").symlink_to(trajs / "bench__task-00000.traj.json")  # not a unit: never read
    code, found = problems(capsys, root)
    assert code == 1
    assert [line.split(":")[1].strip() for line in found] == ["bench__task-00001.traj.json"], found
    assert sorted(r.id for r in SessionStore(root).scan().runs) == ["bench__task-00000", "bench__task-00002"]


@pytest.mark.parametrize(("table", "why"), [
    ('format = "nope"\npath = "log.eval"', "not a format read in place"),
    ('format = "inspect"\npath = "../other/log.eval"', "inside the session folder"),
    ('format = "inspect"\npath = "/etc/passwd"', "absolute path"),
    ('format = "inspect"\npath = "labels/log.eval"', "labels/ folder"),
    ('format = "inspect"', "`log.path` is missing"),
])
def test_a_log_table_that_cannot_be_used_is_named(table: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sessions"
    (root / "s").mkdir(parents=True)
    (root / "s" / "session.toml").write_text(f"format = 1\n[log]\n{table}\n")
    code, out, _ = run_cli(capsys, "check", str(root))
    assert code == 1 and why in out, out


def test_a_session_with_a_log_and_run_folders_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = in_place(tmp_path / "sessions", "evals", inspectkit.write_zstd_eval(tmp_path / "log.eval"), "inspect")
    (root / "evals" / "runs" / "r1").mkdir(parents=True)
    code, out, _ = run_cli(capsys, "check", str(root))
    assert code == 1 and "evals/runs: a session that reads its log in place" in out
    assert len(SessionStore(root).scan().runs) == 6


ATIF_JOB = Path(__file__).resolve().parents[1] / "importers" / "atif" / "job"


def test_an_atif_job_folder_reads_in_place_as_it_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = seen(SessionStore(imported(capsys, tmp_path / "imported", "job", "atif", [ATIF_JOB]), use_index=False))
    b = seen(SessionStore(in_place(tmp_path / "in-place", "job", ATIF_JOB, "atif"), use_index=False))
    assert a == b
    assert len(b["runs"]) >= 4 and b["errors"] == []  # type: ignore[arg-type]
    failing = [fid for key, value in b.items() if "/" in key for fid, _ in value[-1]]  # type: ignore[index]
    assert failing == ["job/fix-csv-parser__Bn4kPq2#harbor-verifier:reward", "job/long-task__Tm3vYy9#harbor-verifier:correctness",
                       "job/sum-column__Zt8wRr1#harbor-trial:AgentTimeoutError"]


def test_an_atif_job_folder_named_on_the_command_line_is_recognised_by_its_trajectories(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "2026-01-05__10-00-00"
    shutil.copytree(ATIF_JOB, job)
    code, out, err = run_cli(capsys, "list", str(job), "--json")
    assert code == 0, err
    assert {r["session"] for r in json.loads(out)} == {"2026-01-05__10-00-00"}
    assert (tmp_path / "sessions").is_dir()


def test_a_second_look_without_the_index_reads_no_sample_again(tmp_path: Path) -> None:
    root = in_place(tmp_path / "sessions", "evals", inspectkit.write_zstd_eval(tmp_path / "log.eval"), "inspect")
    store = SessionStore(root, use_index=False)
    first = store.scan().runs
    [log] = store.logs.shelf.open.values()
    reads = []
    original = log.opened.read
    log.opened.read = lambda unit: reads.append(unit) or original(unit)  # type: ignore[method-assign]
    assert store.refresh().changed == [] and store.runs == first and reads == []
    inspectkit.write_deflate_eval(root / "evals" / "log.eval")  # changed: read again
    store.refresh()
    assert store.logs.shelf.open["evals"] is not log
