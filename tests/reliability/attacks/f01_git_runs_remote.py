"""Finding 1: a partial clone whose promisor remote runs a command when git lazy-fetches an object.

Two variants, both with ``protocol.<name>.allow=always`` in the repository's own config (which
outranks ``protocol.allow=never`` from the environment): an ``ext::`` URL naming a shell
command, and an ``ssh://`` URL with ``core.sshCommand``. Plain git reading the history fires
the canary (live). Then every git feature of reviewer runs on the repository: the repository
line, provenance, label history, ``commit_reviewer`` and ``reviewer commit``. Contained: the
canary never appears, the repository is reported read-only with a warning naming the partial
clone, and the commit is refused with that reason (HEAD unchanged).
"""

from __future__ import annotations

from pathlib import Path

from attacks import Outcome

FINDING = 1
TITLE = "a partial clone's promisor remote (ext:: command, ssh:// with core.sshCommand) runs when git lazy-fetches"


def check(work: Path) -> Outcome:
    """Both variants, each in its own repository."""
    from gitkit import PARTIAL_CLONE_VARIANTS

    lives, contained, details, figures = [], [], [], {"canary_runs": 0, "commits_refused": 0}
    for variant in PARTIAL_CLONE_VARIANTS:
        live, ok, detail, fired, refused = one_variant(work / variant, variant)
        lives.append(live)
        contained.append(ok)
        details.append(f"{variant}: {detail}")
        figures["canary_runs"] += fired
        figures["commits_refused"] += refused
    return Outcome(all(contained), all(lives), "\n".join(details), figures)


def one_variant(work: Path, variant: str) -> tuple[bool, bool, str, int, int]:
    """(live, contained, detail, canary runs, commits refused) for one variant."""
    from gitkit import cli, git, make_partial_clone, prove_lazy_fetch_runs, sessions_repo

    from reviewer.model.label import Verdict
    from reviewer.store.git import GitError, clear_history_cache, commit_reviewer, label_history, provenance, repo_info
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    work.mkdir(parents=True)
    root = sessions_repo(work)
    repo = root.parent
    canary = work / "PWNED"
    make_partial_clone(repo, variant, canary)
    live = prove_lazy_fetch_runs(repo, canary)
    head = git(repo, "rev-parse", "HEAD").strip()
    notes = []
    info = None
    for name, call in (("repo_info", lambda: repo_info(root)), ("provenance", lambda: provenance(root)),
                       ("label_history", lambda: label_history(root, "s1", "r1", "heldout:TestToRoman"))):
        clear_history_cache()
        try:
            got = call()
            if name == "repo_info":
                info = got
        except GitError as exc:
            notes.append(f"{name}: {str(exc)[:100]}")
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "alice")).decide("s1/r1#heldout:TestToRoman", Verdict.CAPABILITY)
    refused = 0
    try:
        commit_reviewer(root, "alice")
    except GitError as exc:
        refused += "partial clone" in str(exc)
        notes.append(f"commit_reviewer refused: {str(exc)[:120]}")
    done = cli("commit", str(root), "--reviewer", "alice")
    refused += done.returncode == 1 and "partial clone" in done.stderr
    fired = int(canary.exists())
    warned = info is not None and "partial clone" in getattr(info, "warning", "")
    unchanged = git(repo, "rev-parse", "HEAD").strip() == head
    ok = not fired and warned and refused == 2 and unchanged
    detail = (f"plain git fired the canary: {live}; through reviewer: canary {'FIRED' if fired else 'absent'}, "
              f"read-only warning {'shown' if warned else 'MISSING'}, commit refused {refused}/2, "
              f"HEAD {'unchanged' if unchanged else 'MOVED'}; " + "; ".join(notes))
    return live, ok, detail, fired, refused
