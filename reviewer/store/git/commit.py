"""Committing one reviewer's label files, and nothing else, with a message that summarises them.

The commit is made in-process through GitPython, as ``git commit --only PATHS`` makes it: a
temporary index is built from HEAD's tree (:meth:`git.IndexFile.new`), the label files are added
to it as blobs written by GitPython's object database, and :meth:`git.IndexFile.commit` writes the
tree and the commit with ``skip_hooks=True`` and ``head=False``. No hook can run: GitPython looks
for hooks only when ``skip_hooks`` is false, and it takes ``core.hooksPath`` from the repository's
own config, which the environment's ``core.hooksPath=/dev/null`` does not reach. No git process
runs but ``git var``, which names the author and committer as git would (or refuses as git would).
No signature, no editor, no ``gc --auto``.

Then, with the repository's ``index.lock`` held from start to end as git holds it, HEAD's branch
is moved to the commit (only if HEAD has not moved since it was read), and the real index gets
the committed files' entries (everything else in it stays staged as it was). GitPython reads
index versions 2 and 3 only and writes no extensions: an index it cannot read (version 4, a
split or sparse index) is refused before anything is written, with the git commands to run instead.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.git.repository import GitSession, open_repo
from reviewer.store.git.run import GitError
from reviewer.store.labels import ADJUDICATED, ADJUDICATED_FILE, LABELS_DIR, LabelsUnsafe, parse_labels
from reviewer.store.labels.format import Unreadable
from reviewer.store.labels.store import own_files, prepare_commit

if TYPE_CHECKING:
    from git import Actor, IndexFile, Repo
    from git.index.typ import IndexEntry
    from git.objects import Commit

IDENT = re.compile(r"^(.*) <(.*)> (\d+ [+-]\d{4})$")
IN_PROGRESS = {"MERGE_HEAD": "merge", "CHERRY_PICK_HEAD": "cherry-pick", "REVERT_HEAD": "revert"}


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
        GitError: not in a git repository, a path outside it, an unreadable label file, an index
            GitPython cannot write, a merge in progress, no identity, or git refused (GitUnsafe
            for "dubious ownership"; GitReadOnly for a partial clone or a ``.git`` pointing at
            another repository, with the reason).
    """
    from gitdb.util import LockedFD

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
        if not rels:
            return CommitResult(False, "nothing to commit: no label files")
        for state, doing in IN_PROGRESS.items():
            if (g.git_dir / state).exists():
                raise GitError(f"a {doing} is in progress in {g.toplevel}: git makes no partial commit during a "
                               f"{doing}; finish it first. Not committed")
        index_path = os.path.join(g.repo.git_dir, "index")
        lock = LockedFD(index_path)
        try:
            stream = lock.open(write=True, stream=True)
        except OSError:
            raise GitError(f"{index_path}.lock exists: another git command is working in {g.toplevel} (if none "
                           "is, remove that file); not committed") from None
        try:
            result = commit_locked(g, rels, files, reviewer, stream, removed_rels)
        except BaseException:
            lock.rollback()
            raise
        lock.commit()
    return result


def commit_locked(g: GitSession, rels: list[str], files: list[tuple[Path, str]], reviewer: str,
                  stream: Any, removed: list[str]) -> CommitResult:
    """:func:`commit_labels` once the index is locked: commit, move HEAD, write the index to ``stream``.

    ``removed``: old-layout files moved into the new layout; those git tracks are committed as removed.
    """
    from git import IndexFile
    from git.index.fun import write_cache
    from git.index.typ import BaseIndexEntry

    repo = g.repo
    index = real_index(repo)
    tracked = {path for path, _ in index.entries}
    rels = rels + [r for r in removed if r in tracked and r not in rels]  # the old files moved into the new layout
    head = head_of(repo)
    blobs = {rel: store_file(repo, g.toplevel / rel, rel) for rel in rels}
    for rel, entry in blobs.items():
        for key in [k for k in index.entries if k[0] == rel]:
            del index.entries[key]
        if entry is not None:
            index.entries[(rel, 0)] = entry
    staged = [rel for rel, entry in blobs.items() if (entry.binsha if entry else None) != blob_sha(head, rel)]
    if not staged:
        write_cache(sorted(index.entries.values(), key=lambda e: (e.path, e.stage)), stream)
        return CommitResult(False, "nothing to commit: the labels are already committed")
    chosen = [f for f, r in zip(files, rels) if r in staged]
    message = summarise(reviewer, chosen)
    if head is None:
        temporary = IndexFile(repo)
        temporary.entries = {}
    else:
        temporary = IndexFile.new(repo, head.tree.binsha)
    added = [BaseIndexEntry((e.mode, e.binsha, 0, rel)) for rel, e in blobs.items() if rel in staged and e is not None]
    if added:
        temporary.add(added, write=False)
    for rel in staged:
        if blobs[rel] is None:
            temporary.entries.pop((rel, 0), None)
    (author, author_date), (committer, commit_date) = identity(g, "GIT_AUTHOR_IDENT"), identity(g, "GIT_COMMITTER_IDENT")
    commit = temporary.commit(f"{message}\n", parent_commits=[head] if head is not None else [], head=False,
                              author=author, committer=committer, author_date=author_date, commit_date=commit_date,
                              skip_hooks=True)
    move_head(repo, head, commit, message)
    write_cache(sorted(index.entries.values(), key=lambda e: (e.path, e.stage)), stream)
    return CommitResult(True, message, commit.hexsha, tuple(staged))


