"""``reviewer show`` under the blind rule: a judge's prediction only once you decided the failure (or blind
mode off), its rationale as plain text (a judge's words are as untrusted as a model's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.store.predictions import save_predictions

F = "s1/r1#heldout:TestToRoman"
EVIL = "[bold]x[/] \x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil"


def shown(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_show_hides_a_prediction_until_decided_and_shows_it_as_plain_text(
        folder: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save_predictions(folder, "gpt", [Prediction("s1", "r1", "heldout:TestToRoman", "gpt", Verdict.CAPABILITY, 0.8, EVIL,
                                                "2026-12-01T10:00:00Z")])
    out = shown(capsys, "show", str(folder), "--failure", F, "--reviewer", "alice")
    assert "judges hidden (blind mode" in out and "gpt" not in out
    doc = json.loads(shown(capsys, "show", str(folder), "--failure", F, "--reviewer", "alice", "--json"))
    assert doc["judges_hidden"] is True and doc["judges"] == []
    assert main(["label", str(folder), "--failure", F, "--verdict", "specification", "--reviewer", "alice"]) == 0
    capsys.readouterr()
    out = shown(capsys, "show", str(folder), "--failure", F, "--reviewer", "alice")
    line = next(ln for ln in out.splitlines() if ln.startswith("judge gpt"))
    assert line.startswith("judge gpt: capability (80% sure) at 2026-12-01T10:00:00Z: [bold]x[/]")
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    doc = json.loads(shown(capsys, "show", str(folder), "--failure", F, "--reviewer", "alice", "--json"))
    assert doc["judges"][0]["verdict"] == "capability" and "\x1b" not in doc["judges"][0]["rationale"]
    config = tmp_path / "cfg" / "reviewer"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("blind = false\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert "judge gpt: capability" in shown(capsys, "show", str(folder), "--failure", F, "--reviewer", "bob")
