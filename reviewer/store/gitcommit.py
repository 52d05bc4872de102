"""Committing one reviewer's label files, and nothing else, with a message that summarises them."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from reviewer.model.label import Verdict, reviewer_file_stem
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.gitrepo import GitError, open_repo, unquote_path
from reviewer.store.labelfile import LabelFile, LabelsUnsafe, parse_labels
from reviewer.store.labeljournal import journal_path
from reviewer.store.labels import ADJUDICATED_FILE, LABELS_DIR, fallback_root
from reviewer.store.tomlfile import BadToml

FINAL = "final"


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
    in git and cannot be committed. ``adjudicated`` adds each session's ``_adjudicated.toml``.
    """
    names = [f"{reviewer_file_stem(reviewer)}.toml"] + ([ADJUDICATED_FILE] if adjudicated else [])
    found: tuple[list[Path], list[Path]] = ([], [])
    for where, base in enumerate((Path(root), fallback_root(Path(root)))):
        try:
            sessions = sorted(e.name for e in os.scandir(base) if e.is_dir(follow_symlinks=False) and not e.name.startswith("."))
        except OSError:
            continue
        for s in sessions:
            for name in names:
                path = base / s / LABELS_DIR / name
                try:
                    if stat.S_ISREG(os.lstat(path).st_mode):
                        found[where].append(path)
                except OSError:
                    pass
    return found


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


def fold_journals(paths: Iterable[Path], reviewer: str) -> None:
    """Fold each file's journal into its TOML, so the commit holds every label.

    Raises:
        GitError: a journal (or its file) cannot be read now; nothing is committed.
    """
    for path in paths:
        if not journal_path(path).exists():
            continue
        who = FINAL if path.name == ADJUDICATED_FILE else reviewer
        try:
            LabelFile(path, path.parent.parent.name, who).fold()
        except (LabelsUnsafe, OSError, TimeoutError) as exc:
            raise GitError(f"{path.name} in {path.parent.parent.name}: its journal could not be folded in ({exc}); "
                           "not committed") from None


def summarise(reviewer: str, files: list[tuple[Path, str]]) -> str:
    """The commit message: ``labels: N failures (a specification, b capability) by NAME``."""
    counts = {v: 0 for v in Verdict}
    adjudicated = 0
    for path, session in files:
        parsed = parse_labels(path.read_bytes(), session, reviewer)
        if path.name.startswith("_"):
            adjudicated += len(parsed.labels)
            continue
        for lab in parsed.labels.values():
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
    markers, damage) are refused so a broken file is never committed. A file's journal is folded
    into it first, so the commit holds every label (and a committed journal's removal).

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
        fold_journals(label_paths, reviewer)
        rels, files = [], []
        for p in sorted({Path(os.path.realpath(p)) for p in label_paths}):
            parts = p.relative_to(g.root).parts if p.is_relative_to(g.root) else ()
            if len(parts) != 3 or parts[1] != LABELS_DIR or p.suffix != ".toml" or not p.is_file():
                raise GitError(f"{p} is not a label file inside {g.root}")
            session = parts[0]
            try:
                parse_labels(p.read_bytes(), session, reviewer)
            except (BadToml, ValueError, OSError) as exc:
                raise GitError(f"{p.name} in {session} cannot be read ({exc}); not committed") from None
            rels.append(p.relative_to(g.toplevel).as_posix())
            files.append((p, session))
        folded = [journal_path(Path(r)).as_posix() for r in rels if not (g.toplevel / journal_path(Path(r))).exists()]
        if folded:  # a journal someone committed and a fold removed: its removal is committed too
            rels += [unquote_path(x) for x in g.run("ls-files", "-z", "--", *folded).split(b"\0") if x]
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
