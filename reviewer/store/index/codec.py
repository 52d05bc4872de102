"""Runs, checks, fingerprints and labels to plain JSON values and back, for the index cache.

Decoding trusts nothing: every value must have exactly the type a manifest or labels file
would have given, every path must be a normalised path inside the sessions root (the files a
slot depends on must be exactly the ones the run names), or :class:`BadEntry` is raised and the
entry is ignored.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, TypeVar

from reviewer.model import Attempt, AttemptFile, Check, CheckStatus, GraderRecord, Run
from reviewer.model.check import FAILING_STATUSES
from reviewer.model.label import Label, Verdict
from reviewer.model.rerun import Rerun
from reviewer.model.run import ACCESS_KINDS, OUTCOMES, LazyRun
from reviewer.store.fs.keys import Deps, StatKey
from reviewer.store.fs.untrusted import Unreadable, lexically_inside, simple_ref

T = TypeVar("T")
STATUSES = {s.value: s for s in CheckStatus}
OUTCOME_NAMES = {sys.intern(o): sys.intern(o) for o in OUTCOMES}
intern = sys.intern


class BadEntry(Exception):
    """An index entry that is not what the index writes."""


def text(value: Any) -> str:
    """A string, else BadEntry."""
    if type(value) is not str:
        raise BadEntry("expected a string")
    return value


def whole(value: Any) -> int:
    """An int (not a bool), else BadEntry."""
    if type(value) is not int:
        raise BadEntry("expected a whole number")
    return value


def ref(value: Any, base: str, empty: bool = False) -> str:
    """A path relative to the root that stays inside it ("" only when ``empty``).

    ``./rest`` is a path inside the run's folder ``base`` (how the index stores those, shorter).
    """
    if type(value) is not str:
        raise BadEntry("expected a path")
    if not value:
        if empty:
            return value
        raise BadEntry("empty path")
    inside = value.startswith("./")
    path = value[2:] if inside else value
    if not simple_ref(path):
        try:
            if not path or lexically_inside("", path) != path:
                raise BadEntry("path is not normalised")
        except Unreadable:
            raise BadEntry("path leaves the sessions folder") from None
    return f"{base}/{path}" if inside else path


def short(path: str, base: str) -> str:
    """How the index stores a path: ``./rest`` when it is inside ``base``."""
    return "./" + path[len(base) + 1:] if path.startswith(base) and path[len(base):len(base) + 1] == "/" else path


def shared(value: Any) -> str:
    """A string many runs repeat (task, model, command...), kept once in memory."""
    if type(value) is not str:
        raise BadEntry("expected a string")
    return sys.intern(value) if len(value) < 200 else value


def items(value: Any) -> list[Any]:
    """A list, else BadEntry."""
    if type(value) is not list:
        raise BadEntry("expected a list")
    return value


def decode_key(raw: Any) -> StatKey:
    """A stat key: four whole numbers, or none for a missing file."""
    if type(raw) is not list or len(raw) not in (0, 4) or any(type(v) is not int for v in raw):
        raise BadEntry("bad stat key")
    return tuple(raw)


def decode_keyed(raw: Any, refs: list[str], base: str, decode: Callable[[Any], T]) -> tuple[Deps, T]:
    """``[[[path, key], ...], value]``: the files ``refs`` with their keys, and what was derived."""
    pair = items(raw)
    if len(pair) != 2:
        raise BadEntry("bad slot")
    deps = items(pair[0])
    if len(deps) != len(refs):
        raise BadEntry("the slot depends on other files than the run names")
    keys = []
    for dep, want in zip(deps, refs):
        if type(dep) is not list or len(dep) != 2 or ref(dep[0], base) != want:
            raise BadEntry("the slot depends on other files than the run names")
        keys.append(decode_key(dep[1]))
    return tuple(zip(refs, keys)), decode(pair[1])


def encode_keyed(deps: Deps, value: Any, base: str) -> str:
    """A slot as compact JSON (paths inside the run's folder ``base`` kept short)."""
    return dumps([[[short(path, base), list(key)] for path, key in deps], value])


def dumps(value: Any) -> str:
    """Compact ASCII JSON (never holds a tab or a newline)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def output_refs(run: Run) -> list[str]:
    """The grader outputs the run's checks are parsed from, in grader order.

    A lazy run from the index knows them without reading its details (counting 100,000 runs
    from the index then keeps their details unread, and out of memory).
    """
    if type(run) is LazyRun and not run.filled:
        try:
            return list(run.outputs)
        except AttributeError:  # made whole by the dataclass constructor
            pass
    return [g.output_ref for g in run.graders if g.checks is None and g.output_ref]


def hashed_refs(run: Run) -> list[str]:
    """Every file an evidence fingerprint of this run may hash (brief, graded files, outputs)."""
    refs = {run.brief_ref} if run.brief_ref else set()
    for g in run.graders:
        attempt = run.attempt(g.attempt)
        refs.update(f.ref for f in (attempt.files if attempt else ()))
        if g.output_ref:
            refs.add(g.output_ref)
    return sorted(refs)


def decode_hashes(raw: Any) -> dict[str, str]:
    """Evidence fingerprints by check id."""
    if type(raw) is not dict:
        raise BadEntry("fingerprints are not a table")
    for v in raw.values():
        if type(v) is not str or not v.startswith("sha256:") or len(v) > 80:
            raise BadEntry("bad fingerprint")
    return raw


def encode_labels(reviewer: str, labels: tuple[Label, ...]) -> str:
    """A labels file's reviewer and labels as compact JSON."""
    return dumps([reviewer, [[x.run, x.check, x.verdict.value, x.labelled_at, x.evidence, list(x.tags), x.note]
                             for x in labels]])


VERDICTS = {v.value: v for v in Verdict}


def decode_labels(raw: Any, session: str) -> tuple[str, tuple[Label, ...]]:
    """A labels file's reviewer and labels, as ``parse_labels`` gave them."""
    pair = items(raw)
    if len(pair) != 2 or type(pair[0]) is not str or not pair[0]:
        raise BadEntry("bad labels")
    reviewer = pair[0]
    out = []
    for row in items(pair[1]):
        if type(row) is not list or len(row) != 7 or row[2] not in VERDICTS or type(row[5]) is not list:
            raise BadEntry("bad label")
        run, check, _, at, evidence, tags, note = row
        if not all(type(x) is str for x in (run, check, at, evidence, note, *tags)) or not run or not check:
            raise BadEntry("bad label")
        out.append(Label(session, run, check, VERDICTS[row[2]], reviewer, at, evidence, tuple(tags), note))
    return reviewer, tuple(out)


def encode_check(c: Check) -> list[Any]:
    """A check as a list (the name "" when it is the key)."""
    return [c.key, "" if c.name == c.key else c.name, c.status.value, c.message, c.location]


def decode_check(raw: Any) -> Check:
    """A check from a list."""
    v = items(raw)
    if len(v) != 5 or v[2] not in STATUSES:
        raise BadEntry("bad check")
    key = text(v[0])
    return Check(key, text(v[1]) or key, STATUSES[v[2]], text(v[3]), text(v[4]))


def decode_failing(raw: Any) -> tuple[tuple[str, Check], ...]:
    """Failing checks as (grader, check)."""
    out = []
    for row in items(raw):
        v = items(row)
        if len(v) != 6:
            raise BadEntry("bad failing check")
        check = decode_check(v[1:])
        if check.status not in FAILING_STATUSES:
            raise BadEntry("a failing check that does not fail")
        out.append((text(v[0]), check))
    return tuple(out)


def encode_head(run: Run) -> list[Any]:
    """What the run list and the count need at once: task, model, outcome, then the outputs."""
    base = run.manifest.rpartition("/")[0]
    return [run.task, run.model, run.outcome, *(short(r, base) for r in output_refs(run))]


def encode_body(run: Run) -> list[Any]:
    """The rest of a run (:data:`reviewer.model.run.LAZY_FIELDS`, in order); ids and manifest path
    are the entry's key, not stored."""
    base = run.manifest.rpartition("/")[0]
    return [
        run.access, short(run.brief_ref, base), short(run.transcript_ref, base), run.expected_dir,
        [[a.number, a.note, [[f.path, short(f.ref, base), f.outside_expected] for f in a.files]] for a in run.attempts],
        [[g.name, g.attempt, g.command, g.cwd, g.exit_status, short(g.output_ref, base), g.format,
          [short(r, base) for r in g.source_refs], None if g.checks is None else [encode_check(c) for c in g.checks]]
         + ([] if g.rerun is None else [encode_rerun(g.rerun, base)])
         for g in run.graders],
        run.metadata,
    ]


def decode_head(raw: Any, base: str) -> tuple[StatKey, str, str, str, tuple[str, ...]]:
    """``[size, mtime, ctime, inode, task, model, outcome, output...]``: the manifest's key, the
    list fields and the grader outputs checks are parsed from (paths inside the root).

    Written out flat: a warm open decodes one per run.
    """
    if type(raw) is not list or len(raw) < 7:
        raise BadEntry("bad entry head")
    size, mtime, ctime, inode, task, model, outcome = raw[:7]
    if type(size) is not int or type(mtime) is not int or type(ctime) is not int or type(inode) is not int:
        raise BadEntry("bad stat key")
    if type(task) is not str or type(model) is not str:
        raise BadEntry("expected a string")
    outcome = OUTCOME_NAMES.get(outcome) if type(outcome) is str else None
    if outcome is None:
        raise BadEntry("bad outcome")
    count = len(raw)
    if count == 7:
        outputs: tuple[str, ...] = ()
    elif count == 8:  # the usual run: one grader output
        outputs = (ref(raw[7], base),)
    else:
        outputs = tuple([ref(r, base) for r in raw[7:]])
    return ((size, mtime, ctime, inode), intern(task) if len(task) < 200 else task,
            intern(model) if len(model) < 200 else model, outcome, outputs)


def decode_attempt(raw: Any, base: str) -> Attempt:
    """An attempt from a list."""
    v = items(raw)
    if len(v) != 3:
        raise BadEntry("bad attempt")
    files = []
    for f in items(v[2]):
        if type(f) is not list or len(f) != 3 or type(f[2]) is not bool:
            raise BadEntry("bad attempt file")
        files.append(AttemptFile(shared(f[0]), ref(f[1], base), f[2]))
    return Attempt(whole(v[0]), tuple(files), shared(v[1]))


def encode_rerun(r: Rerun, base: str) -> list[Any]:
    """A grader's ``[grader.rerun]`` as a list (paths inside the run's folder kept short)."""
    return [r.command, r.cwd, r.runtime, [short(f, base) for f in r.files], [short(f, base) for f in r.setup],
            list(r.remove), r.program, list(r.reads), r.time_limit, [list(p) for p in r.env], r.problem]


def decode_rerun(raw: Any, base: str) -> Rerun:
    """A ``[grader.rerun]`` from :func:`encode_rerun`'s list."""
    v = items(raw)
    if len(v) != 11 or type(v[8]) is not float:
        raise BadEntry("bad rerun")
    env = []
    for pair in items(v[9]):
        p = items(pair)
        if len(p) != 2:
            raise BadEntry("bad rerun env")
        env.append((text(p[0]), text(p[1])))
    return Rerun(text(v[0]), text(v[1]), text(v[2]), tuple(ref(f, base) for f in items(v[3])),
                 tuple(ref(f, base) for f in items(v[4])), tuple(text(x) for x in items(v[5])), text(v[6]),
                 tuple(text(x) for x in items(v[7])), v[8], tuple(env), text(v[10]))


def decode_grader(raw: Any, base: str) -> GraderRecord:
    """A grader record from a list (a tenth item is its rerun table)."""
    v = items(raw)
    if len(v) not in (9, 10):
        raise BadEntry("bad grader")
    exit_status = v[4]
    if exit_status is not None:
        whole(exit_status)
    checks = None if v[8] is None else tuple(decode_check(c) for c in items(v[8]))
    name = shared(v[0])
    if not name.strip() or "#" in name or "/" in name or ":" in name:
        raise BadEntry("bad grader name")
    sources = tuple(ref(s, base) for s in items(v[7])) if v[7] else ()
    rerun = decode_rerun(v[9], base) if len(v) == 10 else None
    return GraderRecord(name, whole(v[1]), shared(v[2]), shared(v[3]), exit_status, ref(v[5], base, empty=True),
                        shared(v[6]), sources, checks, rerun)


def decode_body(raw: Any, manifest: str) -> tuple[Any, ...]:
    """The values of :data:`reviewer.model.run.LAZY_FIELDS` from :func:`encode_body`'s list."""
    v = items(raw)
    if len(v) != 7:
        raise BadEntry("bad run")
    if v[0] not in ACCESS_KINDS or type(v[6]) is not dict:
        raise BadEntry("bad run fields")
    base = manifest.rpartition("/")[0]
    graders = tuple(decode_grader(g, base) for g in items(v[5]))
    if len(graders) > 1 and len({g.name for g in graders}) != len(graders):
        raise BadEntry("grader names repeat")
    attempts = tuple(decode_attempt(a, base) for a in items(v[4]))
    return (sys.intern(v[0]), ref(v[1], base, empty=True), ref(v[2], base, empty=True), shared(v[3]), attempts,
            graders, v[6] or {})
