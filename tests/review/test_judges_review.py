"""The judges' predictions in the review session: the blind rule, and the walks ``P`` cycles through."""

from __future__ import annotations

from pathlib import Path

from test_session import act, follow, open_session, start

from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.review.judging import DoubtsFirst, doubt, ranked
from reviewer.review.outcome import Work
from reviewer.review.reviewers import ReviewersSnapshot

S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY
IDS = ("s1/r1#g:TestA", "s1/r1#g:TestB", "s1/r3#g:TestA", "s2/r4#g:connected")


def said(fid: str, judge: str, verdict: Verdict | None, confidence: float | None = None) -> Prediction:
    session, rest = fid.split("/", 1)
    run, check = rest.split("#", 1)
    return Prediction(session, run, check, judge, verdict, confidence, f"{judge}-rationale")


def snapshot(*predictions: Prediction) -> ReviewersSnapshot:
    by: dict[str, list[Prediction]] = {}
    for p in predictions:
        by.setdefault(p.failure_id, []).append(p)
    return ReviewersSnapshot(predictions={k: tuple(v) for k, v in by.items()})


def judges_now(session):  # noqa: ANN001, ANN201
    return session.marks(session.shown.run, session.shown.failure_ids, session.selection).judges


def test_blind_mode_hides_predictions_until_decided_or_revealed(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    fid = session.selection.failure_id
    session.team.take(snapshot(said(fid, "gpt", C, 0.9), said(fid, "evidence", S)), session.listed_runs(), session.selection)
    seen = judges_now(session)
    assert seen.hidden == 2 and seen.shown == ()
    session.team.reveal(fid)
    assert [p.judge for p in judges_now(session).shown] == ["gpt", "evidence"]


def test_deciding_the_failure_shows_the_predictions(tmp_path: Path) -> None:
    session = open_session(tmp_path, auto_advance=False)
    start(session)
    fid = session.selection.failure_id
    session.team.take(snapshot(said(fid, "gpt", C)), session.listed_runs(), session.selection)
    session.label(Verdict.DEFERRED, "Defer")
    assert judges_now(session).hidden == 1  # deferring decides nothing
    session.label(Verdict.SPECIFICATION, "Specification")
    assert [p.verdict for p in judges_now(session).shown] == [C]


def test_with_blind_mode_off_predictions_show_at_once(tmp_path: Path) -> None:
    session = open_session(tmp_path, blind=False)
    start(session)
    fid = session.selection.failure_id
    session.team.take(snapshot(said(fid, "gpt", C)), session.listed_runs(), session.selection)
    assert judges_now(session).shown and not judges_now(session).hidden


def test_doubt_orders_split_verdicts_first_then_the_least_sure() -> None:
    split_even = [said(IDS[0], "a", S, 0.9), said(IDS[0], "b", C, 0.9)]
    split_uneven = [said(IDS[1], "a", S, 0.9), said(IDS[1], "b", S, 0.9), said(IDS[1], "c", C, 0.99)]
    unsure = [said(IDS[2], "a", C, 0.51)]
    sure = [said(IDS[3], "a", C, 0.99), said(IDS[3], "b", C)]
    assert doubt([said(IDS[0], "a", None)]) is None
    order = {"s1/r1": 0, "s1/r3": 1, "s2/r4": 2}
    predictions = {IDS[3]: tuple(sure), IDS[2]: tuple(unsure), IDS[1]: tuple(split_uneven), IDS[0]: tuple(split_even)}
    assert ranked(predictions, lambda fid: order[fid.split("#")[0]]) == (IDS[0], IDS[1], IDS[2], IDS[3])


def test_doubts_first_takes_the_most_doubted_unlabelled_failure_next(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    assert session.selection.failure_id == IDS[0]
    session.team.take(snapshot(said(IDS[3], "a", S, 0.9), said(IDS[3], "b", C, 0.6), said(IDS[2], "a", C, 0.55),
                               said(IDS[1], "a", C, 0.99)), session.listed_runs(), session.selection)
    out = session.judges.cycle(session.listed_runs(), session.selection)
    assert isinstance(session.walking.walk, DoubtsFirst) and "3 failures judged" in out.notices[0].message
    assert session.judges.mode == "doubts"
    act(session, session.label(Verdict.CAPABILITY, "Capability"))
    assert session.selection.failure_id == IDS[3]  # the judges split on it: first, though last in the list
    act(session, session.label(Verdict.SPECIFICATION, "Specification"))
    assert session.selection.failure_id == IDS[2]  # the least sure
    act(session, session.label(Verdict.SPECIFICATION, "Specification"))
    assert session.selection.failure_id == IDS[1]
    assert follow(session, session.step(1)) == IDS[2]  # j/k still walk the list in order
    from reviewer.review.status import walk_parts

    assert "judges' doubts first" in [text for text, _ in walk_parts(session)]


def test_p_cycles_to_the_disagreements_with_me_and_back_when_blind(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    session.team.take(snapshot(said(IDS[0], "a", C), said(IDS[1], "a", S), said(IDS[2], "a", S)),
                      session.listed_runs(), session.selection)
    act(session, session.label(Verdict.SPECIFICATION, "Specification"))  # IDS[0]: the judge says capability
    session.judges.cycle(session.listed_runs(), session.selection)
    out = session.judges.cycle(session.listed_runs(), session.selection)
    assert session.judges.mode == "judges disagree with me"
    assert "1 failure you decided where a judge says otherwise" in out.notices[0].message
    act(session, out)
    assert session.selection.failure_id == IDS[0] and Work.RELABEL in out.work
    out = session.judges.cycle(session.listed_runs(), session.selection)  # blind: judged specification is not offered
    assert session.judges.mode == "" and "Judges' walks off" in out.notices[0].message


def test_judged_specification_not_labelled_needs_blind_mode_off(tmp_path: Path) -> None:
    session = open_session(tmp_path, blind=False)
    start(session)
    session.team.take(snapshot(said(IDS[1], "a", S), said(IDS[2], "a", C), said(IDS[3], "b", S)),
                      session.listed_runs(), session.selection)
    session.judges.cycle(session.listed_runs(), session.selection)  # doubts first
    out = session.judges.cycle(session.listed_runs(), session.selection)  # nobody disagrees with me: on to judged spec
    assert session.judges.mode == "judged specification"
    assert "2 failures a judge calls specification that you have not decided" in out.notices[0].message
    act(session, out)
    assert session.selection.failure_id == IDS[1]
    act(session, session.label(Verdict.CAPABILITY, "Capability"))
    assert session.selection.failure_id == IDS[3]


def test_p_without_predictions_says_how_to_make_some(tmp_path: Path) -> None:
    session = open_session(tmp_path)
    start(session)
    session.team.take(ReviewersSnapshot(), session.listed_runs(), session.selection)
    out = session.judges.cycle(session.listed_runs(), session.selection)
    assert "reviewer judge" in out.notices[0].message and session.judges.mode == ""


def test_the_stats_screen_holds_a_judge_against_your_labels_blind_and_against_everyone_not(folder: Path) -> None:
    """``S`` shows ``reviewer stats``' text: blind, the judge against your own labels only; with blind
    mode off, against the final verdicts and each reviewer."""
    from reviewer.review.analyses import Analyses
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.predictions import save_predictions
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(folder)
    store.scan()
    ids = [f.id for run in store.runs for f in store.failures(run)]
    Labeller(store, LabelStore(folder, "alice")).decide(ids[0], S)
    for fid in ids:
        Labeller(store, LabelStore(folder, "bob")).decide(fid, C)
    save_predictions(folder, "gpt", [said(fid, "gpt", S, 0.8) for fid in ids])
    blind = Analyses(store, Labeller(store, LabelStore(folder, "alice")), blind=True).stats(120)
    rows = [line.split()[:3] for line in blind.splitlines() if line.startswith("  gpt")]
    assert rows == [["gpt", "alice", "1"]] and "bob" not in blind
    seeing = Analyses(store, Labeller(store, LabelStore(folder, "alice")), blind=False).stats(120)
    rows = [line.split()[:3] for line in seeing.splitlines() if line.startswith("  gpt")]
    assert rows == [["gpt", "final", str(len(ids) - 1)], ["gpt", "alice", "1"], ["gpt", "bob", str(len(ids))]]
