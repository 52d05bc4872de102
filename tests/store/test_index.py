"""The index cache: a warm open gives exactly what a cold one gives, and any change shows."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from sessionkit import example_corpus

from reviewer.commands.export import FIELDS, collect, render, render_toml
from reviewer.model import Failure, Run
from reviewer.model.label import LABELS_FORMAT
from reviewer.store.fs import keys as fs_keys
from reviewer.store.fs.keys import file_key
from reviewer.store.index import files as index_files
from reviewer.store.index.cache import RunIndex
from reviewer.store.index.files import index_path
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.fingerprint import evidence_hash
from reviewer.store.sessions.store import SessionStore

REPO = Path(__file__).resolve().parents[2]
GO_OUTPUT = "=== RUN   TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:3: want 1\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nFAIL\n"


@pytest.fixture(autouse=True)
def no_racy_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by a test are seconds old at most: let the index record them at once."""
    monkeypatch.setattr(fs_keys, "RACY_NS", 0)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the example corpus (grader output parsed by every parser)."""
    return example_corpus(tmp_path / "corpus")


def write_run(root: Path, run_id: str, output: str = GO_OUTPUT, session: str = "s1") -> Path:
    """A run whose checks come from its `go test -v` output."""
    rdir = root / session / "runs" / run_id
    (rdir / "attempts" / "1").mkdir(parents=True, exist_ok=True)
    (rdir / "grader").mkdir(exist_ok=True)
    (root / session / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {"harness": "t"}}).encode())
    (rdir / "brief.md").write_text("# Brief\n")
    (rdir / "attempts" / "1" / "a.go").write_text("package a\n")
    (rdir / "grader" / "out.txt").write_text(output)
    doc = {"format": 1, "run": {"task": "t", "model": "m", "outcome": "fail", "brief": "brief.md"},
           "attempt": [{"files": ["a.go"]}],
           "grader": [{"name": "g", "exit_status": 1, "output": "grader/out.txt", "format": "go-test-v"}]}
    (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())
    return rdir


def opened(root: Path) -> SessionStore:
    """A fresh store, scanned, every run's failures and evidence asked for, the index saved."""
    store = SessionStore(root)
    store.scan()
    for run in store.runs:
        for f in store.failures(run):
            evidence_hash(store, run, f)
    store.save_index()
    return store


def snapshot(store: SessionStore) -> list[tuple[Run, dict, list[Failure], list[str]]]:
    """Everything a scan and its failures say, comparable between stores."""
    return [(r, r.metadata, store.failures(r), [evidence_hash(store, r, f) for f in store.failures(r)])
            for r in store.runs]


