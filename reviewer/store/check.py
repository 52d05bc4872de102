"""``reviewer check``: everything wrong with a sessions folder, one problem per entry."""

from __future__ import annotations

from pathlib import Path

from reviewer.model import LoadError, Run
from reviewer.model.rerun import Rerun
from reviewer.parsers.unreadable import KEY as UNREADABLE_KEY
from reviewer.parsers.unreadable import reason as unreadable_reason
from reviewer.store.fs.untrusted import Unreadable, resolve_inside
from reviewer.store.sessions.protocol import Store


def check_ref(store: Store, run: Run, ref: str, what: str, problems: list[LoadError]) -> None:
    """Report a referenced file that is missing, odd or outside the folder."""
    try:
        resolve_inside(store.root, ref)
    except Unreadable as exc:
        problems.append(LoadError(run.manifest, f"{what} {ref}: {exc}"))
        return
    try:
        store.raw(ref, 0)
    except Unreadable as exc:
        problems.append(LoadError(ref, f"{what} {exc} (named in {run.manifest})"))


def validate_rerun(store: Store, run: Run, grader: str, rerun: Rerun, problems: list[LoadError]) -> None:
    """Report a ``[grader.rerun]`` table that cannot be used, and the files it names that are missing."""
    if rerun.problem:
        problems.append(LoadError(run.manifest, f"grader {grader!r} rerun: {rerun.problem}"))
        return
    for ref in rerun.files:
        check_ref(store, run, ref, f"grader {grader!r} rerun file", problems)
    for ref in rerun.setup:
        try:
            path = resolve_inside(store.root, ref)
            if path.is_dir() and not path.is_symlink():
                continue
        except Unreadable:
            pass
        check_ref(store, run, ref, f"grader {grader!r} rerun setup", problems)


def validate_run(store: Store, run: Run) -> list[LoadError]:
    """Every problem of one run beyond its manifest: references, transcript, grader output."""
    problems: list[LoadError] = []
    if run.brief_ref:
        check_ref(store, run, run.brief_ref, "brief", problems)
    else:
        problems.append(LoadError(run.manifest, "no brief recorded (`run.brief`)"))
    if not run.attempts:
        problems.append(LoadError(run.manifest, "no attempts recorded ([[attempt]])"))
    for attempt in run.attempts:
        for f in attempt.files:
            check_ref(store, run, f.ref, f"attempt {attempt.number} file", problems)
    numbers = {a.number for a in run.attempts}
    parsed = {gc.grader: gc for gc in store.grader_checks(run)}
    for g in run.graders:
        if run.attempts and g.attempt not in numbers:
            problems.append(LoadError(run.manifest, f"grader {g.name!r} names attempt {g.attempt}, which is not recorded"))
        if g.output_ref:
            before = len(problems)
            check_ref(store, run, g.output_ref, f"grader {g.name!r} output", problems)
            found = parsed.get(g.name)
            if len(problems) == before and found is not None:
                problems += [LoadError(g.output_ref, f"grader {g.name!r} output cannot be parsed: {unreadable_reason(c)}")
                             for c in found.checks if c.key == UNREADABLE_KEY]
        for src in g.source_refs:
            check_ref(store, run, src, f"grader {g.name!r} source", problems)
        if g.rerun is not None:
            validate_rerun(store, run, g.name, g.rerun, problems)
    if run.transcript_ref:
        before = len(problems)
        check_ref(store, run, run.transcript_ref, "transcript", problems)
        if len(problems) == before:
            t = store.transcript(run)
            if t.error:
                problems.append(LoadError(run.transcript_ref, t.error.split(": ", 1)[-1]))
            else:
                for turn in t.turns:
                    if turn.attempt is not None and turn.attempt not in numbers:
                        problems.append(
                            LoadError(run.transcript_ref, f"turn {turn.index + 1} names attempt {turn.attempt}, which is not recorded")
                        )
    return problems


def label_problems(store: Store, sessions: list[str]) -> list[LoadError]:
    """Every reviewer's labels files (and the adjudications) that cannot be read whole, reviewers' two
    labels on one failure, labels folders refused (paths relative to the folder when inside it)."""
    from reviewer.store.labels import problems, read_all_labels
    from reviewer.store.labels.reading import read_adjudications_of

    root = Path(store.root)
    found = problems([*read_all_labels(root, sessions), *read_adjudications_of(root, sessions)])
    return [LoadError(Path(e.path).relative_to(root).as_posix() if Path(e.path).is_relative_to(root) else e.path,
                      e.reason) for e in found]


def validate(store: Store) -> list[LoadError]:
    """Scan the folder and check every run fully, and every labels file; returns all problems found."""
    corpus = store.scan()
    problems = list(corpus.errors)
    if not corpus.runs and not problems:
        problems.append(LoadError(".", "no runs found (expected <session>/runs/<run>/run.toml, or a log named in "
                                       "<session>/session.toml's [log])"))
    for run in corpus.runs:
        problems.extend(validate_run(store, run))
    problems.extend(label_problems(store, sorted(corpus.sessions)))
    return problems
