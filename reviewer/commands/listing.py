"""``reviewer list`` and ``reviewer check``."""

from __future__ import annotations

import json
import sys
from typing import Sequence, TextIO

from reviewer.model import Run
from reviewer.model.sanitize import plain_line
from reviewer.model.wording import count
from reviewer.store.check import validate
from reviewer.store.sessions.protocol import Store


def run_row(store: Store, run: Run) -> dict[str, object]:
    """The facts ``list`` shows for one run."""
    checks = [c for gc in store.grader_checks(run) for c in gc.checks]
    brief = store.brief(run)
    return {
        "session": run.session,
        "run": run.id,
        "task": run.task,
        "model": run.model,
        "access": run.access,
        "outcome": run.outcome,
        "attempts": len(run.attempts),
        "files": sum(len(a.files) for a in run.attempts),
        "turns": len(store.transcript(run).turns),
        "checks": len(checks),
        "failures": sum(1 for c in checks if c.failing),
        "brief_chars": len(brief.text) if not brief.error else 0,
    }


def list_runs(store: Store, as_json: bool, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print one row per loaded run; load errors go to stderr; exit 0."""
    out = out or sys.stdout
    err = err or sys.stderr
    corpus = store.scan()
    rows = [run_row(store, r) for r in corpus.runs]
    for e in corpus.errors:
        print(f"{safe_cell(e.path)}: {safe_cell(e.reason)}", file=err)
    if as_json:
        json.dump(rows, out, indent=1, ensure_ascii=True)
        out.write("\n")
        return 0
    cols = ("session", "run", "task", "model", "outcome", "attempts", "checks", "failures")
    widths = {c: max([len(c)] + [len(str(r[c])) for r in rows]) for c in cols}
    print("  ".join(c.upper().ljust(widths[c]) for c in cols).rstrip(), file=out)
    for r in rows:
        print("  ".join(safe_cell(r[c]).ljust(widths[c]) for c in cols).rstrip(), file=out)
    print(f"{count(len(rows), 'run')}, {len(corpus.errors)} not loaded", file=out)
    return 0


def safe_cell(value: object) -> str:
    """A value for a plain-text table or a one-line report, control characters and newlines made visible."""
    return plain_line(str(value))


def check_folder(store: Store, out: TextIO | None = None, settings_problems: Sequence[str] = ()) -> int:
    """Print every problem of the folder, then those of the user's settings (``config.toml``: an
    unknown setting, key name or binding id), then a summary; exit 1 when there are problems."""
    out = out or sys.stdout
    problems = validate(store)
    for p in problems:
        print(f"{safe_cell(p.path)}: {safe_cell(p.reason)}", file=out)
    for warning in settings_problems:
        print(safe_cell(warning), file=out)
    runs = len(store.corpus.runs)
    if problems or settings_problems:
        said = [f"{count(len(problems), 'problem')} in {store.root.name or store.root}"] if problems else []
        said += [count(len(settings_problems), "settings problem")] if settings_problems else []
        print(f"{'; '.join(said)}; {count(runs, 'run')} loaded", file=out)
        return 1
    print(f"ok: {count(runs, 'run')} in {count(len(store.corpus.sessions), 'session')}, no problems", file=out)
    return 0
