"""Finding 11 (finding 1 of the 'promises under attack' pass): a grader calling
``os.memfd_create`` and ``os.posix_fallocate`` held 10,200 MiB under the 2,048 MiB memory limit for
its whole time limit: the watchdog summed resident memory only, and a memory file filled with
``fallocate`` and never mapped is not resident. (``prlimit --fsize`` caps each file, so the attacker
fills many files of :data:`CHUNK_MIB` MiB.)

The attacker here fills such files until it holds the memory it asks for, keeps them open for a
few seconds, then says ``DONE``. While it runs, this check reads from the host, every 0.05 s, the
blocks of the memory files its processes hold open (the figure ``held``: what it really held, not
what it says).

Live: without the fix the memory stays held. With the code before the fix
(``REVIEWER_BEFORE_FIX_PYTHON`` names its Python): its ``run_sandboxed``. Otherwise the attack's
reference: this tree's ``run_sandboxed`` with ``own_cgroup`` finding no memory cgroup and the
watchdog's ``tree_memory`` replaced by the old sum of resident memory (kept here verbatim from
``tree_rss`` before the fix). :data:`LIVE_MIB` MiB are asked over a limit of :data:`LIMIT_MIB` MiB, held for
:data:`HOLD_SECONDS` s: the attacker ends by itself, never stopped.

Contained: this tree's ``run_sandboxed`` as it is (a memory cgroup of its own where one is
writable, as here and in CI) stops the attacker asking :data:`ATTACK_MIB` MiB (five times the limit,
as the finding's 10,200 MiB were of 2,048) before ``DONE``, and under the cgroup it never holds more
than the limit; the fallback where no cgroup can be made (``own_cgroup`` finding none: the watchdog
counts the memory files its processes hold open) stops it too, having held more than the limit for
under :data:`OVER_SECONDS` s (the watchdog polls, and memory files fill at several GiB a second: the
figure ``fallback_held_mib`` says how far past the limit it got). No process of the attacker is
left behind.

Variants (:data:`VARIANTS`): memory held by no file or mapping of any process, which no watchdog
can count: a memory file filled, sent to the attacker's own socket (``SCM_RIGHTS``, left unread)
and closed; System V shared memory attached, filled and detached. The host measures them by the
growth of the machine's shared memory (``Shmem`` of /proc/meminfo; both are shared memory), every
0.05 s. Live: the fallback as it was before seccomp refused them (no cgroup, no seccomp: its
watchdog alone; the code before the fix where ``REVIEWER_BEFORE_FIX_PYTHON`` names it) holds
:data:`LIVE_MIB` MiB of each for :data:`HOLD_SECONDS` s, never stopped. Contained: under the memory
cgroup each is stopped at the limit (the cgroup charges shared memory); in the fallback, seccomp
refuses ``memfd_create`` and ``shmget`` at the first call (nothing held); after each run nothing is
left held.

A third variant, found by the same pass after the first two were contained: the attacker makes a
user and mount namespace of its own (nothing refused ``unshare``), mounts a tmpfs there and fills
files on it: memory held by a mount, in no process's files or mappings. Live: the fallback before
its fix (no cgroup, no seccomp, no ``--disable-userns``). Contained: bubblewrap's
``--disable-userns`` (``sandbox.no_new_namespaces``) and, in the fallback, seccomp refusing
``unshare``, ``setns`` and ``mount`` keep it from making the namespace at all, with the cgroup or
without: nothing held.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

from attacks import Outcome

FINDING = 11
TITLE = "memfd_create + posix_fallocate held 10,200 MiB under a 2,048 MiB limit: the watchdog counted resident memory only"
LIMIT_MIB = 1024
CHUNK_MIB = 200
LIVE_MIB = 3000
ATTACK_MIB = 5200
HOLD_SECONDS = 3.0
OVER_SECONDS = 1.0
"""How long a stopped attacker may have held more than the limit (a watchdog polls every 0.25 s)."""
WALL_SECONDS = 20.0
SHARED_NOISE_MIB = 64
RELEASE_SECONDS = 10.0
"""How long after a variant's run its shared memory may still be held (the kernel frees it once the
sandbox's namespaces are gone); the next run is measured from then."""
"""The variants are measured by the machine's shared memory, which other programs move too: how far
past the limit a variant under the cgroup may seem to get (the original is measured exactly)."""
BEFORE_FIX = "REVIEWER_BEFORE_FIX_PYTHON"

