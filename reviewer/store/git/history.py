"""A failure's label history in git: who set which verdict, when, in which commit.

One ``git log -p`` over ``<session>/labels/`` gives every commit that changed a labels file.
Labels files are written deterministically (one ``[[label]]`` table per failure, sorted), so
each hunk, shown with enough context lines to hold a whole table, tells which tables changed:
the target's table before (old side) and after (new side) is compared, never the whole file.
A hunk too narrow to show the target's table whole (a table longer than the context) is settled
at the end by reading the two versions of that file in-process, through GitPython's object database.
Commits that touch nothing under ``<session>/labels/`` cost git almost nothing (a tree compare);
each commit that changed a labels file costs git one diff of that file, in C, and Python a
bytes search of the diff unless it shows the target's table. The log output is kept per
(repository, HEAD, session) in a small in-process cache, so moving between failures of the same
session reads git once; HEAD itself is read in-process.

The history is walked by git (one ``git log -p``), not through GitPython's pure-Python object
database: that one applies pack deltas in Python, far too slow for a labels file with thousands
of versions.
"""

from __future__ import annotations

import re
import threading
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import tomli

from reviewer.model.label import Label, Verdict
from reviewer.model.records import record
from reviewer.store.fs.tomlfile import dumps
from reviewer.store.git.repository import GitSession, open_repo
from reviewer.store.git.run import unquote_path
from reviewer.store.labels import ADJUDICATED, ADJUDICATED_FILE, LABELS_DIR, label_from_table, parse_labels
from reviewer.store.labels.format import Unreadable

if TYPE_CHECKING:
    from git import Repo

