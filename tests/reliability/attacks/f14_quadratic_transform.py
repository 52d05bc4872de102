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
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from attacks import Outcome

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
    detail = "\n".join([
        f"old scanner: {old:.2f} s on {LIVE_CHARS:,} characters ({old_half:.2f} s on {LIVE_CHARS // 2:,}: "
        f"x{old / max(old_half, 1e-9):.1f} for twice the text)",
        f"this tree's transform: {new:.3f} s on {CONTAINED_CHARS:,} characters (keys renamed: {renamed == line.replace(' a=', ' b=')})",
        f"compare_grader on a grader reading {FILE_BYTES >> 20} MiB of such lines: cancel set {CANCEL_AFTER:g} s into the "
        f"repaired run, stopped {cancel} s later ({seen.get('cancelled')})",
        f"left alone: stopped {deadline} s into the repaired run ({str(seen.get('deadline'))[:160]})",
    ])
    figures = {"old_seconds_20kb": round(old, 2), "old_seconds_10kb": round(old_half, 2),
               "old_growth_for_twice_the_text": round(old / max(old_half, 1e-9), 1), "new_seconds_80kb": round(new, 3),
               "cancel_seconds": cancel, "deadline_seconds": deadline}
    return Outcome(contained, live, detail, figures)
