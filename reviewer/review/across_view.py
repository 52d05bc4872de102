"""The across-models view (``a``) and the task x model matrix (``M``), as the review shows them.

Reading is split from showing. :func:`read_across` and :func:`read_grid` read the folder (every
run of a task, every run of the folder) and run in worker threads; what they return is frozen.
:func:`across_lines`, :func:`task_rows` and :func:`check_rows` add this reviewer's labels to it
on the UI thread (in memory, so a label made meanwhile shows at once), and the other reviewers'
verdicts only as blind mode lets them through (:meth:`Reviewers.others`: hidden until this
reviewer has decided the failure, or revealed it with ``r``). :func:`open_check` moves the
review to a run's failure, or to the run with the check picked when it does not fail there.
No Textual; every recorded string leaves here sanitised and on one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, replace

from reviewer.analysis.evidence.across import Across, Matrix, find_check, task_matrix, tasks
from reviewer.analysis.reading.pairs import body
from reviewer.analysis.reading.scan import Cancel, poll
from reviewer.model.records import record
from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.review.outcome import Outcome, Work, asking_for, saying
from reviewer.review.selection import Target
from reviewer.review.session import ReviewSession
from reviewer.store.sessions.protocol import Store

RESULT_MARKS: dict[str, str] = {"pass": "\u2713", "fail": "\u2717", "error": "!", "skip": "-", "absent": "\u00b7"}
"""One character per check result (``absent``: the run has no such check)."""
VERDICT_MARKS: dict[str, str] = {"specification": "\u25c6", "capability": "\u25b2", "deferred": "\u2026", "stale": "\u27f3"}
"""This reviewer's verdict as a mark (the theme's symbols take precedence where it has them)."""
FAILING = ("fail", "error")
MESSAGE_CAP = 300


def gist(message: str) -> str:
    """A failure text in one line: its first pytest ``E`` line, else its first line, sanitised."""
    lines = [ln for ln in message[:20_000].splitlines() if ln.strip()]
    pick = next((ln for ln in lines if ln.lstrip().startswith("E ")), lines[0] if lines else "")
    return one_line(body(pick), MESSAGE_CAP)


def mark_of(verdict: str, symbols: Mapping[str, str] | None = None) -> str:
    """The mark of a verdict ("" for none)."""
    if not verdict:
        return ""
    return (symbols or {}).get(verdict) or VERDICT_MARKS.get(verdict, "?")


# ---- the check across models -------------------------------------------------------------------


@record
class AcrossFound:
    """What the worker read for the across view.

    Attributes:
        failure_id: the failure the view was opened on.
        across: the check across every run of the task.
        messages: run key -> that run's failure message on the check, in one line ("" when it passes).
    """

    failure_id: str
    across: Across
    messages: Mapping[str, str] = field(default_factory=dict)


@record
class AcrossLine:
    """One run's row as the view shows it.

    Attributes:
        run, model, result, looked_at, notation, failure_id, current: as
            :class:`~reviewer.analysis.evidence.across.AcrossRow` (sanitised).
        message: its message on the check, in one line.
        mine: this reviewer's verdict on the failure ("" when none or when it passes).
        others: (reviewer, verdict) of the other reviewers blind mode lets through.
        hidden: how many other reviewers' verdicts blind mode hides.
    """

    run: str
    model: str
    result: str
    message: str = ""
    looked_at: str = ""
    notation: str = ""
    failure_id: str = ""
    current: bool = False
    mine: str = ""
    others: tuple[tuple[str, str], ...] = ()
    hidden: int = 0


def read_across(session: ReviewSession, fid: str, cancel: Cancel | None = None) -> AcrossFound:
    """The check of a failure across every run of its task (worker thread: reads many runs)."""
    from reviewer.analysis.evidence.across import across

    run, failure = session.labeller.find(fid)
    ev = session.evidence(fid, cancel or (lambda: False))
    found = across(session.store, run, failure, ev, cancel)
    messages: dict[str, str] = {}
    runs = {r.key: r for r in session.store.runs}
    for row in found.rows:
        poll(cancel)
        other = runs.get(row.run)
        check = find_check(session.store, other, found.grader, found.check) if other is not None else None
        messages[row.run] = gist(check.message) if check is not None and check.failing else ""
    return AcrossFound(fid, found, messages)


def across_lines(session: ReviewSession, found: AcrossFound) -> tuple[AcrossLine, ...]:
    """The rows with this reviewer's labels and what blind mode lets through of the others'."""
    out = []
    everyone = session.walking.disagreements
    for r in found.across.rows:
        mine, hidden = "", 0
        others: tuple[tuple[str, str], ...] = ()
        if r.failure_id:
            label = session.decisions.label(r.failure_id)
            mine = session.decisions.verdict(r.failure_id)
            seen = session.reviewers.others(r.failure_id, label, everyone)
            others = tuple((one_line(lab.reviewer, 40), lab.verdict.value) for lab in seen.shown
                           if lab.reviewer != session.reviewer)
            hidden = seen.hidden
        out.append(AcrossLine(one_line(r.run, 200), one_line(r.model, 60), r.result, found.messages.get(r.run, ""),
                              one_line(r.looked_at, 80), one_line(r.notation, 40), r.failure_id, r.current,
                              mine, others, hidden))
    return tuple(out)


def across_heading(found: AcrossFound) -> str:
    """``check oracle:... of task fast-expt (reads mults) · 5 of 6 models fail this check``."""
    a = found.across
    head = f"check {one_line(a.grader, 60)}:{one_line(a.check, 120)} of task {one_line(a.task, 60)}"
    if a.keys:
        head += f" (reads {one_line(', '.join(a.keys), 80)})"
    return head + " \u00b7 " + (one_line(a.hint, 300) if a.hint else f"{a.failing} of {a.total} fail this check")


# ---- the task x model matrix -------------------------------------------------------------------


@record
class Grid:
    """Every task's matrix, for the matrix screen (read in a worker).

    Attributes:
        tasks: the folder's tasks, sorted.
        models: every model of the folder, sorted.
        matrices: task -> its check x run matrix (without verdicts; they are added when shown).
    """

    tasks: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    matrices: Mapping[str, Matrix] = field(default_factory=dict)


@record
class Cell:
    """One cell: what it shows and where enter goes (``failing``: the check fails there).

    Attributes:
        text: the marks (``✗ ◆``, ``✓``, ``✗3 ◆1 ▲1``, ``·``).
        tone: ``pass``, ``fail``, ``labelled`` (every failure decided by this reviewer) or ``none``.
        run: the run enter opens ("" for nowhere).
        check: the check id enter opens in that run ("" for its first failure).
    """

    text: str
    tone: str = "none"
    run: str = ""
    check: str = ""
    failing: bool = False


@record
class GridRow:
    """A row: its title (a task, or a check id), its cells in column order, and its share."""

    key: str
    title: str
    cells: tuple[Cell, ...]
    share: str


def read_grid(store: Store, cancel: Cancel | None = None) -> Grid:
    """Every task's matrix (worker thread: reads every run's grader output)."""
    names = tasks(store)
    matrices = {t: task_matrix(store, t, cancel=cancel) for t in names}
    models = sorted({r.model for r in store.runs})
    return Grid(tuple(names), tuple(models), matrices)


def run_columns(m: Matrix) -> tuple[tuple[str, str], ...]:
    """The runs of a task as columns: (run key, header), a model twice numbered ``model #2``."""
    seen: dict[str, int] = {}
    out = []
    for run, model in m.runs:
        seen[model] = seen.get(model, 0) + 1
        out.append((run, one_line(model, 40) + (f" #{seen[model]}" if seen[model] > 1 else "")))
    return tuple(out)


