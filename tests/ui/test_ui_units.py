"""Plain tests of the UI's pure parts: selection rules, text preparation, the binding table."""

from __future__ import annotations

from reviewer.model import Attempt, AttemptFile, GraderRecord, Run, Turn
from reviewer.ui.bindings import BINDINGS, BY_ID, DEFAULT_KEYS, LABELLING_IDS
from reviewer.ui.render import LazyLines, ansi_lines, code_lines, diff_lines, language_for, one_line, plain_lines
from reviewer.ui.state import (
    RunFilter,
    Selection,
    Target,
    Unknown,
    select_failure,
    step_attempt,
    step_failure,
    step_file,
    step_run,
    step_turn,
    tally,
)
from reviewer.ui.widgets.navrows import build_rows


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


def test_failure_steps_cross_runs_and_ask_for_uncounted_runs() -> None:
    order = ["a", "b", "c", "d"]
    counts = {"a": ("a#1", "a#2"), "b": (), "c": ("c#1",)}
    sel = Selection("a", "a#2")
    assert step_failure(order, counts.get, sel, 1) == Target("c", "c#1")
    assert step_failure(order, counts.get, Selection("c", "c#1"), 1) == Unknown("d")
    assert step_failure(order, counts.get, Selection("c", "c#1"), -1) == Target("a", "a#2")
    assert step_failure(order, counts.get, Selection("a", "a#1"), -1) is None
    assert step_failure(order, counts.get, Selection(), 1) == Target("a", "a#1")
    assert step_failure(["b", "c"], counts.get, Selection("a", "a#1"), 1) == Target("c", "c#1")
    assert step_run(order, "b", 1) == "c" and step_run(order, "d", 1) is None
    counted = tally(order, counts, lambda key: 1 if key == "a" else 0)
    assert counted.position(Selection("c", "c#1"), counts) == 3
    assert (counted.total, counted.labelled, counted.complete) == (3, 1, False)


def test_filters_cycle() -> None:
    assert RunFilter.ALL.next() is RunFilter.FAILING
    assert RunFilter.FAILING.next() is RunFilter.UNLABELLED
    assert RunFilter.UNLABELLED.next() is RunFilter.DEFERRED
    assert RunFilter.DEFERRED.next() is RunFilter.ALL


def test_next_matching_finds_the_next_unlabelled_failure_and_wraps() -> None:
    from reviewer.ui.state import Selection, Target, Unknown, next_matching

    failures = {"a": ("a#1", "a#2"), "b": (), "c": ("c#1",)}
    done = {"a#2"}
    wanted = lambda fid: fid not in done  # noqa: E731
    assert next_matching(["a", "b", "c"], failures.get, Selection("a", "a#1"), wanted) == Target("c", "c#1")
    assert next_matching(["a", "b", "c"], failures.get, Selection("c", "c#1"), wanted) == Target("a", "a#1")
    done |= {"a#1", "c#1"}
    assert next_matching(["a", "b", "c"], failures.get, Selection("a", "a#1"), wanted) is None
    assert next_matching(["a", "x"], {"a": ("a#1",)}.get, Selection("a", "a#1"), lambda f: True) == Unknown("x")


def test_navigator_rows_group_by_session_and_task_and_fold() -> None:
    runs = [Run("s1", "r1", "t1", "m1"), Run("s1", "r2", "t1", "m2"), Run("s2", "r3", "t2", "m1")]
    rows, order = build_rows(runs, lambda r: True, set())
    assert [r.kind for r in rows] == ["session", "task", "run", "run", "session", "task", "run"]
    assert order == ["s1/r1", "s1/r2", "s2/r3"]
    rows, order = build_rows(runs, lambda r: r.model == "m1", {"s2"})
    assert [r.kind for r in rows] == ["session", "task", "run", "session"]
    assert order == ["s1/r1", "s2/r3"]


def test_language_comes_from_the_file_name_only() -> None:
    assert language_for("roman.go") == "go"
    assert language_for("dir/x.py") == "python"
    assert language_for("notes") is None
    assert language_for("Makefile") == "make"
    go_like = "func main() {}\n"
    assert not code_lines(go_like, "notes").lines[0].spans


def test_plain_and_code_lines_sanitise_and_cap() -> None:
    prepared = plain_lines("a\x1b[2Jb\u202e\n" + "x" * 5000 + "\n", line_cap=100)
    assert prepared.lines[0].plain == "a\u241b[2Jb\u27e8RLO\u27e9"
    assert prepared.hidden and prepared.controls
    assert prepared.lines[1].plain.endswith("[line truncated: 4,900 more characters]")
    assert prepared.lines[1].spans and prepared.cut_chars == 4900
    assert len(plain_lines("a\nb\n").lines) == 2


def test_terminal_output_keeps_colour_and_nothing_else() -> None:
    prepared = ansi_lines("\x1b[31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x9b2J\x07")
    line = prepared.lines[0]
    assert line.plain.startswith("red ")
    assert "\x1b" not in line.plain and "\x07" not in line.plain and "\x9b" not in line.plain
    assert line.spans and line.spans[0].end == 3
    cut = ansi_lines("y" * 50 + "\x1b[31m" + "z" * 100, line_cap=52)
    assert "\x1b" not in cut.lines[0].plain


def test_diff_marks_added_and_removed_lines() -> None:
    prepared = diff_lines("a\nb\n", "a\nc\n", "attempt 1/x", "attempt 2/x")
    plain = [line.plain for line in prepared.lines]
    assert plain[:2] == ["--- attempt 1/x", "+++ attempt 2/x"]
    assert "-b" in plain and "+c" in plain
    assert diff_lines("same\n", "same\n", "1", "2").lines[0].plain.startswith("no changes")


def test_one_line_flattens_and_cleans() -> None:
    assert one_line("a\nb\x1b", 50) == "a \u23ce b\u241b"
    assert len(one_line("x" * 1000, 20)) == 20


def test_binding_table_has_every_required_id_once() -> None:
    ids = [b.id for b in BINDINGS]
    assert len(ids) == len(set(ids))
    assert set(LABELLING_IDS) == {"label-specification", "label-capability", "clear-label", "undo", "note", "tags", "defer"}
    assert DEFAULT_KEYS["undo"] == "u,ctrl+z" and DEFAULT_KEYS["defer"] == "space"
    assert all(b.tooltip and b.description for b in BINDINGS)
    assert not any(k.isdigit() for b in BINDINGS for k in b.key.split(","))
    assert BY_ID["focus-next"].binding.priority and not BY_ID["next-failure"].binding.priority


def test_plain_lines_are_made_only_when_looked_at() -> None:
    text = "".join(f"line {i}\t\x1b[31m{'w' * (5000 if i == 7 else 1)}\n" for i in range(20_000))
    prepared = plain_lines(text, line_cap=100, notes=())
    lines = prepared.lines
    assert isinstance(lines, LazyLines) and len(lines) == 20_000 and not lines.made
    shown = lines[7]
    assert lines.made.keys() == {7}
    assert shown.plain.startswith("line 7  \u241b[31mwww") and "[line truncated: 4,913 more characters]" in shown.plain
    assert any(span.style for span in shown.spans), "the truncation marker is styled"
    assert lines[-1].plain == "line 19999  \u241b[31mw" and lines[0:2][1].plain == "line 1  \u241b[31mw"
    assert prepared.width == len(shown.plain) and prepared.cut_chars == 4_913
