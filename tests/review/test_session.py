"""The review session's flows without a screen: opening, walking, labelling, undo, notes, clusters,
the other reviewers and blind mode, live changes. An in-memory store; labels on disk in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from memstore import Made, MemoryStore

from reviewer.analysis.clusters import Cluster
from reviewer.model.label import Label, Verdict
from reviewer.review.outcome import Outcome, Work
from reviewer.review.reviewers import ReviewersSnapshot
from reviewer.review.selection import End, Move, NeedsCounting, Target
from reviewer.review.session import ReviewSession
from reviewer.store.labels import Labeller, LabelStore

RUNS = [
    Made("s1", "r1", failing=("TestA", "TestB"), passing=("TestC",)),
    Made("s1", "r2", model="model-b", failing=()),
    Made("s1", "r3", model="model-c", failing=("TestA",)),
    Made("s2", "r4", task="connected", failing=("connected",)),
]


def open_session(root: Path, made: list[Made] = RUNS, reviewer: str = "alice", blind: bool = True,
                 auto_advance: bool = True) -> ReviewSession:
    """A session on the runs, scanned and listed, as the app has it after its first scan."""
    store = MemoryStore(root, made)
    session = ReviewSession(store, Labeller(store, LabelStore(root, reviewer)), blind=blind, auto_advance=auto_advance)
    out = session.folder.take_scan(session.folder.read_scan())
    assert Work.LIST in out.work
    relist(session)
    return session


def relist(session: ReviewSession) -> None:
    """Rebuild the run list now (the app does it in a worker for big lists)."""
    folder = session.folder
    request = folder.listing.request(folder.failure_ids, session.labelled, session.decisions.deferred)
    assert folder.listing.take(request.generation, *request.build())


def follow(session: ReviewSession, move: Move | None) -> str:
    """Follow a move through the session's own path, in this thread; the failure it lands on."""
    if move is not None:
        session.follow_at_once(move)
    return session.selection.failure_id


def act(session: ReviewSession, outcome: Outcome) -> Outcome:
    """Follow an outcome's move; the outcome."""
    follow(session, outcome.move)
    return outcome


def start(session: ReviewSession) -> None:
    """Open at the first unlabelled failure."""
    act(session, session.start())


