"""Finding 24: a harness log read in place, in the app's own process, holds a bomb.

A session may hold its harness's own log and have it read where it lies (``[log]`` in its
``session.toml``): every reader then runs in the process that shows the screen, not in an import
that may fail on its own. One case per reader, each a session of the sessions folder built here:

- Inspect: the 22 KB ``.eval`` of finding 7, one sample entry decompressing to 250 MiB of
  ``{},{},...`` as its messages (beside two ordinary samples);
- mini-swe-agent: a folder with an ordinary trajectory and one whose ``messages`` are 100 MiB of
  ``{},{},...`` (a ``.traj.json`` is plain JSON: no compression to hide behind, but 100 MiB of
  JSON is well within the importers' 512 MiB cap on a source);
- SWE-agent: the same with the ``history`` of a ``.traj``;
- ATIF: a Harbor job folder with an ordinary trial and finding 22's trajectory of 200 MiB of
  empty steps.

Live: each hostile unit parsed the way its reader parsed it without the guard (``json.loads`` of
the bytes: the Inspect entry, as in finding 7, the ATIF trajectory, as in finding 22, and the
mini-swe-agent and SWE-agent trajectories, which their readers parsed whole until their budget was
added with reading in place) does not
fit in 1 GiB (a child process under a 1 GiB address-space limit fails with MemoryError).
Contained: ``reviewer list --json`` and ``reviewer check`` of the sessions folder, measured in a
child (``RUSAGE_CHILDREN`` peak RSS), stay under 1 GiB and never print a traceback; every ordinary
run loads, and each hostile unit is either a run whose transcript is cut with a note saying so, or
one problem in ``check`` naming it (the mini-swe-agent reader refuses messages without a role, and
the first 5,000 kept of 35 million ``{}`` have none).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attacks import Outcome
from attacks.f07_import_bombs import PLAIN_PARSE as PLAIN_ENTRY_PARSE
from attacks.f07_import_bombs import RSS_LIMIT, SAFETY_AS, bomb_chunks, limit_memory, measured, reviewer_cmd, write_log
from attacks.f22_atif_bomb import ordinary, trial, write_bomb

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from importgen import trajectory  # noqa: E402

FINDING = 24
TITLE = "a log read in place holds a bomb: 250 MiB of {} in a 22 KB .eval entry, 100-200 MiB of {} in a trajectory"
TRAJECTORY_BYTES = 100 << 20

PLAIN_PARSE = """
import json, sys
json.loads(open(sys.argv[1], "rb").read())
print("parsed")
"""


def empty_objects(head: bytes, tail: bytes) -> Iterator[bytes]:
    """``head`` then about :data:`TRAJECTORY_BYTES` of ``{},{},...`` then ``tail``."""
    yield head + b"{}"
    block = b",{}" * (1 << 18)
    for _ in range(TRAJECTORY_BYTES // len(block)):
        yield block
    yield tail


def write_chunks(path: Path, chunks: Iterator[bytes]) -> Path:
    """A file of ``chunks`` (streamed)."""
    with open(path, "wb") as out:
        for chunk in chunks:
            out.write(chunk)
    return path


def build(work: Path) -> tuple[Path, dict[str, Path]]:
    """The sessions folder (three sessions reading a log in place) and each hostile unit's file."""
    root = work / "sessions"
    hostile: dict[str, Path] = {}
    evals = root / "evals"
    evals.mkdir(parents=True)
    write_log(evals / "log.eval", "bomb", bomb_chunks())
    (evals / "session.toml").write_text('format = 1\n\n[log]\nformat = "inspect"\npath = "log.eval"\n')
    mini = root / "mini" / "trajs"
    mini.mkdir(parents=True)
    (mini / "fine.traj.json").write_text(json.dumps(trajectory(1)))
    hostile["mini-swe-agent"] = write_chunks(mini / "bomb.traj.json", empty_objects(
        b'{"trajectory_format": "mini-swe-agent-1.1", "info": {}, "messages": [{"role": "user", "content": "Fix it"},',
        b"]}"))
    (root / "mini" / "session.toml").write_text('format = 1\n\n[log]\nformat = "mini-swe-agent"\npath = "trajs"\n')
    swe = root / "swe" / "trajs"
    swe.mkdir(parents=True)
    (swe / "fine.traj").write_text(json.dumps({"history": [{"role": "user", "content": "Fix it"}], "info": {}, "trajectory": []}))
    hostile["swe-agent"] = write_chunks(swe / "bomb.traj", empty_objects(
        b'{"info": {"exit_status": "submitted"}, "trajectory": [], "history": [{"role": "user", "content": "Fix it"},', b"]}"))
    (root / "swe" / "session.toml").write_text('format = 1\n\n[log]\nformat = "swe-agent"\npath = "trajs"\n')
    job = root / "atif" / "job"
    ordinary(trial(job, "fine__a1") / "trajectory.json")
    hostile["atif"] = trial(job, "bomb__b2") / "trajectory.json"
    write_bomb(hostile["atif"])
    (root / "atif" / "session.toml").write_text('format = 1\n\n[log]\nformat = "atif"\npath = "job"\n')
    return root, hostile