ATTACKER = r"""
import os, sys, time
marker, target, chunk, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
held, files = 0, []
try:
    while held < target:
        fd = os.memfd_create("held")
        os.posix_fallocate(fd, 0, chunk << 20)
        files.append(fd)
        held += chunk
        print("held", held, flush=True)
except OSError as exc:
    print("refused at", held, exc, flush=True)
print("HELD", held, flush=True)
time.sleep(hold)
print("DONE", flush=True)
"""

HOLDER = r"""
import ctypes, os, socket, sys, time
marker, target, chunk, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
SETUP
held = 0
try:
    while held < target:
FILL
        held += chunk
        print("held", held, flush=True)
except OSError as exc:
    print("refused at", held, exc, flush=True)
    sys.exit(3)
print("HELD", held, flush=True)
time.sleep(hold)
print("DONE", flush=True)
"""
"""A variant's attacker: SETUP once, then FILL (which holds ``chunk`` MiB more) until it holds
``target`` MiB; refused, it ends at once."""


def holder(setup: str, fill: str) -> str:
    """The attacker holding memory as ``fill`` (lines of Python, unindented) does."""
    return HOLDER.replace("SETUP", setup.strip()).replace("FILL", textwrap.indent(fill.strip(), " " * 8))


IN_FLIGHT = holder("""
mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
""", """
fd = os.memfd_create("held")
os.posix_fallocate(fd, 0, chunk << 20)
socket.send_fds(mine, [b"x"], [fd])  # in flight: in no process's table of open files
os.close(fd)
""")

SYSV = holder("""
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
failed = ctypes.c_void_p(-1).value
""", """
segment = libc.shmget(0, chunk << 20, 0o600)  # IPC_PRIVATE, never removed
if segment < 0:
    raise OSError(ctypes.get_errno(), "shmget: " + os.strerror(ctypes.get_errno()))
address = libc.shmat(segment, None, 0)
if address in (None, failed):
    raise OSError(ctypes.get_errno(), "shmat: " + os.strerror(ctypes.get_errno()))
ctypes.memset(address, 1, chunk << 20)
libc.shmdt(address)  # detached: in no process's mappings
""")

OWN_MOUNT = holder("""
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
uid, gid = os.getuid(), os.getgid()
try:
    if libc.unshare(0x10000000 | 0x00020000) != 0:  # CLONE_NEWUSER | CLONE_NEWNS: root of a namespace of its own
        raise OSError(ctypes.get_errno(), "unshare: " + os.strerror(ctypes.get_errno()))
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
        with open(f"/proc/self/{name}", "w") as fh:
            fh.write(text)
    os.makedirs("/sandbox/tmp/own", exist_ok=True)
    if libc.mount(b"none", b"/sandbox/tmp/own", b"tmpfs", 0, b"size=16g") != 0:
        raise OSError(ctypes.get_errno(), "mount: " + os.strerror(ctypes.get_errno()))
except OSError as exc:
    print("refused at", 0, exc, flush=True)
    sys.exit(3)
""", """
fd = os.open(f"/sandbox/tmp/own/f{held}", os.O_CREAT | os.O_WRONLY, 0o600)
os.posix_fallocate(fd, 0, chunk << 20)  # on a mount of its own: in no file or mapping of a process
os.close(fd)
""")

VARIANTS = {"in_flight": ("a memory file in flight (sent over a unix socket, closed)", IN_FLIGHT),
            "sysv": ("System V shared memory (attached, filled, detached)", SYSV),
            "own_mount": ("a tmpfs of its own, in a user and mount namespace of its own", OWN_MOUNT)}
"""Memory the attacker holds in no file or mapping of a process: (what it is, the attacker)."""

