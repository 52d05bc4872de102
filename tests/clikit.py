"""Running the command line as a user does: ``python -m reviewer.cli`` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m reviewer.cli ARGS`` with this checkout first on the path; stdout and stderr as text."""
    return subprocess.run(
        [sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True, check=False,
        cwd=cwd or REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=120,
    )
