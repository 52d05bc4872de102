"""README is a user's guide: short, its tables generated, every command it names real."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def figures_table():  # type: ignore[no-untyped-def]
    """tests/bench/figures_table.py, loaded as a module (the bench folder is scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("figures_table", REPO / "tests" / "bench" / "figures_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.splitlines()) <= 300


def test_the_performance_table_is_the_one_generated_from_the_recorded_results() -> None:
    module = figures_table()
    block = module.current(README)
    assert block is not None, "README lost its performance table's markers"
    assert block == module.table(), "out of date: python tests/bench/figures_table.py --write README.md"


def test_a_recorded_benchmark_fills_its_rows_with_its_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = figures_table()
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    printed = {"open_s": 1.25, "key_p50_ms": 31.5, "runs": 10000}
    assert module.main(["--record", "bench", "--", sys.executable, "-c",
                        f"print('warming up'); print({json.dumps(json.dumps(printed))})"]) == 0
    saved = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert saved["figures"] == printed and saved["command"].startswith("python -c ")
    (tmp_path / "bench.before.json").write_text(json.dumps({**saved, "figures": {"open_s": 2.5}}), encoding="utf-8")
    table = module.table()
    assert "| 1.2 s | 2.5 s | `bench` |" in table
    assert "| 31.5 ms |  | `bench` |" in table  # no figure before: the column stays empty
    assert "open again" not in table  # a figure not recorded is left out
    assert module.main(["--record", "broken", "--", sys.executable, "-c", "raise SystemExit(3)"]) == 1
    assert not (tmp_path / "broken.json").exists()


def test_every_command_the_readme_names_is_one_of_reviewers() -> None:
    listed = subprocess.run([sys.executable, "-m", "reviewer.cli", "--help"], capture_output=True, text=True,
                            check=True, timeout=120).stdout
    named = set(re.findall(r"`reviewer ([a-z]+)[ `]", README)) - {"sessions"}
    assert {"import", "rescore", "judge", "export", "help"} <= named
    for command in named:
        assert re.search(rf"^  {command}\b", listed, re.MULTILINE), command
