"""Finding failures by what a person types: an exact id, a unique prefix, or a near miss.

Every command that takes ``--failure`` (and the app's ``--failure``) goes through
:func:`resolve_failure`: an exact ``SESSION/RUN#GRADER:CHECK`` is found at once; otherwise a
unique prefix of an id is accepted, and no match or several matches end with a message naming
the closest ids, so a typo never leaves the user guessing.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
from reviewer.model.sanitize import plain
from reviewer.store.sessions.protocol import Store


class UnknownFailure(LookupError):
    """A failure id that names no failure in the folder."""


SHOWN = 5
"""How many ids a message names."""


class AmbiguousFailure(UnknownFailure):
    """A prefix that several failure ids start with; ``matches`` holds them."""

    def __init__(self, message: str, matches: list[str]) -> None:
        super().__init__(message)
        self.matches = matches


def every_failure(store: Store, runs: list[Run] | None = None) -> Iterator[tuple[Run, Failure]]:
    """Every failing check of the loaded runs (or of ``runs``), in folder order."""
    for run in store.corpus.runs if runs is None else runs:
        for failure in store.failures(run):
            yield run, failure


def exact(store: Store, text: str) -> tuple[Run, Failure] | None:
    """The failure with exactly this id, or None."""
    try:
        session, run_id, check = split_failure_id(text)
    except ValueError:
        return None
    run = store.run(f"{session}/{run_id}")
    if run is None:
        return None
    return next(((run, f) for f in store.failures(run) if f.check_id == check), None)


def candidate_runs(store: Store, text: str) -> list[Run]:
    """Runs whose failures could start with ``text``."""
    head, sep, _ = text.partition("#")
    if sep:
        run = store.run(head)
        return [run] if run is not None else []
    return [r for r in store.corpus.runs if r.key.startswith(text) or text.startswith(r.key)]


def closest(text: str, ids: list[str], n: int = SHOWN) -> list[str]:
    """The ids nearest to ``text``: those that contain it first, then difflib's closest."""
    containing = [i for i in ids if text and text in i]
    near = difflib.get_close_matches(text, ids, n=n, cutoff=0.5)
    if len(near) < n:
        tails = {i.partition("#")[2]: i for i in ids}
        near += [tails[t] for t in difflib.get_close_matches(text.partition("#")[2] or text, list(tails), n=n, cutoff=0.6)]
    head = text.partition("#")[0]
    runs = sorted({i.partition("#")[0] for i in ids})
    near_runs = set(difflib.get_close_matches(head, runs, n=2, cutoff=0.6)) if head and head not in runs else set()
    same_run = [i for i in ids if i.partition("#")[0] in near_runs]
    out = list(dict.fromkeys(containing + near + same_run))
    return out[:n]


def listed(ids: list[str]) -> str:
    """Ids for a one-line message."""
    more = f", … ({len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return ", ".join(plain(i) for i in ids[:SHOWN]) + more


def resolve_failure(store: Store, text: str) -> tuple[Run, Failure]:
    """The failure a person meant: an exact id, else the only id starting with ``text``.

    Raises:
        AmbiguousFailure: several ids start with ``text`` (the message names some).
        UnknownFailure: none does (the message names the closest ids).
    """
    text = text.strip()
    hit = exact(store, text)
    if hit is not None:
        return hit
    matches = [(r, f) for r, f in every_failure(store, candidate_runs(store, text)) if f.id.startswith(text)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        ids = [f.id for _, f in matches]
        raise AmbiguousFailure(f"{plain(text)!r} is the start of {len(ids)} failure ids: {listed(ids)}; "
                               "give more of the id", ids)
    raise UnknownFailure(no_match(store, text))


def no_match(store: Store, text: str) -> str:
    """Why nothing matched, and the closest ids."""
    ids = [f.id for _, f in every_failure(store)]
    head, sep, check = text.partition("#")
    if sep and "/" in head and store.run(head) is None:
        why = f"no run {plain(head)} in {plain(str(store.root))}"
    elif sep and store.run(head) is not None:
        why = f"run {plain(head)} has no failing check {plain(check)!r}"
    else:
        why = f"no failure id is or starts with {plain(text)!r}"
    near = closest(text, ids)
    if not ids:
        return f"{why}; the folder has no failures"
    return f"{why}; closest: {listed(near)}" if near else f"{why} (`reviewer failures` lists them)"
