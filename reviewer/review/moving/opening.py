"""Where the review opens: the failure asked for (``--failure``), else the first one this reviewer
has not labelled, else the first failure, else the first run. A list that holds only the folder's
first runs (:attr:`~reviewer.review.runlist.folder.Folder.partial`) shows its first run when none of them
has a failure to open at, until the whole list opens."""

from __future__ import annotations

from typing import Callable

from reviewer.model.sanitize import one_line
from reviewer.review.moving.walking import EVERY_FAILURE
from reviewer.review.moving.walks import ListedRuns
from reviewer.review.outcome import NOTHING, Outcome, saying
from reviewer.review.runlist.folder import Folder
from reviewer.review.selection import End, NeedsCounting, Selection, Target, Toward


def start(folder: Folder, listed: ListedRuns, unlabelled: Callable[[str], bool], asked: str) -> tuple[Outcome, bool]:
    """The opening, and whether the asked-for failure is settled (then forgotten).

    A move NeedsCounting for an asked-for failure asks for its run to be counted first (then ask
    again); an asked-for id that names no failure is said and dropped.
    """
    out = NOTHING
    if asked:
        run_key = asked.partition("#")[0]
        ids = folder.failure_ids.get(run_key)
        if run_key in folder.runs_by_key and ids is None:
            return Outcome(move=NeedsCounting(run_key, Toward.ASKED)), False
        if ids and asked in ids:
            return Outcome(move=Target(run_key, asked)), True
        out = saying(f"Unknown failure id: {one_line(asked, 200)}; opening at the first failure.", "--failure", "warning")
    move = EVERY_FAILURE.next_unlabelled(listed, Selection(), unlabelled)
    if isinstance(move, End) and folder.partial:
        return out.then(nothing_to_open(folder, listed, Toward.STEP)), True
    if isinstance(move, End) and folder.listing.order:
        move = EVERY_FAILURE.step(listed, Selection(), 1)
        if isinstance(move, End):
            out = out.then(saying("No failing checks in this folder."))
            move = Target(folder.listing.order[0])
    return out.then(Outcome(move=move)), True


def nothing_to_open(folder: Folder, listed: ListedRuns, toward: Toward) -> Outcome:
    """The opening found no failure to go to: none unlabelled (``toward`` UNLABELLED), or none at all."""
    if folder.partial:  # none among the first runs: the first is shown until the whole list opens
        return Outcome(move=Target(folder.listing.order[0])) if folder.listing.order else NOTHING
    if toward is Toward.UNLABELLED and any(folder.failure_ids.values()):
        return saying("Every failure is labelled; opening at the first one.").then(
            Outcome(move=EVERY_FAILURE.step(listed, Selection(), 1)))
    if not folder.listing.order:
        return NOTHING
    return saying("No failing checks in this folder.").then(Outcome(move=Target(folder.listing.order[0])))
