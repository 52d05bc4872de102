"""Helpers shared by the importer tests: run the real CLI, read back what it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.store.sessions.store import SessionStore

SHARED_FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
OWN_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "importers"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``reviewer ARGV`` in-process; (exit status, stdout, stderr)."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def listed(capsys: pytest.CaptureFixture[str], into: Path) -> list[dict[str, object]]:
    """``reviewer list --json`` rows (asserting it printed no load errors)."""
    code, out, err = run_cli(capsys, "list", str(into), "--json")
    assert code == 0 and err == ""
    return json.loads(out)


def checked(capsys: pytest.CaptureFixture[str], into: Path) -> str:
    """``reviewer check`` output, asserting it found no problems."""
    code, out, _ = run_cli(capsys, "check", str(into))
    assert code == 0, out
    return out


def snapshot(root: Path, skip: str = "labels") -> dict[str, bytes]:
    """Every file below ``root`` (except the labels folders) by relative path."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and skip not in p.relative_to(root).parts
    }


def failure_ids(into: Path) -> dict[str, list[str]]:
    """Failure ids per run key, as the store derives them."""
    store = SessionStore(into)
    store.scan()
    return {r.key: [f.id for f in store.failures(r)] for r in store.runs}
