"""Carrying out a move: one request, read in one go, taken back in one place.

Every move the reviewer makes (a key, a click, the opening, a label's auto-advance, a run that
changed on disk) is answered by the session with a :class:`MoveRequest`. The app carries it out
through one path: :meth:`~reviewer.review.session.ReviewSession.carry_out` counts the runs the
move needs on its way (:func:`count_toward`) and reads the view where it lands (the disk is read:
a worker thread, or the app's while the first screen is built); the session takes the
:class:`Arrival` back with :meth:`~reviewer.review.session.ReviewSession.arrive`, unless a newer
request was made meanwhile. The headless commands and the tests go the same way.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from reviewer.model.records import record
from reviewer.review.moving.walks import ListedRuns, Walk
from reviewer.review.selection import Move, NeedsCounting, Selection, Target, Toward

if TYPE_CHECKING:
    from reviewer.review.runlist.folder import Folder
    from reviewer.review.view import FailureView


@record
class MoveRequest:
    """What the app reads for a move.

    Attributes:
        asked: the selection when the move was asked for; its view is read, unless the move needs
            ``counting`` first (then the view of where the move lands).
        counting: the runs to count first, and where the move goes once they are counted (None:
            the move's target was known, and selected at once).
        order: the listed runs in order when the move was asked for (what counting walks over).
    """

    asked: Selection
    counting: NeedsCounting | None = None
    order: Sequence[str] = ()


@record
class Arrival:
    """What carrying out a :class:`MoveRequest` found.

    Attributes:
        request: the request carried out (the session takes only its newest).
        move: where a move that needed counting went (None: it needed none).
        counted: the failure ids counted on the way, by run key (taken even from an old request).
        view: the view read; None when the move ended nowhere, its run is gone, or nothing is to be read.
    """

    request: MoveRequest
    move: Move | None = None
    counted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    view: FailureView | None = None


def count_toward(folder: Folder, walk: Walk, unlabelled: Callable[[str], bool], counting: NeedsCounting,
                 current: Selection, order: Sequence[str], cancelled: Callable[[], bool]
                 ) -> tuple[Move, dict[str, tuple[str, ...]]]:
    """Where a move that needs uncounted runs goes, counting the runs on its way along ``walk``
    over ``order`` (reads the disk). Returns the move and the failure ids counted, by run key; once
    ``cancelled``, nothing more is counted (the move is then not to be followed)."""
    found: dict[str, tuple[str, ...]] = {}

    def lookup(key: str) -> tuple[str, ...] | None:
        ids = folder.failure_ids.get(key)
        if ids is None:
            ids = found.get(key)
        if ids is None and not cancelled():
            run = folder.runs_by_key.get(key)
            ids = found[key] = folder.read_failures(run)[0] if run is not None else ()
        return ids

    if counting.toward in (Toward.RUN, Toward.ASKED):
        ids = lookup(counting.run_key) or ()
        return Target(counting.run_key, ids[0] if ids else ""), found
    listed = ListedRuns(order, lookup, folder.runs_by_key.__contains__)
    if counting.toward is Toward.STEP:
        return walk.step(listed, current, counting.step), found
    return walk.next_unlabelled(listed, current, unlabelled), found
