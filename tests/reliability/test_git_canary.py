"""The git canary: every git feature of reviewer, in a repository armed to run a canary; none runs."""

from __future__ import annotations

from pathlib import Path

from scriptload import load_script


def test_no_git_feature_runs_anything_from_the_repository() -> None:
    figures, details = load_script(Path(__file__).with_name("git_canary.py")).measure()
    report = "\n".join(details)
    assert figures["traps_proven"] >= 10, report  # plain git fires the traps: the repository is armed
    assert figures["features"] == 14, report  # store, commands and the app's open, label, ctrl+g, H
    assert figures["commits"] == 4, report
    assert figures["canary_runs"] == 0, report
