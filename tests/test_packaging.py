"""The bundled corpus is found from any folder (the wheel itself: tests/test_installed_package.py)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_bundled_corpus_is_found_from_any_folder(tmp_path: Path, monkeypatch) -> None:
    from reviewer.store.fs.paths import bundled_sessions, default_sessions

    monkeypatch.chdir(tmp_path)
    assert default_sessions() == bundled_sessions()
    assert (bundled_sessions() / "README.md").is_file()
    assert any(bundled_sessions().glob("*/runs/*/run.toml"))
