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


def imported_cli(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m reviewer.cli ARGS`` of the ``reviewer`` package this process imports (a script run
    with another checkout's Python runs that checkout), with the user's folders (XDG) inside ``work``."""
    import reviewer

    code = Path(reviewer.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(code), "XDG_CONFIG_HOME": str(work / "xdg-config"),
           "XDG_DATA_HOME": str(work / "xdg-data"), "XDG_CACHE_HOME": str(work / "xdg-cache")}
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True, env=env,
                          cwd=work, timeout=300, check=False)
