"""Finding 5: ``reviewer export`` on a full disk or into a closed pipe says it succeeded.

Three cases, on a real 1 MiB tmpfs where this process may mount one (``live`` then says the disk
really is full: a plain write of the export's size fails with ENOSPC), else with a patched write
that fails the same way (the detail says which):

- ``reviewer export > FILE`` with FILE on the full disk: must exit non-zero with a one-line
  message (it exited 0 with a truncated file);
- ``reviewer export -o FILE`` on the full disk with an old FILE there: a one-line message,
  exit non-zero, no traceback, the old file byte for byte the same;
- ``reviewer export | head -c 100``: the reader goes away (EPIPE): exit non-zero, one line.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 5
TITLE = "export on a full disk or into a closed pipe: exit 0 with a truncated file, or a traceback"
LABELS = 6000


def folder_with_labels(work: Path) -> Path:
    """The small folder with a big labels file (the export is about 2 MB, over the disk's 1 MiB)."""
    import tomli_w
    from sessionkit import small_folder

    root = small_folder(work / "sessions")
    entries = [{"check": f"heldout:T{i:05d}", "evidence": "sha256:" + "0" * 64, "labelled_at": "2026-11-29T12:00:00Z",
                "note": f"note {i} " + "x" * 120, "run": f"r{i % 50}", "tags": [], "verdict": "capability"}
               for i in range(LABELS)]
    (root / "s1" / "labels").mkdir()
    (root / "s1" / "labels" / "alice.toml").write_bytes(
        tomli_w.dumps({"format": 1, "reviewer": "alice", "session": "s1", "label": entries}).encode())
    return root


def reviewer(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    """The command line, as a user runs it."""
    from gitkit import REPO_ROOT

    return subprocess.run([sys.executable, "-m", "reviewer.cli", *args], stdout=stdout, stderr=subprocess.PIPE,
                          cwd=REPO_ROOT, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=300, check=False)


def one_line_error(done: subprocess.CompletedProcess[bytes], *words: str) -> bool:
    """Non-zero exit and stderr exactly one line naming ``words``, no traceback."""
    err = done.stderr.decode("utf-8", "replace").strip()
    return done.returncode != 0 and len(err.splitlines()) == 1 and "Traceback" not in err and all(w in err for w in words)


def check(work: Path) -> Outcome:
    """The three cases on a tmpfs (or patched)."""
    from faultkit import mount, mount_permitted

    root = folder_with_labels(work)
    full = reviewer("export", str(root), "--reviewer", "alice").stdout
    disk = work / "disk"
    disk.mkdir()
    if not mount_permitted():
        return patched(root, full)
    mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk))
    try:
        live = plain_write_fails(disk / "probe", full)
        old = b"format = 1\n# the export of yesterday\n" * 100
        (disk / "old.toml").write_bytes(old)
        with open(disk / "piped.toml", "wb") as out:
            redirected = reviewer("export", str(root), "--reviewer", "alice", stdout=out)
        to_file = reviewer("export", str(root), "--reviewer", "alice", "-o", str(disk / "old.toml"))
        kept = (disk / "old.toml").read_bytes() == old
        leftovers = sorted(p.name for p in disk.iterdir() if p.name not in ("old.toml", "piped.toml"))
    finally:
        mount("umount", str(disk))
    pipe_ok, pipe_detail = closed_pipe(root)
    ok_redirect = one_line_error(redirected, "no space")
    ok_file = one_line_error(to_file, "no space", "old.toml") and kept and not leftovers
    detail = (f"real 1 MiB tmpfs; a plain write of the {len(full)} byte export fails: {live}; "
              f"export > FILE: exit {redirected.returncode} {redirected.stderr.decode(errors='replace').strip()[:120]!r}; "
              f"-o FILE: exit {to_file.returncode} {to_file.stderr.decode(errors='replace').strip()[:120]!r}, "
              f"old file kept {kept}, temp files left {leftovers}; {pipe_detail}")
    return Outcome(ok_redirect and ok_file and pipe_ok, live, detail,
                   {"export_bytes": len(full), "stdout_exit": redirected.returncode, "file_exit": to_file.returncode})


def plain_write_fails(path: Path, data: bytes) -> bool:
    """A plain write of ``data`` fails with ENOSPC (the disk really is full for it)."""
    try:
        path.write_bytes(data)
    except OSError as exc:
        path.unlink(missing_ok=True)
        return exc.errno == errno.ENOSPC
    path.unlink()
    return False


def closed_pipe(root: Path) -> tuple[bool, str]:
    """``reviewer export | head -c 100``: (contained, detail)."""
    from gitkit import REPO_ROOT

    cmd = f"{sys.executable} -m reviewer.cli export {root} --reviewer alice | head -c 100 >/dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", cmd], capture_output=True, cwd=REPO_ROOT, timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    status = int(done.stdout.strip() or 0)
    err = done.stderr.decode("utf-8", "replace").strip()
    ok = status != 0 and len(err.splitlines()) == 1 and "Traceback" not in err and "closed" in err
    return ok, f"export | head -c 100: exit {status} {err[:120]!r}"


def patched(root: Path, full: bytes) -> Outcome:
    """No mount allowed: the same cases with a write that fails with ENOSPC, through the real command."""
    import io

    import reviewer.store.fs.atomic as atomic
    from reviewer import cli

    class FullStdout(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, b: object) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    saved = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(FullStdout(), 64 << 10), encoding="utf-8")
    try:
        status = cli.main(["export", str(root), "--reviewer", "alice"])
    finally:
        sys.stdout = saved
    old = root.parent / "old.toml"
    old.write_bytes(b"old\n")
    real_write = atomic.os.write
    atomic.os.write = lambda fd, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device"))
    try:
        file_status = cli.main(["export", str(root), "--reviewer", "alice", "-o", str(old)])
    except Exception:  # noqa: BLE001 - a traceback is what the finding saw
        file_status = -1
    finally:
        atomic.os.write = real_write
    pipe_ok, pipe_detail = closed_pipe(root)
    ok = status != 0 and file_status == 1 and old.read_bytes() == b"old\n" and pipe_ok
    return Outcome(ok, None, f"no permission to mount: patched write; stdout exit {status}, -o exit {file_status}; "
                   f"{pipe_detail}", {"export_bytes": len(full)})
