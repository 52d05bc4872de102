"""``R`` in the app: re-score the current failure with its proposed repair, for real.

The corpus's connected--atlas-7b prints ``connected=true`` where its oracle reads ``yes``; the
evidence proposes the vocabulary repair. The grader really runs twice in the bubblewrap sandbox
(about 3 s); the screen stays live meanwhile, escape cancels, and the record it leaves is shown
when the failure is opened again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sessionkit import example_corpus
from textual.widgets import Button, Static, TextArea
from uihelp import make_app, press, settle, sync, until

from reviewer.rescore.record import latest_for
from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox
from reviewer.ui.app import ReviewApp
from reviewer.ui.dialogs.annotate import NoteDialog
from reviewer.ui.dialogs.rescore import RescoreDialog
from reviewer.ui.screens.help import HelpScreen
from reviewer.ui.widgets.evidence import EvidencePanel
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.rescore_strip import RescoreStrip

REPO = Path(__file__).resolve().parents[2]
CONNECTED = "oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_single_node"
SUMMARY = "1/6 -> 3/6 with value true->yes under connected"


def corpus(tmp_path: Path) -> Path:
    """A private copy of the bundled corpus (the record is written into it)."""
    return example_corpus(tmp_path / "corpus" / "sessions")


def need_sandbox() -> None:
    """The sandbox is part of what is tested (CI installs bubblewrap)."""
    try:
        require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"these tests need a working bubblewrap: {exc}")


def dialog_text(app: ReviewApp) -> str:
    """The re-score dialog's body."""
    assert isinstance(app.screen, RescoreDialog), app.screen
    return str(app.screen.query_one("#rescore-body", Static).content)


def evidence_text(app: ReviewApp) -> list[str]:
    """The Evidence strip's lines as drawn."""
    return [line.plain for line in app.review_screen.query_one(EvidencePanel).view.lines]


def grader_title(app: ReviewApp) -> str:
    """The Grader pane's re-score title line."""
    return str(app.review_screen.query_one("#rescored-title", Static).content)


@pytest.mark.slow  # the grader really runs twice in bubblewrap
@sync
async def test_confirm_run_summary_grader_pane_note_then_the_record_on_open(tmp_path: Path) -> None:
    need_sandbox()
    folder = corpus(tmp_path)
    app = make_app(folder, reviewer="bo", start_failure=CONNECTED)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == CONNECTED
        pane = app.review_screen.query_one(GraderPane)
        assert pane.rescored is None and not pane.rescored_view.display  # no record yet
        await press(app, pilot, "R")
        text = dialog_text(app)
        for said in ("Repair: value true->yes under connected", "Grader command: python -m pytest -rA --color=yes "
                     "oracle_connected.py", "inside the bubblewrap sandbox", "No network", "never as a label"):
            assert said in text, said
        assert not list(folder.glob("*/rescores"))  # asking ran nothing
        await pilot.press("y")
        await pilot.pause()
        strip = app.review_screen.query_one(RescoreStrip)
        assert strip.display and "re-scoring" in str(strip.content) and "cancels · test_single_node" in str(strip.content)
        await pilot.press("j")  # the screen is live while the sandbox runs
        await until(app, pilot, lambda: app.session.selection.failure_id != CONNECTED, 60, settled=False)
        assert app.review_screen.rescores.rescoring.running is not None
        await pilot.press("k")
        await until(app, pilot, lambda: app.review_screen.rescores.rescoring.running is None, 60, settled=False)
        await settle(app, pilot)
        assert app.session.selection.failure_id == CONNECTED
        assert not strip.display
        said = [n for n in app.notes if n.title == "Re-scored"]  # type: ignore[attr-defined]
        assert said and SUMMARY in said[-1].message and "This check: fail -> pass (flipped" in said[-1].message
        assert "2 checks flipped fail -> pass, 3 still failing" in said[-1].message
        entry = latest_for(folder, CONNECTED)
        assert entry is not None and entry.reviewer == "bo" and entry.repairs == ("map-value:connected:true:yes",)
        assert CONNECTED in entry.flipped and (folder / "oracle-2026-10" / "rescores" / "bo.toml").is_file()
        assert pane.rescored_view.display and "re-scored with value true->yes under connected" in grader_title(app)
        assert "test_single_node" in " ".join(pane.rescored.rows[i][0] for i in range(len(pane.rescored.rows)))
        strip_line = app.review_screen.query_one(EvidencePanel).rescore
        assert strip_line[0] == CONNECTED and f"re-scored (flipped to pass): {SUMMARY}" in strip_line[1]
        assert any(strip_line[1] in line for line in evidence_text(app))  # the Evidence strip says it first
        await press(app, pilot, "s")  # labelling after the flip: the note is the re-score's
        lab = app.session.decisions.label(CONNECTED)
        assert lab is not None and lab.verdict.value == "specification"
        assert app.session.labeller.annotation(CONNECTED)[0] == f"re-scored in the sandbox: {SUMMARY}"
        await press(app, pilot, "k")
        assert app.session.selection.failure_id == CONNECTED
        await press(app, pilot, "n")
        assert isinstance(app.screen, NoteDialog)
        assert app.screen.query_one(TextArea).text == f"re-scored in the sandbox: {SUMMARY}"
        await press(app, pilot, "ctrl+s")
        assert app.session.labeller.annotation(CONNECTED)[0] == f"re-scored in the sandbox: {SUMMARY}"

    again = make_app(folder, reviewer="al", start_failure=CONNECTED)  # another reviewer opens the failure
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(again, pilot)
        pane = again.review_screen.query_one(GraderPane)
        assert pane.rescored is not None and not pane.rescored.fresh
        assert "re-scored with value true->yes under connected" in grader_title(again) and "(bo, " in grader_title(again)
        await press(again, pilot, "n")
        assert again.screen.query_one(TextArea).text == f"re-scored in the sandbox: {SUMMARY}"


