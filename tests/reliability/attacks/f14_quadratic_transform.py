"""Finding 14 (finding 4 of the 'promises under attack' pass): a file a checker ``reads`` holding
one long line of ``" a=["`` made the key-rename repair quadratic (10 s at 20 KB, 197 s at 80 KB),
on the host, before the sandbox starts and with no deadline; escape left "cancelling" on screen.

Every ``a=`` opens a bracket that never closes, and the old field scanner (kept here verbatim from
``reviewer/rescore/transform.py`` before the fix, as the attack's reference) walked to the end of
the line from each one.

Live: the old scanner timed on :data:`LIVE_CHARS` characters of the line takes longer than
this tree's transform is allowed on four times as much (:data:`TRANSFORM_SECONDS`); it is also
timed on half as much, to show the growth (a linear scanner doubles, this one quadruples).

Contained: this tree's transform renames the keys of :data:`CONTAINED_CHARS` characters of the line
within :data:`TRANSFORM_SECONDS`; and on the real re-score path (``compare_grader``, the sandbox
for real) of a crafted run whose grader ``reads`` a file of :data:`FILE_BYTES` bytes of such lines,
the repaired run's re-expression on the host stops within :data:`CANCEL_SECONDS` of cancel being
set (the re-score raises ``Cancelled`` from the staging, nothing is run) and, left alone, stops
at its deadline (``NotRerunnable`` naming it) within :data:`DEADLINE_SECONDS`.

Variant: the file the checker ``reads`` is one JSON document (``{"a":[{"a":1},...]}``), which the
transform parses, repairs and writes back whole: before the fix it never asked to stop on the way,
so cancel and the deadline went unheard until the end, and the host held every parsed value
meanwhile. Each re-score of the variant runs in a Python of its own (its peak memory a figure), on
the real re-score path, with cancel set :data:`JSON_CANCEL_AFTER` s after the re-expression began.
Live: with the transform and the staging as they were (:func:`old_apply_repairs` and
:func:`old_repair_json`, kept here verbatim; no cap on a JSON document), a document of
:data:`JSON_VALUES` values is re-expressed without one question to stop, over more than
:data:`CANCEL_SECONDS` of CPU, and cancel is heard only after it, by the sandbox. Contained: this
tree refuses that document before parsing it (over ``stage.JSON_CAP``: a ``NotRerunnable`` saying
so, nothing run), and a document under the cap (:data:`JSON_VALUES_UNDER_CAP` values) is asked to
stop along the way: cancel heard by the re-expression itself (the staging raises), and, cancelled or
left alone, never more than :data:`CANCEL_SECONDS` of CPU without a question. The stretches are
bounded in CPU seconds of the re-expressing thread, which a loaded machine does not lengthen; the
seconds on the clock are figures.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attacks import Outcome
from reviewer.rescore.transform import (
    NOT_JSON,
    as_json,
    each_repair,
    json_scalar,
    json_text,
    list_items,
    per_line,
    repair_one,
    shaped,
)

FINDING = 14
TITLE = "a file a checker reads, one long line of ' a=[', made the key-rename repair quadratic on the host with no deadline"
PIECE = " a=["
LIVE_CHARS = 20_000
CONTAINED_CHARS = 80_000
TRANSFORM_SECONDS = 1.0
"""This tree's bound on renaming the keys of :data:`CONTAINED_CHARS` characters (0.06 s here)."""
LINE_CHARS = 200_000
"""One line of the grader's file: under the transform's 256 KiB line cap, so it is repaired."""
FILE_BYTES = 64 << 20
"""The grader's file: as big as a staged file may be (``stage.FILE_CAP``)."""
CANCEL_AFTER = 2.0
"""Seconds after the repaired run begins that cancel is set (its 64 MiB are staged by then and
the re-expression has started: it takes tens of seconds in all)."""
CANCEL_SECONDS = 1.0
DEADLINE_SECONDS = 15.0
"""The staging's deadline is 10 s (``stage.REPAIR_SECONDS``); the bound allows for a loaded machine."""
REPAIR = "rename-key:a:b"
CHECKER = "import sys\nprint('FAIL: the data file was read')\nsys.exit(1)\n"
JSON_VALUES = 2_500_000
"""Objects ``{"a":1}`` in the variant's document: 19 MiB, past ``stage.JSON_CAP`` (4 MiB); the old
transform takes seconds of CPU over it and some 1,000 MiB (the finding's 48 MB took more than twice both)."""
JSON_VALUES_UNDER_CAP = 450_000
"""Objects in the document just under the cap (7 MiB): this tree re-expresses it, asking to stop."""
JSON_CANCEL_AFTER = 0.1
"""Seconds after the re-expression of the document begins that cancel is set."""


