"""The key tables (the full ones in the keys guide, the compact one in README) are generated from
the binding table, so they can never drift."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reviewer.ui.bindings import LOCAL_TABLES, TABLE
from reviewer.ui.keytable import COMPACT_BEGIN, COMPACT_END, block, compact, current, generated, key_text, keys_cell

REPO = Path(__file__).resolve().parent.parent


KEYS_GUIDE = REPO / "reviewer" / "docs" / "keys.md"


def test_the_key_tables_are_the_generated_ones() -> None:
    full = current(KEYS_GUIDE.read_text(encoding="utf-8"))
    assert full is not None, "the keys guide lost its generated key-table markers"
    assert full == generated(), "the keys guide is out of date: python -m reviewer.ui.keytable --write reviewer/docs/keys.md"
    short = block((REPO / "README.md").read_text(encoding="utf-8"), COMPACT_BEGIN, COMPACT_END)
    assert short is not None, "README lost its compact key table's markers"
    assert short == compact(), "README's key table is out of date: python -m reviewer.ui.keytable --write README.md"


def test_the_compact_table_names_every_key_of_the_main_table() -> None:
    text = compact()
    for e in TABLE:
        assert f"{keys_cell(e.binding.key)} {e.binding.description.lower()}" in text, e.binding.id


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


def test_check_fails_on_a_stale_table_and_write_mends_it(tmp_path: Path) -> None:
    def run(*a: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "reviewer.ui.keytable", *a], capture_output=True,
                              text=True, check=False, cwd=REPO)

    for source, stale in ((KEYS_GUIDE, ("| next-failure |", "| next-fail |")),
                          (REPO / "README.md", ("`j` next failure", "`j` next fail"))):
        copy = tmp_path / source.name
        copy.write_text(source.read_text(encoding="utf-8").replace(*stale))
        assert run("--check", str(copy)).returncode == 1, source.name
        assert run("--write", str(copy)).returncode == 0
        assert run("--check", str(copy)).returncode == 0
        assert copy.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    plain = tmp_path / "plain.md"
    plain.write_text("# no tables here\n")
    assert run("--check", str(plain)).returncode == 1  # a file without tables is not up to date