@sync
async def test_escape_cancels_a_running_re_score_and_nothing_is_recorded(tmp_path: Path) -> None:
    need_sandbox()
    folder = corpus(tmp_path)
    app = make_app(folder, reviewer="bo", start_failure=CONNECTED)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "R")
        await pilot.press("y")
        await pilot.pause()
        assert app.review_screen.rescores.rescoring.running is not None
        await pilot.press("escape")
        await until(app, pilot, lambda: app.review_screen.rescores.rescoring.running is None, 30, settled=False)
        await settle(app, pilot)
        titles = [n.title for n in app.notes]  # type: ignore[attr-defined]
        assert "Re-scored" not in titles
        assert any(n.message.startswith("Re-score cancelled") for n in app.notes)  # type: ignore[attr-defined]
        assert not app.review_screen.query_one(RescoreStrip).display
        assert app.review_screen.query_one(GraderPane).rescored is None
        assert latest_for(folder, CONNECTED) is None and not list(folder.glob("*/rescores/*.toml"))


@sync
async def test_refusals_say_why_and_run_nothing(tmp_path: Path, basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(basic, reviewer="ana")  # the UI kit's runs declare no [grader.rerun]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "ctrl+p")
        for key in "Re-score with":
            await pilot.press("space" if key == " " else key)
        await press(app, pilot, "enter")
        text = dialog_text(app)
        assert "no way to run its grader again" in text and "--rerun-command" in text and "Nothing was run" in text
        assert [b.id for b in app.screen.query(Button)] == ["rescore-no"]
        await press(app, pilot, "escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text", Static).content)
        assert "Re-score with the proposed repair" in help_text and "Cancel the re-score running" in help_text

    folder = corpus(tmp_path)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no bwrap (and no git: the app says so and goes on)
    app = make_app(folder, reviewer="bo", start_failure=CONNECTED)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "R")
        text = dialog_text(app)
        assert "bubblewrap" in text and "Nothing was run" in text and "Traceback" not in text
        await press(app, pilot, "y")  # y on a refusal only closes it
        assert app.screen is app.review_screen and app.review_screen.rescores.rescoring.running is None
        assert not list(folder.glob("*/rescores"))


