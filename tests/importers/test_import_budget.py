"""Imports within a budget: bounded JSON reading, cut transcripts, the fast TOML writer, parallel writing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st
from importkit import checked, listed, run_cli, snapshot

from reviewer.store.logs import boundedjson, inspect_log
from reviewer.store.logs.boundedjson import Caps, container_end, read_object
from reviewer.store.logs.spec import NotFormat
from reviewer.store.logs.tomlsafe import (
    dumps,
    has_carriage_return,
    sort_tables,
    toml_value,
)
from reviewer.store.sessions.store import SessionStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import importgen

TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=20) | st.sampled_from(
    ["a\nb", "x\r\ny", '"""', 'q"\n', "\x7f\n\x00", "é\n\\", "tab\there"]
)
SCALARS = st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats() | TEXT
VALUES = st.recursive(SCALARS, lambda c: st.lists(c, max_size=4) | st.dictionaries(TEXT, c, max_size=4), max_leaves=30)
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\\n{}[],é', max_size=8),
    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(alphabet='a"{[', max_size=3), c, max_size=5),
    max_leaves=40,
)
WALK_ALL = Caps(fast_values=0, values=10**9, bytes=10**9, items=10**9, string=10**9)


def reference(doc: dict[str, Any]) -> bytes:
    """What tomli_w writes for the same document."""
    value = sort_tables(toml_value(doc))
    return tomli_w.dumps(value, multiline_strings=not has_carriage_return(value)).encode()


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(TEXT, VALUES, max_size=6))
def test_the_fast_toml_writer_gives_the_bytes_of_tomli_w(doc: dict[str, Any]) -> None:
    assert dumps(doc) == reference(doc)


def test_the_fast_toml_writer_matches_on_deep_and_long_documents() -> None:
    deep: Any = "leaf"
    for i in range(20):
        deep = {f"k{i}": [deep, {"x": "line\nbreak"}]}
    doc = {"turn": [{"role": "user", "text": "t" * 50}, {"role": "a", "text": "s"}] * 30, "deep": deep, "cr": {"a\rb": 1}}
    assert dumps(doc) == reference(doc)
    del doc["cr"]
    assert dumps(doc) == reference(doc)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=3), JSONISH, max_size=5))
def test_a_walked_document_equals_json_loads_in_any_window(doc: dict[str, Any]) -> None:
    data = json.dumps(doc).encode()
    for window in (7, 64, boundedjson.WINDOW):
        old = boundedjson.WINDOW
        boundedjson.WINDOW = window
        try:
            assert read_object(data, "doc", WALK_ALL) == (doc, [f"doc is {len(data) / 2**20:,.1f} MiB of JSON holding up to {boundedjson.estimate(data):,} values: read within the import's budget"])
            assert container_end(data, 0, "doc")[0] == len(data)
        finally:
            boundedjson.WINDOW = old


def test_a_bomb_is_walked_within_the_budget() -> None:
    bomb = b'{"id": 1, "messages": [{}' + b",{}" * 300_000 + b'], "scores": {"v": {"value": "I"}}, "tail": "' + b"x" * 5000 + b'"}'
    caps = Caps(fast_values=1000, fast_bytes=1 << 30, values=50_000, bytes=1 << 20, members={"messages": 100}, string=1000)
    doc, notes = read_object(bomb, "sample", caps)
    assert doc["messages"] == [{}] * 100 and doc["scores"] == {"v": {"value": "I"}} and doc["id"] == 1
    assert doc["tail"].startswith("x" * 999) and "cut by the import" in doc["tail"]
    assert any("messages: the first 100 items kept" in n for n in notes) and any("tail: a string of" in n for n in notes)


def test_the_fast_path_caps_named_members_too() -> None:
    doc, notes = read_object(json.dumps({"messages": list(range(50)), "other": list(range(50))}).encode(), "s", Caps(members={"messages": 10}))
    assert doc["messages"] == list(range(10)) and len(doc["other"]) == 50 and notes == ["messages: the first 10 of 50 kept"]