DEFAULT_CONTEXT = 24
MIN_CONTEXT = 5
CACHE_ENTRIES = 4
CACHE_BYTES = 128 << 20
LOG_CACHE: dict[tuple[str, str, str, int], bytes] = {}
CACHE_LOCK = threading.Lock()
HUNK = re.compile(rb"^-(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
FULL_HASH = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
BLOB_LIMIT = 64 << 20
"""A labels file bigger than this (64 MiB) at some commit is not read for the history."""
HEADER = "[[label]]"
HEADER_B = HEADER.encode()


@record
class HistoryEntry:
    """One change of a failure's label in one commit.

    Attributes:
        commit: full hash of the commit.
        date: author date, ISO 8601.
        author: the commit's author name (untrusted text: sanitise before display).
        reviewer: whose labels file changed ("final" for adjudications).
        verdict: the verdict after the commit, None when the label was removed.
        note: the label's note after the commit (untrusted text too).
        labelled_at: the label's own time stamp after the commit.
    """

    commit: str
    date: str
    author: str
    reviewer: str
    verdict: Verdict | None
    note: str = ""
    labelled_at: str = ""

    @property
    def short(self) -> str:
        """The abbreviated hash."""
        return self.commit[:7]

    @property
    def removed(self) -> bool:
        """The commit removed the label."""
        return self.verdict is None


@record
class Target:
    """The failure whose history is read, with its table's identifying lines.

    ``check_line``/``run_line`` are the exact ``check = ...`` and ``run = ...`` lines the labels
    writer produces for it.
    """

    run: str
    check: str
    check_line: str
    run_line: str

    @classmethod
    def of(cls, run: str, check: str) -> Target:
        """The target for a failure of a run."""
        return cls(run, check, dumps({"check": check}).strip(), dumps({"run": run}).strip())

    @property
    def lines(self) -> tuple[str, str]:
        """(check line, run line)."""
        return self.check_line, self.run_line


def split_blocks(side: list[tuple[str, bool]]) -> tuple[bool, list[tuple[list[str], bool]]]:
    """A hunk side as (changes before the first table?, [(table lines, changed?)])."""
    prefix_changed = False
    blocks: list[tuple[list[str], bool]] = []
    for text, changed in side:
        if text == HEADER:
            blocks.append(([text], changed))
        elif blocks:
            lines, was = blocks[-1]
            lines.append(text)
            blocks[-1] = (lines, was or changed)
        else:
            prefix_changed = prefix_changed or changed
    return prefix_changed, blocks


def find(blocks: list[tuple[list[str], bool]], target: Target) -> list[str] | None:
    """The target's table among blocks, or None."""
    check_line, run_line = target.lines
    for lines, _ in blocks:
        if check_line in lines and run_line in lines:
            return lines
    return None


def parse_block(lines: list[str], session: str, reviewer: str) -> Label | None:
    """The label of one table, or None when the table is incomplete or not one."""
    try:
        doc = tomli.loads("\n".join(lines) + "\n")
        return label_from_table(doc["label"][0], session, reviewer)
    except (tomli.TOMLDecodeError, KeyError, IndexError, ValueError, TypeError, RecursionError):
        return None


Change = tuple[Label | None, bool]


def hunk_change(old: list[tuple[str, bool]], new: list[tuple[str, bool]], starts: tuple[int, int],
                target: Target, session: str, reviewer: str) -> Change | None:
    """What one hunk did to the target: None (nothing), or (label after, resolved?)."""
    old_prefix, old_blocks = split_blocks(old)
    new_prefix, new_blocks = split_blocks(new)
    before, after = find(old_blocks, target), find(new_blocks, target)
    at_top = min(starts) <= 1
    check_line, run_line = target.lines
    cut = any(bl and check_line in bl[-1][0] and not any(x.startswith("run = ") for x in bl[-1][0])
              for bl in (old_blocks, new_blocks))
    unsure = (old_prefix and before is None or new_prefix and after is None) and not at_top or cut
    if before is None and after is None:
        return (None, False) if unsure else None
    def strip(ls: list[str] | None) -> list[str] | None:
        return [x for x in ls if x.strip()] if ls is not None else None

    if strip(before) == strip(after):
        return None
    if after is None:
        return (None, not unsure)
    label = parse_block(after, session, reviewer)
    return (label, label is not None)


@record(frozen=False, slots=False)
class FileDiff:
    """The hunks of one labels file in one commit, reduced to what happened to the target."""

    path: str
    reviewer: str
    change: Change | None = None
    unresolved: bool = False


def reviewer_of(folder: Path, name: str) -> str:
    """The reviewer named in a labels file on disk (its top lines), else its folder's or its own
    stem (``name``: the file's path in the labels folder, ``alice.toml`` or ``alice/r1.toml``)."""
    stem = name.split("/", 1)[0] if "/" in name else name[: -len(".toml")]
    if name == ADJUDICATED_FILE or stem == ADJUDICATED:
        return "final"
    try:
        with open(folder / name, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return stem
    for raw in head.splitlines():
        if raw.startswith(b"reviewer = "):
            try:
                value = tomli.loads(raw.decode("utf-8"))["reviewer"]
            except (tomli.TOMLDecodeError, UnicodeDecodeError, KeyError):
                break
            if isinstance(value, str) and value:
                return value
        if raw.startswith(b"["):
            break
    return stem


def label_history(root: Path, session: str, run: str, check: str, context: int = DEFAULT_CONTEXT) -> list[HistoryEntry]:
    """Every committed change of one failure's label, by any reviewer, oldest first.

    Reads one ``git log -p`` over ``<session>/labels/`` (HEAD's history, merges skipped) plus, only
    when a table was longer than ``context`` lines, the two versions of that file in-process.
    Empty outside git or before the first commit.

    Raises:
        GitUnsafe: git refuses the repository (owned by another user).
        GitError: another git failure.
    """
    target = Target.of(run, check)
    with open_repo(root) as g:
        if g is None:
            return []
        head = g.head_commit()
        if not head:
            return []
        key = (str(g.toplevel), head, g.path(session, LABELS_DIR), context)
        with CACHE_LOCK:
            out = LOG_CACHE.pop(key, None)
        if out is None:
            out = log_labels(g, session, context, head)
        with CACHE_LOCK:
            LOG_CACHE[key] = out
            while len(LOG_CACHE) > CACHE_ENTRIES or sum(map(len, LOG_CACHE.values())) > CACHE_BYTES and len(LOG_CACHE) > 1:
                LOG_CACHE.pop(next(iter(LOG_CACHE)))
        commits = parse_log(out, g.path(session, LABELS_DIR), target, session, g.root / session / LABELS_DIR, context)
        pending = [(sha, fd.path) for sha, _, _, fds in commits for fd in fds if fd.unresolved]
        settled = settle(g, pending, target, session) if pending else {}
    entries = []
    last: dict[str, Label | None] = {}
    for sha, date, author, fds in reversed(commits):
        after: dict[str, Label | None] = {}
        for fd in sorted(fds, key=lambda f: (f.reviewer, f.path)):
            change = settled.get((sha, fd.path)) if fd.unresolved else fd.change
            if change is not None and not (change[0] is None and fd.reviewer in after):
                after[fd.reviewer] = change[0]  # a label moved from one file to another (format 1 to 2) is set, not removed
        for reviewer, label in after.items():
            if reviewer in last and last[reviewer] == label:
                continue  # moved between files, unchanged
            last[reviewer] = label
            entries.append(HistoryEntry(
                sha, date, author, reviewer, label.verdict if label else None,
                label.note if label else "", label.labelled_at if label else "",
            ))
    return entries


def clear_history_cache() -> None:
    """Forget the cached ``git log`` output (tests and benchmarks measure cold calls with it)."""
    with CACHE_LOCK:
        LOG_CACHE.clear()


def log_labels(g: GitSession, session: str, context: int = DEFAULT_CONTEXT, rev: str = "HEAD") -> bytes:
    """The one ``git log -p`` over a session's labels folder (``rev``'s history, merges skipped)."""
    return g.run(
        "log", "--no-color", "--no-show-signature", "--no-merges", "--no-renames", "--no-ext-diff",
        "--no-textconv", "-p", f"--unified={max(context, 1)}", "--src-prefix=a/", "--dst-prefix=b/",
        "--format=%x00%H%x1f%aI%x1f%an", rev, "--", g.path(session, LABELS_DIR),
    )


def file_name(raw: bytes, labels_rel: str) -> str | None:
    """The labels file a ``---``/``+++`` line names (path from the top level), or None."""
    path = unquote_path(raw.rstrip(b"\t"))
    if path == "/dev/null" or len(path) < 2 or path[1] != "/":
        return None
    path = path[2:]
    folder, _, name = path.rpartition("/")
    if folder.rpartition("/")[0] == labels_rel and not folder.rpartition("/")[2].startswith("."):
        folder = labels_rel  # a reviewer's run file, ``<labels>/<reviewer>/<run>.toml``
    if folder != labels_rel or not name.endswith(".toml") or name.startswith("."):
        return None
    return path


def parse_log(out: bytes, labels_rel: str, target: Target, session: str, folder: Path,
              context: int = DEFAULT_CONTEXT) -> list[tuple[str, str, str, list[FileDiff]]]:
    """Commits (newest first) with the labels files whose change may concern the target.

    Only a file diff that holds the target's ``check = ...`` line is read line by line. In any
    other, a hunk can hide a change to the target only by changing lines above its first table
    header (a table longer than the context): such a file is left to the fallback.
    """
    check_b, run_b = (x.encode("utf-8") for x in target.lines)
    reviewers: dict[str, str] = {}
    commits: list[tuple[str, str, str, list[FileDiff]]] = []
    for part in out.split(b"\0")[1:]:
        head, _, body = part.partition(b"\n")
        sha, date, author = (head.decode("utf-8", "replace").split("\x1f", 2) + ["", ""])[:3]
        files: list[FileDiff] = []
        for chunk in body.split(b"\ndiff --git ")[1:]:
            top, *hunks = chunk.split(b"\n@@ ")
            name = old_name = None
            for line in top.split(b"\n"):
                if line.startswith(b"--- "):
                    old_name = file_name(line[4:], labels_rel)
                elif line.startswith(b"+++ "):
                    name = file_name(line[4:], labels_rel) or old_name
                elif line.startswith(b"Binary files "):
                    name = None
                    break
            if name is None:
                continue
            base = name[len(labels_rel) + 1:]
            if base not in reviewers:
                reviewers[base] = reviewer_of(folder, base)
            fd = FileDiff(name, reviewers[base])
            if check_b in chunk and (run_b in chunk or context < MIN_CONTEXT):
                for hunk in hunks:
                    change = read_hunk(hunk, target, session, fd.reviewer)
                    if change is not None:
                        fd.unresolved = fd.unresolved or not change[1]
                        fd.change = change
            else:
                fd.unresolved = any(hides_change(h) for h in hunks)
            if fd.change is not None or fd.unresolved:
                files.append(fd)
        commits.append((sha, date, author, files))
    return commits


def hunk_starts(hunk: bytes) -> tuple[int, int, int, int] | None:
    """(old start, old length, new start, new length) of a hunk (its text after ``@@ ``)."""
    m = HUNK.match(hunk)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2) or b"1"), int(m.group(3)), int(m.group(4) or b"1")


