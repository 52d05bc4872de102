"""The child that reads a folder without an index cache: it writes the cache, the app's own scan
then finds every run in it (and gives what a scan of its own gives), and a child that fails or is
stopped leaves the app to scan by itself.

Each case runs in a fresh interpreter, as the launcher does: the fork happens while the process
has one thread (a test worker has more, and the child is then rightly refused).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sessionkit import small_folder

from reviewer.store.sessions.prescan import run_folders

PROBE = r"""
import json, os, sys, time
from pathlib import Path
from reviewer.store.fs import keys
from reviewer.store.sessions import prescan
from reviewer.store.sessions import scan as loader
from reviewer.store.index.files import index_path
from reviewer.store.sessions.store import SessionStore

keys.RACY_NS = 0  # the test's files are seconds old
prescan.CHILD_FROM = int(os.environ.get("CHILD_FROM", "1"))  # the test folders are small
root, mode = Path(sys.argv[1]), sys.argv[2]
out = {"wanted": prescan.wanted(root)}
if mode == "slow":
    def slow_scan(self):
        time.sleep(60)
    SessionStore.scan = slow_scan  # the child inherits it
if mode == "late":  # the child is done once the parent lets it go (never by the clock)
    real_scan = SessionStore.scan
    let_go = Path(os.environ["LET_GO"])
    def late_scan(self):
        while not let_go.exists():
            time.sleep(0.005)
        return real_scan(self)
    SessionStore.scan = late_scan
child = prescan.start(root)
out["forked"] = child is not None
if mode == "late":  # as the launcher asks once the UI is imported: a little wait for a child about done
    out["at_once"] = child.finished()
    let_go.touch()
    out["within"] = child.finished(within=30)
if mode == "slow":
    time.sleep(0.3)
    out["finished_while_reading"] = child.finished()
    started = time.monotonic()
    out["finished_within"] = child.finished(within=0.2)
    out["gave_up_in"] = time.monotonic() - started
    started = time.monotonic()
    child.stop()
    out["stopped_in"] = time.monotonic() - started
    out["ok"] = child.wait()
    out["cache"] = index_path(root).exists()
    print(json.dumps(out)); sys.exit(0)
if child and mode == "poll":  # as the launcher asks once the UI is imported: never waits
    deadline = time.monotonic() + 30
    while not child.finished() and time.monotonic() < deadline:
        time.sleep(0.01)
    out["finished"], out["ok_polled"] = child.finished(), child.ok
out["ok"] = child.wait() if child else None
out["cache"] = index_path(root).exists()
if mode == "from-cache":
    def no_reading(*args, **kwargs):
        raise AssertionError("a run manifest was parsed: it should have come from the cache")
    loader.run_from_doc = no_reading
store = SessionStore(root)
corpus = store.scan()
out["runs"] = sorted((r.key, r.task, r.model, r.outcome, len(r.attempts), len(r.graders)) for r in corpus.runs)
out["errors"] = sorted((e.path, e.reason) for e in corpus.errors)
out["wanted_after"] = prescan.wanted(root)
print(json.dumps(out))
"""


def probe(root: Path, mode: str, tmp_path: Path, **env: str) -> dict:
    """Run the probe in a fresh interpreter; what it found."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(root), mode], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_child_writes_the_cache_and_the_scan_reads_no_manifest(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    found = probe(root, "from-cache", tmp_path)
    assert found["wanted"] and found["forked"] and found["ok"] and found["cache"]
    assert len(found["runs"]) == 4 and found["errors"] == []
    assert not found["wanted_after"]  # the cache is there now: no second child
    plain = probe(root, "plain", tmp_path, REVIEWER_INDEX="off")
    assert not plain["forked"]
    assert plain["runs"] == found["runs"]  # the same runs as a scan that never saw a cache


def test_a_run_changed_after_the_child_read_it_is_read_again(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    probe(root, "plain", tmp_path)
    manifest = root / "s1" / "runs" / "r1" / "run.toml"
    manifest.write_text(manifest.read_text().replace('model = "model-a"', 'model = "model-z"'))
    found = probe(root, "plain", tmp_path)
    assert not found["forked"]  # the cache is there
    assert [r[2] for r in found["runs"] if r[0] == "s1/r1"] == ["model-z"]


def test_a_folder_that_does_not_open_leaves_the_app_to_say_so(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    found = probe(missing, "plain", tmp_path)
    assert not found["forked"] and not found["cache"]  # no runs to read: no child
    assert found["runs"] == [] and found["errors"] and "cannot open sessions folder" in found["errors"][0][1]


def test_a_folder_smaller_than_a_childs_work_is_read_without_one(tmp_path: Path) -> None:
    # 1,000 runs opened 8 % slower with the child beside the start, for the whole list 0.25 s sooner
    root = small_folder(tmp_path / "sessions")  # four runs
    assert run_folders(root, 100) == 4 and run_folders(root, 3) == 3
    assert not probe(root, "plain", tmp_path, CHILD_FROM="5")["forked"]
    found = probe(root, "plain", tmp_path, CHILD_FROM="4")
    assert found["forked"] and found["ok"] and found["cache"]


def test_counting_the_runs_follows_no_link(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    elsewhere = tmp_path / "elsewhere"
    for i in range(50):
        (elsewhere / f"r{i}").mkdir(parents=True)
    (root / "linked").mkdir()
    (root / "linked" / "runs").symlink_to(elsewhere)
    (root / "alias").symlink_to(elsewhere.parent)
    assert run_folders(root, 1000) == 4


def test_a_child_still_reading_is_stopped_when_the_app_closes(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    found = probe(root, "slow", tmp_path)
    assert found["forked"] and found["ok"] is False and not found["cache"]
    assert found["stopped_in"] < 5
    assert found["finished_while_reading"] is False
    assert found["finished_within"] is False and 0.2 <= found["gave_up_in"] < 2  # a bounded wait


def test_a_child_about_done_is_waited_for_a_little(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    found = probe(root, "late", tmp_path, LET_GO=str(tmp_path / "let-go"))
    assert found["forked"] and found["at_once"] is False and found["within"] is True
    assert found["ok"] and found["cache"] and len(found["runs"]) == 4


def test_asking_whether_the_child_is_done_reaps_it_once(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "sessions")
    found = probe(root, "poll", tmp_path)
    assert found["forked"] and found["finished"] and found["ok_polled"] and found["ok"] and found["cache"]
    assert len(found["runs"]) == 4


@pytest.mark.parametrize("value", ["off", "0", "no"])
def test_no_child_when_the_cache_is_off(tmp_path: Path, value: str) -> None:
    root = small_folder(tmp_path / "sessions")
    found = probe(root, "plain", tmp_path, REVIEWER_INDEX=value)
    assert not found["wanted"] and not found["forked"] and len(found["runs"]) == 4 and not found["cache"]