RUNNER = r"""
import json, sys, time
from reviewer.rescore import sandbox
from reviewer.rescore.layout import fresh_staging, write
from reviewer.rescore.runtime import find_python, python_executable
mode, limit, wall, attacker, *args = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], *sys.argv[5:]

def tree_rss(root_pid):
    # reviewer.rescore.sandbox.tree_rss before the fix, verbatim.
    import os
    parents = {}
    rss = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        after = raw.rpartition(b")")[2].split()
        if len(after) > 21:
            parents[int(name)] = int(after[1])
            rss[int(name)] = int(after[21])
    inside, frontier = {root_pid}, [root_pid]
    children = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    while frontier:
        for child in children.get(frontier.pop(), ()):
            if child not in inside:
                inside.add(child)
                frontier.append(child)
    page = os.sysconf("SC_PAGE_SIZE")
    return sum(rss.get(p, 0) for p in inside) * page

if mode in ("reference", "fallback", "watchdog") and hasattr(sandbox, "own_cgroup"):
    sandbox.own_cgroup = lambda controller: None
if mode in ("reference", "watchdog") and hasattr(sandbox, "seccomp_filter"):
    sandbox.seccomp_filter = lambda machine=None: b""
if mode in ("reference", "watchdog") and hasattr(sandbox, "no_new_namespaces"):
    sandbox.no_new_namespaces = lambda tool: []
if mode == "reference" and hasattr(sandbox, "tree_memory"):
    sandbox.tree_memory = tree_rss
tool = sandbox.require_sandbox()
py = find_python(python_executable())
with fresh_staging() as staging:
    write(staging, "ws/prog.py", attacker.encode())
    write(staging, "bin/python", f"#!/bin/sh\nexec '{py.executable}' \"$@\"\n".encode(), 0o755)
    script = ("cp -R /sandbox/in/ws /sandbox/run && mkdir -p /sandbox/tmp /sandbox/home && cd /sandbox/run "
              "&& exec python prog.py \"$@\"")
    env = {"PATH": "/sandbox/in/bin:/usr/bin:/bin", "HOME": "/sandbox/home", "TMPDIR": "/sandbox/tmp", "LANG": "C.UTF-8"}
    limits = sandbox.Limits(memory_mb=limit, wall_seconds=wall, cpu_seconds=int(wall) + 1)
    out = sandbox.run_sandboxed(tool, staging, ["/bin/sh", "-c", script, "prog", *args], binds=list(py.binds), env=env,
                                limits=limits)
print(json.dumps({"exit_status": out.exit_status, "stopped": out.stopped, "seconds": out.seconds,
                  "output": out.output[-2000:], "memory": getattr(out, "memory", "")}))
"""


