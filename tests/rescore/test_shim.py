"""The shim between program and checker, for real in the sandbox: it inherits stdin, keeps
stderr, the exit status and the signal, re-expresses only stdout, and lifts limits only when
asked; files the checker reads are re-expressed in the sandbox copy, never in the folder."""

from __future__ import annotations

from pathlib import Path

from rescorekit import sandbox_tool, synthetic

from reviewer.model.repair import parse_repair
from reviewer.rescore.engine import compare_grader
from reviewer.store.sessions.store import SessionStore

RUNNER = '''import subprocess, sys
proc = subprocess.run([sys.executable, "prog.py"], check=False, input="abc\\n", capture_output=True, text=True)
print("stdout", repr(proc.stdout), "stderr", repr(proc.stderr), "status", proc.returncode)
sys.exit(0 if {condition} else 1)
'''


def rescored(root: Path, *repairs: str) -> tuple[str, str, str]:
    """(recorded, control, repaired) status of the synthetic run's single check."""
    store = SessionStore(root)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None
    c = compare_grader(store, run, "check", tuple(parse_repair(r) for r in repairs), tool=sandbox_tool())
    row = next(r for r in c.checks if r.key == "run")
    return row.recorded, row.before, row.after


def test_stdin_reaches_the_program_and_only_stdout_changes(tmp_path: Path) -> None:
    prog = "import sys\ndata = sys.stdin.read()\nprint(f'answer=true n={len(data)}')\nprint('warned', file=sys.stderr)\nsys.exit(3)\n"
    cond = "proc.stdout == 'answer=yes n=4\\n' and proc.stderr == 'warned\\n' and proc.returncode == 3"
    root = synthetic(tmp_path, {"prog.py": prog}, RUNNER.format(condition=cond), {"program": "prog.py"})
    assert rescored(root, "map-value:answer:true:yes") == ("fail", "fail", "pass")
    assert (root / "s1/runs/r1/attempts/1/prog.py").read_text() == prog  # the program is never edited


def test_a_signal_is_passed_on(tmp_path: Path) -> None:
    prog = "import os, signal\nprint('y=2', flush=True)\nos.kill(os.getpid(), signal.SIGTERM)\n"
    cond = "proc.stdout == 'x=2\\n' and proc.returncode == -15"
    root = synthetic(tmp_path, {"prog.py": prog}, RUNNER.format(condition=cond), {"program": "prog.py"})
    assert rescored(root, "rename-key:y:x") == ("fail", "fail", "pass")


def test_the_recursion_limit_is_lifted_for_the_program(tmp_path: Path) -> None:
    prog = "import sys\ndef down(n):\n    return 0 if n == 0 else 1 + down(n - 1)\nprint(f'depth={down(60000)}')\n"
    cond = "proc.stdout == 'depth=60000\\n' and proc.returncode == 0"
    root = synthetic(tmp_path, {"prog.py": prog}, RUNNER.format(condition=cond), {"program": "prog.py"})
    assert rescored(root, "lift-limit:recursion") == ("fail", "fail", "pass")


def test_the_int_limit_is_lifted_for_the_program_only(tmp_path: Path) -> None:
    prog = "print(f'value={10 ** 5000}')\n"
    cond = "proc.stdout == 'value=' + '1' + '0' * 5000 + '\\n'"
    checker = RUNNER.format(condition=cond) + "\n"
    root = synthetic(tmp_path, {"prog.py": prog}, checker.replace("import subprocess, sys", "import subprocess, sys\nassert sys.get_int_max_str_digits() == 4300"), {"program": "prog.py"})
    assert rescored(root, "lift-limit:int-max-str-digits") == ("fail", "fail", "pass")


def test_without_a_program_the_limit_is_lifted_for_the_whole_command(tmp_path: Path) -> None:
    checker = "import sys\nfrom solution import big\nsys.exit(0 if str(big()) == '1' + '0' * 5000 else 1)\n"
    root = synthetic(tmp_path, {"solution.py": "def big():\n    return 10 ** 5000\n"}, checker)
    assert rescored(root, "lift-limit:int-max-str-digits") == ("fail", "fail", "pass")


def test_files_the_checker_reads_are_repaired_in_the_sandbox_copy(tmp_path: Path) -> None:
    checker = "import sys\ntext = open('answers.md').read()\nsys.exit(0 if 'verdict: yes' in text and 'District of Columbia' in text else 1)\n"
    answers = "verdict: true\nIn Washington, D.C. the rule holds.\n"
    root = synthetic(tmp_path, {"answers.md": answers}, checker, {"reads": ["answers.md"]})
    assert rescored(root, "map-value:verdict:true:yes", "map-value::D.C.:District\\sof\\sColumbia") == ("fail", "fail", "pass")
    assert (root / "s1/runs/r1/attempts/1/answers.md").read_text() == answers


def test_files_saved_in_the_wrong_folder_are_graded_where_the_brief_said(tmp_path: Path) -> None:
    checker = "import sys, os\nsys.exit(0 if os.path.exists('prog.py') and not os.path.exists('sub/prog.py') else 1)\n"
    root = synthetic(tmp_path, {"sub/prog.py": "print('x=1')\n"}, checker)
    assert rescored(root, "grade-where-saved:sub") == ("fail", "fail", "pass")


def test_the_app_entry_point_reports_progress_and_returns_a_frozen_result(tmp_path: Path) -> None:
    import dataclasses

    from reviewer.rescore.engine import rescore

    prog = "print('answer=true')\n"
    cond = "proc.stdout == 'answer=yes\\n'"
    root = synthetic(tmp_path, {"prog.py": prog}, RUNNER.format(condition=cond), {"program": "prog.py"})
    store = SessionStore(root)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None
    (failure,) = store.failures(run)
    seen: list[tuple[str, float]] = []
    result = rescore(store, run, failure, (parse_repair("map-value::true:yes"),),
                     progress=lambda message, fraction: seen.append((message, fraction)))
    assert result.flipped and result.summary() == "0/1 -> 1/1 with value true->yes"
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 3
    assert dataclasses.is_dataclass(result)
    try:
        result.after = "fail"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("the result must be frozen")