# ``value_end`` and ``fields`` of reviewer/rescore/transform.py before the fix, verbatim but for
# their names and the module's constants they read.
def old_value_end(line: str, start: int) -> int:
    """Where a ``key=`` value that begins at ``start`` ends."""
    from reviewer.rescore.transform import CLOSERS

    if start >= len(line):
        return start
    opener = line[start]
    closer = CLOSERS.get(opener)
    if closer in ('"', "'"):
        j = line.find(closer, start + 1)
        if j != -1:
            return j + 1
    elif closer:
        depth = 0
        for i in range(start, len(line)):
            if line[i] == opener:
                depth += 1
            elif line[i] == closer:
                depth -= 1
                if depth == 0:
                    return i + 1
    j = start
    while j < len(line) and not line[j].isspace():
        j += 1
    return j


def old_fields(line: str) -> list[tuple[int, int, int, int]]:
    """Every field of one line, left to right."""
    from reviewer.rescore.transform import COLON_FIELD, KEY

    m = COLON_FIELD.match(line)
    if m and "=" not in m.group("key"):
        return [(m.start("key"), m.end("key"), m.start("value"), m.end("value"))]
    found: list[tuple[int, int, int, int]] = []
    i = 0
    while i < len(line):
        if line[i].isspace() or (i and not line[i - 1].isspace()):
            i += 1
            continue
        k = KEY.match(line, i)
        if k and k.end() < len(line) and line[k.end()] == "=":
            start = k.end() + 1
            end = old_value_end(line, start)
            found.append((k.start(), k.end(), start, end))
            i = max(end, start)
            continue
        while i < len(line) and not line[i].isspace():
            i += 1
    return found


