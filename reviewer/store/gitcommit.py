"""Committing one reviewer's label files, and nothing else, with a message that summarises them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.gitrepo import GitError, open_repo, unquote_path
from reviewer.store.labels import ADJUDICATED, ADJUDICATED_FILE, LABELS_DIR, LabelsUnsafe, parse_labels
from reviewer.store.labels.format import Unreadable
from reviewer.store.labels.store import own_files, prepare_commit


@record
class CommitResult:
    """What a commit did: the commit's message, hash and paths, or why nothing was committed.

    ``outside_git`` lists label files kept in the per-user folder (read-only sessions folder):
    they are never committed, and the caller should say so.
    """

    committed: bool
    message: str
    sha: str = ""
    paths: tuple[str, ...] = ()
    outside_git: tuple[str, ...] = ()


def label_files(root: Path, reviewer: str, adjudicated: bool = False) -> tuple[list[Path], list[Path]]:
    """A reviewer's label files in the sessions folder, and those kept in the per-user folder.

    The second list is the labels of a read-only folder (``LabelStore.redirected``): they are not
    in git and cannot be committed. ``adjudicated`` adds each session's adjudications.
    """
    return own_files(root, reviewer, adjudicated)


def commit_reviewer(root: Path, reviewer: str, adjudicated: bool = False) -> CommitResult:
    """Commit the reviewer's label files of the folder (the app's commit action and ``reviewer commit``).

    Raises:
        GitError: as :func:`commit_labels`.
    """
    inside, outside = label_files(root, reviewer, adjudicated)
    kept = tuple(str(p) for p in outside)
    if not inside:
        return CommitResult(False, f"nothing to commit: {reviewer} has no label files in {root}", outside_git=kept)
    result = commit_labels(root, reviewer, inside)
    return CommitResult(result.committed, result.message, result.sha, result.paths, kept)


def summarise(reviewer: str, files: list[tuple[Path, str]]) -> str:
    """The commit message: ``labels: N failures (a specification, b capability) by NAME``."""
    counts = {v: 0 for v in Verdict}
    adjudicated = 0
    for path, session in files:
        parsed = parse_labels(path.read_bytes(), session, reviewer)
        if path.name == ADJUDICATED_FILE or path.parent.name == ADJUDICATED:
            adjudicated += len(parsed.labels)
            continue
        for lab in parsed.labels:
            counts[lab.verdict] += 1
    total = sum(counts.values())
    parts = [f"{counts[Verdict.SPECIFICATION]} specification", f"{counts[Verdict.CAPABILITY]} capability"]
    if counts[Verdict.DEFERRED]:
        parts.append(f"{counts[Verdict.DEFERRED]} deferred")
    who = " ".join(plain(reviewer).split()) or "reviewer"
    message = f"labels: {total} failure{'s' if total != 1 else ''} ({', '.join(parts)}) by {who}"
    if adjudicated:
        message += f"; {adjudicated} adjudicated"
    return message


def commit_labels(root: Path, reviewer: str, label_paths: Iterable[Path]) -> CommitResult:
    """Commit exactly these label files (nothing else staged or committed) with a summary message.

    Other staged or modified files stay as they were. Label files that cannot be read (conflict
    markers, damage) are refused so a broken file is never committed. A format-1 file (and its
    journal) is moved into the new layout first, so the commit holds every label, in the layout
    written now, and the old files' removal.

    Raises:
        GitError: not in a git repository, a path outside it, an unreadable label file, or git
            refused (GitUnsafe for "dubious ownership"; GitReadOnly for a partial clone or a ``.git``
            pointing at another repository, with the reason).
    """
    root = Path(root)
    label_paths = list(label_paths)
    with open_repo(root) as g:
        if g is None:
            raise GitError(f"{root} is not in a git repository")
        g.require_writable()
        try:
            label_paths, gone = prepare_commit(root, reviewer, label_paths)
        except (LabelsUnsafe, OSError, TimeoutError) as exc:
            raise GitError(f"the labels could not be moved into the new layout ({exc}); not committed") from None
        rels, files = [], []
        for p in sorted({Path(os.path.realpath(p)) for p in label_paths}):
            parts = p.relative_to(g.root).parts if p.is_relative_to(g.root) else ()
            if not (len(parts) in (3, 4) and parts[1] == LABELS_DIR) or p.suffix != ".toml" or not p.is_file():
                raise GitError(f"{p} is not a label file inside {g.root}")
            session = parts[0]
            try:
                parsed = parse_labels(p.read_bytes(), session, reviewer)
            except (Unreadable, OSError) as exc:
                raise GitError(f"{p.name} in {session} cannot be read ({exc}); not committed") from None
            if parsed.damage:
                raise GitError(f"{p.name} in {session}: {parsed.damage[0]}; not committed") from None
            rels.append(p.relative_to(g.toplevel).as_posix())
            files.append((p, session))
        removed = [Path(os.path.realpath(p.parent)) / p.name for p in gone]
        removed_rels = [p.relative_to(g.toplevel).as_posix() for p in removed if p.is_relative_to(g.toplevel)]
        if removed_rels:  # the old files moved into the new layout: their removal is committed too
            rels += [unquote_path(x) for x in g.run("ls-files", "-z", "--", *removed_rels).split(b"\0") if x]
        if not rels:
            return CommitResult(False, "nothing to commit: no label files")
        g.run("add", "--", *rels, worktree=True)
        staged = [unquote_path(x) for x in g.run(
            "diff", "--cached", "--name-only", "--no-ext-diff", "--no-textconv", "--no-renames", "--", *rels,
        ).splitlines() if x]
        if not staged:
            return CommitResult(False, "nothing to commit: the labels are already committed")
        chosen = [f for f, r in zip(files, rels) if r in staged]
        message = summarise(reviewer, chosen)
        g.run("commit", "--quiet", "--no-verify", "--no-gpg-sign", f"--message={message}", "--only", "--", *staged, worktree=True)
        sha = g.run("rev-parse", "--verify", "HEAD").decode("ascii", "replace").strip()
    return CommitResult(True, message, sha, tuple(staged))