def hides_change(hunk: bytes) -> bool:
    """True when a hunk changes lines above its first table header (not the file's top lines)."""
    starts = hunk_starts(hunk)
    if starts is None or min(starts[0], starts[2]) <= 1:
        return False
    found = [p for p in (hunk.find(b"\n " + HEADER_B), hunk.find(b"\n-" + HEADER_B), hunk.find(b"\n+" + HEADER_B)) if p >= 0]
    region = hunk[: min(found)] if found else hunk
    return b"\n-" in region or b"\n+" in region


def read_hunk(hunk: bytes, target: Target, session: str, reviewer: str) -> Change | None:
    """What one hunk did to the target, read line by line."""
    starts = hunk_starts(hunk)
    if starts is None:
        return None
    old_start, old_len, new_start, new_len = starts
    old: list[tuple[str, bool]] = []
    new: list[tuple[str, bool]] = []
    for raw in hunk.split(b"\n")[1:]:
        if len(old) >= old_len and len(new) >= new_len:
            break
        body = raw.decode("utf-8", "surrogateescape")
        tag, text = body[:1], body[1:]
        if tag == "-":
            old.append((text, True))
        elif tag == "+":
            new.append((text, True))
        elif tag in (" ", ""):
            old.append((text, False))
            new.append((text, False))
    return hunk_change(old, new, (old_start, new_start), target, session, reviewer)


