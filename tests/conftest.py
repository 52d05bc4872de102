"""Shared fixtures."""

from __future__ import annotations

import compileall
import gc
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings
from sessionkit import small_folder

# Four workers share two cores (pyproject addopts): Hypothesis's timing checks (a slow draw, a
# slow example) then measure the machine's load, not the code. What the properties assert is
# unchanged; speed is measured by the benchmarks.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# pytest-xdist's workers set COLUMNS=80 and LINES=24; programs the tests start in a terminal
# (tmux) would then draw at 80x24 whatever the terminal's size. A user's shell pins neither.
for _pinned in ("COLUMNS", "LINES"):
    os.environ.pop(_pinned, None)

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def environment_restored() -> Iterator[None]:
    """``os.environ`` as it was before the test: a test that calls ``reviewer.cli.main`` in-process
    leaves it scrubbed for git (core.hooksPath=/dev/null and the rest), which would tame the
    plain git calls of the next test in the same worker."""
    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)

SLOW = (
    "reliability/",  # the guarantee scripts: attacker folder, censuses, git canary, kill -9, concurrency
    "rescore/test_corpus_rescore.py", "rescore/test_rescore_cli.py", "rescore/test_sandbox.py",  # real graders in bwrap
    "rescore/test_rescore_parallel.py", "rescore/test_rescore_cluster.py",  # real graders, -j N and a local Dask cluster
    "judges/test_judge_cluster.py",  # the corpus judged three times over, -j N and a local Dask cluster
    "report/test_report_rescore.py",  # re-scores the corpus before reporting
    "bench/",  # the benchmarks' small runs
    "e2e/", "browser/",  # the app in tmux and in chromium
    "test_installed_package.py",  # installs the wheel into a fresh venv
    "test_blind_commands.py",  # every command as a subprocess, three times over
    "ui/test_ui_scale.py", "importers/test_import_budget.py", "store/test_loader_fuzz.py",
    "parsers/test_parse_properties.py", "ui/test_language_all.py",
    "ui/test_ui_blind_census.py",  # one app tours every screen four times over (30 s)
)
"""Test files marked ``slow`` (paths under tests/): ``pytest -q`` leaves them out, ``pytest -q -m slow``
runs only them, and the README's test command (CI) runs both. A single test can carry
``@pytest.mark.slow`` too: the Pilot tests of a flow that ``tests/review`` already tests on the
session without Textual (labelling and undo, clusters, disagreements, blind mode, live reload),
and the Pilot test of ``R``, which really runs the grader in bubblewrap."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of the SLOW files."""
    root = REPO / "tests"
    slow = []
    for item in items:
        rel = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if rel.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow"):
            slow.append(item)
    if slow and not config.option.markexpr and not named_paths(config):
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in set(slow)]


def pytest_configure(config: pytest.Config) -> None:
    """Decide once, in the process that starts the run, whether tests were named on the command line
    (xdist's workers are handed explicit paths either way, so they inherit the answer); compile
    the project's modules there once, before the workers start."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        named = config.args_source == pytest.Config.ArgsSource.ARGS
        os.environ["REVIEWER_TESTS_NAMED"] = "1" if named else "0"
        compileall.compile_dir(REPO / "reviewer", quiet=1)


# Byte code is a cache (``__pycache__`` is ignored by git). Where PYTHONDONTWRITEBYTECODE is set,
# a fresh checkout compiled every module of the project in each xdist worker and in every
# subprocess the tests start, and pytest rewrote every test module again in each worker of each
# run: about 5 s of CPU a worker before its first test. The workers and the subprocesses read
# what is written here; the environment variable itself is left as it is.
sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    """Take what is loaded by now (modules, the collected tests) out of the collector's full
    passes, and make those passes rarer. A worker's heap holds the Pilot tests' apps and
    Textual's render caches; with Python's default thresholds, full passes (0.2-0.4 s each) took
    16 of the 85 s of three UI test files run in one process; with this 8.6 s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 100)


def named_paths(config: pytest.Config) -> bool:
    """Tests were named on the command line (then slow ones named run without ``-m slow``)."""
    return os.environ.get("REVIEWER_TESTS_NAMED") == "1"
SHARED_FIXTURES = REPO.parent / "shared" / "fixtures"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A small sessions folder (2 sessions, 4 runs, 3 failures)."""
    return small_folder(tmp_path / "sessions")


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test away from the real user's config and data folders."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