def test_opens_at_the_first_failure_and_j_k_walk_across_runs_counting_on_the_way(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    assert session.folder.failure_ids == {}
    start(session)
    assert session.selection.failure_id == "s1/r1#g:TestA"
    assert follow(session, session.step(1)) == "s1/r1#g:TestB"
    assert follow(session, session.step(1)) == "s1/r3#g:TestA"  # r2 has none: counted on the way
    assert session.folder.failure_ids["s1/r2"] == ()
    assert follow(session, session.step(1)) == "s2/r4#g:connected"
    assert isinstance(session.step(1), End)
    assert follow(session, session.step(-1)) == "s1/r3#g:TestA"
    assert follow(session, session.step_run(-1)) == "" and session.selection.run_key == "s1/r2"


def test_the_view_holds_what_every_pane_shows(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    view = session.shown
    assert view is not None and view.run is not None and view.failure is not None
    assert view.failure.check.key == "TestA" and [f.check.key for f in view.failures] == ["TestA", "TestB"]
    assert view.brief is not None and view.brief.text.startswith("# roman-go")
    assert view.code.text is not None and view.code.text.text == "package roman\n" and view.code.position == 1
    assert view.output is not None and "--- FAIL: TestA" in view.output.text
    assert view.focused_check() is view.failure.check


def test_labelling_saves_at_once_moves_on_and_undo_goes_back(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    out = act(session, session.label(Verdict.SPECIFICATION, "Specification"))
    assert out.labels_changed and (tmp_path / "s1" / "labels" / "alice" / "r1.toml").is_file()
    assert 'verdict = "specification"' in (tmp_path / "s1" / "labels" / "alice" / "r1.toml").read_text()
    assert session.selection.failure_id == "s1/r1#g:TestB"
    act(session, session.label(Verdict.CAPABILITY, "Capability"))
    assert session.selection.failure_id == "s1/r3#g:TestA"
    assert session.labelled("s1/r1") == 2
    assert session.shown is not None and session.shown.marks.verdicts == {}  # r3 is not labelled
    act(session, session.undo())
    assert session.selection.failure_id == "s1/r1#g:TestB" and session.labelled("s1/r1") == 1
    assert session.relabel() is not None and session.shown.marks.verdicts == {"s1/r1#g:TestA": "specification"}


def test_defer_counts_as_unlabelled_and_clear_removes(tmp_path: Path) -> None:
    session = open_session(tmp_path, auto_advance=False)
    start(session)
    act(session, session.label(Verdict.DEFERRED, "Defer"))
    assert session.selection.failure_id == "s1/r1#g:TestA"  # no auto-advance
    assert session.labelled("s1/r1") == 0 and session.decisions.deferred("s1/r1#g:TestA")
    session.clear()
    assert session.decisions.label("s1/r1#g:TestA") is None


def test_a_note_on_an_unlabelled_failure_invents_no_verdict(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    fid = session.selection.failure_id
    assert session.note(fid, "the brief never says IV").labels_changed
    assert session.decisions.label(fid) is None and session.labelled("s1/r1") == 0
    assert session.labeller.annotation(fid) == ("the brief never says IV", ())
    assert session.note(fid, "the brief never says IV") == Outcome()  # unchanged: nothing written


def test_walking_a_cluster_and_back(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    cluster = Cluster("check", "roman-go", "g:TestA", ("s1/r1#g:TestA", "s1/r3#g:TestA"), ("model-a", "model-c"), 3)
    out = session.walking.follow_cluster(cluster, session.listed_runs(), session.selection)
    assert out.move is None  # the current failure is in the cluster: stay
    assert follow(session, session.step(1)) == "s1/r3#g:TestA"
    assert isinstance(session.step(1), End)
    act(session, session.label(Verdict.CAPABILITY, "Capability"))
    assert session.selection.failure_id == "s1/r1#g:TestA"  # the cluster's next unlabelled failure, wrapping
    session.walking.follow_cluster(None, session.listed_runs(), session.selection)
    assert follow(session, session.step(1)) == "s1/r1#g:TestB"


def label(reviewer: str, fid: str, verdict: Verdict, note: str = "") -> Label:
    """Another reviewer's label."""
    session_run, _, check = fid.partition("#")
    sid, _, run = session_run.partition("/")
    return Label(sid, run, check, verdict, reviewer, "2026-11-01T00:00:00Z", note=note)


def test_blind_mode_hides_the_others_until_decided_or_revealed(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    fid = session.selection.failure_id
    snapshot = ReviewersSnapshot({fid: (label("bob", fid, Verdict.CAPABILITY, "bob's note"),)})
    session.team.take(snapshot, session.listed_runs(), session.selection)
    others = session.marks(session.shown.run, session.shown.failure_ids, session.selection).others
    assert others.hidden == 1 and not others.shown
    assert Work.RELABEL in session.team.reveal(fid).work
    shown = session.marks(session.shown.run, session.shown.failure_ids, session.selection).others
    assert [lab.reviewer for lab in shown.shown] == ["bob"]


def test_seeing_reviewer_sees_at_once(tmp_path: Path) -> None:
    session = open_session(tmp_path, blind=False)
    start(session)
    fid = session.selection.failure_id
    session.team.take(ReviewersSnapshot({fid: (label("bob", fid, Verdict.CAPABILITY),)}), session.listed_runs(), session.selection)
    assert [lab.reviewer for lab in session.relabel().marks.others.shown] == ["bob"]


def test_the_disagreements_walk(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    assert Work.REVIEWERS in session.team.toggle_disagreements().work
    snapshot = ReviewersSnapshot(disagreements=("s1/r3#g:TestA", "s2/r4#g:connected"))
    out = session.team.take(snapshot, session.listed_runs(), session.selection)
    assert session.walking.disagreements and out.move == Target("s1/r3", "s1/r3#g:TestA")
    follow(session, out.move)
    assert follow(session, session.step(1)) == "s2/r4#g:connected"
    assert session.marks(session.shown.run, session.shown.failure_ids, session.selection).others.everyone
    session.team.toggle_disagreements()
    assert not session.walking.disagreements


def test_a_live_change_keeps_the_place_and_a_removed_run_is_said(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    store = session.store
    assert isinstance(store, MemoryStore)
    store.later([*RUNS, Made("s2", "r5", failing=("new",))])
    changes = store.refresh()
    out = session.folder.take_changes(changes, store.runs, store.errors, session.selection.run_key)
    assert {Work.LIST, Work.COUNT} <= out.work and Work.VIEW not in out.work
    relist(session)
    assert "s2/r5" in session.folder.listing.order and session.selection.failure_id == "s1/r1#g:TestA"
    store.later(RUNS[1:])
    out = session.folder.take_changes(store.refresh(), store.runs, store.errors, session.selection.run_key)
    assert any("removed" in n.message for n in out.notices)


def test_a_changed_run_on_screen_is_read_again_and_a_vanished_failure_goes_to_the_first(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    follow(session, session.step(1))
    assert session.selection.failure_id == "s1/r1#g:TestB"
    store = session.store
    assert isinstance(store, MemoryStore)
    store.later([Made("s1", "r1", failing=("TestA", "TestZ")), *RUNS[1:]])
    out = session.folder.take_changes(store.refresh(), store.runs, store.errors, session.selection.run_key)
    assert Work.VIEW in out.work
    view = session.view(session.selection)
    assert view is not None and session.take_view(view) is not None
    assert session.vanished(view) == Target("s1/r1", "s1/r1#g:TestA")


def test_status_says_where_and_how_far(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    for _ in range(3):
        follow(session, session.step(1))
    text = "".join(part for part, _ in session.status()[0])
    assert "failure 4 of 4" in text and "0/4 labelled" in text


@pytest.mark.parametrize("asked, lands", [("s1/r3#g:TestA", "s1/r3#g:TestA"), ("s1/r3#g:nope", "s1/r1#g:TestA")])
def test_the_asked_for_failure_opens_or_is_said_unknown(tmp_path: Path, asked: str, lands: str) -> None:
    session = open_session(tmp_path)
    session.start_failure = asked
    out = session.start()
    assert isinstance(out.move, NeedsCounting)  # its run is counted first, then the opening decided again
    said = session.follow_at_once(out.move)
    assert session.selection.failure_id == lands and not session.start_failure
    assert any("Unknown failure id" in n.message for n in said.notices) == (asked != lands)
