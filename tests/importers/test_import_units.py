"""Properties of the pieces every importer relies on: ids, paths, TOML, size caps, layers."""

from __future__ import annotations

import json
import posixpath
import subprocess
import sys
from pathlib import Path

import pytest
import tomli
from hypothesis import given, settings
from hypothesis import strategies as st
from importkit import checked, run_cli
from inspectkit import header, sample

from reviewer.store.fs.untrusted import MANIFEST_CAP
from reviewer.store.logs.ids import UniqueIds, safe_id, safe_relpath
from reviewer.store.logs.inspect_scores import value_status
from reviewer.store.logs.tomlsafe import dumps, toml_value
from reviewer.store.sessions.scan import ID_PATTERN
from reviewer.store.sessions.store import SessionStore

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.text())
def test_safe_id_always_matches_the_id_pattern(value: str) -> None:
    out = safe_id(value)
    assert ID_PATTERN.match(out) and len(out) <= 100 and "/" not in out and ".." != out


@given(st.text())
def test_safe_relpath_never_leaves_its_folder(value: str) -> None:
    out = safe_relpath(value)
    if out:
        norm = posixpath.normpath(out)
        assert not norm.startswith(("/", "../")) and norm != ".." and "\x00" not in out
        assert all(seg not in ("", ".", "..") for seg in out.split("/"))


@settings(max_examples=200)
@given(st.dictionaries(st.text(max_size=10), json_values, max_size=6))
def test_dumps_round_trips_and_is_deterministic(doc: dict) -> None:
    data = dumps({"t": doc})
    assert data == dumps({"t": dict(reversed(list(doc.items())))})
    parsed = tomli.loads(data.decode("utf-8"))
    expected = toml_value({"t": doc})
    assert _normalise(parsed) == _normalise(expected)


def _normalise(value: object) -> object:
    """NaN-safe comparison form."""
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, dict):
        return {k: _normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalise(v) for v in value]
    return value


def test_unique_ids() -> None:
    ids = UniqueIds({"a"})
    assert [ids.claim("a"), ids.claim("a"), ids.claim("b"), ids.claim("a-2")] == ["a-2", "a-3", "b", "a-2-2"]


@pytest.mark.parametrize(
    ("value", "status"),
    [("C", "pass"), ("I", "fail"), ("N", "fail"), ("P", "fail"), (True, "pass"), (False, "fail"), (1, "pass"), (0.5, "fail"),
     (2.0, "pass"), ("1.0", "pass"), ("correct", "pass"), ("incorrect", "fail"), (None, "skip"), ("maybe", "skip"), (float("nan"), "skip")],
)
def test_score_value_mapping(value: object, status: str) -> None:
    assert value_status(value)[0] == status


def test_huge_turns_and_metadata_stay_under_the_manifest_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = sample("add", 1)
    s["messages"][5]["content"] = "line of tool output\n" * 200_000
    s["metadata"]["blob"] = ["x" * 1000] * 3000
    s["scores"]["verify"]["explanation"] = "E" * 3_000_000
    log = tmp_path / "big.json"
    log.write_text(json.dumps({**header(), "samples": [s]}))
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "inspect", str(log), "--into", str(into), "--session", "big")[0] == 0
    checked(capsys, into)
    run_dir = into / "big" / "runs" / "add-epoch-1"
    for name in ("run.toml", "transcript.toml"):
        assert (run_dir / name).stat().st_size < MANIFEST_CAP
    full = json.loads((run_dir / "transcript.full.json").read_text())
    assert full[3]["tool_calls"][0]["output"].count("line of tool output") == 200_000
    assert json.loads((run_dir / "metadata" / "sample_metadata.json").read_text())["blob"][0] == "x" * 1000
    store = SessionStore(into)
    store.scan()
    run = store.runs[0]
    assert "truncated" in store.transcript(run).turns[3].tool_calls[0].output
    assert run.metadata["sample_metadata"].startswith("(stored in metadata/sample_metadata.json")
    assert "E" * 100_000 in store.text(run.grader("verify").output_ref).text


def test_importers_and_the_log_readers_load_neither_textual_nor_git() -> None:
    probe = (
        "import importlib, pkgutil, sys, reviewer.importers as p, reviewer.store.logs as logs\n"
        "for m in pkgutil.walk_packages(p.__path__, 'reviewer.importers.'): importlib.import_module(m.name)\n"
        "for m in pkgutil.walk_packages(logs.__path__, 'reviewer.store.logs.'): importlib.import_module(m.name)\n"
        "import reviewer.store.sessions.inplace\n"
        "import reviewer.commands.importcmd\n"
        "print(sorted(n for n in ('textual', 'git', 'rich') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


shaped = st.fixed_dictionaries(
    {},
    optional={
        "eval": st.fixed_dictionaries({"task": st.text(max_size=5)}, optional={"model": json_values, "run_id": json_values}) | json_values,
        "samples": st.lists(st.dictionaries(st.sampled_from(["id", "epoch", "input", "messages", "scores", "error", "output", "events", "attachments"]), json_values), max_size=3) | json_values,
        "history": st.lists(st.dictionaries(st.sampled_from(["role", "content", "action", "is_demo"]), json_values), max_size=4) | json_values,
        "trajectory": json_values,
        "attempts": st.lists(json_values, max_size=3) | json_values,
        "info": json_values,
        "messages": st.lists(st.dictionaries(st.sampled_from(["role", "content", "tool_calls", "extra"]), json_values), max_size=4) | json_values,
    },
)


@settings(max_examples=60, deadline=None)
@given(fmt=st.sampled_from(["inspect", "swe-agent", "mini-swe-agent"]), doc=shaped | json_values)
def test_any_json_gives_a_run_or_one_error_line(fmt: str, doc: object, tmp_path_factory: pytest.TempPathFactory) -> None:
    from reviewer.cli import main

    tmp = tmp_path_factory.mktemp("fuzz")
    source = tmp / "x.traj.json"
    source.write_text(json.dumps(doc))
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["import", fmt, str(source), "--into", str(tmp / "sessions")])
    assert code in (0, 1)
    if code == 1:
        assert err.getvalue().count("\n") == 1
