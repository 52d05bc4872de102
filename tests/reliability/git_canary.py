"""A repository whose config and hooks run a canary on any execution; every git feature of reviewer.

    python tests/reliability/git_canary.py [--json]

The repository is armed with tests/git's trap builder (fsmonitor, clean/smudge/process filters,
textconv, diff command, external diff, gpg program with signed commits, pager, commit hooks)
plus every other hook git knows, a hooks path, a credential helper, core.sshCommand, askpass,
editors, ssh and x509 signing programs, a proxy command, a merge driver and an included config
file. Plain git fires the traps first (``traps_proven``), so their silence later means
something. Then every git feature of reviewer runs through its real code path: the store
functions (repo_info, provenance, label_history, label_files, commit_reviewer, commit_labels,
the reviewer's name from git), the ``label`` and ``commit`` commands, and the app itself
(open: repository line and provenance; label; ``ctrl+g`` commit; ``H`` history). Figures:
traps, traps_proven, features, commits, canary_runs (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS), str(TESTS / "git"), str(TESTS / "ui")]

from gitkit import cli, git, sessions_repo  # noqa: E402
from test_git_safety import HOOKS, arm, executable, prove_traps_are_live  # noqa: E402

ALL_HOOKS = (
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
    "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update",
    "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
    "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change",
)
ARMED = 14
"""Traps arm() sets besides its hooks: 11 config settings and 3 attribute lines."""
F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"


def arm_more(repo: Path, canaries: Path) -> int:
    """Every trap arm() leaves out; returns how many trap settings were added."""
    trap = repo.parent / "trap-more.sh"
    executable(trap, f'#!/bin/sh\necho "$0 $*" >> "{canaries}/$1"\nexit 0\n')
    hooks = repo.parent / "hooks-path"
    hooks.mkdir()
    for hook in ALL_HOOKS:
        for folder in (repo / ".git" / "hooks", hooks):
            if not (folder / hook).exists():
                executable(folder / hook, f'#!/bin/sh\necho "{hook}" >> "{canaries}/hook-{hook}"\nexit 0\n')
    settings = {
        "core.hooksPath": str(hooks),
        "credential.helper": f"!{trap} credential-helper",
        "core.sshCommand": f"{trap} ssh-command",
        "core.askPass": f"{trap} askpass",
        "core.editor": f"{trap} editor",
        "sequence.editor": f"{trap} sequence-editor",
        "gpg.ssh.program": f"{trap} gpg-ssh",
        "gpg.x509.program": f"{trap} gpg-x509",
        "core.gitProxy": f"{trap} git-proxy",
        "uploadpack.packObjectsHook": f"{trap} pack-objects-hook",
        "core.alternateRefsCommand": f"{trap} alternate-refs",
        "merge.evil.driver": f"{trap} merge-driver %O %A %B",
        "tag.gpgSign": "true",
        "include.path": str(repo.parent / "included.gitconfig"),
    }
    for key, value in settings.items():
        git(repo, "config", key, value)
    (repo.parent / "included.gitconfig").write_text(
        f'[diff "included"]\n\tcommand = {trap} included-diff\n[core]\n\tpager = {trap} included-pager\n')
    with open(repo / ".git" / "info" / "attributes", "a") as fh:
        fh.write("*.toml merge=evil\n")
    return len(settings) + len(ALL_HOOKS)


def canary_runs(canaries: Path) -> tuple[int, list[str]]:
    """How many times a trap ran (a touched file counts once, an appended one per line)."""
    runs, names = 0, []
    for p in sorted(canaries.iterdir()):
        runs += max(1, len(p.read_text(errors="replace").splitlines()))
        names.append(p.name)
    return runs, names


def prove_more(repo: Path) -> None:
    """Plain git runs the added traps too: the hooks path, the credential helper, ssh."""
    git(repo, "-c", "core.fsmonitor=false", "commit", "-q", "--allow-empty", "--no-gpg-sign", "-m", "plain git")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    for args, stdin in ((["credential", "fill"], "protocol=https\nhost=example.invalid\n\n"),
                        (["ls-remote", "ssh://example.invalid/x.git"], "")):
        subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True, text=True, env=env,
                       timeout=30, check=False)


async def drive_app(root: Path) -> list[str]:
    """Open the app, label, commit with ctrl+g, read history with H; the features it used."""
    from uihelp import make_app, press, settle

    used = []
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        if app.session.git.info is not None:
            used += ["app: repository line", "app: provenance"]
        await press(app, pilot, "s")
        used.append("app: label")
        await press(app, pilot, "ctrl+g")
        if any(n.title == "Committed" for n in app.notes):
            used.append("app: ctrl+g commit")
        await press(app, pilot, "k", "H")
        if type(app.screen).__name__ == "HistoryScreen":
            used.append("app: H history")
            await press(app, pilot, "escape")
    return used


def exercise(root: Path) -> tuple[list[str], int]:
    """Every git feature of reviewer, through its real code path; (features used, commits made)."""
    from reviewer.model.label import Verdict
    from reviewer.store.gitcommit import commit_labels, commit_reviewer, label_files
    from reviewer.store.githistory import clear_history_cache, label_history
    from reviewer.store.gitrepo import provenance, repo_info
    from reviewer.store.identity import resolve_reviewer
    from reviewer.store.labeller import Labeller
    from reviewer.store.labels import LabelStore
    from reviewer.store.sessions import SessionStore

    repo = root.parent
    before = int(git(repo, "rev-list", "--count", "HEAD").strip())
    used = []
    assert repo_info(root) is not None
    used.append("repo_info")
    assert provenance(root)
    used.append("provenance")
    resolve_reviewer(None)
    used.append("reviewer name from git")
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "bob")).decide(F1, Verdict.CAPABILITY)
    inside, _ = label_files(root, "bob")
    used.append("label_files")
    assert commit_labels(root, "bob", inside).committed
    used.append("commit_labels")
    Labeller(store, LabelStore(root, "bob")).decide(F2, Verdict.SPECIFICATION)
    assert commit_reviewer(root, "bob").committed
    used.append("commit_reviewer")
    labelled = cli("label", str(root), "--failure", F2, "--verdict", "capability", "--reviewer", "carol")
    assert labelled.returncode == 0, labelled.stderr
    used.append("reviewer label")
    committed = cli("commit", str(root), "--reviewer", "carol")
    assert committed.returncode == 0, committed.stderr
    used.append("reviewer commit")
    used += asyncio.run(drive_app(root))
    clear_history_cache()
    assert label_history(root, "s1", "r1", "heldout:TestToRoman")
    used.append("label_history")
    assert repo_info(root) is not None and provenance(root)["s1/r1"].committed
    after = int(git(repo, "rev-list", "--count", "HEAD").strip())
    return used, after - before


def measure() -> tuple[dict[str, int], list[str]]:
    """Arm, prove, exercise, count."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        root = sessions_repo(tmp_path)
        repo = root.parent
        canaries = tmp_path / "canaries"
        arm(repo, canaries)
        traps = ARMED + len(HOOKS) + arm_more(repo, canaries)
        prove_traps_are_live(repo, canaries)
        prove_more(repo)
        proven, names = canary_runs(canaries)
        for p in canaries.iterdir():
            p.unlink()
        used, commits = exercise(root)
        runs, fired = canary_runs(canaries)
    figures = {"traps": traps, "traps_proven": len(names), "features": len(used), "commits": commits,
               "canary_runs": runs}
    details = [f"proven by plain git: {', '.join(names)}", f"features: {', '.join(used)}"]
    if fired:
        details.append(f"fired by reviewer: {', '.join(fired)}")
    return figures, details


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args()
    started = time.monotonic()
    figures, details = measure()
    for line in details:
        print(line, file=sys.stderr)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>12}: {v}")
        print(f"{'seconds':>12}: {time.monotonic() - started:.1f}")
    return 0 if figures["canary_runs"] == 0 and figures["traps_proven"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
