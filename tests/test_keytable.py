"""README's key tables are generated from the binding table, so they can never drift."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reviewer.ui.bindings import LOCAL_TABLES, TABLE
from reviewer.ui.keytable import current, generated, key_text, keys_cell

REPO = Path(__file__).resolve().parent.parent


def test_readme_key_tables_are_the_generated_ones() -> None:
    block = current((REPO / "README.md").read_text(encoding="utf-8"))
    assert block is not None, "README lost its generated key-table markers"
    assert block == generated(), "README's key tables are out of date: python -m reviewer.ui.keytable --write README.md"


def test_every_binding_is_in_the_tables_with_its_keys() -> None:
    text = generated()
    for e in TABLE:
        assert f"| {keys_cell(e.binding.key)} | {e.binding.id} |" in text, e.binding.id
    for _, bindings in LOCAL_TABLES:
        for b in bindings:
            assert f"| {keys_cell(b.key)} | {b.id} |" in text, b.id
    for key in ("e", "ctrl+b", "v", "E", "C", "S", "ctrl+g", "H", "r", "D", "A"):  # once left out by hand
        assert f"| `{key}` |" in text, key


def test_key_names_read_as_typed() -> None:
    assert [key_text(k) for k in ("right_square_bracket", "slash", "question_mark", "ctrl+f", "space", "J")] == [
        "]", "/", "?", "ctrl+f", "space", "J"]
    assert keys_cell("u,ctrl+z") == "`u`, `ctrl+z`"
    assert keys_cell("grave_accent") == "`` ` ``"


def test_check_fails_on_a_stale_readme(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text((REPO / "README.md").read_text(encoding="utf-8").replace("| next-failure |", "| next-fail |"))
    def run(*a: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "reviewer.ui.keytable", *a], capture_output=True,
                              text=True, check=False, cwd=REPO)

    assert run("--check", str(readme)).returncode == 1
    assert run("--write", str(readme)).returncode == 0
    assert run("--check", str(readme)).returncode == 0
    assert readme.read_text(encoding="utf-8") == (REPO / "README.md").read_text(encoding="utf-8")
