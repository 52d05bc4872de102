"""The wheel ships every package, the example corpus and the themes."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / "reviewer").rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_bundled_corpus_is_found_from_any_folder(tmp_path: Path, monkeypatch) -> None:
    from reviewer.store.paths import bundled_sessions, default_sessions

    monkeypatch.chdir(tmp_path)
    assert default_sessions() == bundled_sessions()
    assert (bundled_sessions() / "README.md").is_file()
    assert any(bundled_sessions().glob("*/runs/*/run.toml"))
