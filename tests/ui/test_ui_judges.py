"""The judges on the screen: their predictions under the current failure under the blind rule, drawn as
plain text, and ``P``'s walks on the status line."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from uihelp import make_app, press, settle, sync
from uikit import basic_folder

from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.store.predictions import save_predictions
from reviewer.store.settings.config import Settings
from reviewer.ui.widgets.text_view import TextView

F1 = "s1/roman-go--model-a#heldout:TestToRoman"
F5 = "s2/connected--model-c#oracle:connected"
F6 = "s2/connected--model-c#oracle:edges"
HOSTILE = "[@click=app.quit]quit[/] \x1b]0;pwned\x07\x1b[2J said so"


def predict(root: Path, judge: str, calls: dict[str, tuple[Verdict, float | None, str]]) -> None:
    preds = []
    for fid, (verdict, confidence, why) in calls.items():
        session, rest = fid.split("/", 1)
        run, check = rest.split("#", 1)
        preds.append(Prediction(session, run, check, judge, verdict, confidence, why, "2026-12-01T10:00:00Z"))
    save_predictions(root, judge, preds)


def checks(app) -> list[str]:  # type: ignore[no-untyped-def]
    return app.review_screen.query_one("#checks", TextView).plain_lines()


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_predictions_show_once_decided_as_plain_text_and_p_puts_doubts_first(tmp_path: Path) -> None:
    root = basic_folder(tmp_path / "sessions")
    predict(root, "gpt", {F1: (Verdict.CAPABILITY, 0.8, HOSTILE), F5: (Verdict.SPECIFICATION, 0.55, "unsure")})
    predict(root, "evidence", {F5: (Verdict.CAPABILITY, None, "nothing unstated")})
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == F1
        lines = checks(app)
        assert any("judges: their predictions hidden until you label this" in ln for ln in lines)
        assert not any("gpt" in ln or "capability" in ln for ln in lines)
        await press(app, pilot, "r")
        shown = [ln for ln in checks(app) if "gpt:" in ln]
        assert shown and "\u25b2 capability 80%" in shown[0] and "[@click=app.quit]quit[/]" in shown[0]
        assert "\x1b" not in "".join(checks(app))
        await press(app, pilot, "P")
        assert "judges' doubts first" in status(app)
        await press(app, pilot, "s")  # decided: the next unlabelled one is the one the judges split on
        assert app.session.selection.failure_id == F5
        assert any("judges: their predictions hidden" in ln for ln in checks(app))
        await press(app, pilot, "c")
        assert app.session.selection.failure_id == F6  # nothing doubted is left: the usual next one
        await press(app, pilot, "P")
        assert "judges disagree with me 1 of 2" in status(app)  # F1 (gpt: capability) and F5 (gpt: specification)
        assert app.session.selection.failure_id == F1
        lines = checks(app)
        assert any("judges  gpt: \u25b2 capability 80%" in ln for ln in lines)
        await press(app, pilot, "P")
        assert "judges" not in status(app)
    seeing = make_app(root, reviewer="carol", settings=Settings(blind=False))
    async with seeing.run_test(size=(200, 50)) as pilot:
        await settle(seeing, pilot)
        assert any("gpt: \u25b2 capability" in ln for ln in checks(seeing))
