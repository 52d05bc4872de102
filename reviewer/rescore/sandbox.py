"""The bubblewrap sandbox every re-score runs in, and nothing else ever runs recorded code.

One run: ``bwrap --unshare-all`` (no network, own PIDs, IPC, hostname, user), the system's
``/usr`` and the runtimes read-only, a fresh size-capped tmpfs at ``/sandbox`` as the only
writable place (``/tmp`` points into it), the staged inputs read-only at ``/sandbox/in``, a
clean environment, ``--new-session`` (no terminal to inject into), ``--die-with-parent``.
Inside, ``prlimit`` caps CPU seconds, address space, tasks (processes and threads), file size
and open files *after* the user namespace exists, so the task count is the sandbox's own.
Outside, a watchdog kills the whole sandbox at the wall-clock limit, when its processes'
resident memory together pass the memory limit, or on cancel.

The task limit does not hold for processes of the real root, so when reviewer runs as root the
sandbox runs as ``nobody``: ``setpriv`` drops to it and bubblewrap starts unprivileged. When a
runtime lives where ``nobody`` cannot reach it (under ``/root``), ``unshare --mount`` first gives
a private mount table in which it is bind-mounted into the staging folder.

Without a working bubblewrap nothing runs: :class:`SandboxUnavailable` says which package.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from reviewer.model.records import record
from reviewer.rescore.layout import IN, INSIDE, NOBODY, fresh_staging

OUTPUT_CAP = 8 << 20
SIDE_CAP = 4 << 20
POLL = 0.1
MEMORY_EVERY = 0.25
SIGNAL_WORDS = {
    signal.SIGXCPU: "CPU time limit",
    signal.SIGXFSZ: "file size limit",
    signal.SIGKILL: "killed (SIGKILL: the CPU hard limit or the kernel)",
    signal.SIGSEGV: "segmentation fault (stack or memory limit)",
}


class SandboxUnavailable(Exception):
    """Re-scoring is refused: no working bubblewrap sandbox here. Nothing was run."""


class Cancelled(Exception):
    """The caller cancelled; the sandbox was killed."""


@record
class Limits:
    """What one sandboxed command may use.

    Attributes:
        cpu_seconds: CPU time per process.
        wall_seconds: wall-clock time for the whole command.
        memory_mb: address space per process, and resident memory of all its processes together.
        processes: tasks (processes and threads) at once.
        file_size_mb: largest file it may write.
        disk_mb: size of its writable folder (a tmpfs).
        open_files: open file descriptors per process.
    """

    cpu_seconds: int = 120
    wall_seconds: float = 120.0
    memory_mb: int = 2048
    processes: int = 256
    file_size_mb: int = 256
    disk_mb: int = 1024
    open_files: int = 1024

    def as_table(self) -> dict[str, int | float]:
        """The limits as a flat table (for the record and ``--json``)."""
        return {"cpu_seconds": self.cpu_seconds, "wall_seconds": self.wall_seconds, "memory_mb": self.memory_mb,
                "processes": self.processes, "file_size_mb": self.file_size_mb, "disk_mb": self.disk_mb,
                "open_files": self.open_files}


@record
class Bind:
    """A host folder shown read-only inside the sandbox at ``inside``."""

    host: str
    inside: str


@record
class Tool:
    """The sandbox programs found on this machine."""

    bwrap: str
    prlimit: str
    version: str
    as_root: bool
    unshare: str = ""
    setpriv: str = ""


@record
class Outcome:
    """What one sandboxed command did.

    Attributes:
        exit_status: its exit status (128 + N when signal N killed it); None when the
            watchdog killed the sandbox.
        output: stdout and stderr as printed, interleaved (capped at 8 MiB).
        truncated: the cap cut the output.
        seconds: wall-clock time.
        stopped: why the watchdog killed it ("" when it ended by itself).
        limit: the limit its exit status points at ("" when none).
        side: what the command wrote on its side channel (capped at 4 MiB), when it had one.
        memory: how its memory was bounded (:func:`memory_guard`'s words).
    """

    exit_status: int | None
    output: str
    truncated: bool
    seconds: float
    stopped: str = ""
    limit: str = ""
    side: bytes = b""
    memory: str = ""


def host_path() -> str:
    """The PATH to look for bubblewrap on (the user's)."""
    return os.environ.get("PATH", "")


def find_tool(path: str | None = None) -> Tool:
    """Locate bwrap (on PATH only) and its helpers; SandboxUnavailable naming the package."""
    search = host_path() if path is None else path
    bwrap = shutil.which("bwrap", path=search)
    if not bwrap:
        raise SandboxUnavailable(
            "re-scoring runs recorded code only inside a bubblewrap sandbox, and `bwrap` is not on PATH: "
            "install the package `bubblewrap` (Debian/Ubuntu: apt-get install bubblewrap). Nothing was run.")
    system = f"{search}:/usr/bin:/bin:/usr/sbin:/sbin"
    prlimit = shutil.which("prlimit", path=system)
    if not prlimit or not prlimit.startswith("/usr/"):
        raise SandboxUnavailable("the sandbox sets its limits with `prlimit`, not found in /usr: install the package "
                                 "`util-linux`. Nothing was run.")
    as_root = os.geteuid() == 0
    unshare = setpriv = ""
    if as_root:
        unshare = shutil.which("unshare", path=system) or ""
        setpriv = shutil.which("setpriv", path=system) or ""
        if not unshare or not setpriv or not shutil.which("mount", path=system):
            raise SandboxUnavailable("running as root, the sandbox drops to `nobody` with `unshare`, `mount` and "
                                     "`setpriv`: install the packages `util-linux` and `mount`. Nothing was run.")
    return Tool(bwrap, prlimit, bwrap_version(bwrap), as_root, unshare, setpriv)


@functools.lru_cache(maxsize=8)
def bwrap_version(bwrap: str) -> str:
    """``bubblewrap 0.8.0`` (or ``bubblewrap`` when it does not say)."""
    try:
        out = subprocess.run([bwrap, "--version"], check=False, capture_output=True, text=True, timeout=10, env={})
    except (OSError, subprocess.SubprocessError):
        return "bubblewrap"
    return out.stdout.strip() or "bubblewrap"


def system_binds() -> list[str]:
    """bwrap arguments for the read-only system: /usr, the top-level links into it, a few /etc files."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        top = f"/{name}"
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for etc in ("/etc/ld.so.cache", "/etc/alternatives"):
        args += ["--ro-bind-try", etc, etc]
    return args


def no_new_namespaces(tool: Tool) -> list[str]:
    """bwrap arguments that refuse the program user namespaces of its own (bubblewrap 0.8 or later).

    In a user namespace of its own a program may mount a tmpfs and fill it: memory held by a
    mount, in no process's files or mappings, which no watchdog can count. Under a memory cgroup
    the kernel charges it to the sandbox; where there is none, nothing else would stop it. Older
    bubblewraps have no such option: there the seccomp filter refuses ``unshare``, ``setns`` and
    ``mount`` (:data:`SECCOMP_DENIED`).
    """
    found = re.search(r"(\d+)\.(\d+)", tool.version)
    if found is None or (int(found.group(1)), int(found.group(2))) < (0, 8):
        return []
    return ["--unshare-user", "--disable-userns"]


def bwrap_args(tool: Tool, staging: Path, binds: list[Bind], env: dict[str, str], limits: Limits,
               routed: dict[str, str], seccomp_fd: int | None = None) -> list[str]:
    """The bwrap command line up to (not including) the command it runs."""
    args = [tool.bwrap, "--unshare-all", *no_new_namespaces(tool), "--die-with-parent", "--new-session",
            "--hostname", "sandbox",
            *(["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []),
            *system_binds(), "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
            "--size", str(limits.disk_mb << 20), "--tmpfs", INSIDE,
            "--ro-bind", str(staging), IN]
    for name in ("passwd", "group", "hosts"):
        args += ["--ro-bind", str(staging / "etc" / name), f"/etc/{name}"]
    # /tmp is a link into the writable folder, unless a runtime lives under /tmp (a checkout or a
    # venv there): then it is a tmpfs of its own, capped the same, with the runtime bound inside it.
    in_tmp = any(b.inside == "/tmp" or b.inside.startswith("/tmp/") for b in binds)
    if in_tmp:
        args += ["--size", str(limits.disk_mb << 20), "--tmpfs", "/tmp"]
    for b in binds:
        args += ["--ro-bind", routed.get(b.host, b.host), b.inside]
    if not in_tmp:
        args += ["--symlink", f"{INSIDE}/tmp", "/tmp"]
    args += ["--remount-ro", "/", "--clearenv"]
    for key, value in sorted(env.items()):
        args += ["--setenv", key, value]
    return args


def limited(tool: Tool, limits: Limits) -> list[str]:
    """``prlimit ... --`` with every per-process limit (soft = hard, CPU hard one second later)."""
    mb = 1 << 20
    return [tool.prlimit, f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
            f"--as={limits.memory_mb * mb}", f"--nproc={limits.processes}",
            f"--fsize={limits.file_size_mb * mb}", f"--nofile={limits.open_files}", "--core=0", "--"]


ROOT_SCRIPT = ('n=$1; shift; while [ "$n" -gt 0 ]; do mount --bind "$1" "$2" || exit 125; shift 2; n=$((n-1)); done; '
               'exec "$@"')


def full_command(tool: Tool, staging: Path, binds: list[Bind], env: dict[str, str], limits: Limits,
                 inner: list[str], seccomp_fd: int | None = None) -> list[str]:
    """The whole command line: (as root: unshare, binds, setpriv) bwrap, prlimit, ``inner``."""
    routed: dict[str, str] = {}
    pairs: list[str] = []
    hidden = [b for b in binds if not reachable_by_others(b.host)]
    if tool.as_root:
        for i, b in enumerate(hidden):
            point = staging / "mnt" / str(i)
            point.mkdir(parents=True, exist_ok=True)
            point.chmod(0o755)
            routed[b.host] = str(point)
            pairs += [b.host, str(point)]
    cmd = bwrap_args(tool, staging, binds, env, limits, routed, seccomp_fd) + ["--", *limited(tool, limits), *inner]
    if not tool.as_root:
        return cmd
    drop = [tool.setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    if not hidden:
        return [*drop, *cmd]
    return [tool.unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c", ROOT_SCRIPT, "sh",
            str(len(hidden)), *pairs, *drop, *cmd]


def reachable_by_others(path: str) -> bool:
    """True when a user other than the owner can reach and read the folder ``path``."""
    here = Path(path)
    try:
        for folder in [*reversed(here.parents), here]:
            mode = os.stat(folder).st_mode
            if not mode & 0o001:
                return False
        return bool(os.stat(here).st_mode & 0o004)
    except OSError:
        return False


def describe_status(status: int | None) -> str:
    """The limit an exit status points at ("" for none)."""
    if status is None or status <= 128:
        return ""
    try:
        sig = signal.Signals(status - 128)
    except ValueError:
        return ""
    return SIGNAL_WORDS.get(sig, f"killed by {sig.name}")


CGROUP_ROOT = Path("/sys/fs/cgroup")
WATCHED = ("watched from outside every 0.25 s: resident memory, shared memory and memory files of all its "
           "processes together, as no memory cgroup is writable here")
REFUSED = "; memory files, System V shared memory and mounts of its own refused (seccomp)"


@record
class Guard:
    """A memory cgroup made for one sandboxed command (``procs`` "" when none could be made).

    Attributes:
        folder: the cgroup's folder.
        procs: its ``cgroup.procs`` file (the command joins it before it starts).
        version: 1 or 2.
        words: how the memory is bounded, for the confirmation and the record.
    """

    folder: str = ""
    procs: str = ""
    version: int = 0
    words: str = WATCHED

    def oom_killed(self) -> bool:
        """True when the kernel killed a process of the command for passing the memory limit."""
        if not self.folder:
            return False
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            text = Path(self.folder, name).read_text()
        except OSError:
            return False
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit() and int(value) > 0:
                return True
        if self.version == 1:
            try:
                return int(Path(self.folder, "memory.failcnt").read_text().strip() or 0) > 0 and "under_oom 1" in text
            except (OSError, ValueError):
                return False
        return False


def own_cgroup(controller: str) -> tuple[Path, int] | None:
    """This process's cgroup folder holding the memory controller, and the cgroup version."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:
            folder = CGROUP_ROOT / path.lstrip("/")
            try:
                if controller in (folder / "cgroup.subtree_control").read_text().split():
                    return folder, 2
            except OSError:
                continue
        elif controller in controllers.split(","):
            return CGROUP_ROOT / controller / path.lstrip("/"), 1
    return None


def memory_guard(limits: Limits) -> Guard:
    """A new memory cgroup capped at ``limits.memory_mb`` (shared memory, memory files and the
    sandbox's tmpfs are charged to it, which a watchdog over resident memory never sees), or,
    where no memory cgroup is writable, a guard that says the memory is watched from outside."""
    found = own_cgroup("memory")
    if found is None:
        return Guard()
    parent, version = found
    folder = parent / f"reviewer-rescore-{os.getpid()}-{time.monotonic_ns()}"
    cap = str(limits.memory_mb << 20)
    try:
        folder.mkdir()
    except OSError:
        return Guard()
    try:
        if version == 2:
            (folder / "memory.max").write_text(cap)
            with contextlib.suppress(OSError):
                (folder / "memory.swap.max").write_text("0")
            words = f"a cgroup v2 memory.max of {limits.memory_mb} MiB for all its processes (shared memory and memory files included)"
        else:
            (folder / "memory.limit_in_bytes").write_text(cap)
            with contextlib.suppress(OSError):
                (folder / "memory.memsw.limit_in_bytes").write_text(cap)
            words = (f"a cgroup v1 memory.limit_in_bytes of {limits.memory_mb} MiB for all its processes (shared memory "
                     "and memory files included)")
    except OSError:
        release(Guard(str(folder)))
        return Guard()
    return Guard(str(folder), str(folder / "cgroup.procs"), version, words)


def memory_words(limits: Limits) -> str:
    """How a sandboxed command's memory will be bounded here (made and removed at once)."""
    guard = memory_guard(limits)
    release(guard)
    return guard.words + (REFUSED if not guard.procs and seccomp_filter() else "")


def release(guard: Guard) -> None:
    """Remove the guard's cgroup once its processes are gone (retried briefly)."""
    if not guard.folder:
        return
    for _ in range(50):
        try:
            os.rmdir(guard.folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


MOUNTING = {"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
            "mount_setattr": 442}
"""The new mount API's calls (the same numbers on both machines)."""

SECCOMP_DENIED = {
    "x86_64": (0xC000003E, {"shmget": 29, "shmat": 30, "memfd_create": 319, "memfd_secret": 447,
                            "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, **MOUNTING}),
    "aarch64": (0xC00000B7, {"shmget": 194, "shmat": 196, "memfd_create": 279, "memfd_secret": 447,
                             "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, **MOUNTING}),
}
"""Per machine: the audit architecture, and the system calls that make memory no process holds as a
file or a mapping the watchdog can count: memory files, System V shared memory, and a mount of
one's own (a tmpfs in a new mount namespace)."""


def seccomp_filter(machine: str | None = None) -> bytes:
    """A classic BPF program for bubblewrap's ``--seccomp``: the calls of :data:`SECCOMP_DENIED` fail
    with EPERM, a call of another architecture (or x32) with ENOSYS, every other call is allowed;
    b"" on a machine it does not know (then the watchdog alone bounds memory)."""
    import platform
    import struct

    arch = SECCOMP_DENIED.get(machine or platform.machine())
    if arch is None:
        return b""
    audit, calls = arch
    load, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    numbers = sorted(calls.values())
    prog: list[tuple[int, int, int, int]] = [(load, 0, 0, 4)]  # the architecture
    rest = 2 + 1 + len(numbers) + 1  # instructions after the next one, up to the ENOSYS return
    prog.append((jeq, 0, rest, audit))
    prog.append((load, 0, 0, 0))  # the call's number
    prog.append((jge, len(numbers) + 2, 0, 0x40000000))  # x32: not handled here
    for i, nr in enumerate(numbers):
        prog.append((jeq, len(numbers) - i, 0, nr))
    prog += [(ret, 0, 0, allow), (ret, 0, 0, eperm), (ret, 0, 0, enosys)]
    return b"".join(struct.pack("<HBBI", *ins) for ins in prog)


JOIN = 'echo $$ > "$0" && exec "$@"'
"""Join the cgroup named by $0, then become the sandbox's command (run before anything else of it)."""


def tree_memory(root_pid: int) -> int:
    """Resident bytes of ``root_pid`` and its descendants, plus the memory files and shared memory
    they hold open (a ``memfd`` filled with ``fallocate`` is not resident): what the watchdog counts
    where no memory cgroup can be made."""
    pids = tree_pids(root_pid)
    page = os.sysconf("SC_PAGE_SIZE")
    total, seen = 0, set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                after = fh.read().rpartition(b")")[2].split()
            total += int(after[21]) * page if len(after) > 21 else 0
        except OSError:
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if not (target.startswith("/memfd:") or target.startswith("/dev/shm/")):
                    continue
                st = os.stat(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def tree_pids(root_pid: int) -> set[int]:
    """``root_pid`` and every descendant (from /proc)."""
    parents: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {root_pid}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                after = fh.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if len(after) > 1:
            parents[int(name)] = int(after[1])
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    inside, frontier = {root_pid}, [root_pid]
    while frontier:
        for child in children.get(frontier.pop(), ()):
            if child not in inside:
                inside.add(child)
                frontier.append(child)
    return inside


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the sandbox's process group; bwrap's --die-with-parent takes the namespace down."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_sandboxed(tool: Tool, staging: Path, inner: list[str], *, binds: list[Bind], env: dict[str, str],
                  limits: Limits, cancel: Callable[[], bool] = lambda: False,
                  side: tuple[int, int] | None = None) -> Outcome:
    """Run ``inner`` (a command line valid inside the sandbox) and watch it; raises Cancelled.

    ``side``: a pipe (read end, write end) the caller made; the write end is passed into the
    sandbox under its own number (which ``inner`` names) and closed here, and what arrives on
    the read end is the outcome's ``side`` (capped; the rest is read and dropped)."""
    guard = memory_guard(limits)
    program = b"" if guard.procs else seccomp_filter()
    filter_fd = None
    if program:  # no cgroup: refuse the memory no watchdog can count
        filter_fd, write_end = os.pipe()
        os.write(write_end, program)
        os.close(write_end)
    cmd = full_command(tool, staging, binds, env, limits, inner, filter_fd)
    if guard.procs:
        cmd = ["/bin/sh", "-c", JOIN, guard.procs, *cmd]
    start = time.monotonic()
    keep = tuple(fd for fd in ((side[1],) if side is not None else ()) + ((filter_fd,) if filter_fd is not None else ()))
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, start_new_session=True,
                                close_fds=True, pass_fds=keep)
    except BaseException:
        release(guard)
        raise
    finally:
        if side is not None:
            os.close(side[1])
        if filter_fd is not None:
            os.close(filter_fd)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    streams: dict[int, tuple[list[bytes], int]] = {fd: ([], OUTPUT_CAP)}
    if side is not None:
        streams[side[0]] = ([], SIDE_CAP)
    sizes = dict.fromkeys(streams, 0)
    open_fds = list(streams)
    truncated, stopped, cancelled = False, "", False
    next_memory = start + MEMORY_EVERY
    memory_cap = limits.memory_mb << 20
    try:
        while fd in open_fds:
            ready, _, _ = select.select(open_fds, [], [], POLL)
            for r in ready:
                data = os.read(r, 1 << 16)
                if not data:
                    open_fds.remove(r)
                    continue
                chunks, cap = streams[r]
                if sizes[r] < cap:
                    chunks.append(data[: cap - sizes[r]])
                if r == fd:
                    truncated = truncated or sizes[r] + len(data) > cap
                sizes[r] += len(data)
            now = time.monotonic()
            if stopped:
                continue
            if cancel():
                stopped, cancelled = "cancelled", True
            elif now - start > limits.wall_seconds:
                stopped = f"wall time limit ({limits.wall_seconds:g} s)"
            elif now >= next_memory:
                next_memory = now + MEMORY_EVERY
                if guard.oom_killed():
                    stopped = f"memory limit ({limits.memory_mb} MiB in all its processes, its cgroup's)"
                elif tree_memory(proc.pid) > memory_cap:
                    stopped = f"memory limit ({limits.memory_mb} MiB in all its processes, shared memory included)"
            if stopped:
                kill_tree(proc)
        if side is not None and side[0] in open_fds:  # the command is done: what is left on the side channel
            ends = time.monotonic() + 2.0
            while side[0] in open_fds and time.monotonic() < ends:
                ready, _, _ = select.select([side[0]], [], [], POLL)
                if ready:
                    data = os.read(side[0], 1 << 16)
                    if not data:
                        break
                    chunks, cap = streams[side[0]]
                    if sizes[side[0]] < cap:
                        chunks.append(data[: cap - sizes[side[0]]])
                    sizes[side[0]] += len(data)
    finally:
        proc.stdout.close()
        if side is not None:
            os.close(side[0])
        if proc.poll() is None and stopped:
            kill_tree(proc)
        status = proc.wait()
        oom = guard.oom_killed()
        release(guard)
    if cancelled:
        raise Cancelled("the re-score was cancelled; the sandbox was killed")
    if oom and not stopped:
        stopped = f"memory limit ({limits.memory_mb} MiB in all its processes, its cgroup's: the kernel killed one)"
    text = b"".join(streams[fd][0]).decode("utf-8", "replace")
    exit_status = None if stopped and not oom else (128 - status if status < 0 else status)
    side_bytes = b"".join(streams[side[0]][0]) if side is not None else b""
    return Outcome(exit_status, text, truncated, time.monotonic() - start, stopped, describe_status(exit_status),
                   side_bytes, guard.words + (REFUSED if program else ""))


PROBE_OK = "sandbox-ok"


@functools.lru_cache(maxsize=8)
def probe(tool: Tool, work: str) -> str:
    """"" when a trivial command runs in the sandbox, else why not (cached per tool)."""
    with fresh_staging(Path(work)) as staging:
        try:
            out = run_sandboxed(tool, staging, ["/bin/sh", "-c", f"echo {PROBE_OK}"], binds=[],
                                env={"PATH": "/usr/bin:/bin"}, limits=Limits(wall_seconds=30))
        except OSError as exc:
            return f"bwrap could not start: {exc}"
    if out.exit_status == 0 and PROBE_OK in out.output:
        return ""
    detail = out.output.strip().splitlines()[-1:] or [out.stopped or f"exit status {out.exit_status}"]
    return detail[0][:300]


def require_sandbox(path: str | None = None) -> Tool:
    """A tool that works here, or SandboxUnavailable with what to install or allow."""
    import tempfile

    tool = find_tool(path)
    why = probe(tool, tempfile.gettempdir())
    if why:
        raise SandboxUnavailable(
            f"bubblewrap is installed but cannot create its sandbox here ({why}). Re-scoring runs recorded code "
            "only inside it, so nothing was run: allow unprivileged user namespaces (sysctl "
            "kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0, or an AppArmor profile for bwrap), "
            "or run where the package `bubblewrap` works.")
    return tool