def settle(g: GitSession, pending: list[tuple[str, str]], target: Target, session: str) -> dict[tuple[str, str], Change | None]:
    """Read both versions of each unresolved labels file (in-process) and compare."""
    result: dict[tuple[str, str], Change | None] = {}
    for sha, path in pending:
        before = label_in(file_at(g.repo, sha, path, parent=True), session, target)
        after = label_in(file_at(g.repo, sha, path), session, target)
        same = before == after or (before is not None and after is not None and before[1:] == after[1:])
        result[(sha, path)] = None if same else (after[0] if after else None, True)
    return result


def file_at(repo: Repo, sha: str, path: str, parent: bool = False) -> bytes | None:
    """The bytes of ``path`` (from the top level) at commit ``sha``, or at its first parent with
    ``parent``; None when the file (or the parent) is not there, is not a file, cannot be read or
    is bigger than :data:`BLOB_LIMIT`. Read through GitPython's object database: no git runs."""
    from git.objects import Commit
    from gitdb.exc import ODBError

    if not FULL_HASH.fullmatch(sha):
        return None
    try:
        commit = Commit(repo, bytes.fromhex(sha))
        if parent:
            if not commit.parents:
                return None
            commit = commit.parents[0]
        blob = commit.tree / path
        if blob.type != "blob" or blob.size > BLOB_LIMIT:
            return None
        data: bytes = blob.data_stream.read()
        return data
    except (KeyError, ValueError, TypeError, AssertionError, OSError, ODBError, zlib.error):
        return None


def label_in(data: bytes | None, session: str, target: Target) -> tuple[Label, Verdict, str, str, tuple[str, ...], str] | None:
    """The target's label in one version of a labels file, with the fields that matter."""
    if data is None:
        return None
    try:
        parsed = parse_labels(data, session, "?")
    except (Unreadable, ValueError):
        return None
    found = [lab for lab in parsed.labels if (lab.run, lab.check) == (target.run, target.check)]
    if not found:
        return None
    lab = max(found, key=lambda x: x.labelled_at)
    return (lab, lab.verdict, lab.note, lab.labelled_at, lab.tags, lab.evidence)