def check_cell(m: Matrix, run: str, cid: str, verdict_of: Callable[[str], str],
               symbols: Mapping[str, str] | None = None) -> Cell:
    """One check of one run: its result and this reviewer's verdict mark."""
    status = m.cells.get((run, cid))
    if status is None:
        return Cell(RESULT_MARKS["absent"], "none", run, cid)
    if status not in FAILING:
        return Cell(RESULT_MARKS.get(status, "?"), "pass" if status == "pass" else "none", run, cid)
    verdict = verdict_of(f"{run}#{cid}")
    mark = mark_of(verdict, symbols)
    tone = "labelled" if verdict in ("specification", "capability") else "fail"
    return Cell(RESULT_MARKS[status] + (f" {mark}" if mark else ""), tone, run, cid, True)


def share_text(failing: int, total: int, spec: int, cap: int, symbols: Mapping[str, str] | None = None) -> str:
    """``5/6 fail · you 2◆ 1▲``."""
    text = f"{failing}/{total} fail"
    if spec or cap:
        text += f" \u00b7 you {spec}{mark_of('specification', symbols)} {cap}{mark_of('capability', symbols)}"
    return text


def short_names(cids: tuple[str, ...], cap: int = 40) -> dict[str, str]:
    """A row title per check id: its last part (``test_large_value`` of ``oracle:f.py::test_large_value``)
    when that is unique within the task, else the whole id; capped, sanitised."""
    def tail(cid: str) -> str:
        return cid.rpartition("::")[2] if "::" in cid else cid.partition(":")[2] or cid
    tails = [tail(c) for c in cids]
    return {c: one_line(t if tails.count(t) == 1 else c, cap) for c, t in zip(cids, tails)}


