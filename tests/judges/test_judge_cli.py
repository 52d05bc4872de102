"""``reviewer judge`` run as a user runs it, on a private copy of the bundled corpus, with the script
judge as a real subprocess; ``agreement`` and ``stats`` then score it against a reviewer's labels,
and the figures equal a computation done by hand from the files on disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from clikit import REPO_ROOT, cli
from judgekit import (
    SCRIPT_JUDGE,
    corpus_copy,
    expected,
    hand_kappa,
    hand_table,
    label_expected,
    predictions_on_disk,
    script_command,
)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus copy, labelled by ann with the intended verdicts, judged by the script judge."""
    root = corpus_copy(tmp_path_factory.mktemp("judged"))
    env = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    home = root.parent
    os.environ.update({k: str(home / k.lower()) for k in env})
    try:
        label_expected(root, "ann")
        done = cli("judge", str(root), "--name", "script", "--command", script_command(), "-j", "2")
        assert done.returncode == 0, done.stderr
    finally:
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return root


def test_the_script_judge_predicts_every_failure_of_the_corpus(judged: Path) -> None:
    on_disk = predictions_on_disk(judged, "script")
    assert set(on_disk) == set(expected()) and len(on_disk) == 70
    assert set(on_disk.values()) == {"specification", "capability"}
    doc = tomllib.loads((judged / "oracle-2026-10" / "predictions" / "script.toml").read_text())
    first = doc["prediction"][0]
    assert first["command"] == script_command() and first["judge_version"] == "script-judge 1"
    assert first["evidence"].startswith("sha256:") and first["predicted_at"].endswith("Z")
    assert first["confidence"] in (0.6, 0.9) and "near misses of notation" in first["rationale"]


def test_agreement_and_stats_report_its_kappa_equal_to_a_hand_computation(judged: Path) -> None:
    table = hand_table(predictions_on_disk(judged, "script"), expected())
    kappa, low, high = hand_kappa(*table)
    agreement = json.loads(cli("agreement", str(judged), "--json").stdout)
    rows = {(j["judge"], j["against"]): j for j in agreement["judges"]}
    stats = json.loads(cli("stats", str(judged), "--json", "--reviewer", "ann").stdout)
    final = json.loads(cli("stats", str(judged), "--json", "--final").stdout)
    for row in (rows[("script", "ann")], rows[("script", "final")], stats["judges"][0], final["judges"][0]):
        confusion = row["confusion"]
        assert (confusion["specification/specification"], confusion["specification/capability"],
                confusion["capability/specification"], confusion["capability/capability"]) == table
        assert row["n"] == sum(table) == 70
        assert row["kappa"] == pytest.approx(kappa) and row["kappa_low"] == pytest.approx(low)
        assert row["kappa_high"] == pytest.approx(high) and row["kappa_interval"] == "cohen-1960-large-sample-se"
        assert row["precision"] == pytest.approx(table[0] / (table[0] + table[1]))
        assert row["recall"] == pytest.approx(table[0] / (table[0] + table[2]))
        assert (row["blames_task"], row["blames_model"]) == (table[1], table[2])
    assert [j["against"] for j in stats["judges"]] == ["ann"]  # one reviewer's scope: against that reviewer only
    text = cli("agreement", str(judged)).stdout
    assert "judges against the humans" in text and f"{kappa:.3f} ({low:.3f} to {high:.3f})" in text


def test_a_second_run_skips_what_is_predicted_and_redo_judges_again(judged: Path) -> None:
    before = (judged / "pounce-2026-11" / "predictions" / "script.toml").read_bytes()
    again = cli("judge", str(judged), "--name", "script", "--command", script_command())
    assert again.returncode == 0 and "70 skipped (predicted already" in again.stderr
    assert (judged / "pounce-2026-11" / "predictions" / "script.toml").read_bytes() == before
    one = cli("judge", str(judged), "--name", "script", "--command", script_command(), "--redo", "--task", "roman-go",
              "--model", "gale-13b", "--json")
    assert one.returncode == 0, one.stderr
    [line] = [json.loads(x) for x in one.stdout.splitlines()]
    assert line["failure"] == "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"
    assert "verdict" not in line  # blind mode (the default): no prediction shown before the reviewer decides


