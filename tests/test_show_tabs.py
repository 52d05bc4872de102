"""``reviewer show`` on a terminal expands tabs as the app's panes do; in a pipe it keeps them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from reviewer.store.fs.paths import bundled_sessions

FAILURE = "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"


def show(folder: Path, terminal: bool) -> str:
    """``reviewer show`` of the Go panic, its stdout a pipe or a pseudo-terminal."""
    command = [sys.executable, "-m", "reviewer.cli", "show", str(folder), "--failure", FAILURE, "--reviewer", "t"]
    if not terminal:
        return subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout
    master, slave = os.openpty()
    with subprocess.Popen(command, stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL) as proc:
        os.close(slave)
        out = bytearray()
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other end closed: the command ended
                break
            if not chunk:
                break
            out.extend(chunk)
        assert proc.wait(timeout=120) == 0
    os.close(master)
    return out.decode("utf-8").replace("\r\n", "\n")


def test_show_expands_tabs_on_a_terminal_and_keeps_them_in_a_pipe(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    shutil.copytree(bundled_sessions(), folder)
    piped, shown = show(folder, terminal=False), show(folder, terminal=True)
    assert "\n\tpanic: roman.ToRoman: 0 is outside 1..3999" in piped  # the message as recorded
    assert "\t" not in shown
    assert "\n    panic: roman.ToRoman: 0 is outside 1..3999" in shown  # to the stop the panes use
    assert shown.count("\n") == piped.count("\n")  # nothing else differs in shape


def test_json_output_keeps_a_tab_for_json_to_escape() -> None:
    import json

    from reviewer.analysis.evidence.strip import json_text

    assert json_text("a\tb\x1b]0;x\x07") == "a\tb\u241b]0;x\u2407"  # escapes made visible, the tab kept
    assert json.dumps(json_text("\t")) == '"\\t"'  # a demand for a tab stays one in --json