def memory_files_held(marker: str) -> int:
    """Bytes of the memory files (``memfd``) the processes whose command line holds ``marker`` have open."""
    total, seen = 0, set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if marker.encode() not in fh.read():
                    continue
            fds = os.listdir(f"/proc/{name}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if not os.readlink(f"/proc/{name}/fd/{fd}").startswith("/memfd:"):
                    continue
                st = os.stat(f"/proc/{name}/fd/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def shared_memory() -> int:
    """Bytes of shared memory on the machine (``Shmem`` of /proc/meminfo: memory files, tmpfs,
    System V and POSIX shared memory)."""
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith("Shmem:"):
                return int(line.split()[1]) << 10
    return 0


def processes_with(marker: str) -> list[int]:
    """Pids whose command line holds ``marker``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(name))
        except OSError:
            continue
    return found


def attack(python: str, mode: str, target_mib: int, tag: str, attacker: str = ATTACKER) -> dict[str, Any]:
    """Run ``attacker`` asking ``target_mib`` in the sandbox of ``python``'s reviewer (``mode``:
    as-is, reference, fallback, watchdog); what the sandbox said and what the host saw it hold (the
    memory files its processes hold open; for another ``attacker``, the growth of the machine's
    shared memory, and ``left_held_mib``: how much of it was still held once the run was over, up to
    :data:`RELEASE_SECONDS` later)."""
    marker = f"memfd-attack-{tag}-{os.getpid()}-{time.monotonic_ns()}"
    shared_before = shared_memory()

    def held_now() -> int:
        return memory_files_held(marker) if attacker is ATTACKER else max(0, shared_memory() - shared_before)

    proc = subprocess.Popen([python, "-c", RUNNER, mode, str(LIMIT_MIB), str(WALL_SECONDS), attacker,
                             marker, str(target_mib), str(CHUNK_MIB), str(HOLD_SECONDS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    peak, over_since, over_for = 0, None, 0.0
    done = threading.Event()
    out: dict[str, str] = {}

    def collect() -> None:
        out["stdout"], out["stderr"] = proc.communicate(timeout=WALL_SECONDS + 60)
        done.set()

    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    while not done.wait(0.05):
        held = held_now()
        peak = max(peak, held)
        now = time.monotonic()
        if held > LIMIT_MIB << 20:
            over_since = over_since or now
            over_for = now - over_since
        else:
            over_since = None
    reader.join()
    try:
        seen = json.loads(out["stdout"].strip().splitlines()[-1])
    except (IndexError, ValueError):
        seen = {"exit_status": None, "stopped": "", "seconds": 0.0, "output": "", "memory": "",
                "error": (out.get("stderr") or "")[-1500:]}
    time.sleep(0.2)
    ended, left = time.monotonic(), held_now() if attacker is not ATTACKER else 0
    while left >= CHUNK_MIB << 20 and time.monotonic() - ended < RELEASE_SECONDS:
        time.sleep(0.05)  # the kernel frees a sandbox's shared memory after its last process, and says nothing
        left = held_now()
    said = [int(line.split()[1]) for line in seen["output"].splitlines() if line.startswith("held ")]
    seen.update({"peak_held_mib": peak >> 20, "said_held_mib": max(said, default=0), "held_over_limit_seconds": round(over_for, 2),
                 "done": "DONE" in seen["output"], "left_behind": len(processes_with(marker)),
                 "left_held_mib": left >> 20, "released_seconds": round(time.monotonic() - ended + 0.2, 2),
                 "exact": attacker is ATTACKER})
    return seen


def check(work: Path) -> Outcome:
    """The memory held under the old watchdog, then stopped by this tree's guard and its fallback."""
    del work  # the fixture is the attacker's program, staged by the runner
    before = os.environ.get(BEFORE_FIX)
    if before:
        old, which_old = attack(before, "as-is", LIVE_MIB, "old"), f"the code before the fix ({BEFORE_FIX})"
    else:
        old, which_old = attack(sys.executable, "reference", LIVE_MIB, "old"), "the reference (resident memory only, no cgroup)"
    live = (old["done"] and not old["stopped"] and old["exit_status"] == 0
            and old["peak_held_mib"] >= LIVE_MIB - CHUNK_MIB and old["held_over_limit_seconds"] >= HOLD_SECONDS / 2)
    guarded = attack(sys.executable, "as-is", ATTACK_MIB, "guard")
    fallback = attack(sys.executable, "fallback", ATTACK_MIB, "fallback")
    watchdog = attack(sys.executable, "watchdog", ATTACK_MIB, "watchdog")

    def stopped(seen: dict[str, Any]) -> bool:
        """Stopped by the memory limit well before its time was up, never done, nothing left; under
        a cgroup never holding more than the limit (a watchdog polls, so it may see more for a moment)."""
        slack = 0 if seen["exact"] else SHARED_NOISE_MIB
        bounded = seen["peak_held_mib"] <= LIMIT_MIB + slack if seen["memory"].startswith("a cgroup") else True
        return (not seen["done"] and seen["stopped"].startswith("memory limit") and seen["seconds"] < HOLD_SECONDS
                and seen["held_over_limit_seconds"] < OVER_SECONDS and seen["left_behind"] == 0 and bounded)

    def refused(seen: dict[str, Any]) -> bool:
        """The memory files were refused outright (seccomp): never more than the limit held, nothing left."""
        return "seccomp" in seen["memory"] and seen["peak_held_mib"] <= LIMIT_MIB and seen["left_behind"] == 0

    contained = (stopped(guarded) and (stopped(fallback) or refused(fallback)) and "watched" in fallback["memory"]
                 and stopped(watchdog))

    def escaped(seen: dict[str, Any]) -> bool:
        """Held what it asked past the limit for most of its time, ended by itself, never stopped."""
        return (seen["done"] and not seen["stopped"] and seen["exit_status"] == 0
                and seen["peak_held_mib"] >= LIVE_MIB - CHUNK_MIB and seen["held_over_limit_seconds"] >= HOLD_SECONDS / 2)

    variants: dict[str, dict[str, dict[str, Any]]] = {}
    for name, (_, attacker) in VARIANTS.items():
        # Before the fix the fallback had no seccomp: "watchdog" (the code before the fix has no cgroup).
        runs = variants[name] = {
            "old": attack(before or sys.executable, "watchdog", LIVE_MIB, f"{name}-old", attacker),
            "guard": attack(sys.executable, "as-is", ATTACK_MIB, f"{name}-guard", attacker),
            "fallback": attack(sys.executable, "fallback", ATTACK_MIB, f"{name}-fallback", attacker),
        }
        live = live and escaped(runs["old"])
        if name == "own_mount":  # no namespace of its own, with a cgroup or without: refused before any memory is held
            kept_out = all(seen["said_held_mib"] == 0 and seen["exit_status"] == 3 and seen["peak_held_mib"] <= LIMIT_MIB
                           for seen in (runs["guard"], runs["fallback"]))
        else:
            kept_out = stopped(runs["guard"]) and refused(runs["fallback"]) and runs["fallback"]["said_held_mib"] == 0
        contained = contained and kept_out and all(seen["left_held_mib"] < CHUNK_MIB for seen in runs.values())

    def line(name: str, seen: dict[str, Any], words: bool = True) -> str:
        return (f"{name}: held {seen['peak_held_mib']} MiB at most (it said {seen['said_held_mib']}), over the "
                f"{LIMIT_MIB} MiB limit for {seen['held_over_limit_seconds']} s; stopped after {seen['seconds']:.2f} s: "
                f"{seen['stopped'] or 'never'} (exit {seen['exit_status']}); DONE: {seen['done']}; left behind: "
                f"{seen['left_behind']}" + (f"; memory: {seen['memory'] or '(not said)'}" if words else "")
                + (f"\n  {seen['error']}" if "error" in seen else ""))

    detail = "\n".join([
        line(f"{which_old}, asking {LIVE_MIB} MiB", old, words=False),
        line(f"this tree, asking {ATTACK_MIB} MiB", guarded),
        line(f"this tree without a cgroup (the fallback), asking {ATTACK_MIB} MiB", fallback),
        line(f"this tree without a cgroup or seccomp (its watchdog alone), asking {ATTACK_MIB} MiB", watchdog),
    ])
    variant_old = f"the code before the fix ({BEFORE_FIX}), no cgroup" if before else "the fallback before the fix (no cgroup, no seccomp)"
    for name, runs in variants.items():
        what = VARIANTS[name][0]
        detail += "\n".join([
            f"\n{what}, as the host's shared memory grew:",
            line(f"  {variant_old}, asking {LIVE_MIB} MiB", runs["old"], words=False),
            line(f"  this tree, asking {ATTACK_MIB} MiB", runs["guard"]),
            line(f"  this tree without a cgroup (the fallback), asking {ATTACK_MIB} MiB", runs["fallback"]),
            "  still held once each run was over: " + ", ".join(
                f"{seen['left_held_mib']} MiB ({seen['released_seconds']} s after)" for seen in runs.values()),
        ])
    figures = {"limit_mib": LIMIT_MIB, "old": which_old.split(" (")[0], "old_held_mib": old["peak_held_mib"],
               "old_held_over_limit_seconds": old["held_over_limit_seconds"], "old_stopped": old["stopped"],
               "guard_held_mib": guarded["peak_held_mib"], "guard_stopped_seconds": round(guarded["seconds"], 2),
               "guard_stopped": guarded["stopped"], "guard_memory": guarded["memory"],
               "fallback_held_mib": fallback["peak_held_mib"], "fallback_stopped_seconds": round(fallback["seconds"], 2),
               "fallback_stopped": fallback["stopped"], "left_behind": guarded["left_behind"] + fallback["left_behind"]}
    for name, runs in variants.items():
        figures.update({f"{name}_old_held_mib": runs["old"]["peak_held_mib"],
                        f"{name}_old_held_over_limit_seconds": runs["old"]["held_over_limit_seconds"],
                        f"{name}_old_stopped": runs["old"]["stopped"],
                        f"{name}_guard_held_mib": runs["guard"]["peak_held_mib"],
                        f"{name}_guard_stopped_seconds": round(runs["guard"]["seconds"], 2),
                        f"{name}_fallback_held_mib": runs["fallback"]["peak_held_mib"],
                        f"{name}_fallback_refused": runs["fallback"]["said_held_mib"] == 0,
                        f"{name}_left_held_mib": max(seen["left_held_mib"] for seen in runs.values()),
                        f"{name}_released_seconds": max(seen["released_seconds"] for seen in runs.values())})
        figures["left_behind"] += sum(seen["left_behind"] for seen in runs.values())
    return Outcome(contained, live, detail, figures)
