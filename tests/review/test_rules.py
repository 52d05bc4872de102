"""The review session's pure rules: selections, walks, the run list's rows and totals."""

from __future__ import annotations

from reviewer.model import Attempt, AttemptFile, GraderRecord, Run, Turn
from reviewer.review.moving.walks import Disagreements, EveryFailure, ListedRuns, ListWalk
from reviewer.review.runlist.listing import tally
from reviewer.review.runlist.rows import Keep, RunFilter, build_rows, haystack, search_words
from reviewer.review.selection import (
    End,
    NeedsCounting,
    Selection,
    Target,
    Toward,
    select_failure,
    step_attempt,
    step_file,
    step_run,
    step_turn,
)


def run() -> Run:
    """A run with three attempts, the second one saved elsewhere."""
    files = lambda *paths: tuple(AttemptFile(p, f"s/runs/r/attempts/x/{p}") for p in paths)  # noqa: E731
    return Run(
        "s", "r", "task", "model",
        attempts=(Attempt(1, files("a.go", "b.go")), Attempt(2, files("sub/a.go")), Attempt(3, files("a.go"))),
        graders=(GraderRecord("g1", 3), GraderRecord("g2", 1)),
    )


def test_a_failure_opens_on_the_attempt_its_grader_graded() -> None:
    assert select_failure(run(), "s/r#g1:T") == Selection("s/r", "s/r#g1:T", 3, "a.go")
    assert select_failure(run(), "s/r#g2:T").attempt == 1
    assert select_failure(run(), "s/r#nope:T").attempt == 3


def test_attempt_and_file_steps_keep_the_path_when_they_can() -> None:
    sel = Selection("s/r", "", 1, "b.go")
    assert step_attempt(sel, run(), 1) == Selection("s/r", "", 2, "sub/a.go")
    assert step_attempt(Selection("s/r", "", 1, "a.go"), run(), 1).file == "sub/a.go"
    assert step_attempt(Selection("s/r", "", 2, "sub/a.go"), run(), 1).file == "a.go"
    assert step_attempt(Selection("s/r", "", 3, "a.go"), run(), 1) == Selection("s/r", "", 3, "a.go")
    assert step_file(Selection("s/r", "", 1, "a.go"), run()).file == "b.go"
    assert step_file(Selection("s/r", "", 1, "b.go"), run()).file == "a.go"


def test_turn_steps_move_the_attempt() -> None:
    turns = (Turn(0, "user"), Turn(1, "assistant", attempt=1), Turn(2, "harness", nudge=True), Turn(3, "assistant", attempt=2))
    sel = Selection("s/r", "", 3, "a.go", turn=None)
    assert step_turn(sel, run(), turns, 1).turn == 0
    at3 = step_turn(Selection("s/r", "", 3, "a.go", turn=2), run(), turns, 1)
    assert (at3.turn, at3.attempt, at3.file) == (3, 2, "sub/a.go")
    assert step_turn(at3, run(), turns, 1) == at3


def test_a_nudge_turn_shows_the_same_attempt_from_either_side() -> None:
    turns = (Turn(0, "user"), Turn(1, "assistant", attempt=1), Turn(2, "harness", nudge=True), Turn(3, "assistant", attempt=2))
    forward = step_turn(Selection("s/r", "", 1, "a.go", turn=1), run(), turns, 1)
    back = step_turn(Selection("s/r", "", 2, "sub/a.go", turn=3), run(), turns, -1)
    assert forward.turn == back.turn == 2
    assert forward.attempt == back.attempt == 1


def place(order: list[str], counts: dict[str, tuple[str, ...]]) -> ListedRuns:
    """A list of runs with the failures counted so far."""
    return ListedRuns(order, counts.get, lambda key: True)


