"""An oracle that runs the program itself and prints only the failed assertion, imported with the
documented options, observed in the sandbox, its evidence read from the observation, and re-scored.

The grader output is real: the oracle is run with pytest here, on the program, before the import.
The program computes the right answer but prints its count under ``steps=``, a key the checker
never names in the brief (it reads ``mults``): nothing of what it printed reaches the grader
output (``KeyError: 'mults'``), so only an observation can show the near miss.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rescorekit import sandbox_tool

pytestmark = pytest.mark.slow

BRIEF = """# Fast powers

Write `power.py`. It reads two integers `a` and `b` (0 <= b) from standard input and prints
`value=<a to the power b>` on one line, then how many multiplications it used, computed by
repeated squaring.
"""

PROGRAM = """import sys
a, b = map(int, sys.stdin.read().split())
result, base, n, steps = 1, a, b, 0
while n:
    if n & 1:
        result *= base
        steps += 1
    base *= base
    steps += 1
    n >>= 1
print(f"value={result}")
print(f"steps={steps}")
"""

WRONG = """import sys
a, b = map(int, sys.stdin.read().split())
result, steps = a, 0
for _ in range(b - 1):
    result *= a
    steps += 1
print(f"value={result}")
print(f"steps={steps}")
"""

ORACLE = '''import subprocess
import sys


def run(a, b):
    out = subprocess.run([sys.executable, "power.py"], input=f"{a} {b}", capture_output=True, text=True, timeout=20)
    fields = dict(line.split("=", 1) for line in out.stdout.split() if "=" in line)
    return fields


def test_value():
    assert run(3, 5)["value"] == "243"


def test_mults_are_logarithmic():
    fields = run(2, 1000)
    count = int(fields["mults"])
    assert count <= 25
'''


def reviewer(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line."""
    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], check=False, capture_output=True, text=True,
                          timeout=600)


def imported(tmp_path: Path, program: str, model: str) -> Path:
    """A code folder graded for real by the oracle, imported into ``tmp/sessions``."""
    code = tmp_path / model / "code"
    code.mkdir(parents=True)
    (code / "power.py").write_text(program)
    grader = tmp_path / model / "grader"
    grader.mkdir()
    (grader / "oracle_power.py").write_text(ORACLE)
    (tmp_path / "brief.md").write_text(BRIEF)
    work = tmp_path / model / "work"
    work.mkdir()
    (work / "power.py").write_text(program)
    (work / "oracle_power.py").write_text(ORACLE)
    graded = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "oracle_power.py"], cwd=work,
                            capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert graded.returncode == 1, graded.stdout
    out = tmp_path / model / "grader.out"
    out.write_text(graded.stdout)
    done = reviewer("import", "pytest", str(code), "--into", str(tmp_path / "sessions"), "--session", "powers",
                    "--grader-output", str(out), "--brief", str(tmp_path / "brief.md"), "--task", "power",
                    "--model", model, "--exit-status", "1", "--grader-file", str(grader / "oracle_power.py"),
                    "--rerun-command", "python -m pytest -rA -p no:cacheprovider oracle_power.py", "--program", "power.py")
    assert done.returncode == 0, done.stderr
    return tmp_path / "sessions"


