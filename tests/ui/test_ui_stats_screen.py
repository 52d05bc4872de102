"""The statistics screen (S) shows what ``reviewer stats`` prints, the re-scored pass rate too."""

from __future__ import annotations

from pathlib import Path

import pytest
from uihelp import make_app, press, settle, sync, until


@pytest.mark.slow
@sync
async def test_the_stats_screen_shows_the_rescored_pass_rate_reviewer_stats_prints(tmp_path: Path) -> None:
    """A real re-score (bubblewrap, the recorded Go grader) of roman-go's build failure; then ``S``
    shows the same pass-rate line, re-scored figure included, and the same repairs table."""
    import os
    import subprocess
    import sys

    from reportkit import labelled_corpus

    from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox
    from reviewer.store.settings.config import Settings
    from reviewer.ui.screens.stats import StatsScreen
    from reviewer.ui.widgets.text_view import TextView

    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"this test needs a working bubblewrap: {exc}")
    root = labelled_corpus(tmp_path / "sessions")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull}
    argv = [sys.executable, "-m", "reviewer.cli", "rescore", str(root), "--reviewer", "alice", "--failure",
            "oracle-2026-10/depth--cobalt-mini#oracle:oracle_depth.py::test_long_chain", "--repair", "lift-limit:recursion"]
    assert subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600).returncode == 0
    printed = subprocess.run([sys.executable, "-m", "reviewer.cli", "stats", str(root), "--final"], capture_output=True,
                             text=True, env=env, timeout=300, check=True).stdout
    rates = next(line for line in printed.splitlines() if line.startswith("pass rates"))
    assert " · re-scored " in rates  # the figure the screen lacked
    table = printed[printed.index("checks repaired by notation alone"):].splitlines()
    app = make_app(root, reviewer="alice", settings=Settings(blind=False))  # everyone's final verdicts, as --final
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "S")
        assert isinstance(app.screen, StatsScreen)
        view = app.screen.query_one(TextView)
        await until(app, pilot, lambda: any(line.startswith("pass rates") for line in view.plain_lines()),
                    what="the statistics")
        shown = view.plain_lines()
        assert rates in shown
        assert all(line in shown for line in table)
