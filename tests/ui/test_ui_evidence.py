"""Evidence strip, clusters and statistics in the app, on a copy of the example corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from labelkit import verdicts
from rich.text import Text
from sessionkit import example_corpus, example_corpus_built
from textual.widgets import Static
from uihelp import make_app, press, settle, sync
from uikit import HOSTILE, HOSTILE_SHOWN, Spec, write_session

from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore
from reviewer.store.settings.config import Settings
from reviewer.ui.dialogs.confirm import ConfirmDialog
from reviewer.ui.screens.clusters import ClustersScreen
from reviewer.ui.screens.stats import StatsScreen
from reviewer.ui.widgets.evidence import EvidencePanel

CONNECTED = "oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_triangle_is_connected"
ZERO = "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"
NUMERAL = "pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A private copy of the example corpus (labels written in a test stay in tmp_path)."""
    if not example_corpus_built():
        pytest.skip("the example corpus is not built")
    return example_corpus(tmp_path / "sessions")


def on_disk(folder: Path, session: str, reviewer: str = "alice") -> dict[str, str]:
    """failure id -> verdict of a reviewer's labels of a session on disk."""
    return verdicts(folder, session, reviewer)


def evidence_text(app) -> str:  # type: ignore[no-untyped-def]
    """What the Evidence strip shows, title first."""
    panel = app.review_screen.query_one(EvidencePanel)
    return str(panel.border_title) + "\n" + "\n".join(panel.view.plain_lines())


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


def table_rows(screen: ClustersScreen) -> list[str]:
    """The cluster table's rows as plain text."""
    table = screen.table
    return [" | ".join(cell.plain if isinstance(cell, Text) else str(cell) for cell in table.get_row_at(i))
            for i in range(table.row_count)]


