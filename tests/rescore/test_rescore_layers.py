"""reviewer.rescore is an I/O layer: model, parsers and store below it, never analysis, review or the UI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PROBE = """
import importlib, pkgutil, sys
import reviewer.rescore as pkg
for m in pkgutil.walk_packages(pkg.__path__, "reviewer.rescore."):
    importlib.import_module(m.name)
print(",".join(sorted(n for n in sys.modules if n.split(".")[0] == "textual" or n.startswith(("reviewer.analysis", "reviewer.review", "reviewer.ui", "reviewer.commands")))))
"""
SANDBOXED = ("transform.py", "shim.py")


def test_rescore_imports_nothing_above_it() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_files_copied_into_the_sandbox_use_the_standard_library_only() -> None:
    here = Path(__file__).resolve().parents[2] / "reviewer" / "rescore"
    for name in SANDBOXED:
        text = (here / name).read_text()
        assert not re.search(r"^\s*(from|import) reviewer(\.|\s|$)", text, re.MULTILINE), name
