"""The core layers never pull in the UI toolkit or git."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import importlib, pkgutil, sys
for layer in {layers!r}:
    pkg = importlib.import_module(layer)
    for m in pkgutil.walk_packages(pkg.__path__, layer + "."):
        importlib.import_module(m.name)
print(",".join(sorted(n for n in {banned!r} if n in sys.modules)))
"""


def loaded(layers: list[str], banned: list[str]) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(layers=layers, banned=banned)],
        capture_output=True, text=True, check=True,
    )
    return out.stdout.strip()


def test_model_imports_neither_textual_nor_git() -> None:
    assert loaded(["reviewer.model"], ["textual", "git", "rich"]) == ""


def test_store_and_parsers_import_no_textual() -> None:
    assert loaded(["reviewer.store", "reviewer.parsers", "reviewer.commands"], ["textual"]) == ""