def legacy_evidence(store: SessionStore, run: Run, failure: Failure) -> str:
    """The fingerprint exactly as it was computed before the index existed (one file read each)."""
    duration = re.compile(r"\(\d+(?:\.\d+)?m?s\)|\b\d+\.\d+s\b|\"Elapsed\":\s*[0-9.]+|\"Time\":\s*\"[^\"]*\"")
    h = hashlib.sha256()

    def part(name: str, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        h.update(f"{name}\x00{len(data)}\x00".encode())
        h.update(data)

    part("brief", store.brief(run).text)
    c = failure.check
    part("check", f"{failure.check_id}\x00{c.status.value}\x00{duration.sub('', c.message)}")
    grader = run.grader(failure.grader)
    if grader is not None:
        attempt = run.attempt(grader.attempt)
        for f in sorted(attempt.files if attempt else (), key=lambda f: f.path):
            part(f"file:{f.path}", store.text(f.ref).text)
        if grader.output_ref:
            part("output", duration.sub("", store.text(grader.output_ref).text))
    return "sha256:" + h.hexdigest()[:32]


def test_warm_open_gives_what_a_cold_open_gives(corpus: Path) -> None:
    cold = SessionStore(corpus, use_index=False)
    cold.scan()
    expected = snapshot(cold)
    assert sum(len(f) for _, _, f, _ in expected) > 10
    opened(corpus)
    warm = SessionStore(corpus)
    warm.scan()
    assert warm.index is not None and warm.index.rejected == 0 and not warm.index.ignored
    assert len(warm.index.entries) == len(expected)
    assert all(warm.index.failing(r) is not None for r in warm.runs)  # served from the index
    assert snapshot(warm) == expected
    assert warm.errors == cold.errors


def test_fingerprints_are_the_ones_labels_already_carry(corpus: Path, tmp_path: Path) -> None:
    from sessionkit import small_folder

    odd = tmp_path / "odd"
    rdir = write_run(odd, "r1", GO_OUTPUT.replace("want 1", "want \u202e\x1b]0;x\x07 (0.25s) \"Elapsed\": 1.5"))
    (rdir / "attempts" / "1" / "a.go").write_bytes(b"package a\n\xff\xfe\x00 bad bytes\n")
    (rdir / "brief.md").unlink()
    for root in (corpus, small_folder(tmp_path / "small"), odd):
        plain = SessionStore(root, use_index=False)
        plain.scan()
        fresh = opened(root)
        for run in plain.runs:
            for f in plain.failures(run):
                assert evidence_hash(fresh, fresh.run(run.key), f) == legacy_evidence(plain, run, f)


def test_a_changed_manifest_of_the_same_size_shows_on_the_next_open(tmp_path: Path) -> None:
    root = tmp_path / "s"
    rdir = write_run(root, "r1")
    opened(root)
    manifest = rdir / "run.toml"
    before = manifest.stat()
    manifest.write_bytes(manifest.read_bytes().replace(b'model = "m"', b'model = "n"'))
    os.utime(manifest, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert manifest.stat().st_size == before.st_size
    store = SessionStore(root)
    store.scan()
    assert store.runs[0].model == "n"


def test_a_rewrite_that_keeps_size_and_mtime_still_shows(tmp_path: Path) -> None:
    root = tmp_path / "s"
    rdir = write_run(root, "r1")
    opened(root)
    output = rdir / "grader" / "out.txt"
    before = output.stat()
    output.write_text(GO_OUTPUT.replace("TestA", "TestZ"))
    os.utime(output, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `cp -p` or a tar extract would
    after = output.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    store = SessionStore(root)
    store.scan()
    assert [f.check.key for f in store.failures(store.runs[0])] == ["TestZ"]


def test_a_changed_grader_output_changes_failures_and_fingerprints(tmp_path: Path) -> None:
    root = tmp_path / "s"
    rdir = write_run(root, "r1")
    first = opened(root)
    run = first.runs[0]
    old = evidence_hash(first, run, first.failures(run)[0])
    output = rdir / "grader" / "out.txt"
    before = output.stat()
    output.write_text(GO_OUTPUT.replace("want 1", "want 2"))
    os.utime(output, ns=(before.st_atime_ns, before.st_mtime_ns + 5_000_000_000))
    store = SessionStore(root)
    store.scan()
    failures = store.failures(store.runs[0])
    assert failures[0].check.message != first.failures(run)[0].check.message
    assert evidence_hash(store, store.runs[0], failures[0]) != old
    (rdir / "attempts" / "1" / "a.go").write_text("package b\n")  # the code alone changes too
    again = SessionStore(root)
    again.scan()
    run2 = again.runs[0]
    assert evidence_hash(again, run2, again.failures(run2)[0]) == legacy_evidence(again, run2, again.failures(run2)[0])


def test_new_and_removed_runs(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    opened(root)
    write_run(root, "r2")
    shutil.rmtree(root / "s1" / "runs" / "r1")
    store = SessionStore(root)
    store.scan()
    assert [r.id for r in store.runs] == ["r2"]


def test_refresh_reports_what_changed_and_keeps_unchanged_runs(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    r2 = write_run(root, "r2")
    store = opened(root)
    kept = store.run("s1/r1")
    assert not store.refresh()
    write_run(root, "r3")
    out = r2 / "grader" / "out.txt"
    before = out.stat()
    out.write_text(GO_OUTPUT + "extra\n")
    os.utime(out, ns=(before.st_atime_ns, before.st_mtime_ns + 1))
    changes = store.refresh()
    assert [r.key for r in changes.added] == ["s1/r3"] and [r.key for r in changes.changed] == ["s1/r2"]
    assert store.run("s1/r1") is kept and not changes.removed
    shutil.rmtree(root / "s1" / "runs" / "r3")
    assert store.refresh().removed == ["s1/r3"]


def test_a_file_written_just_now_is_not_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fs_keys, "RACY_NS", 3_600_000_000_000)
    root = tmp_path / "s"
    write_run(root, "r1")
    store = opened(root)
    assert store.index is not None and not store.index.entries


def test_a_damaged_index_is_ignored(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    opened(root)
    path = index_path(root)
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    path.write_bytes(bytes(data))
    store = SessionStore(root)
    store.scan()
    assert store.index is not None and "checksum" in store.index.ignored
    assert [f.check.key for f in store.failures(store.runs[0])] == ["TestA"]


def forge(root: Path, edit) -> None:  # type: ignore[no-untyped-def]
    """Rewrite the index with ``edit`` applied to every run line, and a valid checksum."""
    path = index_path(root)
    head, _, body = path.read_bytes().partition(b"\n")
    lines = [edit(line) for line in body.split(b"\n")]
    body = b"\n".join(lines)
    header = json.loads(head)
    header["sha256"] = hashlib.sha256(body).hexdigest()
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


@pytest.mark.parametrize("bad, good", [
    (b'"./brief.md"', b'"../../../etc/passwd"'),
    (b'"./brief.md"', b'"/etc/passwd"'),
    (b'"./attempts/1/a.go"', b'"./../../../outside.go"'),
    (b'"./attempts/1/a.go"', b'"s1/../../outside.go"'),
    (b"\"go-test-v\"", b"[1, 2]"),
    (b'"TestA","","fail"', b'"TestA","","pass"'),
    (b'"m","fail",', b'"m","sideways",'),  # the head the run list reads at once
    (b'"m","fail",', b'"m",7,'),
    (b'"fail","./grader/out.txt"]', b'"fail","../../../etc/passwd"]'),
])
def test_a_forged_index_is_never_trusted(tmp_path: Path, bad: bytes, good: bytes) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    cold = SessionStore(root, use_index=False)
    cold.scan()
    opened(root)
    forge(root, lambda line: line.replace(bad, good))
    store = SessionStore(root)
    store.scan()
    run = store.runs[0]
    assert run == cold.runs[0] and store.failures(run) == cold.failures(cold.runs[0])
    assert store.index is not None and store.index.rejected == 1


def test_a_head_naming_another_file_as_grader_output_is_caught(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    cold = SessionStore(root, use_index=False)
    cold.scan()
    opened(root)
    forge(root, lambda line: line.replace(b'"fail","./grader/out.txt"]', b'"fail","./brief.md"]'))
    store = SessionStore(root)
    store.scan()
    run = store.runs[0]
    assert store.failures(run) == cold.failures(cold.runs[0])  # from the real output, not the brief
    assert run == cold.runs[0]
    assert store.index is not None and store.index.rejected >= 1


def test_a_cache_file_that_is_a_link_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    opened(root)
    path = index_path(root)
    real = path.with_name("elsewhere.jsonl")
    path.rename(real)
    path.symlink_to(real)
    index = RunIndex.open(root)
    assert index.ignored and not index.stored


def test_the_index_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVIEWER_INDEX", "off")
    root = tmp_path / "s"
    write_run(root, "r1")
    opened(root)
    assert not index_path(root).exists()


def test_metadata_json_cannot_hold_is_parsed_each_time(tmp_path: Path) -> None:
    root = tmp_path / "s"
    rdir = write_run(root, "r1")
    manifest = rdir / "run.toml"
    manifest.write_text(manifest.read_text().replace("[[attempt]]", "[run.metadata]\nwhen = 2026-11-02T09:14:00Z\n\n[[attempt]]"))
    first = opened(root)
    store = SessionStore(root)
    store.scan()
    assert store.runs[0].metadata == first.runs[0].metadata and str(store.runs[0].metadata["when"]).startswith("2026")


def test_export_reads_unchanged_labels_files_from_the_index(tmp_path: Path) -> None:
    root = tmp_path / "s"
    write_run(root, "r1")
    write_run(root, "r2")
    store = opened(root)
    labeller = Labeller(store, LabelStore(root, "ann"))
    labeller.decide("s1/r1#g:TestA", __import__("reviewer.model.label", fromlist=["Verdict"]).Verdict.CAPABILITY)

    def export() -> str:
        fresh = SessionStore(root)
        fresh.scan()
        records, errors = collect(Labeller(fresh, LabelStore(root, "(export)")), None, False)
        assert not errors
        return render(records, "toml")

    first = export()
    assert 'verdict = "capability"' in first and "stale = false" in first
    assert export() == first
    path = root / "s1" / "labels" / "ann" / "r1.toml"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b"capability", b"capabilitz"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    fresh = SessionStore(root)
    fresh.scan()
    _, errors = collect(Labeller(fresh, LabelStore(root, "(export)")), None, False)
    assert errors and "r1.toml" in errors[0] and "capabilitz" in errors[0]  # the damage is seen, not the cached copy


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    **{k: TEXT for k in FIELDS if k not in ("tags", "stale")},
    "tags": st.lists(TEXT, max_size=3).map(sorted), "stale": st.booleans(),
}), max_size=4))
def test_the_fast_toml_export_is_byte_for_byte_tomli_w(rows: list[dict]) -> None:
    assert render_toml(rows) == tomli_w.dumps({"format": LABELS_FORMAT, "label": [{k: v[k] for k in FIELDS} for v in rows]})


def test_a_warm_open_reads_details_only_of_runs_used(tmp_path: Path) -> None:
    root = tmp_path / "s"
    for n in range(3):
        write_run(root, f"r{n}")
    cold = SessionStore(root, use_index=False)
    cold.scan()
    opened(root)
    store = SessionStore(root)
    store.scan()
    assert [type(r).__name__ for r in store.runs] == ["LazyRun"] * 3
    assert not any(r.filled for r in store.runs)  # type: ignore[attr-defined]
    assert [(r.task, r.model, r.outcome) for r in store.runs] == [(r.task, r.model, r.outcome) for r in cold.runs]
    assert not any(r.filled for r in store.runs)  # type: ignore[attr-defined]
    # counting failures from the index reads no details either
    assert [store.failures(r) for r in store.runs] == [cold.failures(r) for r in cold.runs]
    assert not any(r.filled for r in store.runs)  # type: ignore[attr-defined]
    assert store.runs[1].attempts == cold.runs[1].attempts and store.runs[1].filled  # type: ignore[attr-defined]
    assert not store.runs[0].filled and not store.runs[2].filled  # type: ignore[attr-defined]
    assert store.runs == cold.runs
    fresh = SessionStore(root)
    fresh.scan()
    fresh.runs[1].attempts  # noqa: B018 - one run read, two not: the file mixes both kinds
    assert fresh.index is not None
    fresh.index.dirty = True
    assert fresh.save_index()  # details read or not, the next open gives the same runs
    again = SessionStore(root)
    again.scan()
    assert again.runs == cold.runs and again.index is not None and again.index.rejected == 0


def test_the_app_reads_its_own_unchanged_labels_file_from_the_index(tmp_path: Path) -> None:
    from reviewer.model.label import Verdict

    root = tmp_path / "s"
    write_run(root, "r1")
    store = opened(root)
    Labeller(store, LabelStore(root, "ann")).decide("s1/r1#g:TestA", Verdict.SPECIFICATION)

    def load() -> tuple[LabelStore, SessionStore]:
        fresh = SessionStore(root)
        fresh.scan()
        labels = LabelStore(root, "ann")
        labels.index = fresh.index
        assert labels.load(["s1"]) == []
        return labels, fresh

    parsed, first = load()  # parsed from TOML, then remembered
    assert first.index is not None and first.index.label_files.get(
        root / "s1" / "labels" / "ann" / "r1.toml", file_key("", str(root / "s1" / "labels" / "ann" / "r1.toml")), "s1") is not None
    first.index.dirty = True
    first.save_index()
    cached, second = load()
    assert second.index is not None and second.index.label_files.files, "the labels file is in the saved index"
    assert cached.get("s1", "r1", "g:TestA") == parsed.get("s1", "r1", "g:TestA")
    assert cached.get("s1", "r1", "g:TestA").verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
    # a file changed behind the app's back (same size, same mtime) is parsed again, not taken from the index
    path = root / "s1" / "labels" / "ann" / "r1.toml"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b'"specification"', b'"capability"   '))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed, _ = load()
    assert changed.get("s1", "r1", "g:TestA").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]


