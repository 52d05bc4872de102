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
    assert figures["partial_clones_proven"] == figures["partial_clones"] == 2, report  # plain git lazy-fetches
    assert figures["partial_clone_commits_refused"] == 4, report  # commit_reviewer and reviewer commit, twice
    assert figures["env_traps_proven"] == figures["env_traps"] >= 21, report  # plain git (GitPython) honours each one
    assert figures["env_commands"] == 2, report  # reviewer label and commit started with every trap set
    assert figures["env_features"] == 14, report  # every feature again, with the environment set
    assert figures["env_leaks"] == 0, report
    assert figures["canary_runs"] == 0, report
