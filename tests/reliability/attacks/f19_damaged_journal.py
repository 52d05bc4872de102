"""Finding 19 (finding 9 of the 'promises under attack' pass): one damaged line in a reviewer's journal,
and a decision saved somewhere other than where the command says.

alice's labels of s2 are a format-1 file and its journal (as earlier versions wrote a big one):
the TOML holds ``s2/r3#heldout:test_connected``, the journal ``s2/r3#heldout:test_trail`` and a
label on a run gone from the folder, and between them one line that is not JSON (a bad merge, a
disk error). Before the fix the whole journal was dropped in silence: ``reviewer failures
--unlabelled`` listed every journal label as unlabelled (exit 0, nothing on stderr), ``check``
said "no problems", ``stats`` said "0 labelled". And in s1, where alice's file is big (over 1 MiB,
so decisions went to its journal), ``reviewer label`` said "saved in alice.toml" while the
decision was in ``alice.journal``.

Live: the journal's other lines are labels (``json.loads``) and line 3 is not JSON; alice's s1
file is over 1 MiB. Contained, through the command line a user runs (the ``reviewer`` package this
process imports) and the app: every command that reads the file names the journal and the line
(``alice.journal line 3``) and exits non-zero (``check``, ``failures``, ``stats``, ``export``,
``agreement``, ``show``); what could be read is still used (``test_trail`` is labelled, not listed
as unlabelled; export holds both labels); the app lists the damage in its E list; nothing is
written over the damaged file; and ``reviewer label`` names the file its decision is in: that file
holds the decision. On a real full disk (a 1 MiB tmpfs, where this process may mount one) ``label``
exits non-zero, says not saved, and claims no file.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from clikit import imported_cli as cli

from attacks import Outcome

FINDING = 19
TITLE = "a damaged journal line hides every journal label in silence; label names the wrong file"
CONNECTED = "s2/r3#heldout:test_connected"
TRAIL = "s2/r3#heldout:test_trail"
S1 = "s1/r1#heldout:TestToRoman"
DAMAGED = b'{"check":"heldout:T9","run":"gone-1","verdict":"capab\n'


def label(run: str, check: str, verdict: str, at: str = "2026-11-29T12:00:00Z") -> dict[str, object]:
    """One label as the journal and the TOML hold it."""
    return {"check": check, "evidence": "", "labelled_at": at, "note": "", "run": run, "tags": [], "verdict": verdict}


def make_folder(work: Path) -> Path:
    """The small folder; alice's s2 file and its journal with one damaged line; a big s1 file of hers."""
    from sessionkit import small_folder

    root = small_folder(work / "sessions")
    labels = root / "s2" / "labels"
    labels.mkdir()
    (labels / "alice.toml").write_text(
        'format = 1\nreviewer = "alice"\nsession = "s2"\n\n[[label]]\ncheck = "heldout:test_connected"\n'
        'evidence = ""\nlabelled_at = "2026-11-28T12:00:00Z"\nnote = ""\nrun = "r3"\ntags = []\nverdict = "capability"\n')
    lines = [{"base": None, "journal": 1, "reviewer": "alice", "session": "s2"},
             label("r3", "heldout:test_trail", "specification")]
    journal = b"".join(json.dumps(x, sort_keys=True).encode() + b"\n" for x in lines) + DAMAGED + json.dumps(
        label("gone-2", "heldout:T1", "deferred"), sort_keys=True).encode() + b"\n"
    (labels / "alice.journal").write_bytes(journal)
    big = root / "s1" / "labels"
    big.mkdir()
    tables = "".join(f'\n[[label]]\ncheck = "heldout:T{i % 20:02d}"\nevidence = "sha256:{i:064x}"\n'
                     f'labelled_at = "2026-11-01T00:00:00Z"\nnote = ""\nrun = "gone-{i // 20:05d}"\ntags = []\n'
                     f'verdict = "capability"\n' for i in range(5000))
    (big / "alice.toml").write_text('format = 1\nreviewer = "alice"\nsession = "s1"\n' + tables)
    return root


def names_it(done: subprocess.CompletedProcess[str]) -> bool:
    """Non-zero exit, and the damaged line named: the journal and its line number."""
    return done.returncode != 0 and "alice.journal line 3" in done.stdout + done.stderr


