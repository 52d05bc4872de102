"""One report for the strip and ``reviewer show``; ``show --json`` with the fields the issue
names; ``show --across``; blind mode; the program's output, crash and code readers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from analysis_kit import label
from sessionkit import example_corpus

from reviewer.analysis.evidence.engine import analyse, evidence_for
from reviewer.analysis.evidence.strip import evidence_report, render_evidence
from reviewer.analysis.reading.code import CodeFile, defines, prints_key, writes_literal
from reviewer.analysis.reading.output import find_crash, program_output
from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.store.sessions.store import SessionStore

REPO = Path(__file__).resolve().parents[2]
CONNECTED = "oracle-2026-10/connected--atlas-7b#oracle:oracle_connected.py::test_triangle_is_connected"
HUGE = "oracle-2026-10/fast-expt--ember-9b#oracle:oracle_fast_expt.py::test_mults_within_log_bound_huge_exponent"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    if not any((REPO / "sessions").glob("heldout-2026-12/runs/*/run.toml")):
        pytest.skip("the example corpus is not built")
    return example_corpus(tmp_path / "sessions")


def shown(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_show_json_carries_the_named_fields(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = shown(capsys, "show", str(corpus), "--failure", HUGE, "--json", "--reviewer", "alice")
    doc = json.loads(out)
    assert code == 0 and doc["failure"] == HUGE and doc["brief"] == "oracle-2026-10/briefs/fast-expt.md"
    assert {"id": "oracle:oracle_fast_expt.py::test_mults_within_log_bound_huge_exponent", "status": "fail", "current": True} in doc["checks"]
    ev = doc["evidence"]
    assert {"demands", "near_misses", "crash", "hints", "across"} <= set(ev)
    [mults] = [d for d in ev["demands"] if d["value"] == "mults"]
    assert (mults["kind"], mults["stated"], mults["met"]) == ("key", False, False) and "message" in mults["origins"]
    assert ev["crash"]["limit"] == "int-max-str-digits" and ev["crash"]["rescorable"] is True
    [nm] = ev["near_misses"]
    assert {k: nm[k] for k in ("kind", "wanted_key", "found_key", "found")} == {
        "kind": "renamed-key", "wanted_key": "mults", "found_key": "multiplications", "found": "18"}
    assert ev["across"]["failing"] == 5 and ev["across"]["total"] == 6
    assert ev["towards_specification"] is True


def test_the_strip_shows_exactly_what_show_prints(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reviewer.ui.render.evidence import evidence_lines, summary

    store = SessionStore(corpus)
    store.scan()
    for fid in (CONNECTED, HUGE, "pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman"):
        run = store.run(fid.split("#")[0])
        [failure] = [f for f in store.failures(run) if f.id == fid]
        ev = evidence_for(store, run, failure)
        strip = [summary(ev), *(c.plain for c in evidence_lines(ev))]
        code, out = shown(capsys, "show", str(corpus), "--failure", fid, "--reviewer", "alice")
        printed = out[out.index("── Evidence"):out.index("── Transcript")].splitlines()[1:]
        assert code == 0 and [ln for ln in printed if ln] == strip
        report = evidence_report(ev)
        assert render_evidence(ev).splitlines() == [report.title, *report.lines()]


def test_counts_agree_between_title_and_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = shown(capsys, "show", str(corpus), "--failure", "pounce-2026-11/roman-go--cobalt-mini#heldout:TestHeldOutToRoman", "--json")
    ev = json.loads(out)["evidence"]
    assert ev["counts"] == {"stated": 1, "unstated": 0, "bound": 11}
    assert ev["summary"] == "1 demand \u00b7 1 stated \u00b7 11 input-bound"


def test_show_across_prints_every_model(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = shown(capsys, "show", str(corpus), "--failure", HUGE, "--across")
    assert code == 0 and out.count("\n") == 9
    assert "▶  ember-9b" in out and "hint: 5 of 6 models fail this check" in out


def test_other_reviewers_only_outside_blind_mode(corpus: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    label(corpus, "bob", {CONNECTED: Verdict.CAPABILITY})
    _, out = shown(capsys, "show", str(corpus), "--failure", CONNECTED, "--reviewer", "alice")
    assert "bob" not in out and "others hidden (blind mode" in out
    doc = json.loads(shown(capsys, "show", str(corpus), "--failure", CONNECTED, "--json", "--reviewer", "alice")[1])
    assert doc["others_hidden"] is True and doc["others"] == []
    config = tmp_path / "xdg" / "reviewer"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("blind = false\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    _, out = shown(capsys, "show", str(corpus), "--failure", CONNECTED, "--reviewer", "alice")
    assert "other bob: capability" in out


def test_output_stderr_and_read_fields_from_a_failure_text() -> None:
    text = (
        "E       AssertionError: no mults= in the output; stderr: RecursionError: maximum recursion depth exceeded\n"
        "E       assert 'mults' in {'steps': '15', 'value': '1024'}\n"
        "----------------------------- Captured stdout call -----------------------------\n"
        "input: 3 1000\nstdout: 'value=1024 steps=15\\n'\nstderr: Traceback (most recent call last):\n"
        '  File "p.py", line 3, in <module>\nRecursionError: maximum recursion depth exceeded\n'
    )
    out = program_output(text)
    assert out.stdout == "value=1024 steps=15\n" and out.read == (("steps", "15"), ("value", "1024"))
    assert out.stderr.endswith("RecursionError: maximum recursion depth exceeded") and out.has_key("steps")
    crash = find_crash(text, out)
    assert crash is not None and (crash.limit, crash.partial) == ("recursion-limit", True)
    go = find_crash("--- FAIL: TestZero\npanic: runtime error: index out of range [3]\n", program_output(""))
    assert go is not None and go.error.startswith("panic: runtime error") and go.limit is None
    assert find_crash("E   AssertionError: assert 'a' == 'b'\n", program_output("")) is None


def test_the_code_says_what_the_program_would_print() -> None:
    files = (CodeFile("p.py", 'def main():\n    print(f"value={v} steps={s}")\n    out = {"mults": m}\n    return "yes" if ok else "no"\n'),)
    assert prints_key(files, "steps") == "p.py:2" and prints_key(files, "mults") == "p.py:3"
    assert prints_key(files, "main") == "" and prints_key(files, "ok") == ""
    assert writes_literal(files, "no") == "p.py:4" and writes_literal(files, "maybe") == ""
    assert defines(files, "main") == "p.py:1" and defines(files, "ToRoman") == ""


def test_an_unstated_key_the_code_prints_is_no_evidence() -> None:
    message = "E   AssertionError: no mults= in the output\nE   assert 'mults' in {}\n"
    source = 'def test_m():\n    assert "mults" in fields\n'
    from reviewer.analysis.evidence.engine import Source

    met = analyse("f", "t.py::test_m", message, "Print value.\n", [Source("t.py", source)], code=(CodeFile("p.py", 'print(f"mults={m}")\n'),))
    unmet = analyse("f", "t.py::test_m", message, "Print value.\n", [Source("t.py", source)], code=(CodeFile("p.py", 'print(f"count={m}")\n'),))
    assert [d.met_where for d in met.demands if d.value == "mults"] == ["p.py:1"] and not met.towards_specification
    assert unmet.towards_specification and "the program prints it (p.py:1)" in render_evidence(met)