@sync
async def test_near_miss_shows_expected_and_printed_side_by_side(corpus: Path) -> None:
    app = make_app(corpus, start_failure=CONNECTED, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == CONNECTED
        text = evidence_text(app)
        assert "near-miss: expected 'yes' \u00b7 printed 'true' (vocabulary: true for yes)" in text
        assert "\u2717 literal   'yes'  not stated in the brief" in text
        assert "\u2713 key       connected  stated \u00b7 brief line 13" in text
        assert "near-miss" in text.split("\n")[0]  # the title says so too


@sync
async def test_a_strip_waiting_for_evidence_takes_it_when_it_came_during_a_move(corpus: Path) -> None:
    # A result that lands while a move waits for its view is not drawn; the move then points the
    # strip at the same failure with the evidence known, and the strip must take it.
    app = make_app(corpus, start_failure=CONNECTED, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        workspace = app.review_screen.workspace
        known = app.session.cached_evidence(CONNECTED)
        assert known is not None and workspace.evidence.evidence is not None
        workspace.evidence.waiting(CONNECTED)  # as it was when the result came during the move
        await pilot.pause()
        assert workspace.evidence.evidence is None and "reading the brief" in evidence_text(app)
        app.review_screen.point(app.session.selection.run_key, CONNECTED, known)
        await pilot.pause()
        assert workspace.evidence.evidence is known
        assert "near-miss: expected 'yes'" in evidence_text(app)


@sync
async def test_unstated_demand_is_evidence_not_a_label(corpus: Path) -> None:
    app = make_app(corpus, start_failure=ZERO, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = evidence_text(app)
        assert "\u2717 literal   ''  not stated in the brief" in text
        assert "1 not stated" in text.split("\n")[0]
        assert "evidence towards specification" in text and "not a label" in text
        assert "near-miss" not in text
        assert app.session.decisions.label(ZERO) is None and on_disk(corpus, "pounce-2026-11") == {}


@sync
async def test_wrong_numeral_is_no_near_miss_and_the_strip_follows_j_k(corpus: Path) -> None:
    app = make_app(corpus, start_failure=NUMERAL, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        text = evidence_text(app)
        assert "near-miss" not in text and "not stated" not in text
        assert "11 input-bound values: 'IV', 'IX', 'XIX', 'XLIV', \u2026 7 more" in text
        panel = app.review_screen.query_one(EvidencePanel)
        await press(app, pilot, "j")
        assert app.session.selection.failure_id != NUMERAL
        assert panel.failure_id == app.session.selection.failure_id and panel.evidence is not None
        assert panel.evidence.failure_id == app.session.selection.failure_id
        await press(app, pilot, "k")
        assert panel.evidence is not None and panel.evidence.failure_id == NUMERAL
        await press(app, pilot, "v")
        assert not panel.display
        await press(app, pilot, "j", "v")
        assert panel.display and panel.evidence is not None
        assert panel.evidence.failure_id == app.session.selection.failure_id


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_cluster_walk_label_after_confirmation_and_undo(corpus: Path) -> None:
    app = make_app(corpus, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "C")
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        rows = table_rows(screen)
        assert any("fails for 2 of 3 models" in row for row in rows)
        index = next(i for i, c in enumerate(screen.clusters) if c.task == "connected" and c.kind == "check")
        cluster = screen.clusters[index]
        assert cluster.size == 2 and "0/2" in rows[index]
        screen.table.move_cursor(row=index)
        await press(app, pilot, "c")
        assert isinstance(app.screen, ConfirmDialog)
        question = str(app.screen.query_one("#confirm-question", Static).content)
        assert question.startswith("Label 2 failures capability?") and "Undo restores them all" in question
        await press(app, pilot, "n")  # no: nothing changes
        assert app.screen is screen and on_disk(corpus, "oracle-2026-10") == {}
        await press(app, pilot, "s")
        assert isinstance(app.screen, ConfirmDialog)
        await press(app, pilot, "y")
        assert app.screen is screen
        written = on_disk(corpus, "oracle-2026-10")
        assert written == {fid: "specification" for fid in cluster.failure_ids}
        assert "2/2 (2 spec, 0 cap)" in table_rows(screen)[index]
        await press(app, pilot, "u")
        assert on_disk(corpus, "oracle-2026-10") == {}
        assert "0/2" in table_rows(screen)[index]
        # enter: j/k now walk only this cluster, and the status line says so
        await press(app, pilot, "enter")
        assert app.screen is app.review_screen
        assert app.session.selection.failure_id == cluster.failure_ids[0]
        assert "cluster 1/2" in status(app)
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == cluster.failure_ids[1] and "cluster 2/2" in status(app)
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == cluster.failure_ids[1]  # the end of the cluster
        await press(app, pilot, "k")
        assert app.session.selection.failure_id == cluster.failure_ids[0]
        await press(app, pilot, "C", "x", "escape")
        assert app.session.walking.cluster is None and "cluster" not in status(app)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_cluster_label_counts_in_the_status_and_advances_within_the_cluster(corpus: Path) -> None:
    app = make_app(corpus, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "C")
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        index = max(range(len(screen.clusters)), key=lambda i: screen.clusters[i].size)
        cluster = screen.clusters[index]
        screen.table.move_cursor(row=index)
        await press(app, pilot, "enter")
        await press(app, pilot, "c")  # a plain label moves on inside the cluster
        assert app.session.selection.failure_id == cluster.failure_ids[1]
        await press(app, pilot, "C")
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        await press(app, pilot, "s", "y", "escape")
        assert set(on_disk_all(corpus)) >= set(cluster.failure_ids)
        assert all(app.session.decisions.verdict(fid) == "specification" for fid in cluster.failure_ids)
        assert f"{cluster.size}/70 labelled" in status(app)
        await press(app, pilot, "u")
        assert app.session.decisions.verdict(cluster.failure_ids[0]) == "capability"  # back to before the cluster label
        assert all(app.session.decisions.label(fid) is None for fid in cluster.failure_ids[1:])


def on_disk_all(folder: Path) -> dict[str, str]:
    """Every session's labels of alice."""
    out: dict[str, str] = {}
    for session in ("golden-2026-08", "oracle-2026-10", "pounce-2026-11", "rank-2026-09"):
        out.update(on_disk(folder, session))
    return out


@sync
async def test_stats_screen_shows_bars_and_the_false_negative_rate(corpus: Path) -> None:
    store = SessionStore(corpus)
    store.scan()
    labeller = Labeller(store, LabelStore(corpus, "bob"))
    run = store.run("oracle-2026-10/connected--atlas-7b")
    assert run is not None
    labeller.decide_many([f.id for f in store.failures(run)], Verdict.SPECIFICATION)
    blind = make_app(corpus, reviewer="alice")
    async with blind.run_test(size=(200, 50)) as pilot:
        await settle(blind, pilot)
        await press(blind, pilot, "S")
        await settle(blind, pilot)
        text = "\n".join(blind.screen.query_one("#stats-view").plain_lines())
        assert "your own labels only" in text and "bob" not in text and "100% spec" not in text
    app = make_app(corpus, reviewer="alice", settings=Settings(blind=False))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "S")
        assert isinstance(app.screen, StatsScreen)
        await settle(app, pilot)
        lines = app.screen.query_one("#stats-view").plain_lines()
        text = "\n".join(lines)
        assert "verifier false-negative rate: 1 of 1 fully labelled failing run failed" in text
        assert "95% Wilson interval" in text and "\u25cf" in text
        connected = next(line for line in lines if line.startswith("connected "))
        assert "\u2588" in connected and "100% spec" in connected
        assert any(line.strip().startswith("bob") and "\u2588" in line for line in lines)
        await press(app, pilot, "escape")
        assert app.screen is app.review_screen


@sync
async def test_hostile_text_in_evidence_and_clusters_shows_literally(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    message = f"AssertionError: assert 'TRUE {HOSTILE}' == 'yes {HOSTILE}'"
    brief = f"# {HOSTILE}\n\nPrint `{HOSTILE}` and yes.\n"
    specs = [Spec(f"r{i}", task=HOSTILE + "task", model=f"m{i}", brief=brief, grader="oracle",
                  checks=[{"key": HOSTILE + "check", "status": "fail", "message": message}], output=message)
             for i in range(2)]
    write_session(root, "s", specs)
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id
        text = evidence_text(app)
        assert HOSTILE_SHOWN in text
        assert "\x1b" not in text and "\x07" not in text
        await press(app, pilot, "C")
        screen = app.screen
        assert isinstance(screen, ClustersScreen)
        rows = table_rows(screen)
        assert rows and HOSTILE_SHOWN in rows[0] and "fails for 2 of 2 models" in rows[0]
        assert all("\x1b" not in row for row in rows)
        await press(app, pilot, "s")
        assert isinstance(app.screen, ConfirmDialog)
        await press(app, pilot, "escape", "escape")
        assert app.is_running and app.screen is app.review_screen
        await press(app, pilot, "S")
        assert isinstance(app.screen, StatsScreen)
        stats = "\n".join(app.screen.query_one("#stats-view").plain_lines())
        assert HOSTILE_SHOWN in stats and "\x1b" not in stats
        assert app.is_running


def test_show_prints_the_evidence(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["show", str(corpus), "--failure", CONNECTED, "--reviewer", "alice"])
    out = capsys.readouterr().out
    assert code == 0
    evidence = out[out.index("── Evidence"):out.index("── Transcript")]
    assert "\u2717 literal   'yes'  not stated in the brief \u00b7 not in the output" in evidence
    assert "near-miss: expected 'yes' \u00b7 printed 'true' (vocabulary: true for yes)" in evidence
    assert "\x1b" not in out