def test_failure_steps_cross_runs_and_ask_for_uncounted_runs() -> None:
    order = ["a", "b", "c", "d"]
    counts: dict[str, tuple[str, ...]] = {"a": ("a#1", "a#2"), "b": (), "c": ("c#1",)}
    walk = EveryFailure()
    here = place(order, counts)
    assert walk.step(here, Selection("a", "a#2"), 1) == Target("c", "c#1")
    assert walk.step(here, Selection("c", "c#1"), 1) == NeedsCounting("d", Toward.STEP, 1)
    assert walk.step(place(["x", "a"], counts), Selection("a", "a#1"), -1) == NeedsCounting("x", Toward.STEP, -1)
    assert walk.step(here, Selection("c", "c#1"), -1) == Target("a", "a#2")
    assert isinstance(walk.step(here, Selection("a", "a#1"), -1), End)
    assert walk.step(here, Selection(), 1) == Target("a", "a#1")
    assert walk.step(place(["b", "c"], counts), Selection("a", "a#1"), 1) == Target("c", "c#1")
    assert step_run(order, "b", 1) == "c" and step_run(order, "d", 1) is None
    counted = tally(order, counts, lambda key: 1 if key == "a" else 0)
    assert counted.position(Selection("c", "c#1"), counts) == 3
    assert (counted.total, counted.labelled, counted.complete) == (3, 1, False)


def test_filters_cycle() -> None:
    assert RunFilter.ALL.next() is RunFilter.FAILING
    assert RunFilter.FAILING.next() is RunFilter.UNLABELLED
    assert RunFilter.UNLABELLED.next() is RunFilter.DEFERRED
    assert RunFilter.DEFERRED.next() is RunFilter.ALL


def test_next_unlabelled_finds_the_next_unlabelled_failure_and_wraps() -> None:
    failures: dict[str, tuple[str, ...]] = {"a": ("a#1", "a#2"), "b": (), "c": ("c#1",)}
    done = {"a#2"}
    wanted = lambda fid: fid not in done  # noqa: E731
    walk, here = EveryFailure(), place(["a", "b", "c"], failures)
    assert walk.next_unlabelled(here, Selection("a", "a#1"), wanted) == Target("c", "c#1")
    assert walk.next_unlabelled(here, Selection("c", "c#1"), wanted) == Target("a", "a#1")
    done |= {"a#1", "c#1"}
    assert isinstance(walk.next_unlabelled(here, Selection("a", "a#1"), wanted), End)
    assert walk.next_unlabelled(place(["a", "x"], {"a": ("a#1",)}), Selection("a", "a#1"), lambda f: True) == NeedsCounting("x", Toward.UNLABELLED)


def test_a_list_walk_steps_through_its_ids_and_skips_runs_not_in_the_folder() -> None:
    walk = ListWalk("cluster", ["a#1", "gone#1", "c#1"], "in this cluster")
    here = ListedRuns(["a", "c"], {}.get, lambda key: key in ("a", "c"))
    assert walk.step(here, Selection("a", "a#1"), 1) == Target("c", "c#1")
    assert isinstance(walk.step(here, Selection("c", "c#1"), 1), End)
    assert walk.next_unlabelled(here, Selection("c", "c#1"), lambda fid: True) == Target("a", "a#1")
    assert walk.position(here, "c#1") == (2, 2)
    assert Disagreements(["a#1", "c#1"]).next_unlabelled(here, Selection("a", "a#1"), lambda fid: False) == Target("c", "c#1")


def test_search_needs_every_word() -> None:
    runs = [Run("s1", "r1", "roman-go", "fjord-xl"), Run("s1", "r2", "roman-go", "atlas-7b")]
    keys = [r.key for r in runs]
    keep = Keep(RunFilter.ALL, search_words("Roman  FJORD"), haystack(runs, keys), {}, lambda key: 0)
    assert [r.id for r in runs if keep(r)] == ["r1"]


def test_navigator_rows_group_by_session_and_task_and_fold() -> None:
    runs = [Run("s1", "r1", "t1", "m1"), Run("s1", "r2", "t1", "m2"), Run("s2", "r3", "t2", "m1")]
    rows, order = build_rows(runs, lambda r: True, set())
    assert [r.kind for r in rows] == ["session", "task", "run", "run", "session", "task", "run"]
    assert order == ["s1/r1", "s1/r2", "s2/r3"]
    rows, order = build_rows(runs, lambda r: r.model == "m1", {"s2"})
    assert [r.kind for r in rows] == ["session", "task", "run", "session"]
    assert order == ["s1/r1", "s2/r3"]