def show(sessions: Path, failure: str) -> dict:
    done = reviewer("show", str(sessions), "--failure", failure, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["evidence"]


def test_an_observed_program_shows_its_renamed_key_and_the_rescore_flips_only_the_notation(tmp_path: Path) -> None:
    sandbox_tool()
    imported(tmp_path, PROGRAM, "right")
    sessions = imported(tmp_path, WRONG, "naive")
    right = "powers/power--right#grader:oracle_power.py::test_mults_are_logarithmic"
    naive = "powers/power--naive#grader:oracle_power.py::test_mults_are_logarithmic"

    before = show(sessions, right)
    assert before["near_misses"] == [] and not before["observed"]  # the grader output shows nothing printed

    observed = reviewer("rescore", str(sessions), "--observe", "--reviewer", "ann", "--json")
    assert observed.returncode == 0, observed.stderr
    gradings = {json.loads(line)["grading"]: json.loads(line) for line in observed.stdout.splitlines()}
    runs = gradings["powers/power--right#grader"]["invocations"]
    assert [(r["test"], r["exit_status"]) for r in runs] == [
        ("oracle_power.py::test_value", 0), ("oracle_power.py::test_mults_are_logarithmic", 0)]
    assert "steps=" in runs[1]["stdout"]

    after = show(sessions, right)
    assert after["observed"] and after["towards_specification"]
    [nm] = [n for n in after["near_misses"] if n["kind"] == "renamed-key"]
    assert (nm["wanted_key"], nm["found_key"], nm["towards"]) == ("mults", "steps", True)
    assert after["proposed"] == ["rename-key:steps:mults"] and after["decidable"]
    mults = [d for d in after["demands"] if d["value"] == "mults"]
    assert [(d["met"], d["stated"]) for d in mults] == [(False, False)]

    done = reviewer("rescore", str(sessions), "--all-proposed", "--reviewer", "ann", "--json")
    assert done.returncode == 0, done.stderr
    results = {json.loads(line)["failure"]: json.loads(line) for line in done.stdout.splitlines()}
    assert results[right]["flipped"] is True
    # The naive program prints its count under steps= too: renaming it is the same notation repair,
    # and its count (999 multiplications) still fails the bound: capability stays capability.
    assert results[naive]["flipped"] is False and results[naive]["after"] == "fail"
    assert all(c["after"] == "pass" for c in results[right]["checks"] if c["recorded"] == "pass")


def test_a_repair_of_what_the_brief_states_passes_only_as_capability_evidence(tmp_path: Path) -> None:
    sandbox_tool()
    renamed = PROGRAM.replace('print(f"value={result}")', 'print(f"result={result}")')
    sessions = imported(tmp_path, renamed, "renamed")
    failure = "powers/power--renamed#grader:oracle_power.py::test_value"
    reviewer("rescore", str(sessions), "--observe", "--reviewer", "ann")
    ev = show(sessions, failure)
    assert "rename-key:result:value" not in ev["proposed"]
    assert any(n["repair"] == "rename-key:result:value" and "value" in n["stated"] for n in ev["not_proposed"])

    done = reviewer("rescore", str(sessions), "--failure", failure, "--repair", "rename-key:result:value",
                    "--reviewer", "ann", "--json")
    assert done.returncode == 0, done.stderr
    [result] = [json.loads(line) for line in done.stdout.splitlines()]
    assert result["after"] == "pass" and result["flipped"] is False and result["flipped_by_stated"] is True
    assert "brief states" in result["stated"]
    stats = reviewer("stats", str(sessions), "--json")
    assert stats.returncode == 0, stats.stderr
    assert failure not in stats.stdout  # never counted as a check repaired by notation


YESNO_ORACLE = '''import subprocess
import sys


def connected(edges):
    out = subprocess.run([sys.executable, "conn.py"], input=edges, capture_output=True, text=True, timeout=20)
    return dict(line.split("=", 1) for line in out.stdout.split() if "=" in line)


def test_triangle():
    assert connected("a b\\nb c\\nc a\\n")["connected"] == "yes"


def test_apart():
    assert connected("a b\\nc d\\n")["connected"] == "no"
'''


def test_a_map_value_from_one_of_the_checkers_own_answers_is_refused(tmp_path: Path) -> None:
    """conn.py answers no for a triangle (a wrong answer in the checker's own words): mapping no
    onto yes would change the answer, so it is refused and nothing runs."""
    sandbox_tool()
    code = tmp_path / "code"
    code.mkdir()
    (code / "conn.py").write_text('print("connected=no")\n')
    (tmp_path / "oracle_conn.py").write_text(YESNO_ORACLE)
    work = tmp_path / "work"
    work.mkdir()
    (work / "conn.py").write_text('print("connected=no")\n')
    (work / "oracle_conn.py").write_text(YESNO_ORACLE)
    graded = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "oracle_conn.py"], cwd=work,
                            capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    (tmp_path / "out.txt").write_text(graded.stdout)
    done = reviewer("import", "pytest", str(code), "--into", str(tmp_path / "sessions"), "--session", "conn",
                    "--grader-output", str(tmp_path / "out.txt"), "--task", "conn", "--model", "m", "--exit-status", "1",
                    "--grader-file", str(tmp_path / "oracle_conn.py"), "--program", "conn.py",
                    "--rerun-command", "python -m pytest -rA -p no:cacheprovider oracle_conn.py")
    assert done.returncode == 0, done.stderr
    failure = "conn/conn--m#grader:oracle_conn.py::test_triangle"
    refused = reviewer("rescore", str(tmp_path / "sessions"), "--failure", failure, "--repair", "map-value:connected:no:yes",
                       "--reviewer", "ann")
    assert refused.returncode == 1 and "one of the checker's own answers" in refused.stderr
    assert not (tmp_path / "sessions" / "conn" / "rescores").exists()


def test_an_import_names_what_a_rescore_needs(tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "power.py").write_text(PROGRAM)
    (tmp_path / "out.txt").write_text("============ 1 failed in 0.01s ============\n")
    missing = reviewer("import", "pytest", str(code), "--into", str(tmp_path / "s"), "--grader-output",
                       str(tmp_path / "out.txt"), "--program", "power.py")
    assert missing.returncode == 2 and "--rerun-command" in missing.stderr
    report = reviewer("import", "junit", str(code), "--into", str(tmp_path / "s"), "--grader-output",
                      str(tmp_path / "out.txt"), "--rerun-report", "../r.xml", "--rerun-command", "python -m pytest")
    assert report.returncode == 2 and "leaves the workspace" in report.stderr
    absent = reviewer("import", "pytest", str(code), "--into", str(tmp_path / "s"), "--grader-output",
                      str(tmp_path / "out.txt"), "--rerun-command", "python -m pytest", "--program", "nope.py")
    assert absent.returncode == 1 and "not a file of the code folder" in absent.stderr
