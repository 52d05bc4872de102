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
(open: repository line and provenance; label; ``ctrl+g`` commit; ``H`` history).

Two more kinds of trap, each proven live with plain git first:

- partial clones (``partial_clones``): a tree object missing and a promisor remote that is an
  ``ext::`` command or an ``ssh://`` URL with ``core.sshCommand``, with
  ``protocol.<name>.allow=always`` in the repository's config; plain git lazy-fetches and runs
  it. reviewer's store functions, ``reviewer commit`` and the app (open, label, ``ctrl+g``,
  ``H``) run on it; the commit must be refused as read-only.
- the caller's environment (``env_traps``, tests/git/envtraps.py): ``GIT_DIR``,
  ``GIT_INDEX_FILE``, ``GIT_OBJECT_DIRECTORY``, ``GIT_COMMON_DIR``, ``GIT_CONFIG_PARAMETERS``,
  ``GIT_SSH_COMMAND``, GitPython's ``GIT_PYTHON_GIT_EXECUTABLE``... all set, with a ``git`` on
  ``PATH`` that logs which of them each git call received (``env_leaks`` must be 0). First
  ``reviewer label`` and ``reviewer commit`` start with every trap in their environment
  (``env_commands``: their ``main`` scrubs it before anything else); then this process scrubs its
  own environment as ``main`` does (``scrub_environment``) and every feature above runs again
  in-process (``env_features``).

Figures: traps, traps_proven, features, commits, partial_clones, partial_clones_proven,
partial_clone_commits_refused, env_traps, env_traps_proven, env_commands, env_features,
env_leaks, canary_runs (must be 0).
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

import envtraps  # noqa: E402
from gitkit import PARTIAL_CLONE_VARIANTS, cli, git, make_partial_clone, prove_lazy_fetch_runs, sessions_repo  # noqa: E402
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
    from reviewer.store.git import (
        clear_history_cache,
        commit_labels,
        commit_reviewer,
        label_files,
        label_history,
        provenance,
        repo_info,
    )
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore
    from reviewer.store.settings.identity import resolve_reviewer

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


async def drive_app_read_only(root: Path) -> None:
    """Open the app on a read-only repository, label, try ``ctrl+g``, read history with ``H``."""
    from uihelp import make_app, press, settle

    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s", "ctrl+g", "k", "H")
        await settle(app, pilot)


def partial_clone(tmp: Path, variant: str) -> tuple[bool, int, int, list[str]]:
    """One partial-clone trap; (proven by plain git, canary runs through reviewer, commits refused, notes)."""
    from reviewer.store.git import GitError, clear_history_cache, commit_reviewer, label_history, provenance, repo_info

    root = sessions_repo(tmp / variant)
    canary = tmp / f"canary-{variant}"
    make_partial_clone(root.parent, variant, canary)
    proven = prove_lazy_fetch_runs(root.parent, canary)
    notes, refused = [], 0
    clear_history_cache()
    for call in (lambda: repo_info(root), lambda: provenance(root),
                 lambda: label_history(root, "s1", "r1", "heldout:TestToRoman")):
        try:
            call()
        except GitError as exc:
            notes.append(str(exc)[:60])
    labelled = cli("label", str(root), "--failure", F1, "--verdict", "capability", "--reviewer", "bob")
    assert labelled.returncode == 0, labelled.stderr
    try:
        commit_reviewer(root, "bob")
    except GitError as exc:
        refused += "partial clone" in str(exc)
    committed = cli("commit", str(root), "--reviewer", "bob")
    refused += committed.returncode == 1 and "partial clone" in committed.stderr
    asyncio.run(drive_app_read_only(root))
    return proven, int(canary.exists()), refused, notes


def env_case(tmp: Path) -> tuple[int, int, int, list[str], list[str]]:
    """Every feature again with the environment traps set; (traps, proven, commands, leaks, features used)."""
    from reviewer.store.git import scrub_environment

    root = sessions_repo(tmp / "env")
    traps, out, victim = envtraps.build(tmp, root.parent)
    proven = envtraps.prove(traps, out)
    victim_head = git(victim, "rev-parse", "HEAD").strip()
    head = git(root.parent, "rev-parse", "HEAD").strip()
    log = tmp / "env-git-calls.log"
    wrapper = envtraps.logging_git(tmp / "env-bin", log, traps)
    used, broke, commands = [], [], 0
    with envtraps.trapped(traps, wrapper):
        for args in (("label", str(root), "--failure", F1, "--verdict", "specification", "--reviewer", "dave"),
                     ("commit", str(root), "--reviewer", "dave")):
            done = cli(*args)
            if done.returncode == 0:
                commands += 1
            else:
                broke.append(f"reviewer {args[0]} with the traps set: exit {done.returncode} {done.stderr.strip()[:120]}")
        if commands == 2 and git(root.parent, "rev-list", "--count", f"{head}..HEAD").strip() != "1":
            broke.append("reviewer commit with the traps set did not commit to the folder's own repository")
        scrub_environment()  # what reviewer.cli.main does first, before the features run in this process
        try:
            used, _ = exercise(root)
        except Exception as exc:  # noqa: BLE001 - a trap that breaks a feature is a trap that reached git
            broke.append(f"a feature broke: {str(exc)[:120]}")
    return len(traps), len(proven), commands, envtraps.sprung(out, victim, victim_head, log, traps) + broke, used


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
        partial = [partial_clone(tmp_path, v) for v in PARTIAL_CLONE_VARIANTS]
        env_traps, env_proven, env_commands, leaks, env_used = env_case(tmp_path)
    figures = {"traps": traps, "traps_proven": len(names), "features": len(used), "commits": commits,
               "partial_clones": len(partial), "partial_clones_proven": sum(p[0] for p in partial),
               "partial_clone_commits_refused": sum(p[2] for p in partial),
               "env_traps": env_traps, "env_traps_proven": env_proven, "env_commands": env_commands,
               "env_features": len(env_used),
               "env_leaks": len(leaks), "canary_runs": runs + sum(p[1] for p in partial) + len(leaks)}
    details = [f"proven by plain git: {', '.join(names)}", f"features: {', '.join(used)}"]
    if fired:
        details.append(f"fired by reviewer: {', '.join(fired)}")
    details += [f"partial clone {v}: proven {p[0]}, canary {p[1]}, refused {p[2]}; {'; '.join(p[3])}"
                for v, p in zip(PARTIAL_CLONE_VARIANTS, partial)]
    if leaks:
        details.append(f"environment traps that reached git through reviewer: {', '.join(leaks)}")
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
    proven = figures["traps_proven"] > 0 and figures["partial_clones_proven"] == figures["partial_clones"]
    return 0 if figures["canary_runs"] == 0 and proven else 1


if __name__ == "__main__":
    sys.exit(main())