def test_print_input_gives_the_documents_a_judge_reads(judged: Path) -> None:
    done = cli("judge", str(judged), "--name", "script", "--command", script_command(), "--print-input",
               "--failure", "oracle-2026-10/fast-expt--cobalt-mini#oracle:oracle_fast_expt.py::test_mults_within_log_bound")
    assert done.returncode == 0, done.stderr
    [doc] = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.stdout.isascii()
    assert (doc["protocol"], doc["version"]) == ("reviewer-judge", 1)
    assert doc["failure"]["id"].endswith("test_mults_within_log_bound") and doc["failure"]["model"] == "cobalt-mini"
    assert "# " in doc["brief"]["text"] and doc["code"]["files"] and doc["code"]["files"][0]["text"]
    assert doc["grader"]["output"]["text"] and doc["grader"]["command"].startswith("python -m pytest")
    assert {"check", "status"} <= set(doc["grader"]["checks"][0])
    assert doc["transcript"]["turns"] and doc["evidence"]["towards_specification"] is True
    assert doc["rescores"] == [] and doc["observation"] is None


def test_usage_errors_exit_2_and_run_nothing(judged: Path) -> None:
    cases = [
        ([], "give a judge"),
        (["--command", script_command()], "needs --name"),
        (["--command", script_command(), "--name", "Bad Name"], "not a judge name"),
        (["--command", script_command(), "--name", "evidence"], "built-in judge's name"),
        (["--builtin", "evidence", "--name", "other"], "keeps its own name"),
        (["--command", "no-such-judge-program --x", "--name", "x"], "not found on PATH"),
        (["--command", "python 'unclosed", "--name", "x"], "does not split"),
        (["--command", script_command(), "--name", "x", "-j", "0"], "-j must be"),
    ]
    for extra, reason in cases:
        done = cli("judge", str(judged), *extra)
        assert done.returncode == 2 and reason in done.stderr, (extra, done.stderr)
    assert not list(judged.glob("*/predictions/x.toml"))


def test_answers_that_do_not_parse_are_named_and_nothing_is_saved_for_them(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    done = cli("judge", str(root), "--name", "bad", "--command", script_command("--mode", "malformed"),
               "--session", "golden-*")
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if "#golden:" in line]
    assert len(errors) == 7
    assert all("the answer is not one JSON object" in line and "it began" in line for line in errors)
    assert "0 failures judged by bad, 7 could not be" in done.stderr
    assert predictions_on_disk(root, "bad") == {}


def test_a_judge_is_stopped_at_its_timeout_and_the_rest_is_judged(tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    done = cli("judge", str(root), "--name", "slow", "--command", script_command("--mode", "hang", "--only", "hydrant--breeze"),
               "--session", "golden-*", "--timeout", "1")
    assert done.returncode == 1
    assert "golden-hydrant--breeze-large#golden:dc-visitor:contains: the judge did not answer within 1 s: stopped" in done.stderr
    on_disk = predictions_on_disk(root, "slow")
    assert len(on_disk) == 6 and not [f for f in on_disk if "hydrant--breeze" in f]


def test_unlabelled_and_failure_filters(judged: Path, tmp_path: Path) -> None:
    root = corpus_copy(tmp_path)
    label = cli("label", str(root), "--failure", "pounce-2026-11/roman-go--gale-13b", "--verdict", "specification",
                "--reviewer", "bob")
    assert label.returncode == 0, label.stderr
    done = cli("judge", str(root), "--name", "s", "--command", script_command(), "--unlabelled", "--reviewer", "bob",
               "--session", "pounce-*")
    assert done.returncode == 0, done.stderr
    on_disk = predictions_on_disk(root, "s")
    assert len(on_disk) == 9 and "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero" not in on_disk
    unknown = cli("judge", str(root), "--name", "s", "--command", script_command(), "--failure", "nope/none#x")
    assert unknown.returncode == 1 and "no run nope/none" in unknown.stderr


def test_ctrl_c_stops_the_judges_keeps_what_they_predicted_and_leaves_no_process(tmp_path: Path) -> None:
    """The judge hangs on pounce-2026-11's failures, the last to be handed out but one session; once
    the others are saved, Ctrl-C (SIGINT to the command, as a terminal sends it)."""
    root = corpus_copy(tmp_path)
    marker = "pounce-2026-11/"
    proc = subprocess.Popen(
        [sys.executable, "-m", "reviewer.cli", "judge", str(root), "--name", "cut", "-j", "2",
         "--command", script_command("--mode", "hang", "--only", marker)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    deadline = time.monotonic() + 120
    while len(predictions_on_disk(root, "cut")) < 51 and time.monotonic() < deadline:  # golden 7, heldout 11, oracle 33
        time.sleep(0.05)
    assert len(predictions_on_disk(root, "cut")) == 51
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "reviewer judge: cancelled: 51 failures judged by cut" in err
    assert "Traceback" not in err
    on_disk = predictions_on_disk(root, "cut")
    assert len(on_disk) == 51 and not [f for f in on_disk if f.startswith(marker)]
    hung = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if str(SCRIPT_JUDGE).encode() in cmdline and marker.encode() in cmdline:
            hung.append(pid)
    assert hung == []
