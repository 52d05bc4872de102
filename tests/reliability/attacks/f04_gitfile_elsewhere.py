"""Finding 4: a received sessions folder whose ``.git`` makes ``reviewer commit`` commit into another repository.

Two variants of a folder received as an archive (git itself never checks out a ``.git``): a
``.git`` *file* saying ``gitdir: ../victim/.git``, and a ``.git`` folder whose ``commondir``
names the victim's git folder (refs, objects and config then live there). Plain git run in the
received folder works on the victim's repository (live: ``rev-parse`` resolves to it and a plain
commit lands in it). Then the reviewer labels and runs ``reviewer commit`` (and the store's
``commit_reviewer``). Contained: both refuse with a message naming the ``.git`` that points
elsewhere, the victim's HEAD and index are untouched, and ``repo_info`` reports the folder
read-only with that warning.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from attacks import Outcome

FINDING = 4
TITLE = "a .git file (or a .git folder's commondir) pointing at another repository: reviewer commit commits there"


def check(work: Path) -> Outcome:
    """Both variants, each with its own victim repository."""
    results = [one_variant(work / v, v) for v in ("gitfile", "commondir")]
    return Outcome(all(r[1] for r in results), all(r[0] for r in results), "\n".join(r[2] for r in results),
                   {"commits_refused": sum(r[3] for r in results), "victim_commits": sum(r[4] for r in results)})


def victim_repo(work: Path) -> Path:
    """Someone else's repository on the same machine, with one commit."""
    from gitkit import commit_all, init_repo

    victim = init_repo(work / "victim")
    (victim / "secret-project.txt").write_text("not yours\n")
    commit_all(victim, "victim's own work")
    return victim


def received(work: Path, victim: Path, variant: str) -> Path:
    """The received sessions folder, its ``.git`` pointing at the victim."""
    from sessionkit import small_folder

    root = small_folder(work / "received")
    if variant == "gitfile":
        (root / ".git").write_text("gitdir: ../victim/.git\n")
    else:
        (root / ".git").mkdir()
        for name in ("HEAD",):
            shutil.copy(victim / ".git" / name, root / ".git" / name)
        (root / ".git" / "commondir").write_text("../../victim/.git\n")
    return root


def one_variant(work: Path, variant: str) -> tuple[bool, bool, str, int, int]:
    """(live, contained, detail, commits refused, commits that reached the victim)."""
    from gitkit import cli, git

    from reviewer.model.label import Verdict
    from reviewer.store.git import GitError, commit_reviewer, repo_info
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    work.mkdir(parents=True)
    victim = victim_repo(work)
    root = received(work, victim, variant)
    # live: plain git in the received folder is working on the victim's repository
    probe = work / "probe"
    shutil.copytree(work, probe, symlinks=True)
    common = git(probe / "received", "rev-parse", "--path-format=absolute", "--git-common-dir", check=False).strip()
    before_probe = git(probe / "victim", "rev-parse", "HEAD").strip()
    (probe / "received" / "planted.txt").write_text("x\n")
    git(probe / "received", "add", "planted.txt", check=False)
    git(probe / "received", "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "plain git", check=False)
    live = common == str(probe / "victim" / ".git") and git(probe / "victim", "rev-parse", "HEAD").strip() != before_probe
    shutil.rmtree(probe)

    head = git(victim, "rev-parse", "HEAD").strip()
    index = (victim / ".git" / "index").read_bytes()
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "alice")).decide("s1/r1#heldout:TestToRoman", Verdict.SPECIFICATION)
    refused, notes = 0, []
    try:
        commit_reviewer(root, "alice")
        notes.append("commit_reviewer committed")
    except GitError as exc:
        refused += ".git" in str(exc)
        notes.append(f"commit_reviewer: {str(exc)[:110]}")
    done = cli("commit", str(root), "--reviewer", "alice")
    refused += done.returncode == 1 and ".git" in done.stderr
    warned = False
    try:
        info = repo_info(root)
        warned = info is not None and ".git" in getattr(info, "warning", "")
    except GitError as exc:
        notes.append(f"repo_info: {str(exc)[:80]}")
    reached = int(git(victim, "rev-list", "--count", f"{head}..HEAD").strip() or 0)
    untouched = git(victim, "rev-parse", "HEAD").strip() == head and (victim / ".git" / "index").read_bytes() == index
    ok = refused == 2 and untouched and warned
    detail = (f"{variant}: plain git works on the victim: {live}; reviewer commit refused {refused}/2, victim "
              f"{'untouched' if untouched else f'CHANGED ({reached} commits)'}, read-only warning "
              f"{'shown' if warned else 'MISSING'}; " + "; ".join(notes))
    return live, ok, detail, refused, reached
