"""The example corpus, and a copy of it with damaged manifests, through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sessionkit import EXAMPLE_CORPUS, WRITTEN_BY_REVIEWERS, example_corpus


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_example_corpus_is_clean_and_big_enough(tmp_path: Path) -> None:
    corpus = str(example_corpus(tmp_path / "sessions"))
    assert cli("check", corpus).returncode == 0
    rows = json.loads(cli("list", corpus, "--json").stdout)
    assert len(rows) >= 24
    assert len({r["task"] for r in rows}) >= 4
    assert any(r["attempts"] >= 2 for r in rows)
    assert sum(1 for r in rows if r["failures"] > 0) * 2 >= len(rows)
    assert all(r["brief_chars"] > 0 and r["files"] >= 1 and r["turns"] >= 1 for r in rows)
    tracked = subprocess.run(["git", "-C", str(EXAMPLE_CORPUS), "ls-files", "."], capture_output=True, text=True,
                             check=False)
    if tracked.returncode == 0:  # a checkout (an unpacked source tree has no git): no labels, re-scores or tags in git
        assert not [p for p in tracked.stdout.splitlines() if set(Path(p).parts) & set(WRITTEN_BY_REVIEWERS)]


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, dict[str, str], set[str]]:
    root = example_corpus(tmp_path / "sessions")
    runs = sorted(root.glob("*/runs/*/run.toml"))
    victims = runs[:7]
    v = [p.relative_to(root).as_posix() for p in victims]
    victims[0].write_bytes(victims[0].read_bytes()[:40])
    victims[1].write_bytes(victims[1].read_bytes().replace(b"[run]", b"[run]\x00\x00"))
    victims[2].write_bytes(victims[2].read_bytes() + b'\nx = "\xff\xfe"\n')
    victims[3].write_text("format = 1\nx = " + "[" * 2000 + "]" * 2000 + "\n")
    victims[4].unlink()
    os.mkfifo(victims[4])
    victims[5].unlink()
    victims[5].symlink_to(tmp_path / "elsewhere.toml")
    (tmp_path / "elsewhere.toml").write_text("format = 1\n[run]\ntask = 'x'\nmodel = 'y'\n")
    text = victims[6].read_text()
    victims[6].write_text(text.replace('brief = "', 'brief = "../../../../../', 1))
    words = dict(zip(v, ["TOML", "NUL", "UTF-8", "nested", "FIFO", "leaves", "leaves"]))
    intact = {"/".join(p.relative_to(root).parts[::2][:2]) for p in runs[7:]}
    return root, words, intact


def test_check_names_every_damaged_manifest_and_list_keeps_the_rest(damaged: tuple[Path, dict[str, str], set[str]]) -> None:
    root, words, intact = damaged
    proc = cli("check", str(root), timeout=30)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for path, word in words.items():
        hits = [line for line in lines if line.startswith(path + ": ")]
        assert hits and word.lower() in hits[0].lower(), (path, lines)
    listed = cli("list", str(root), "--json")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    keys = {f"{r['session']}/{r['run']}" for r in json.loads(listed.stdout)}
    assert keys == intact
    for path in words:
        assert path in listed.stderr
