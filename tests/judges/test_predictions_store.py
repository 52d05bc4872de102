"""Predictions on disk: written atomically through the project's TOML writer, read back as hostile input."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from reviewer.analysis.stats.score import read_predictions as read_for_score
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.store.fs.nofollow import LinkOnPath
from reviewer.store.predictions import FILE_CAP, PredictionsUnsafe, file_bytes, read_predictions, save_predictions

S, C = Verdict.SPECIFICATION, Verdict.CAPABILITY


def made(run: str = "r1", check: str = "heldout:TestToRoman", verdict: Verdict | None = S, judge: str = "gpt",
         at: str = "2026-12-01T10:00:00Z", session: str = "s1", **more: object) -> Prediction:
    return Prediction(session, run, check, judge, verdict, more.pop("confidence", 0.75), more.pop("rationale", "why"),  # type: ignore[arg-type]
                      at, "python judge.py", "v1", "sha256:abc", 1.5)


def test_saved_predictions_read_back_the_same(folder: Path) -> None:
    preds = [made(), made("r2", verdict=C), made("r2", "heldout:x", verdict=None, rationale="unsure\nline two")]
    [path] = save_predictions(folder, "gpt", preds)
    assert path == folder / "s1" / "predictions" / "gpt.toml"
    back = read_predictions(folder, ["s1"])
    assert back.problems == ()
    assert back.judges == ("gpt",)
    assert sorted(back.by_judge["gpt"].values(), key=lambda p: (p.run, p.check)) == \
        sorted(preds, key=lambda p: (p.run, p.check))
    doc = tomllib.loads(path.read_text())
    assert doc["format"] == 1 and doc["judge"] == "gpt"
    assert [t["run"] for t in doc["prediction"]] == ["r1", "r2"] and doc["abstention"][0]["check"] == "heldout:x"
    assert "verdict" not in doc["abstention"][0] and doc["prediction"][0]["flagged"] is True


def test_the_same_predictions_give_the_same_bytes_in_any_order(folder: Path) -> None:
    preds = [made("r2"), made("r1", verdict=C), made("r1", "heldout:a")]
    assert file_bytes("gpt", preds) == file_bytes("gpt", list(reversed(preds)))


def test_a_later_save_merges_and_replaces_by_failure(folder: Path) -> None:
    save_predictions(folder, "gpt", [made(), made("r2")])
    save_predictions(folder, "gpt", [made(verdict=C, at="2026-12-02T10:00:00Z")])
    back = read_predictions(folder, ["s1"]).by_judge["gpt"]
    assert {k[1]: p.verdict for k, p in back.items()} == {"r1": C, "r2": S}
    assert not [n for n in os.listdir(folder / "s1" / "predictions") if n.startswith(".")]  # no temp file left


def test_a_file_reviewer_score_reads_as_it_is(folder: Path) -> None:
    [path] = save_predictions(folder, "gpt", [made(), made("r2", verdict=C), made("r3", verdict=None)])
    scored = {(p.run, p.flagged) for p in read_for_score(path)}
    assert scored == {("r1", True), ("r2", False)}  # the abstention is no prediction there


def write(folder: Path, name: str, text: str | bytes, session: str = "s1") -> Path:
    path = folder / session / "predictions" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


GOOD = '[[prediction]]\nsession = "s1"\nrun = "r1"\ncheck = "heldout:TestToRoman"\nverdict = "specification"\n'

HOSTILE = {
    "not TOML": ("format = 1\n[[prediction]\n", "is not valid TOML"),
    "conflict markers": ("format = 1\n<<<<<<< HEAD\n" + GOOD + "=======\n>>>>>>> other\n", "conflict markers"),
    "NUL bytes": (b"format = 1\n\x00\x00", "NUL bytes"),
    "not UTF-8": (b"format = 1\nx = '\xff'\n", "not valid UTF-8"),
    "newer format": ("format = 7\n" + GOOD, "format 7 by a newer reviewer"),
    "no format": (GOOD, "not a format-1 predictions file"),
    "deep nesting": ("format = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    "huge integer": ("format = 1\nx = " + "9" * 5000 + "\n", "cannot be read"),
    "tables not an array": ("format = 1\nprediction = 3\n", "not an array of tables"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_file_that_cannot_be_read_is_a_problem_never_a_crash(folder: Path, case: str) -> None:
    text, reason = HOSTILE[case]
    path = write(folder, "gpt.toml", text)
    found = read_predictions(folder, ["s1"])
    assert found.by_judge == {}
    assert len(found.problems) == 1 and str(path) in found.problems[0] and reason in found.problems[0], found.problems
    with pytest.raises(PredictionsUnsafe):  # and it is never written over
        save_predictions(folder, "gpt", [made()])
    assert path.read_bytes() == (text.encode() if isinstance(text, str) else text)


TABLES = {
    'verdict = "maybe"': "`verdict` is 'maybe'",
    'verdict = "specification"\nconfidence = 3': "`confidence` is '3'",
    'verdict = "specification"\nconfidence = true': "`confidence` is 'True'",
    'verdict = "capability"\nflagged = true': "contradicts",
    'verdict = "capability"\nrationale = 5': "`rationale` must be a string",
    'verdict = "capability"\nseconds = "slow"': "`seconds` must be a number",
}


@pytest.mark.parametrize("extra", sorted(TABLES))
def test_a_bad_table_is_named_and_the_rest_is_used(folder: Path, extra: str) -> None:
    bad = f'[[prediction]]\nsession = "s1"\nrun = "r2"\ncheck = "heldout:x"\n{extra}\n'
    path = write(folder, "gpt.toml", "format = 1\n" + GOOD + bad)
    found = read_predictions(folder, ["s1"])
    assert list(found.by_judge["gpt"]) == [("s1", "r1", "heldout:TestToRoman")]
    assert found.problems == (f"{path}: prediction 2 {TABLES[extra]}",) or TABLES[extra] in found.problems[0]
    with pytest.raises(PredictionsUnsafe, match="prediction 2"):
        save_predictions(folder, "gpt", [made()])


def test_a_table_without_its_failure_is_named(folder: Path) -> None:
    write(folder, "gpt.toml", 'format = 1\n[[prediction]]\nrun = "r1"\nverdict = "capability"\n')
    assert "lacks `session`" in read_predictions(folder, ["s1"]).problems[0]


def test_a_file_claiming_another_judge_counts_as_its_own_name(folder: Path) -> None:
    path = write(folder, "mallory.toml", 'format = 1\njudge = "evidence"\n' + GOOD)
    found = read_predictions(folder, ["s1"])
    assert found.judges == ("mallory",)
    assert "says it holds judge 'evidence'" in found.problems[0] and str(path) in found.problems[0]


def test_a_prediction_of_another_session_is_not_used(folder: Path) -> None:
    write(folder, "gpt.toml", "format = 1\n" + GOOD.replace('"s1"', '"s2"'))
    found = read_predictions(folder, ["s1"])
    assert found.by_judge == {} and "names session 's2', not 's1'" in found.problems[0]


def test_two_predictions_on_one_failure_the_newer_counts(folder: Path) -> None:
    older = GOOD + 'predicted_at = "2026-01-01T00:00:00Z"\n'
    newer = GOOD.replace("specification", "capability") + 'predicted_at = "2026-02-01T00:00:00Z"\n'
    write(folder, "gpt.toml", "format = 1\n" + newer + older)
    found = read_predictions(folder, ["s1"])
    [p] = found.by_judge["gpt"].values()
    assert p.verdict is C and "two predictions of gpt" in found.problems[0]


def test_a_file_name_that_is_no_judge_is_not_read(folder: Path) -> None:
    write(folder, "Evil Name.toml", "format = 1\n" + GOOD)
    found = read_predictions(folder, ["s1"])
    assert found.by_judge == {} and "the file name is not a judge's" in found.problems[0]


def test_links_fifos_and_huge_files_are_never_read(folder: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text("format = 1\n" + GOOD)
    (folder / "s1" / "predictions").mkdir(parents=True)
    (folder / "s1" / "predictions" / "linked.toml").symlink_to(secret)
    os.mkfifo(folder / "s1" / "predictions" / "fifo.toml")
    with open(folder / "s1" / "predictions" / "huge.toml", "wb") as fh:
        fh.truncate(FILE_CAP + 1)  # sparse: no disk used
    found = read_predictions(folder, ["s1"])
    assert found.by_judge == {}
    text = "\n".join(found.problems)
    assert "linked.toml: not a regular file" in text and "fifo.toml: not a regular file" in text
    assert "huge.toml: over 64 MiB" in text


def test_a_linked_predictions_folder_is_neither_read_nor_written_through(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "gpt.toml").write_text("format = 1\n" + GOOD)
    (folder / "s1" / "predictions").symlink_to(elsewhere)
    found = read_predictions(folder, ["s1"])
    assert found.by_judge == {} and "symbolic link" in found.problems[0]
    with pytest.raises(LinkOnPath):
        save_predictions(folder, "gpt", [made()])
    assert sorted(os.listdir(elsewhere)) == ["gpt.toml"]


def test_a_read_only_folder_keeps_predictions_in_the_per_user_folder(folder: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder")
    session = folder / "s1"
    session.chmod(0o555)
    try:
        [path] = save_predictions(folder, "gpt", [made()])
    finally:
        session.chmod(0o755)
    assert not path.is_relative_to(folder) and path.name == "gpt.toml"
    assert read_predictions(folder, ["s1"]).judges == ("gpt",)


def test_saving_refuses_a_bad_judge_name_or_a_mixed_batch(folder: Path) -> None:
    with pytest.raises(ValueError, match="not a judge name"):
        save_predictions(folder, "../x", [made()])
    with pytest.raises(ValueError, match="given to save as"):
        save_predictions(folder, "other", [made()])