def describe_cell(row: GridRow, cell: Cell | None, header: str, verdict_of: Callable[[str], str]) -> str:
    """The line under the matrix for the cell under the cursor: the full check id, the run, the result."""
    if cell is None:
        return f"{row.key} · {row.share}"
    where = one_line(cell.run, 120) if cell.run else "no run"
    text = f"{one_line(row.key, 160)} · {header} · {where} · {cell.text}"
    if cell.failing and cell.check:
        verdict = verdict_of(f"{cell.run}#{cell.check}")
        text += f" · you: {verdict or 'unlabelled'}"
    return text


def check_rows(m: Matrix, verdict_of: Callable[[str], str], symbols: Mapping[str, str] | None = None) -> list[GridRow]:
    """The checks of one task as rows, its runs as columns."""
    columns = run_columns(m)
    names = short_names(m.checks)
    rows = []
    for cid in m.checks:
        cells = tuple(check_cell(m, run, cid, verdict_of, symbols) for run, _ in columns)
        present = [m.cells[(run, cid)] for run, _ in columns if (run, cid) in m.cells]
        failing = sum(1 for s in present if s in FAILING)
        verdicts = [verdict_of(f"{run}#{cid}") for run, _ in columns if m.cells.get((run, cid)) in FAILING]
        rows.append(GridRow(cid, names[cid], cells, share_text(failing, len(present), verdicts.count("specification"),
                                                                      verdicts.count("capability"), symbols)))
    return rows


def task_cell(m: Matrix, model: str, verdict_of: Callable[[str], str], symbols: Mapping[str, str] | None = None) -> Cell:
    """One model on one task: ``✓`` when every check passes, else ``✗n`` and its verdict marks."""
    runs = [run for run, mdl in m.runs if mdl == model]
    if not runs:
        return Cell(RESULT_MARKS["absent"])
    failing = [(run, cid) for run in runs for cid in m.checks if m.cells.get((run, cid)) in FAILING]
    if not failing:
        has = any((run, cid) in m.cells for run in runs for cid in m.checks)
        return Cell(RESULT_MARKS["pass"] if has else RESULT_MARKS["absent"], "pass" if has else "none", runs[0])
    verdicts = [verdict_of(f"{run}#{cid}") for run, cid in failing]
    unlabelled = next(((run, cid) for (run, cid), v in zip(failing, verdicts) if v not in ("specification", "capability")), None)
    to = unlabelled or failing[0]
    text = f"{RESULT_MARKS['fail']}{len(failing)}"
    for verdict in ("specification", "capability", "deferred"):
        if verdicts.count(verdict):
            text += f" {verdicts.count(verdict)}{mark_of(verdict, symbols)}"
    return Cell(text, "fail" if unlabelled else "labelled", to[0], to[1], True)


def task_rows(grid: Grid, verdict_of: Callable[[str], str], symbols: Mapping[str, str] | None = None) -> list[GridRow]:
    """Every task as a row, every model as a column."""
    rows = []
    for t in grid.tasks:
        m = grid.matrices.get(t, Matrix(t))
        cells = tuple(task_cell(m, model, verdict_of, symbols) for model in grid.models)
        ran = [c for c in cells if c.run]
        failing = sum(1 for c in ran if c.tone in ("fail", "labelled"))
        ids = [f"{run}#{cid}" for run, _ in m.runs for cid in m.checks if m.cells.get((run, cid)) in FAILING]
        verdicts = [verdict_of(fid) for fid in ids]
        share = share_text(failing, len(ran), verdicts.count("specification"), verdicts.count("capability"), symbols)
        share = share.replace(" fail", " models fail", 1) + f" \u00b7 {count(len(ids), 'failure')}"
        rows.append(GridRow(t, one_line(t, 60), cells, share))
    return rows


# ---- moving there --------------------------------------------------------------------------------


def open_check(session: ReviewSession, run_key: str, cid: str = "", failing: bool = False) -> Outcome:
    """Open a run at a check: its failure when it fails there (``failing``), else the run with the
    check picked (``cid`` "": the run itself). Returns the outcome that redraws."""
    run = session.folder.runs_by_key.get(run_key)
    if run is None:
        return saying(f"The run {one_line(run_key, 120)} is no longer in the folder.", severity="warning")
    if cid and failing:
        session.go_to(Target(run_key, run.failure_id(cid)))
        return asking_for(Work.SELECTION)
    session.go_to(Target(run_key, ""))
    if cid:
        session.selection = replace(session.selection, picked=cid)
    return asking_for(Work.SELECTION)


__all__ = [
    "AcrossFound", "AcrossLine", "Cell", "Grid", "GridRow", "RESULT_MARKS", "VERDICT_MARKS", "across_heading",
    "across_lines", "check_rows", "describe_cell", "gist", "mark_of", "open_check", "read_across", "read_grid", "task_rows",
]
