"""The record of re-scores: atomic, merged, deterministic, never through a link, never over a
file it cannot read; a record is evidence, never a label."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from rescorekit import sandbox_tool, synthetic

from reviewer.model.repair import parse_repair
from reviewer.rescore.engine import Rescore, rescore_grader
from reviewer.rescore.record import (
    RecordUnsafe,
    for_failure,
    latest_for,
    read_entries,
    record_path,
    save,
)
from reviewer.store.fs.nofollow import LinkOnPath
from reviewer.store.sessions.store import SessionStore

CHECKER = "import subprocess, sys\nout = subprocess.run([sys.executable, 'prog.py'], check=False, capture_output=True, text=True).stdout\nsys.exit(0 if out == 'ok=yes\\n' else 1)\n"


def results(root: Path, *repairs: str) -> tuple[Rescore, ...]:
    store = SessionStore(root)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None
    return rescore_grader(store, run, "check", tuple(parse_repair(r) for r in repairs), store.failures(run),
                          tool=sandbox_tool())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return synthetic(tmp_path / "sessions", {"prog.py": "print('ok=true')\n"}, CHECKER, {"program": "prog.py"})


def test_saved_records_read_back_and_merge(root: Path) -> None:
    first = results(root, "map-value:ok:true:yes")
    assert first[0].flipped
    (path,) = save(root, "ann", first)
    assert path == record_path(root, "s1", "ann") == root / "s1" / "rescores" / "ann.toml"
    data = path.read_bytes()
    save(root, "ann", first)
    assert path.read_bytes() == data  # the same results give the same bytes
    other = results(root, "map-value::true:yes")
    save(root, "ann", other)
    doc = tomllib.loads(path.read_text())
    assert [t["repairs"] for t in doc["rescore"]] == [["map-value::true:yes"], ["map-value:ok:true:yes"]]
    entries, errors = read_entries(root, ["s1"])
    assert errors == []
    mine = for_failure(entries, first[0].failure)
    assert len(mine) == 2 and all(e.flipped == (first[0].failure,) for e in mine)
    assert mine[0].check(first[0].failure) == ("run", "fail", "fail", "pass")
    latest = latest_for(root, first[0].failure)
    assert latest is not None and latest.summary == other[0].summary() == "0/1 -> 1/1 with value true->yes"
    assert latest.note() == other[0].note() and latest.output_after == other[0].output_after
    assert not (root / "s1" / "labels").exists()  # evidence, never a label
    assert [p.name for p in path.parent.iterdir()] == ["ann.toml"]  # no temp file left


def test_a_link_on_the_way_is_refused(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, root / "s1" / "rescores")
    with pytest.raises(LinkOnPath):
        save(root, "ann", results(root, "map-value:ok:true:yes"))
    assert list(outside.iterdir()) == []


def test_a_damaged_record_is_not_written_over(root: Path) -> None:
    path = root / "s1" / "rescores" / "ann.toml"
    path.parent.mkdir()
    path.write_text("<<<<<<< HEAD\nformat = 1\n=======\n>>>>>>> theirs\n")
    before = path.read_bytes()
    with pytest.raises(RecordUnsafe, match="conflict markers"):
        save(root, "ann", results(root, "map-value:ok:true:yes"))
    assert path.read_bytes() == before
    entries, errors = read_entries(root, ["s1"])
    assert entries == [] and len(errors) == 1


def test_a_read_only_session_folder_records_in_the_user_data_folder(root: Path) -> None:
    res = results(root, "map-value:ok:true:yes")
    os.chmod(root / "s1", 0o555)
    try:
        if os.access(root / "s1", os.W_OK):
            pytest.skip("root writes anywhere: a read-only folder cannot be shown")
        (path,) = save(root, "ann", res)
        assert not path.is_relative_to(root)
        assert read_entries(root, ["s1"])[0]
    finally:
        os.chmod(root / "s1", 0o755)