@pytest.mark.parametrize(
    ("data", "why"),
    [(b"[1, 2]", "not a JSON object"), (b'{"a": [1, 2}', "not valid JSON"), (b'{"a": "never ends', "not valid JSON"), (b'{"a": ' + b"[" * 200 + b"]" * 200 + b"}", "deep")],
)
def test_broken_documents_are_refused_in_words(data: bytes, why: str) -> None:
    with pytest.raises(NotFormat, match=why):
        read_object(data + b" " * 10, "doc", WALK_ALL)


def long_trajectory(folder: Path, messages: int) -> Path:
    """A mini-swe-agent trajectory with ``messages`` messages."""
    doc = importgen.trajectory(1, messages)
    path = folder / "long.traj.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_transcript_too_long_to_store_is_cut_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = long_trajectory(tmp_path, 12_000)
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", "mini-swe-agent", str(path), "--into", str(into), "--session", "s")
    assert code == 0, err
    checked(capsys, into)
    store = SessionStore(into)
    store.scan()
    turns = store.transcript(store.runs[0]).turns
    assert "transcript cut" in turns[-1].text and "not imported" in turns[-1].text
    assert 100 < len(turns) < 12_000


def test_an_inspect_sample_over_the_message_cap_is_cut_and_the_others_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def samples() -> Any:
        yield importgen.sample(1)
        big = importgen.sample(2)
        big["messages"] = big["messages"] + [{"role": "user", "content": f"more {i}"} for i in range(300)]
        yield big

    log = importgen.write_eval(tmp_path / "log.eval", 2, samples())
    monkeypatch.setattr(inspect_log, "SAMPLE_CAPS", Caps(members={"messages": 50}))
    into = tmp_path / "sessions"
    code, _, err = run_cli(capsys, "import", "inspect", str(log), "--into", str(into), "--session", "s")
    assert code == 0 and "messages: the first 50 of 320 kept" in err
    store = SessionStore(into)
    store.scan()
    texts = {r.id: [t.text for t in store.transcript(r).turns] for r in store.runs}
    assert "transcript cut" in texts["2-epoch-1"][-1] and not any("transcript cut" in t for t in texts["1-epoch-1"])
    monkeypatch.setattr(inspect_log, "SAMPLE_CAPS", Caps(fast_values=10, members={"messages": 50}))
    code, _, err = run_cli(capsys, "import", "inspect", str(log), "--into", str(tmp_path / "walked"), "--session", "s")
    assert code == 0 and "read within the import's budget" in err


def test_parallel_and_serial_imports_write_the_same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = importgen.write_trajectories(tmp_path / "trajs", 60, messages=8)
    twin = tmp_path / "other" / paths[3].name  # the same file name twice: ids -2 in source order
    twin.parent.mkdir()
    twin.write_bytes(paths[5].read_bytes())
    sources = [str(p) for p in [*paths[:10], twin, *paths[10:]]]
    for name, workers in (("serial", "0"), ("parallel", "2")):
        code, _, err = run_cli(capsys, "import", "mini-swe-agent", *sources, "--into", str(tmp_path / name), "--session", "s", "--workers", workers)
        assert code == 0, err
    assert snapshot(tmp_path / "serial") == snapshot(tmp_path / "parallel")
    ids = [row["run"] for row in listed(capsys, tmp_path / "parallel")]
    assert "bench__task-00003-2" in ids and len(ids) == 61


def test_a_failure_in_a_worker_leaves_nothing_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = importgen.write_trajectories(tmp_path / "trajs", 40, messages=6)
    paths[30].write_text("{not json")
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", "mini-swe-agent", *map(str, paths), "--into", str(into), "--workers", "2")
    assert code == 1 and out == "" and paths[30].name in err and "not valid JSON" in err
    assert sorted(p.name for p in into.iterdir()) == []


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    from reviewer.commands.importcmd import ProgressBar

    class Terminal:
        def __init__(self, tty: bool) -> None:
            self.tty = tty
            self.text = ""

        def isatty(self) -> bool:
            return self.tty

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    assert ProgressBar.on(Terminal(False), 5000) is None
    term = Terminal(True)
    bar = ProgressBar.on(term, 5000)
    assert bar is not None
    bar.update(5000, 5000)
    bar.close()
    assert "5,000/5,000 runs" in term.text and term.text.endswith("\r\x1b[2K")
