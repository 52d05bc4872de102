"""Finding 7: a 22 KB ``.eval`` that takes gigabytes to import, and a transcript that aborts every sample.

Two Inspect logs made here, every entry zstd-compressed as Inspect writes them:

- the bomb: two ordinary samples and one whose entry decompresses to 250 MiB of
  ``{},{},...`` as its ``messages`` (about 22 KB on disk, under the 256 MiB per-entry cap);
- the long log: two ordinary samples and one with 1,000,000 messages.

Live: parsing the bomb entry the plain way (``json.loads`` of the decompressed bytes) does not
fit in 1 GB (a child process under a 1 GiB address-space limit fails). Contained: ``reviewer
import inspect`` of each log, measured in a child process (``RUSAGE_CHILDREN`` peak RSS),
stays under 1 GB, exits 0, imports every sample, and cuts the over-long transcript with a note
that is visible in the imported run.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attacks import Outcome

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from importgen import ZstdZip, header, sample  # noqa: E402

FINDING = 7
TITLE = "a 22 KB .eval bomb takes gigabytes to import; a 1,000,000-message sample aborts the whole import"
BOMB_BYTES = 250 << 20
MILLION = 1_000_000
RSS_LIMIT = 1 << 30
SAFETY_AS = 3 << 30  # the import's address space is capped so a regression cannot take the machine down

MEASURE = """
import resource, subprocess, sys, time
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
started = time.monotonic()
done = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=cap)
seconds = time.monotonic() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(done.returncode, peak, round(seconds, 2))
sys.stderr.write(done.stdout + done.stderr)
"""

PLAIN_PARSE = """
import json, sys, zipfile, zstandard
path, name = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(path) as z:
    info = z.getinfo(name)
data = open(path, "rb").read()
start = info.header_offset + 30 + len(name.encode())
raw = zstandard.ZstdDecompressor().stream_reader(data[start:start + info.compress_size], read_across_frames=True).read()
json.loads(raw)
print("parsed")
"""


def bomb_chunks() -> Iterator[bytes]:
    """A sample whose ``messages`` are 250 MiB of ``{},{},...``."""
    yield b'{"id": "bomb", "epoch": 1, "input": "Write hello.py", "scores": {}, "messages": [{}'
    block = b",{}" * (1 << 18)
    for _ in range(BOMB_BYTES // len(block)):
        yield block
    yield b"]}"


def million_chunks() -> Iterator[bytes]:
    """A sample with 1,000,000 short messages."""
    yield b'{"id": "long", "epoch": 1, "input": "Count to a million", "scores": {"verify": {"value": "I"}}, "messages": ['
    for start in range(0, MILLION, 10_000):
        yield b",".join(b'{"role": "%s", "content": "message %d"}' % (b"user" if i % 2 else b"assistant", i) for i in range(start, start + 10_000))
        if start + 10_000 < MILLION:
            yield b","
    yield b"]}"


def write_log(path: Path, special: str, chunks: Iterator[bytes]) -> Path:
    """A zstd ``.eval`` with two ordinary samples and one special entry."""
    with open(path, "wb") as out:
        z = ZstdZip(out)
        z.add("_journal/start.json", json.dumps({k: header(3)[k] for k in ("version", "eval", "plan")}).encode())
        for i in (1, 2):
            z.add(f"samples/{i}_epoch_1.json", json.dumps(sample(i)).encode())
        z.add(f"samples/{special}_epoch_1.json", chunks)
        z.add("header.json", json.dumps(header(3)).encode())
        z.close()
    return path


def limit_memory() -> None:
    """In the child: at most 1 GiB of address space."""
    resource.setrlimit(resource.RLIMIT_AS, (RSS_LIMIT, RSS_LIMIT))


def reviewer_cmd(*argv: str) -> list[str]:
    """The real command line."""
    return [sys.executable, "-c", "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))", *argv]


def measured(argv: list[str], limit: int) -> tuple[int, int, float, str]:
    """(exit status, peak RSS in bytes, seconds, output) of ``argv`` run in a child process."""
    done = subprocess.run([sys.executable, "-c", MEASURE, str(limit), *argv], check=False, capture_output=True, text=True, timeout=900)
    code, peak, seconds = done.stdout.split()
    return int(code), int(peak), float(seconds), done.stderr.strip()


def imported(into: Path, session: str) -> dict[str, Any]:
    """What the import left: run ids and the transcript text of each."""
    runs = {}
    for run in sorted((into / session / "runs").iterdir()):
        transcript = run / "transcript.toml"
        runs[run.name] = transcript.read_text() if transcript.exists() else ""
    return runs


def contained_import(work: Path, log: Path, session: str, special: str) -> tuple[bool, dict[str, Any], str]:
    """Import one log in a measured child; (contained, figures, detail)."""
    into = work / "sessions"
    code, peak, seconds, out = measured(reviewer_cmd("import", "inspect", str(log), "--into", str(into), "--session", session), SAFETY_AS)
    figures = {f"{session}_exit": code, f"{session}_peak_rss_mb": round(peak / 2**20), f"{session}_seconds": seconds}
    if code != 0:
        return False, figures, f"{session}: exit {code}: {out[-600:]}"
    runs = imported(into, session)
    cut = runs.get(f"{special}-epoch-1", "")
    others = [r for r in runs if r != f"{special}-epoch-1"]
    noted = "not imported" in cut and "transcript cut" in cut
    ok = peak < RSS_LIMIT and len(runs) == 3 and noted and all("Step 8" in runs[r] for r in others)
    return ok, figures, f"{session}: exit {code}, peak {peak / 2**20:.0f} MiB, {seconds:.1f} s, runs {sorted(runs)}, cut noted: {noted}; {out[-300:]}"


def check(work: Path) -> Outcome:
    """Build both logs, show the plain parse explode, import each in a measured child."""
    bomb = write_log(work / "bomb.eval", "bomb", bomb_chunks())
    long_log = write_log(work / "long.eval", "long", million_chunks())
    figures: dict[str, Any] = {"bomb_file_kb": round(bomb.stat().st_size / 1024, 1), "long_file_kb": round(long_log.stat().st_size / 1024, 1)}
    started = time.monotonic()
    plain = subprocess.run([sys.executable, "-c", PLAIN_PARSE, str(bomb), "samples/bomb_epoch_1.json"], check=False,
                           capture_output=True, text=True, timeout=600, preexec_fn=limit_memory)
    live = plain.returncode != 0 and "MemoryError" in plain.stderr
    figures["plain_parse_fails_under_1gb"] = live
    figures["plain_parse_seconds"] = round(time.monotonic() - started, 1)
    ok_bomb, fig, d1 = contained_import(work, bomb, "bomb", "bomb")
    figures.update(fig)
    ok_long, fig, d2 = contained_import(work, long_log, "long", "long")
    figures.update(fig)
    detail = f"plain json.loads of the bomb entry under a 1 GiB limit: exit {plain.returncode} {plain.stderr.strip()[-120:]}\n{d1}\n{d2}"
    return Outcome(ok_bomb and ok_long, live, detail, figures)
