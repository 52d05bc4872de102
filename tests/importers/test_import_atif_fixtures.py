"""The committed ATIF fixtures are what Harbor's own models write, and Harbor's validator accepts them.

Both need the ``harbor`` package (Python 3.12 or newer; its models need only pydantic, toml and
shortuuid). They run in the interpreter ``HARBOR_PYTHON`` names, else this one, and are
skipped, saying why, where Harbor does not import there. The importer's tests read the
committed files and need none of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "atif"
PROBE = "import harbor.models.trajectories, harbor.models.trial.result, harbor.utils.trajectory_utils, harbor.utils.trajectory_validator"
VALIDATE = """
import sys
from pathlib import Path
from harbor.utils.trajectory_validator import TrajectoryValidator
bad = 0
for path in sorted(Path(sys.argv[1]).rglob("*.json")):
    if path.name in ("result.json", "reward.json"):
        continue
    validator = TrajectoryValidator()
    if not validator.validate(str(path)):
        bad += 1
        print(path, validator.get_errors())
    else:
        print("valid", path.relative_to(sys.argv[1]))
sys.exit(1 if bad else 0)
"""


def harbor_python() -> str:
    """An interpreter where Harbor's models import, or skip."""
    python = os.environ.get("HARBOR_PYTHON") or sys.executable
    probe = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=120)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"harbor's models do not import in {python} ({last}); set HARBOR_PYTHON to a Python 3.12 with harbor")
    return python


def files_below(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "make_fixtures.py"}


def test_the_generator_writes_exactly_the_committed_fixtures(tmp_path: Path) -> None:
    python = harbor_python()
    done = subprocess.run([python, str(HERE / "make_fixtures.py"), "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    committed = {k: v for k, v in files_below(HERE).items() if "__pycache__" not in k}
    assert files_below(tmp_path) == committed


def test_harbors_validator_accepts_every_committed_trajectory() -> None:
    python = harbor_python()
    done = subprocess.run([python, "-c", VALIDATE, str(HERE)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("valid ") == 8