# ``repair_json`` and ``apply_repairs`` of reviewer/rescore/transform.py before the fix, verbatim
# but for their names and the module's names they read.
def old_repair_json(value: Any, kind: str, args: list[str]) -> Any:
    """One repair applied to a JSON value, at every depth."""
    if isinstance(value, list):
        return [old_repair_json(v, kind, args) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if kind == "rename-key" and key == args[0]:
            key = args[1]
        elif kind == "map-value" and (not args[0] or key == args[0]) and json_text(item) == args[1]:
            item = json_scalar(args[2], item)
        elif kind == "separator" and key == args[0] and isinstance(item, str):
            item = item.replace(args[1], args[2])
        elif kind == "reserialise" and key == args[0]:
            items = [str(x) for x in item] if isinstance(item, list) else list_items(str(item))
            item = items if args[1] == "json-list" else shaped(items, args[1])
        out[key] = old_repair_json(item, kind, args)
    return out


def old_apply_repairs(text: str, repairs: Any, stop: Callable[[], bool] | None = None) -> str:
    """``text`` with every text repair applied in order; other kinds leave it alone. Linear in the
    text; ``stop`` is asked before every line (raising :class:`Stopped`), and a line longer than
    :data:`MAX_LINE` is left as printed."""
    todo = list(each_repair(repairs))
    if not todo:
        return text
    doc = as_json(text)
    if doc is not NOT_JSON:
        for kind, args in todo:
            doc = old_repair_json(doc, kind, args)
        tail = text[len(text.rstrip()):]
        return json.dumps(doc, ensure_ascii=False) + tail
    return per_line(text, todo, lambda line, kind, args: repair_one(line, kind, args), stop)


JSON_RUNNER = r"""
import json, resource, sys, threading, time
mode, root, here, cancel_after = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
sys.path[:0] = [here, here + "/../rescore", here + "/.."]  # rescorekit imports sessionkit (tests/)
from rescorekit import sandbox_tool
from reviewer.model.repair import parse_repair
from reviewer.rescore import stage, transform
from reviewer.rescore.engine import NotRerunnable, compare_grader
from reviewer.rescore.sandbox import Cancelled
from reviewer.store.sessions import SessionStore

imported_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
if mode == "old":  # the transform and the staging as they were: no cap on a JSON document, no question to stop in it
    from attacks.f14_quadratic_transform import old_apply_repairs
    stage.JSON_CAP = float("inf")
    transform.apply_repairs = old_apply_repairs
flag, marks, polls, cpu = threading.Event(), {}, [], []
apply = transform.apply_repairs

def ask():
    marks["asked"] = time.monotonic()
    flag.set()

def watched(text, repairs, stop=None):
    marks["start"], marks["thread"] = time.monotonic(), threading.get_ident()
    cpu.append(time.thread_time())
    if cancel_after >= 0:
        timer = threading.Timer(cancel_after, ask)
        timer.daemon = True
        timer.start()
    try:
        return apply(text, repairs, stop)
    finally:
        marks["end"] = time.monotonic()
        cpu.append(time.thread_time())

def cancel():
    if "start" in marks and "end" not in marks and threading.get_ident() == marks["thread"]:
        polls.append(time.monotonic())
        cpu.append(time.thread_time())
    return flag.is_set()

def progress(message, _fraction):
    if message == "repaired run":
        marks.setdefault("repaired", time.monotonic())

transform.apply_repairs = watched
store = SessionStore(__import__("pathlib").Path(root), use_index=False)
store.scan()
try:
    compare_grader(store, store.run("s1/r1"), "check", (parse_repair(sys.argv[5]),), tool=sandbox_tool(), cancel=cancel,
                   progress=progress)
    outcome, message = "ran", "the re-score ran to the end"
except Cancelled as exc:
    outcome, message = "cancelled", str(exc)
except NotRerunnable as exc:
    outcome, message = "refused", str(exc)
ended = time.monotonic()
points = [marks["start"], *polls, marks.get("end", ended)] if "start" in marks else []
print(json.dumps({
    "outcome": outcome, "message": message, "polls": len(polls),
    "cancel_seconds": round(ended - marks["asked"], 3) if "asked" in marks else None,
    "reexpressed_seconds": round(marks.get("end", ended) - marks["start"], 2) if "start" in marks else None,
    "longest_unasked_seconds": round(max(b - a for a, b in zip(points, points[1:])), 3) if len(points) > 1 else None,
    "longest_unasked_cpu_seconds": round(max(b - a for a, b in zip(cpu, cpu[1:])), 3) if len(cpu) > 1 else None,
    "from_repaired_run_seconds": round(ended - marks["repaired"], 2) if "repaired" in marks else None,
    "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10, "imported_rss_mib": imported_rss}))
"""


def json_document(values: int) -> bytes:
    """One JSON document of ``values`` objects, each with a key the repair renames."""
    return b'{"a":[' + b",".join([b'{"a":1}'] * values) + b"]}"


def json_rescore(mode: str, root: Path, cancel_after: float = JSON_CANCEL_AFTER) -> dict[str, Any]:
    """The real re-score of the run whose grader reads the document, in a Python of its own
    (``mode``: "old", the transform and staging as they were; "new", this tree's), cancel set
    ``cancel_after`` s into the re-expression (negative: never)."""
    here = str(Path(__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", JSON_RUNNER, mode, str(root), here, str(cancel_after), REPAIR],
                          capture_output=True, text=True, timeout=300, check=False, cwd=root)
    try:
        seen: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        seen = {"outcome": "crashed", "message": done.stderr[-1500:]}
    return seen


def json_variant(root: Path) -> dict[str, dict[str, Any]]:
    """The old and new re-score of the document past the cap, then this tree's of one under it
    (cancelled, then left alone)."""
    from rescorekit import synthetic

    synthetic(root, {"data.json": ""}, CHECKER, {"reads": ["data.json"]})
    data = root / "s1" / "runs" / "r1" / "attempts" / "1" / "data.json"
    data.write_bytes(json_document(JSON_VALUES))
    size = data.stat().st_size
    seen = {"old": json_rescore("old", root), "new": json_rescore("new", root)}
    data.write_bytes(json_document(JSON_VALUES_UNDER_CAP))
    seen["under_cap"] = json_rescore("new", root)
    seen["under_cap_whole"] = json_rescore("new", root, -1.0)
    seen["sizes"] = {"document_mib": round(size / (1 << 20), 1), "under_cap_mib": round(data.stat().st_size / (1 << 20), 1)}
    return seen


def crafted(chars: int) -> str:
    """``chars`` characters of the crafted line."""
    return (PIECE * (chars // len(PIECE) + 1))[:chars]


def timed(fn: Callable[..., object], *args: object) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    fn(*args)
    return time.perf_counter() - started


def build(root: Path) -> Path:
    """A sessions folder whose run's grader ``reads`` data.txt, :data:`FILE_BYTES` of crafted lines."""
    from rescorekit import synthetic

    synthetic(root, {"data.txt": ""}, CHECKER, {"reads": ["data.txt"]})
    line = (crafted(LINE_CHARS) + "\n").encode()
    with open(root / "s1" / "runs" / "r1" / "attempts" / "1" / "data.txt", "wb") as fh:
        for _ in range(FILE_BYTES // len(line)):
            fh.write(line)
    return root


def rescore_path(root: Path) -> dict[str, object]:
    """The real re-score of the crafted run, cancelled while the repaired run's file is re-expressed,
    then left to its deadline."""
    from rescorekit import sandbox_tool

    from reviewer.model.repair import parse_repair
    from reviewer.rescore.engine import NotRerunnable, compare_grader
    from reviewer.rescore.sandbox import Cancelled
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root, use_index=False)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None
    repairs = (parse_repair(REPAIR),)
    flag = threading.Event()
    asked: list[float] = []

    def progress(message: str, _fraction: float) -> None:
        if message == "repaired run" and not asked:
            def ask() -> None:
                asked.append(time.monotonic())
                flag.set()
            timer = threading.Timer(CANCEL_AFTER, ask)
            timer.daemon = True
            timer.start()

    seen: dict[str, object] = {}
    try:
        compare_grader(store, run, "check", repairs, tool=sandbox_tool(), cancel=flag.is_set, progress=progress)
        seen["cancelled"] = "not cancelled: the re-score ran to the end"
    except Cancelled as exc:
        seen["cancel_seconds"] = round(time.monotonic() - asked[0], 3) if asked else None
        seen["cancelled"] = str(exc)
    started: list[float] = []

    def mark(message: str, _fraction: float) -> None:
        if message == "repaired run":
            started.append(time.monotonic())

    try:
        compare_grader(store, run, "check", repairs, tool=sandbox_tool(), progress=mark)
        seen["deadline"] = "no deadline: the re-score ran to the end"
    except NotRerunnable as exc:
        seen["deadline_seconds"] = round(time.monotonic() - started[0], 2) if started else None
        seen["deadline"] = str(exc)
    return seen


def check(work: Path) -> Outcome:
    """Time the old scanner, then this tree's transform and the real re-score path."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rescore"))
    from reviewer.rescore.transform import apply_repairs

    old_half = timed(old_fields, crafted(LIVE_CHARS // 2))
    old = timed(old_fields, crafted(LIVE_CHARS))
    live = old > TRANSFORM_SECONDS
    line = crafted(CONTAINED_CHARS)
    new = timed(apply_repairs, line, [["rename-key", ["a", "b"]]])
    renamed = apply_repairs(line, [["rename-key", ["a", "b"]]])
    seen = rescore_path(build(work / "sessions"))
    cancel = seen.get("cancel_seconds")
    deadline = seen.get("deadline_seconds")
    staged_cancel = seen.get("cancelled") == "the re-score was cancelled"  # raised from the staging, not the sandbox
    contained = (new < TRANSFORM_SECONDS and renamed == line.replace(" a=", " b=")
                 and staged_cancel and isinstance(cancel, float) and cancel < CANCEL_SECONDS
                 and isinstance(deadline, float) and deadline < DEADLINE_SECONDS
                 and "took longer than 10 s" in str(seen.get("deadline")))
    variant = json_variant(work / "json-sessions")
    old_json, new_json, under, whole = variant["old"], variant["new"], variant["under_cap"], variant["under_cap_whole"]
    live = (live and old_json["outcome"] == "cancelled" and "sandbox was killed" in old_json["message"]
            and old_json["polls"] == 0 and (old_json["longest_unasked_cpu_seconds"] or 0) > CANCEL_SECONDS)
    contained = (contained and new_json["outcome"] == "refused" and "one JSON document" in new_json["message"]
                 and new_json["reexpressed_seconds"] is None
                 and under["outcome"] == "cancelled" and under["message"] == "the re-score was cancelled"
                 and under["polls"] > 0 and (under["longest_unasked_cpu_seconds"] or CANCEL_SECONDS) < CANCEL_SECONDS
                 and whole["outcome"] == "ran" and whole["polls"] > 0
                 and (whole["longest_unasked_cpu_seconds"] or CANCEL_SECONDS) < CANCEL_SECONDS)
    detail = "\n".join([
        f"old scanner: {old:.2f} s on {LIVE_CHARS:,} characters ({old_half:.2f} s on {LIVE_CHARS // 2:,}: "
        f"x{old / max(old_half, 1e-9):.1f} for twice the text)",
        f"this tree's transform: {new:.3f} s on {CONTAINED_CHARS:,} characters (keys renamed: {renamed == line.replace(' a=', ' b=')})",
        f"compare_grader on a grader reading {FILE_BYTES >> 20} MiB of such lines: cancel set {CANCEL_AFTER:g} s into the "
        f"repaired run, stopped {cancel} s later ({seen.get('cancelled')})",
        f"left alone: stopped {deadline} s into the repaired run ({str(seen.get('deadline'))[:160]})",
        f"a grader reading one JSON document of {variant['sizes']['document_mib']} MiB ({JSON_VALUES:,} objects), cancel "
        f"set {JSON_CANCEL_AFTER:g} s into its re-expression:",
        f"  the transform and staging before the fix: re-expressed for {old_json.get('reexpressed_seconds')} s "
        f"({old_json.get('longest_unasked_cpu_seconds')} s of CPU) asking to stop {old_json.get('polls')} times; cancel heard {old_json.get('cancel_seconds')} s later ({old_json.get('message')}); "
        f"peak memory {old_json.get('peak_rss_mib')} MiB",
        f"  this tree: {new_json.get('outcome')} {new_json.get('from_repaired_run_seconds')} s into the repaired run "
        f"({new_json.get('message')}); peak memory {new_json.get('peak_rss_mib')} MiB",
        f"  this tree, {variant['sizes']['under_cap_mib']} MiB ({JSON_VALUES_UNDER_CAP:,} objects, under the cap): asked to stop "
        f"{under.get('polls')} times, at most {under.get('longest_unasked_seconds')} s apart "
        f"({under.get('longest_unasked_cpu_seconds')} s of CPU); cancel heard "
        f"{under.get('cancel_seconds')} s later ({under.get('message')}); peak memory {under.get('peak_rss_mib')} MiB",
        f"  the same left alone: re-expressed in {whole.get('reexpressed_seconds')} s asking to stop {whole.get('polls')} times, "
        f"at most {whole.get('longest_unasked_seconds')} s apart ({whole.get('longest_unasked_cpu_seconds')} s of CPU; "
        f"the parse and the writing back are one step each); "
        f"{whole.get('message')}; peak memory {whole.get('peak_rss_mib')} MiB",
        f"  (peak memory: of the re-score's own Python, {old_json.get('imported_rss_mib')} MiB once its modules were imported)",
    ])
    figures = {"old_seconds_20kb": round(old, 2), "old_seconds_10kb": round(old_half, 2),
               "old_growth_for_twice_the_text": round(old / max(old_half, 1e-9), 1), "new_seconds_80kb": round(new, 3),
               "cancel_seconds": cancel, "deadline_seconds": deadline,
               "json_document_mib": variant["sizes"]["document_mib"],
               "json_old_reexpressed_seconds": old_json.get("reexpressed_seconds"), "json_old_polls": old_json.get("polls"),
               "json_old_cancel_seconds": old_json.get("cancel_seconds"),
               "json_old_unasked_cpu_seconds": old_json.get("longest_unasked_cpu_seconds"), "json_old_peak_rss_mib": old_json.get("peak_rss_mib"),
               "json_new_outcome": new_json.get("outcome"), "json_new_refused_seconds": new_json.get("from_repaired_run_seconds"),
               "json_new_peak_rss_mib": new_json.get("peak_rss_mib"),
               "json_under_cap_mib": variant["sizes"]["under_cap_mib"], "json_under_cap_polls": under.get("polls"),
               "json_under_cap_longest_unasked_seconds": under.get("longest_unasked_seconds"),
               "json_under_cap_cancel_seconds": under.get("cancel_seconds"), "json_under_cap_peak_rss_mib": under.get("peak_rss_mib"),
               "json_under_cap_whole_seconds": whole.get("reexpressed_seconds"),
               "json_under_cap_whole_longest_unasked_seconds": whole.get("longest_unasked_seconds"),
               "json_under_cap_whole_longest_unasked_cpu_seconds": whole.get("longest_unasked_cpu_seconds"),
               "json_imported_rss_mib": old_json.get("imported_rss_mib")}
    return Outcome(contained, live, detail, figures)