@pytest.mark.slow  # the grader really runs in bubblewrap
@sync
async def test_inconclusive_evidence_offers_to_observe_the_program(tmp_path: Path) -> None:
    """An imported oracle that runs the program itself shows nothing it printed: R offers to observe
    it; once observed, the strip shows the renamed key and R proposes the repair."""
    import sys

    sys.path.insert(0, str(REPO / "tests" / "rescore"))
    from test_observe_imported import PROGRAM, imported

    need_sandbox()
    folder = imported(tmp_path, PROGRAM, "right")
    failure = "powers/power--right#grader:oracle_power.py::test_mults_are_logarithmic"
    app = make_app(folder, reviewer="bo", start_failure=failure)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        assert not any("renamed key" in line for line in evidence_text(app))
        await press(app, pilot, "R")
        assert isinstance(app.screen, RescoreDialog) and app.screen.plan.observe
        assert "Observe power.py" in dialog_text(app) and "nothing repaired" in dialog_text(app)
        await pilot.press("y")
        await until(app, pilot, lambda: app.review_screen.rescores.rescoring.running is None, 120, settled=False)
        await until(app, pilot, lambda: any("renamed key" in line for line in evidence_text(app)), 60)
        said = [n for n in app.notes if n.title == "Observed"]  # type: ignore[attr-defined]
        assert said and "2 runs of power.py observed" in said[-1].message
        assert any("observed in a re-score" in line for line in evidence_text(app))
        pane = app.review_screen.query_one(GraderPane)
        await until(app, pilot, lambda: pane.observed_title.display, 30)
        assert "observed: 2 runs of power.py observed" in str(pane.observed_title.content)
        drawn = [line.plain for line in pane.observed_view.lines]
        assert any(line.startswith("run 1: $ ") and "power.py" in line for line in drawn), drawn
        assert any("stdout" in line for line in drawn) and any("mults" not in line and "steps" in line for line in drawn)
        await press(app, pilot, "R")
        assert isinstance(app.screen, RescoreDialog) and not app.screen.plan.observe
        assert "Repair: key steps->mults" in dialog_text(app)
    again = make_app(folder, reviewer="bo", start_failure=failure)  # the record is read when the failure opens
    async with again.run_test(size=(160, 48)) as pilot:
        await settle(again, pilot)
        pane = again.review_screen.query_one(GraderPane)
        await until(again, pilot, lambda: pane.observed_title.display, 30)
        assert "2 runs of power.py observed" in str(pane.observed_title.content) and "(bo, " in str(pane.observed_title.content)


def test_what_a_re_score_says_is_sanitised() -> None:
    from reviewer.model.repair import Repair, RepairKind
    from reviewer.rescore.sandbox import Tool
    from reviewer.review.rescoring import Plan, Shown, summary_text
    from reviewer.ui.render.rescored import rescored_lines, title

    evil = "\x1b]0;PWNED\x07[b]x"
    plan = Plan("s/r#g:k", "s/r", "g", (Repair(RepairKind.RENAME_KEY, (evil, "mults"), evil),), f"python {evil}", "",
                "p.py", "python 3.11", 120, Tool("/usr/bin/bwrap", "/usr/bin/prlimit", "bubblewrap 0.8.0", False))
    shown = Shown("s/r#g:k", (f"key {evil}->mults",), f"0/1 -> 1/1 with key {evil}->mults", ((evil, "fail", "fail", "pass"),),
                  f"\x1b[31mred\x1b[0m {evil}", "at", evil, True, True, True, (evil,), "s/rescores/bo.toml")
    from reviewer.model.observation import Invocation
    from reviewer.review.rescoring import Observed
    from reviewer.ui.render.observed import observed_lines, observed_title

    run = Invocation((f"p.py {evil}", evil), evil, f"\x1b[32mok\x1b[0m {evil}\tx", evil, -9, evil, ("stdout",), 0.5)
    observed = Observed("s/r#g:k", f"1 run of {evil} observed", evil, evil, (run,), 3, evil)
    drawn = [*plan.lines(), summary_text(shown), shown.note, title(shown).plain,
             *(line.plain for line in rescored_lines(shown)[0]), observed_title(observed).plain,
             *(line.plain for line in observed_lines(observed)[0])]
    assert "killed by SIGKILL" in "".join(drawn) and "1 of them by this check" in "".join(drawn)
    assert all("\t" not in text for text in drawn)  # a tab never reaches the terminal raw
    assert all("\x1b" not in text and "\x07" not in text for text in drawn)
    assert any("[b]x" in text for text in drawn)  # shown literally, never parsed as markup