def write_inline_run(root: Path, run_id: str, checks: list[dict]) -> None:
    """A run whose checks are recorded in its manifest (no grader output to parse), or with no grader."""
    rdir = root / "s1" / "runs" / run_id
    rdir.mkdir(parents=True, exist_ok=True)
    (root / "s1" / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {"harness": "t"}}).encode())
    (rdir / "brief.md").write_text("# Brief\n")
    doc: dict = {"format": 1, "run": {"task": run_id, "model": "m", "outcome": "unknown", "brief": "brief.md"}}
    if checks:
        doc["grader"] = [{"name": "g", "check": checks}]
    (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())


def test_failures_recorded_in_manifests_are_indexed_by_the_scan_alone(tmp_path: Path) -> None:
    # the first open seeks the first failure over every run: a run with nothing to parse (no
    # grader, or checks in its manifest) must not cost a read of its details on the next open
    root = tmp_path / "s"
    write_inline_run(root, "bare", [])
    write_inline_run(root, "inline", [{"key": "t1", "status": "fail", "message": "want 1"},
                                      {"key": "t2", "status": "pass"}])
    write_run(root, "parsed")
    cold = SessionStore(root, use_index=False)
    cold.scan()
    scanned = SessionStore(root)
    scanned.scan()  # no failure asked for: what the first open's child process does
    assert scanned.save_index()
    warm = SessionStore(root)
    warm.scan()
    assert warm.index is not None
    by_id = {r.id: r for r in warm.runs}
    assert warm.index.failing(by_id["bare"]) is not None and warm.index.failing(by_id["inline"]) is not None
    assert warm.index.failing(by_id["parsed"]) is None  # its output is parsed when first counted
    assert [warm.failures(by_id[k]) for k in ("bare", "inline")] == [cold.failures(r) for r in
                                                                    sorted(cold.runs, key=lambda r: r.id)[:2]]
    assert [f.check_id for f in warm.failures(by_id["inline"])] == ["g:t1"]
    assert not by_id["bare"].filled and not by_id["inline"].filled  # type: ignore[attr-defined]


def test_only_the_first_scan_freezes_the_collector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # gc.freeze() keeps whatever is tracked at that moment for good, cyclic garbage included, and
    # the count it is decided on is the process's: a live rescan inside the app froze the screen's
    # garbage of the seconds it ran (+25 MB over 200 key presses on 10,000 runs)
    import gc

    root = tmp_path / "s"
    for n in range(3):
        write_run(root, f"r{n}")
    frozen: list[int] = []
    monkeypatch.setattr(index_files, "FREEZE_AFTER", 0)  # as if thousands of runs had been made
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.get_count()[0]))
    store = SessionStore(root)
    store.scan()
    assert len(frozen) == 1  # the runs just read live as long as the app
    write_run(root, "r9")
    changes = store.refresh()
    assert [r.id for r in changes.added] == ["r9"] and len(frozen) == 1
    assert gc.isenabled()