def real_index(repo: Repo) -> IndexFile:
    """The repository's index as GitPython reads it (empty when there is none yet).

    Raises:
        GitError: GitPython cannot read it (version 4, a split or sparse index).
    """
    from git import IndexFile

    index = IndexFile(repo)
    try:
        if not os.path.exists(index.path):
            index.entries = {}
        len(index.entries)
    except (AssertionError, ValueError, OSError) as exc:
        raise GitError(f"the repository's index ({index.path}) is in a form GitPython cannot write ({exc}); commit "
                       "the label files with git instead (git add, then git commit). Not committed") from None
    return index


def head_of(repo: Repo) -> Commit | None:
    """HEAD's commit, None on a branch without commits yet.

    Raises:
        GitError: HEAD cannot be read.
    """
    try:
        return repo.head.commit
    except ValueError:
        return None
    except Exception as exc:  # noqa: BLE001 - GitPython and gitdb raise many kinds for broken refs
        raise GitError(f"cannot read HEAD of {repo.git_dir}: {exc}; not committed") from None


def blob_sha(commit: Commit | None, rel: str) -> bytes | None:
    """The blob ``rel`` names in a commit's tree, None when it is not there."""
    if commit is None:
        return None
    try:
        sha: bytes = (commit.tree / rel).binsha
        return sha
    except KeyError:
        return None


def store_file(repo: Repo, path: Path, rel: str) -> IndexEntry | None:
    """Write the working-tree file ``path`` as a blob (GitPython's object database, no filter);
    its index entry (path ``rel``) with the file's stat, or None when the file is gone."""
    from io import BytesIO

    from git.index.fun import stat_mode_to_index_mode
    from git.index.typ import IndexEntry
    from gitdb.base import IStream

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise GitError(f"{path} cannot be read ({exc.strerror or exc}); not committed") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise GitError(f"{path} is not a regular file; not committed")
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read()
    finally:
        os.close(fd)
    stored = repo.odb.store(IStream("blob", len(data), BytesIO(data)))

    def stamp(seconds: float, nanoseconds: int) -> bytes:
        return (int(seconds) & 0xFFFFFFFF).to_bytes(4, "big") + (nanoseconds % 1_000_000_000).to_bytes(4, "big")

    mask = 0xFFFFFFFF
    return IndexEntry((stat_mode_to_index_mode(st.st_mode), stored.binsha, 0, rel,
                       stamp(st.st_ctime, st.st_ctime_ns), stamp(st.st_mtime, st.st_mtime_ns), st.st_dev & mask,
                       st.st_ino & mask, st.st_uid & mask, st.st_gid & mask, len(data) & mask))


def identity(g: GitSession, which: str) -> tuple[Actor, str]:
    """The author or committer (``GIT_AUTHOR_IDENT``/``GIT_COMMITTER_IDENT``) and the date, as git
    would write them (``git var``: the user's config and ``GIT_AUTHOR_*`` variables).

    Raises:
        GitError: git knows no identity ("Please tell me who you are").
    """
    from git import Actor

    line = g.run("var", which).decode("utf-8", "surrogateescape").strip()
    m = IDENT.match(line)
    if m is None:
        raise GitError(f"git var {which} gave {line[:80]!r}; not committed")
    return Actor(m.group(1), m.group(2)), m.group(3)


def move_head(repo: Repo, parent: Commit | None, commit: Commit, message: str) -> None:
    """Point HEAD's branch (or a detached HEAD) at ``commit``, only if HEAD still names ``parent``.

    Raises:
        GitError: HEAD moved since it was read (another commit came in); the new commit is left
            unreferenced and nothing else changes.
    """
    from git import Head

    if head_of(repo) != parent:
        raise GitError("HEAD moved while the labels were being committed (another commit came in); not committed, "
                       "try again")
    logmsg = f"commit{' (initial)' if parent is None else ''}: {message}"
    if parent is None and not repo.head.is_detached:
        Head.create(repo, repo.head.ref.path, commit, logmsg=logmsg)
    else:
        repo.head.set_commit(commit, logmsg=logmsg)
