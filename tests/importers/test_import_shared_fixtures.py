"""Every real third-party sample in ../shared/fixtures imports (skipped when the folder is absent)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from importkit import SHARED_FIXTURES, checked, listed, run_cli, snapshot

FORMAT_OF = {"inspect-ai": "inspect", "swe-agent": "swe-agent", "mini-swe-agent": "mini-swe-agent"}


def samples() -> list[tuple[str, Path]]:
    """(format, file) for every shared sample."""
    if not SHARED_FIXTURES.is_dir():
        return []
    return [(fmt, f) for folder, fmt in FORMAT_OF.items() for f in sorted((SHARED_FIXTURES / folder).glob("*")) if f.is_file()]


pytestmark = pytest.mark.skipif(not SHARED_FIXTURES.is_dir(), reason="../shared/fixtures is absent")


def expected_runs(fmt: str, path: Path) -> int:
    """How many runs a sample must give: one per sample epoch for Inspect, one per file otherwise."""
    if fmt != "inspect":
        return 1
    if path.suffix == ".json":
        doc = json.loads(path.read_text())
        return len({(s["id"], s["epoch"]) for s in doc["samples"]})
    names = zipfile.ZipFile(path).namelist()
    return sum(1 for n in names if n.startswith("samples/") and "_epoch_" in n and n.endswith(".json"))


@pytest.mark.parametrize(("fmt", "path"), samples(), ids=[p.name for _, p in samples()])
def test_sample_imports_with_brief_code_and_transcript(fmt: str, path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    code, out, err = run_cli(capsys, "import", fmt, str(path), "--into", str(into))
    assert code == 0, err
    rows = listed(capsys, into)
    assert len(rows) == expected_runs(fmt, path)
    for r in rows:
        assert r["brief_chars"] > 0, r
        assert r["files"] >= 1, r
        assert r["turns"] >= 1, r
    checked(capsys, into)
    before = snapshot(into)
    assert run_cli(capsys, "import", fmt, str(path), "--into", str(into))[0] == 0
    assert snapshot(into) == before


def test_all_samples_into_one_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    for fmt, path in samples():
        assert run_cli(capsys, "import", fmt, str(path), "--into", str(into))[0] == 0
    rows = listed(capsys, into)
    assert len(rows) == sum(expected_runs(fmt, p) for fmt, p in samples())
    assert "no problems" in checked(capsys, into)


def test_swe_agent_files_into_one_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    trajs = sorted((SHARED_FIXTURES / "swe-agent").glob("*.traj"))
    code, out, _ = run_cli(capsys, "import", "swe-agent", *map(str, trajs), "--into", str(into), "--session", "swe")
    assert code == 0 and f"imported {len(trajs)} runs" in out
    rows = listed(capsys, into)
    assert sorted(r["run"] for r in rows) == sorted(p.stem for p in trajs)
    assert {r["outcome"] for r in rows} == {"unknown"}
