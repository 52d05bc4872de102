"""Scanning sessions folders: good ones load, bad ones become error entries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sessionkit import RunSpec, write_session

from reviewer.store.check import validate
from reviewer.store.sessions.scan import head, scan
from reviewer.store.sessions.store import SessionStore


def test_scan_reads_sessions_runs_and_recorded_checks(folder: Path) -> None:
    store = SessionStore(folder)
    corpus = store.scan()
    assert corpus.errors == []
    assert [r.key for r in corpus.runs] == ["s1/r1", "s1/r2", "s2/r3", "s2/r4"]
    r3 = store.run("s2/r3")
    assert r3 is not None and r3.task == "connected"
    ids = [f.id for f in store.failures(r3)]
    assert ids == ["s2/r3#heldout:test_connected", "s2/r3#heldout:test_trail"]
    assert store.brief(r3).text.startswith("# Roman")
    assert [t.role for t in store.transcript(r3).turns] == ["user", "assistant"]
    assert validate(SessionStore(folder)) == []


def test_scan_reads_manifests_only(folder: Path) -> None:
    (folder / "s1" / "runs" / "r1" / "brief.md").unlink()
    corpus = scan(folder)
    assert len(corpus.runs) == 4 and corpus.errors == []
    problems = validate(SessionStore(folder))
    assert [(p.path, "not found" in p.reason) for p in problems] == [("s1/runs/r1/brief.md", True)]


def test_wrong_folder_file_is_marked(tmp_path: Path) -> None:
    write_session(tmp_path, "s", [RunSpec("r", attempts=[{"roman.go": "x"}, {"roman/roman.go": "y"}])])
    run = scan(tmp_path).runs[0]
    assert [f.outside_expected for a in run.attempts for f in a.files] == [False, True]


def damage(folder: Path) -> dict[str, str]:
    """Damage manifests in every way of the untrusted-input guide; returns path -> expected word."""
    runs = folder / "s1" / "runs"
    write_session(folder, "s3", [RunSpec(f"d{i}") for i in range(8)])
    d = folder / "s3" / "runs"
    (d / "d0" / "run.toml").write_bytes((d / "d0" / "run.toml").read_bytes()[:25])
    (d / "d1" / "run.toml").write_bytes(b"format = 1\n\x00\x00[run]\n")
    (d / "d2" / "run.toml").write_bytes(b"format = 1\n[run]\ntask = \"\xff\xfe\"\n")
    (d / "d3" / "run.toml").write_text("format = 1\nx = " + "[" * 2000 + "]" * 2000 + "\n")
    (d / "d4" / "run.toml").unlink()
    os.mkfifo(d / "d4" / "run.toml")
    outside = folder.parent / "outside.toml"
    outside.write_text("format = 1\n[run]\ntask='t'\nmodel='m'\n")
    (d / "d5" / "run.toml").unlink()
    (d / "d5" / "run.toml").symlink_to(outside)
    text = (d / "d6" / "run.toml").read_text().replace('brief = "brief.md"', 'brief = "../../../../../etc/passwd"')
    (d / "d6" / "run.toml").write_text(text)
    (d / "d7" / "run.toml").write_text("format = 1\n[run]\ntask = 't'\nmodel = 'm'\nn = 1" + "0" * 5000 + "\n")
    assert runs.is_dir()
    return {
        "s3/runs/d0/run.toml": "TOML",
        "s3/runs/d1/run.toml": "NUL",
        "s3/runs/d2/run.toml": "UTF-8",
        "s3/runs/d3/run.toml": "nested",
        "s3/runs/d4/run.toml": "FIFO",
        "s3/runs/d5/run.toml": "leaves",
        "s3/runs/d6/run.toml": "leaves",
        "s3/runs/d7/run.toml": "",
    }


def test_damaged_manifests_are_named_and_the_rest_loads(folder: Path) -> None:
    expected = damage(folder)
    corpus = scan(folder)
    assert sorted(r.key for r in corpus.runs) == ["s1/r1", "s1/r2", "s2/r3", "s2/r4", "s3/d7"] or len(corpus.runs) >= 4
    named = {e.path: e.reason for e in corpus.errors}
    for path, word in expected.items():
        if path == "s3/runs/d7/run.toml":
            continue
        assert path in named, (path, named)
        assert word.lower() in named[path].lower(), (path, named[path])
    assert {"s1/r1", "s1/r2", "s2/r3", "s2/r4"} <= {r.key for r in corpus.runs}


def test_newer_format_is_reported_not_misread(folder: Path) -> None:
    p = folder / "s1" / "runs" / "r1" / "run.toml"
    p.write_text(p.read_text().replace("format = 1", "format = 7"))
    corpus = scan(folder)
    [err] = corpus.errors
    assert err.path == "s1/runs/r1/run.toml" and "newer" in err.reason and "format 7" in err.reason


def test_symlinked_attempt_file_out_of_folder_is_reported(folder: Path) -> None:
    target = folder / "s1" / "runs" / "r1" / "attempts" / "1" / "roman.go"
    target.unlink()
    target.symlink_to("/etc/hostname")
    store = SessionStore(folder)
    store.scan()
    blob = store.text(store.run("s1/r1").attempts[0].files[0].ref)
    assert blob.error and "leaves" in blob.error
    problems = validate(SessionStore(folder))
    assert any(p.path == "s1/runs/r1/run.toml" and "leaves" in p.reason for p in problems)


@pytest.mark.parametrize("name", ["bad name", ".hidden", "a#b"])
def test_odd_run_folder_names(folder: Path, name: str) -> None:
    (folder / "s1" / "runs" / name).mkdir()
    corpus = scan(folder)
    assert len(corpus.runs) == 4
    if not name.startswith("."):
        assert any(name in e.path for e in corpus.errors)


def test_a_head_reads_the_first_runs_by_folder_name_and_nothing_after_them(tmp_path: Path) -> None:
    # a first screen's runs while another process reads the whole folder: sessions in order,
    # each session's run folders in order, only as many manifests as asked for
    root = tmp_path / "sessions"
    write_session(root, "b", [RunSpec("r1", task="zeta"), RunSpec("r2", task="alpha")])
    write_session(root, "a", [RunSpec("r2"), RunSpec("r1"), RunSpec("r3")])
    (root / "b" / "runs" / "r3").mkdir()  # no run.toml: an error for the whole scan, not for a head
    got = head(root, 4)
    assert sorted(got.sessions) == ["a", "b"]
    assert [r.key for r in got.runs] == ["a/r1", "a/r2", "a/r3", "b/r1"]
    assert not got.errors
    two = head(root, 5)
    assert [r.key for r in two.runs] == ["a/r1", "a/r2", "a/r3", "b/r2", "b/r1"]  # sorted as a scan sorts them
    whole = scan(root)
    assert [r.key for r in whole.runs] == [r.key for r in two.runs] and whole.errors
    assert head(root, 0).runs == [] and head(tmp_path / "absent", 3).runs == []


def test_a_stores_head_is_its_runs_until_its_first_scan(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    write_session(root, "a", [RunSpec("r1"), RunSpec("r2")])
    store = SessionStore(root)
    store.head(1)
    assert [r.key for r in store.runs] == ["a/r1"] and store.run("a/r1") is not None  # labels are saved against it
    store.scan()
    assert [r.key for r in store.runs] == ["a/r1", "a/r2"]
    assert [r.key for r in store.head(1).runs] == ["a/r1"] and len(store.runs) == 2  # scanned: kept