def holds(path: Path, check: str, verdict: str) -> bool:
    """The file a command named holds the label (read with plain tomllib)."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return any(t.get("check") == check and t.get("verdict") == verdict for t in doc.get("label", []))


def check(work: Path) -> Outcome:
    """Build the damaged journal, show it is damaged, then run every command, the app and label over it."""
    root = make_folder(work)
    journal = root / "s2" / "labels" / "alice.journal"
    raw = journal.read_bytes().split(b"\n")
    readable = [n for n, line in enumerate(raw[:-1], start=1) if is_json(line)]
    live = readable == [1, 2, 4] and (root / "s1" / "labels" / "alice.toml").stat().st_size > 1 << 20
    results: dict[str, bool] = {}
    notes: list[str] = []
    done = cli(work, "check", str(root))
    results["check"] = names_it(done)
    notes.append(f"check: exit {done.returncode} {done.stdout.strip().splitlines()[-1][:70] if done.stdout.strip() else ''}")
    done = cli(work, "failures", str(root), "--reviewer", "alice", "--unlabelled", "--json")
    unlabelled = [r["id"] for r in json.loads(done.stdout or "[]")]
    results["failures --unlabelled"] = names_it(done) and TRAIL not in unlabelled and CONNECTED not in unlabelled
    notes.append(f"failures --unlabelled: {unlabelled}, exit {done.returncode}, stderr {done.stderr.strip()[:90]!r}")
    done = cli(work, "stats", str(root), "--reviewer", "alice")
    labelled = re.search(r"(\d+) labelled", done.stdout)
    results["stats"] = names_it(done) and labelled is not None and labelled.group(1) == "2"
    notes.append(f"stats: {labelled.group(0) if labelled else '?'}, exit {done.returncode}")
    done = cli(work, "export", str(root), "--reviewer", "alice", "--format", "jsonl", "--include-deferred")
    exported = {r["check"] for r in (json.loads(x) for x in done.stdout.splitlines() if x.strip())}
    results["export"] = names_it(done) and {"heldout:test_connected", "heldout:test_trail"} <= exported
    results["agreement"] = names_it(cli(work, "agreement", str(root)))
    done = cli(work, "show", str(root), "--failure", TRAIL, "--reviewer", "alice")
    results["show"] = names_it(done) and "label specification" in done.stdout
    results["app"] = asyncio.run(app_lists(root))
    before = journal.read_bytes()
    done = cli(work, "label", str(root), "--failure", CONNECTED, "--verdict", "specification", "--reviewer", "alice")
    results["damaged file never written over"] = done.returncode != 0 and journal.read_bytes() == before and \
        "not saved" in done.stderr and "saved in" not in done.stdout
    done = cli(work, "label", str(root), "--failure", S1, "--verdict", "specification", "--reviewer", "alice")
    said = re.search(r"^saved in (.+?)(?: \(|$)", done.stdout, re.MULTILINE)
    named = Path(said.group(1)) if said else None
    results["label names the file its decision is in"] = done.returncode == 0 and named is not None and holds(
        named, "heldout:TestToRoman", "specification")
    notes.append(f"label in s1 says {said.group(0) if said else done.stdout.strip()[:80]!r}; that file holds the "
                 f"decision: {results['label names the file its decision is in']}")
    full, full_note = full_disk(work)
    if full is not None:
        results["label on a full disk"] = full
    notes.append(full_note)
    missed = [k for k, ok in results.items() if not ok]
    detail = (f"journal lines readable as JSON: {readable} of {len(raw) - 1}; contained: {len(results) - len(missed)}/"
              f"{len(results)}" + (f", not contained: {', '.join(missed)}" if missed else "") + "; " + "; ".join(notes))
    return Outcome(not missed, live, detail, {"contained": len(results) - len(missed), "cases": len(results)})


def is_json(line: bytes) -> bool:
    """A line ``json.loads`` reads."""
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def full_disk(work: Path) -> tuple[bool | None, str]:
    """``reviewer label`` with alice's labels on a full 1 MiB tmpfs: exit non-zero, "not saved", no file
    claimed; then, with room again, the file it names holds the decision. None where no tmpfs can be mounted."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from faultkit import mount, mount_permitted
    from sessionkit import small_folder

    if not mount_permitted():
        return None, "full disk: not tried (this process may not mount a tmpfs)"
    root = small_folder(work / "full" / "sessions")
    labels = root / "s2" / "labels"
    labels.mkdir(parents=True)
    mount("-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", str(labels))
    try:
        filler = labels / "filler.bin"
        try:
            with open(filler, "wb") as out:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
        except OSError:
            pass
        done = cli(work, "label", str(root), "--failure", CONNECTED, "--verdict", "capability", "--reviewer", "alice")
        refused = done.returncode != 0 and "not saved" in done.stderr and "saved in" not in done.stdout
        filler.unlink()
        again = cli(work, "label", str(root), "--failure", CONNECTED, "--verdict", "capability", "--reviewer", "alice")
        said = re.search(r"^saved in (.+?)(?: \(|$)", again.stdout, re.MULTILINE)
        landed = said is not None and holds(Path(said.group(1)), "heldout:test_connected", "capability")
        return refused and landed, (f"full disk: exit {done.returncode}, {done.stderr.strip()[:120]!r}; with room "
                                    f"again: {said.group(0) if said else again.stdout.strip()[:80]!r}")
    finally:
        subprocess.run(["umount", "-l", str(labels)], capture_output=True, check=False)


async def app_lists(root: Path) -> bool:
    """The app opened on the folder as alice: the damaged line is in its E list."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "ui"))
    from uihelp import make_app, settle

    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        return any("alice.journal line 3" in e.reason for e in app.session.folder.load_errors)
