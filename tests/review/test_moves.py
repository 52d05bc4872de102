"""One path for a move: the session answers a move with one request, carried out in one go and
taken back in one place (what the app does in a worker, and in its own thread for the first screen)."""

from __future__ import annotations

from pathlib import Path

from test_session import open_session, start

from reviewer.review.moving.moves import MoveRequest
from reviewer.review.outcome import Outcome, Work
from reviewer.review.runlist.folder import Scan
from reviewer.review.selection import End, NeedsCounting, Selection, Target, Toward


def test_a_known_target_is_selected_at_once_and_its_view_read_in_one_request(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    request = session.request(Target("s1/r1", "s1/r1#g:TestB"))
    assert isinstance(request, MoveRequest) and request.counting is None
    assert session.selection.failure_id == "s1/r1#g:TestB" == request.asked.failure_id  # the next key steps from here
    assert session.heading is request
    arrival = session.carry_out(request)
    assert arrival.view is not None and arrival.view.selection == request.asked and not arrival.counted
    shown, out = session.arrive(arrival)
    assert shown is session.shown and shown is not None and shown.failure is not None
    assert session.heading is None and out.move is None


def test_a_move_over_uncounted_runs_counts_them_and_reads_where_it_lands_in_the_same_request(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    session.follow_at_once(session.step(1))
    move = session.step(1)  # s1/r2 is not counted yet
    assert move == NeedsCounting("s1/r2", Toward.STEP, 1)
    request = session.request(move)
    assert isinstance(request, MoveRequest) and request.counting == move
    assert session.selection.failure_id == "s1/r1#g:TestB"  # stays until the move lands
    arrival = session.carry_out(request)
    assert arrival.move == Target("s1/r3", "s1/r3#g:TestA") and dict(arrival.counted) == {"s1/r2": (), "s1/r3": ("s1/r3#g:TestA",)}
    assert arrival.view is not None and arrival.view.selection.failure_id == "s1/r3#g:TestA"
    shown, out = session.arrive(arrival)
    assert shown is not None and session.selection.failure_id == "s1/r3#g:TestA"
    assert session.folder.failure_ids["s1/r2"] == () and Work.COUNTS in out.work


def test_an_arrival_for_an_older_request_is_not_taken_but_its_counts_are(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    session.follow_at_once(session.step(1))
    older = session.request(session.step(1))
    assert isinstance(older, MoveRequest)
    newer = session.request(Target("s1/r1", "s1/r1#g:TestA"))  # k pressed before the count was done
    late = session.carry_out(older)
    shown, _ = session.arrive(late)
    assert shown is None and session.selection.failure_id == "s1/r1#g:TestA"
    assert "s1/r2" in session.folder.failure_ids  # what it counted is kept
    assert session.heading is newer


def test_reading_again_during_a_move_carries_that_move_out_again(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    session.follow_at_once(session.step(1))
    counting = session.request(session.step(1))
    assert session.reread() is counting  # a run's commit arriving meanwhile must not drop the key
    session.selection = Selection("s1/r1", "s1/r1#g:TestB", 1, "roman.go", turn=None, diff=True)  # d, then the view
    again = session.reread()
    assert again is not counting and again.counting is None and again.asked.diff


def test_a_move_that_goes_nowhere_is_said_with_a_bell_for_a_key(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    out = session.request(End("No more failures in this direction.", bell=True))
    assert isinstance(out, Outcome) and out.notices[0].bell and session.heading is None
    for _ in range(5):
        session.follow_at_once(session.step(1))
    session.follow_at_once(session.next_unlabelled())
    assert session.selection.failure_id == "s1/r1#g:TestA"  # wrapped round to the first unlabelled


def test_an_asked_for_failure_in_an_uncounted_run_opens_once_its_run_is_counted(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    session.start_failure = "s2/r4#g:connected"
    out = session.start()
    assert out.move == NeedsCounting("s2/r4", Toward.ASKED)
    request = session.request(out.move)
    assert isinstance(request, MoveRequest)
    arrival = session.carry_out(request)
    assert arrival.view is None  # the opening is decided again once the run is counted: nothing read in vain
    shown, then = session.arrive(arrival)
    assert shown is None and then.move == Target("s2/r4", "s2/r4#g:connected")


def test_the_review_opens_once_the_list_is_built_and_not_again_after_a_head_that_showed_a_failure(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    scan = session.folder.read_scan()
    head = Scan(scan.runs[:1], [], [], "")
    assert Work.LIST in session.take_scan(head, head=True).work
    request = session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    opening = session.take_list(request.generation, *request.build())
    assert opening is not None and isinstance(opening.move, NeedsCounting)  # the opening, among the first runs
    session.follow_at_once(opening.move)
    assert session.selection.failure_id == "s1/r1#g:TestA" and session.folder.partial
    session.take_scan(scan)  # the whole folder: the reviewer stays where the head opened
    request = session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    assert session.take_list(request.generation, *request.build()) == Outcome()
    stale = session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    assert session.take_list(stale.generation, *stale.build()) is None  # a newer rebuild was asked for


def test_a_submitted_search_opens_the_first_matchs_failure(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    assert session.search("model-c").work == {Work.LIST}  # typing filters the list, the screen stays
    request = session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    assert session.take_list(request.generation, *request.build()) == Outcome()
    assert session.selection.failure_id == "s1/r1#g:TestA"
    then = session.search("model-c", submitted=True)  # enter, the list already filtered
    session.follow_at_once(then.move)
    assert session.selection.failure_id == "s1/r3#g:TestA"
    assert session.search("connected", submitted=True).work == {Work.LIST}  # enter on a new search: after the list
    request = session.folder.listing.request(session.folder.failure_ids, session.labelled, session.decisions.deferred)
    then = session.take_list(request.generation, *request.build())
    assert then is not None and then.move is not None
    session.follow_at_once(then.move)
    assert session.selection.failure_id == "s2/r4#g:connected"
