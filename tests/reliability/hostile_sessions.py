"""Damage a real sessions folder in every way of the untrusted-input guide, many times over.

    python tests/reliability/hostile_sessions.py --cases 300 [--seed N] [--folder PATH] [--json]

Each case copies the folder, damages one file, then scans it as the app does (every run's
failures, brief, transcript) and runs `reviewer check` in the same process under a 5 s alarm.
Figures: cases, crashes (an exception escaped), hangs (over 5 s), unreported (the damaged file,
or the manifest naming it, is missing from check's output).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import signal
import stat
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from reviewer.commands.listing import check_folder
from reviewer.store.fs.paths import bundled_sessions
from reviewer.store.sessions.store import SessionStore

HANG_SECONDS = 5


class Hang(Exception):
    """The alarm fired."""


@dataclass(frozen=True)
class Damage:
    """One way to damage a file, and whether check must name it."""

    name: str
    apply: Callable[[Path, random.Random], None]
    reported: bool = True
    manifests_only: bool = False


def truncate(p: Path, rng: random.Random) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: rng.randrange(1, max(2, len(data) // 2))] + b"[[[")


def nul(p: Path, rng: random.Random) -> None:
    data = p.read_bytes()
    i = rng.randrange(len(data) + 1)
    p.write_bytes(data[:i] + b"\x00" * rng.randint(1, 8) + data[i:])


def bad_utf8(p: Path, rng: random.Random) -> None:
    p.write_bytes(p.read_bytes() + b'\nnotes_x = "\xff\xfe\xc3"\n')


def binary(p: Path, rng: random.Random) -> None:
    p.write_bytes(bytes(rng.randrange(256) for _ in range(2048)))


def deep(p: Path, rng: random.Random) -> None:
    n = rng.choice([1500, 2000, 5000])
    p.write_text("format = 1\nx = " + "[" * n + "]" * n + "\n")


def deep_tables(p: Path, rng: random.Random) -> None:
    n = rng.choice([1200, 3000])
    p.write_text("format = 1\nx = " + "{a = " * n + "1" + "}" * n + "\n")


def big_int(p: Path, rng: random.Random) -> None:
    p.write_text(p.read_text(errors="replace") + f"\nhuge_number = 1{'0' * rng.choice([4400, 9000])}\n")


def conflict(p: Path, rng: random.Random) -> None:
    text = p.read_text(errors="replace")
    p.write_text(f"<<<<<<< HEAD\n{text}=======\n{text}>>>>>>> theirs\n")


def bom_valid(p: Path, rng: random.Random) -> None:
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())


def fifo(p: Path, rng: random.Random) -> None:
    p.unlink()
    os.mkfifo(p)


def device(p: Path, rng: random.Random) -> None:
    p.unlink()
    try:
        os.mknod(p, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        os.mkfifo(p)


def symlink_out(p: Path, rng: random.Random) -> None:
    p.unlink()
    p.symlink_to(rng.choice(["/etc/passwd", "/dev/zero", "/proc/self/environ", "../../../../../../../etc/hostname"]))


def dotdot(p: Path, rng: random.Random) -> None:
    text = p.read_text(errors="replace")
    for key in ("brief", "output", "transcript"):
        text = text.replace(f'{key} = "', f'{key} = "../../../../../../etc/', 1)
    p.write_text(text)


def missing(p: Path, rng: random.Random) -> None:
    p.unlink()


DAMAGES = [
    Damage("truncated", truncate, manifests_only=True),
    Damage("nul-bytes", nul, manifests_only=True),
    Damage("invalid-utf8", bad_utf8, manifests_only=True),
    Damage("binary", binary, manifests_only=True),
    Damage("deep-arrays", deep, manifests_only=True),
    Damage("deep-tables", deep_tables, manifests_only=True),
    Damage("big-int", big_int, manifests_only=True),
    Damage("conflict-markers", conflict, manifests_only=True),
    Damage("bom", bom_valid, reported=False, manifests_only=True),
    Damage("fifo", fifo),
    Damage("device", device),
    Damage("symlink-out", symlink_out),
    Damage("dotdot-ref", dotdot, manifests_only=True),
    Damage("missing", missing),
]


def targets(root: Path) -> tuple[list[Path], list[Path]]:
    """Manifests (session, run, transcript) and referenced data files of a folder."""
    manifests = sorted(root.glob("*/session.toml")) + sorted(root.glob("*/runs/*/run.toml")) + sorted(root.glob("*/runs/*/transcript.toml"))
    data = sorted(p for p in root.glob("*/runs/*/**/*") if p.is_file() and p.suffix != ".toml")
    return manifests, data


def alarm(signum: int, frame: object) -> None:
    raise Hang()


def one_case(source: Path, rng: random.Random) -> tuple[str, str]:
    """Damage one copy; returns (outcome, description) with outcome ok/crash/hang/unreported."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sessions"
        shutil.copytree(source, root, symlinks=True)
        manifests, data = targets(root)
        damage = rng.choice(DAMAGES)
        pool = manifests if damage.manifests_only or not data or rng.random() < 0.5 else data
        if damage.name == "dotdot-ref":
            pool = [p for p in manifests if p.name == "run.toml"]
        victim = rng.choice(pool)
        if damage.name == "missing" and victim.name == "session.toml":
            damage = DAMAGES[0]
        damage.apply(victim, rng)
        rel = victim.relative_to(root).as_posix()
        desc = f"{damage.name} {rel}"
        signal.signal(signal.SIGALRM, alarm)
        signal.alarm(HANG_SECONDS)
        out = io.StringIO()
        try:
            store = SessionStore(root)
            for run in store.scan().runs:
                store.failures(run)
                store.transcript(run)
                store.brief(run)
            code = check_folder(SessionStore(root), out)
        except Hang:
            return "hang", desc
        except Exception as exc:  # noqa: BLE001 - this is what the figure counts
            return "crash", f"{desc}: {type(exc).__name__}: {exc}"
        finally:
            signal.alarm(0)
        if not damage.reported:
            return "ok", desc
        text = out.getvalue()
        run_manifest = "/".join(rel.split("/")[:3]) + "/run.toml" if "/runs/" in rel else rel
        named = any(line.startswith((rel + ":", run_manifest + ":")) for line in text.splitlines())
        if code != 1 or not named:
            return "unreported", desc
        return "ok", desc


def measure(cases: int, seed: int, source: Path) -> tuple[dict[str, int], list[str]]:
    """Run the cases; returns the figures and a description of every bad case."""
    rng = random.Random(seed)
    figures = {"cases": cases, "crashes": 0, "hangs": 0, "unreported": 0}
    bad = []
    for _ in range(cases):
        outcome, desc = one_case(source, rng)
        if outcome != "ok":
            figures[{"crash": "crashes", "hang": "hangs", "unreported": "unreported"}[outcome]] += 1
            bad.append(f"{outcome}: {desc}")
    return figures, bad


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--folder", type=Path, default=None, help="sessions folder to damage (default: the example corpus)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    started = time.monotonic()
    figures, bad = measure(args.cases, args.seed, args.folder or bundled_sessions())
    for line in bad:
        print(line, file=sys.stderr)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>11}: {v}")
        print(f"{'seconds':>11}: {time.monotonic() - started:.1f}")
    return 0 if figures["crashes"] == figures["hangs"] == figures["unreported"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
