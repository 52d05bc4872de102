"""Plain tests of the UI's pure parts: text preparation, the binding table."""

from __future__ import annotations

from uihelp import sync

from reviewer.model.sanitize import one_line
from reviewer.ui.bindings import BINDINGS, BY_ID, DEFAULT_KEYS, LABELLING_IDS
from reviewer.ui.render.language import language_for
from reviewer.ui.render.lines import LazyLines, ansi_lines, code_lines, diff_lines, plain_lines


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
    assert [b.key for b in BINDINGS if b.key.isdigit()] == ["1", "2", "3", "4"]  # the panes; digits stay free otherwise
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


@sync
async def test_a_hidden_wrapping_view_folds_when_it_is_laid_out() -> None:
    """Lines given to a view that has no width yet are not folded at one column (thousands of
    rows); they are folded at the view's width once it is shown."""
    from textual.app import App, ComposeResult
    from textual.content import Content

    from reviewer.ui.widgets.text_view import TextView

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield TextView(wrap=True, id="view")

    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        view = app.query_one(TextView)
        view.display = False
        await pilot.pause()
        view.set_lines([Content("word " * 40)] * 3)
        assert view.row_count() == 3  # not 600 rows of one column
        view.display = True
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        assert 3 < view.row_count() < 30  # folded at the view's width


def test_a_find_keeps_its_matches_steps_round_them_and_finds_again_in_new_lines() -> None:
    from reviewer.ui.widgets.text_find import TextFind

    finding = TextFind()
    lines = ["alpha Beta", "gamma", "beta beta"]
    assert finding.search(lines, "BETA", from_line=1) == (2, 0)  # the first at or below line 1
    assert finding.matches == [(0, 6), (2, 0), (2, 5)] and finding.current == 1
    assert finding.step(1) == (2, 5) and finding.step(1) == (0, 6)  # wraps
    assert finding.spans("x beta", 2, 4) == [(2, 6, False)] and finding.spans("Beta", 0, 6) == [(0, 4, True)]
    finding.lines_changed(["no match here"])
    assert finding.matches == [] and finding.current_place is None and finding.step(1) is None
    finding.clear()
    assert finding.query == "" and finding.spans("beta", 0, 0) == []
