"""`reviewer help` lists the guides shipped in the package and prints each; every guide named anywhere exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from reviewer.docs import find, topics

REPO = Path(__file__).resolve().parent.parent


def reviewer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=REPO)


def test_help_lists_every_guide_and_prints_each_as_written() -> None:
    listed = reviewer("help")
    assert listed.returncode == 0, listed.stderr
    every = topics()
    assert {"importing", "evidence", "rescoring", "labels", "security", "sessions", "architecture"} <= {t.name for t in every}
    for t in every:
        assert f"  {t.name} " in listed.stdout, t.name
        shown = reviewer("help", t.name)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == t.path.read_text(encoding="utf-8")  # a pipe gets the Markdown as written
        assert shown.stdout.startswith("# ") and len(shown.stdout.splitlines()) > 5


def test_a_unique_start_finds_a_guide_and_a_typo_is_answered_with_the_closest() -> None:
    assert find("rescor") is not None and find("rescor").name == "rescoring"  # type: ignore[union-attr]
    assert find("s") is None  # several start so: none is guessed
    typo = reviewer("help", "secrity")
    assert typo.returncode == 2 and "did you mean security" in typo.stderr and typo.stdout == ""


def test_every_guide_named_in_the_readme_and_the_guides_exists() -> None:
    names = {t.name for t in topics()}
    texts = [REPO / "README.md", *sorted((REPO / "reviewer" / "docs").glob("*.md"))]
    named = {m for path in texts for m in re.findall(r"reviewer help ([a-z]+)", path.read_text(encoding="utf-8"))}
    assert named, "no guide is named anywhere"
    assert named - {"TOPIC"} <= names, sorted(named - names)