def plain_parse(path: Path) -> tuple[bool, str]:
    """Whether parsing ``path`` whole, as the reader did without its budget, fails under 1 GiB."""
    done = subprocess.run([sys.executable, "-c", PLAIN_PARSE, str(path)], check=False, capture_output=True, text=True,
                          timeout=600, preexec_fn=limit_memory)
    return done.returncode != 0 and "MemoryError" in done.stderr, done.stderr.strip()[-120:]


def check(work: Path) -> Outcome:
    """Build the folder, show each hostile unit explode when parsed plainly, then read the folder in a measured child."""
    root, hostile = build(work)
    figures: dict[str, Any] = {}
    lives = []
    details = []
    for reader, path in hostile.items():
        live, tail = plain_parse(path)
        figures[f"{reader}_plain_parse_fails_under_1gb"] = live
        lives.append(live)
        details.append(f"plain json.loads of the {reader} trajectory under 1 GiB: {tail}")
    entry = subprocess.run([sys.executable, "-c", PLAIN_ENTRY_PARSE, str(root / "evals" / "log.eval"), "samples/bomb_epoch_1.json"],
                           check=False, capture_output=True, text=True, timeout=600, preexec_fn=limit_memory)
    live = entry.returncode != 0 and "MemoryError" in entry.stderr
    figures["inspect_plain_parse_fails_under_1gb"] = live
    lives.append(live)
    details.append(f"plain json.loads of the Inspect bomb entry under 1 GiB: {entry.stderr.strip()[-120:]}")
    code, peak, seconds, out = measured(reviewer_cmd("list", str(root), "--json"), SAFETY_AS)
    figures.update(list_exit=code, list_peak_rss_mb=round(peak / 2**20), list_seconds=seconds)
    listed = json.JSONDecoder().raw_decode(out[out.index("["):])[0] if "[" in out else []  # stdout, then stderr
    runs = sorted(f"{r['session']}/{r['run']}" for r in listed)
    check_code, check_peak, check_seconds, check_out = measured(reviewer_cmd("check", str(root)), SAFETY_AS)
    figures.update(check_exit=check_code, check_peak_rss_mb=round(check_peak / 2**20), check_seconds=check_seconds)
    fine = {"evals/1-epoch-1", "evals/2-epoch-1", "mini/fine", "swe/fine", "atif/fine__a1"}
    hostile_units = {"evals/bomb-epoch-1": "samples/bomb_epoch_1.json", "mini/bomb": "bomb.traj.json", "swe/bomb": "bomb.traj",
                     "atif/bomb__b2": "job/bomb__b2/agent/trajectory.json"}
    accounted = all(run in runs or f": {unit}: " in check_out for run, unit in hostile_units.items())
    contained = (code == 0 and peak < RSS_LIMIT and check_peak < RSS_LIMIT and fine <= set(runs) and accounted
                 and "Traceback" not in out + check_out and check_code in (0, 1))
    details.append(f"list: exit {code}, peak {peak / 2**20:.0f} MiB, {seconds:.1f} s, runs {runs}")
    details.append(f"check: exit {check_code}, peak {check_peak / 2**20:.0f} MiB, {check_seconds:.1f} s: {check_out[-400:]}")
    return Outcome(contained, all(lives), "\n".join(details), figures)
