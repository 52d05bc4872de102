"""The bundled corpus is found from any folder (the wheel itself: tests/test_installed_package.py)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_bundled_corpus_is_found_from_any_folder(tmp_path: Path, monkeypatch) -> None:
    from reviewer.store.fs.paths import bundled_sessions, default_sessions

    monkeypatch.chdir(tmp_path)
    assert default_sessions() == bundled_sessions()
    assert (bundled_sessions() / "README.md").is_file()
    assert any(bundled_sessions().glob("*/runs/*/run.toml"))


def readme_test_command() -> str:
    """The README's test command (the code block after the Quick start's install line)."""
    import re

    blocks = re.findall(r"```sh\n(.*?)\n```", (REPO / "README.md").read_text(), re.S)
    [command] = [b for b in blocks if "lint-imports" in b and "pytest" in b]
    return command


def test_ci_runs_the_readme_test_command_byte_for_byte() -> None:
    command = readme_test_command()
    assert "\n" not in command  # one line a user can paste
    lines = (REPO / ".ci" / "run").read_text().splitlines()
    assert command in lines
    before = lines[:lines.index(command)]
    # errexit would end CI at the fast half's failure, before the slow half
    assert "set +e" in before and not any(line.startswith("set -e") for line in before[before.index("set +e"):])


def test_the_slow_half_runs_when_the_fast_half_fails_and_the_command_still_fails(tmp_path: Path) -> None:
    import subprocess

    tests = readme_test_command().split(".venv/bin/mypy && ", 1)[1]
    assert tests.count(".venv/bin/python -m pytest") == 2
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    # stands for pytest: logs its arguments, fails for the halves named in FAIL
    python.write_text('#!/bin/sh\necho "$*" >> calls\ncase "$*" in *slow*) half=slow;; *) half=fast;; esac\n'
                      'case " $FAIL " in *" $half "*) exit 1;; esac\nexit 0\n')
    python.chmod(0o755)
    for failing, status in (("", 0), ("fast", 1), ("slow", 1), ("fast slow", 1)):
        (tmp_path / "calls").unlink(missing_ok=True)
        done = subprocess.run(["bash", "-c", tests], cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "FAIL": failing},
                              check=False)
        assert (done.returncode != 0) == bool(status), failing
        assert (tmp_path / "calls").read_text().splitlines() == ["-m pytest -q", "-m pytest -q -m slow -n 2"], failing
