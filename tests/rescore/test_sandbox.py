"""The sandbox holds: hostile programs, run for real in bubblewrap, are stopped or contained and
reported, nothing reaches the host, and the machine stays usable."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from rescorekit import processes_with, run_python, sandbox_tool

from reviewer.rescore.sandbox import Limits, SandboxUnavailable, find_tool


def refusals(output: str) -> int:
    """Lines the program printed for an attempt that failed."""
    return sum(1 for line in output.splitlines() if line.startswith("refused "))


QUICK = Limits(cpu_seconds=5, wall_seconds=15, memory_mb=512, processes=32, file_size_mb=16, disk_mb=64)


def test_a_socket_reaches_nothing() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve)
    thread.start()
    code = f"""
import socket
for host, port in [("127.0.0.1", {port}), ("1.1.1.1", 80), ("example.com", 80)]:
    try:
        socket.create_connection((host, port), timeout=3)
        print("CONNECTED", host)
    except OSError as exc:
        print("refused", host, type(exc).__name__, exc)
"""
    try:
        out = run_python(code, QUICK)
    finally:
        stop.set()
        thread.join()
        server.close()
    assert accepted == []
    assert "CONNECTED" not in out.output
    assert refusals(out.output) == 3, out.output


def test_writes_outside_its_folder_stay_inside(tmp_path: Path) -> None:
    host_marker = tmp_path / "escaped.txt"
    code = f"""
import os
for path in ["/usr/escaped", "/etc/escaped", "/escaped", "/sandbox/in/escaped", {str(host_marker)!r},
             {str(Path.home() / 'escaped-by-sandbox')!r}, "/tmp/kept-inside"]:
    try:
        with open(path, "w") as fh:
            fh.write("x")
        print("WROTE", path)
    except OSError as exc:
        print("refused", path, exc.strerror)
"""
    out = run_python(code, QUICK)
    assert not host_marker.exists()
    assert not (Path.home() / "escaped-by-sandbox").exists()
    assert not Path("/escaped").exists() and not Path("/usr/escaped").exists()
    assert refusals(out.output) == 6, out.output
    assert "WROTE /tmp/kept-inside" in out.output  # its own tmpfs, gone when it ends
    assert not Path("/tmp/kept-inside").exists()


def test_a_fork_bomb_is_held_and_killed() -> None:
    marker = f"forkbomb-{os.getpid()}-{time.monotonic_ns()}"
    code = f"""
import os, sys, time
tag = {marker!r}
failed = 0
while True:
    try:
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import os, time\\nwhile True:\\n    try: os.fork()\\n    except OSError: time.sleep(0.01)", tag])
    except OSError:
        failed += 1
        if failed == 1:
            print("fork refused", flush=True)
        time.sleep(0.01)
"""
    started = time.monotonic()
    out = run_python(code, Limits(cpu_seconds=30, wall_seconds=6, memory_mb=512, processes=32))
    took = time.monotonic() - started
    assert out.stopped.startswith("wall time limit"), out
    assert "fork refused" in out.output
    assert took < 15
    assert subprocess.run(["true"], check=False).returncode == 0  # the machine still forks
    time.sleep(0.5)
    assert processes_with(marker) == []


def test_an_endless_loop_is_stopped_by_the_cpu_limit() -> None:
    started = time.monotonic()
    out = run_python("while True:\n    pass\n", Limits(cpu_seconds=2, wall_seconds=30))
    assert out.limit == "CPU time limit", out
    assert out.exit_status == 128 + 24
    assert time.monotonic() - started < 15


def test_sleeping_forever_is_stopped_by_the_wall_limit() -> None:
    out = run_python("import time\ntime.sleep(3600)\n", Limits(wall_seconds=2))
    assert out.stopped == "wall time limit (2 s)"
    assert out.exit_status is None


def test_ten_gigabytes_of_memory_are_refused() -> None:
    out = run_python("x = bytearray(10 << 30)\nprint('GOT', len(x))\n", QUICK)
    assert "MemoryError" in out.output
    assert "GOT" not in out.output
    assert out.exit_status not in (0, None)


def test_memory_spread_over_processes_is_caught_by_the_watchdog() -> None:
    code = """
import os, time
for _ in range(6):
    if os.fork() == 0:
        block = bytearray(200 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(60)
        os._exit(0)
time.sleep(60)
"""
    out = run_python(code, Limits(memory_mb=512, wall_seconds=30, processes=32))
    assert out.stopped.startswith("memory limit"), out


def test_a_ten_gigabyte_file_is_cut_at_the_file_size_limit(tmp_path: Path) -> None:
    code = """
chunk = b"x" * (1 << 20)
written = 0
try:
    with open("big.bin", "wb") as fh:
        for _ in range(10 * 1024):
            fh.write(chunk)
            written += 1
except OSError as exc:
    print("stopped after", written, "MiB:", exc.strerror)
"""
    free_before = os.statvfs(tmp_path).f_bavail
    out = run_python(code, QUICK)
    assert "File too large" in out.output, out.output
    written = int(out.output.split("stopped after")[1].split()[0])
    assert written <= QUICK.file_size_mb
    assert abs(os.statvfs(tmp_path).f_bavail - free_before) * os.statvfs(tmp_path).f_frsize < 512 << 20


def test_many_files_fill_only_the_sandbox_tmpfs() -> None:
    code = """
import os
n = 0
try:
    while n < 100000:
        with open(f"f{n}.bin", "wb") as fh:
            fh.write(b"y" * (8 << 20))
        n += 1
except OSError as exc:
    print("full after", n, "files:", exc.strerror)
"""
    out = run_python(code, QUICK)
    assert "No space left on device" in out.output, out.output
    assert int(out.output.split("full after")[1].split()[0]) <= QUICK.disk_mb // 8


def test_home_secrets_and_the_environment_stay_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SECRET-KEY-MATERIAL\n")
    real_key = str(Path.home() / ".ssh" / "id_rsa")  # the real user's, before HOME moves
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("REVIEWER_TEST_TOKEN", "TOKEN-VALUE")
    code = f"""
import os
for path in [os.path.expanduser("~/.ssh/id_rsa"), {str(home / '.ssh' / 'id_rsa')!r}, {real_key!r},
             "/etc/shadow", {str(Path(__file__).resolve())!r}]:
    try:
        print("READ", path, open(path).read()[:40])
    except OSError as exc:
        print("refused", path, exc.strerror)
print("ENV", sorted(os.environ))
print("TOKEN" in repr(os.environ))
"""
    live = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env={**os.environ})
    assert "SECRET-KEY-MATERIAL" in live.stdout and "True" in live.stdout  # the program does read them, unsandboxed
    out = run_python(code, QUICK)
    assert "SECRET-KEY-MATERIAL" not in out.output
    assert "TOKEN-VALUE" not in out.output and "REVIEWER_TEST_TOKEN" not in out.output
    assert refusals(out.output) == 5, out.output


def test_no_bwrap_on_path_means_no_sandbox(tmp_path: Path) -> None:
    with pytest.raises(SandboxUnavailable, match="package `bubblewrap`"):
        find_tool(str(tmp_path))


@pytest.mark.skipif(os.geteuid() != 0, reason="the task limit is exempt only for the real root")
def test_as_root_the_task_limit_needs_the_drop_to_nobody() -> None:
    tool = sandbox_tool()
    spawn = "for i in $(seq 30); do sleep 1 & done; wait; echo spawned-all"
    plain = subprocess.run([tool.prlimit, "--nproc=8", tool.bwrap, "--unshare-all", "--ro-bind", "/usr", "/usr",
                            "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64",
                            "/lib64", "--", "/bin/sh", "-c", spawn], check=False, capture_output=True, text=True, timeout=60)
    assert "spawned-all" in plain.stdout  # live: bubblewrap run as root ignores the limit
    code = "import subprocess\nprocs = []\ntry:\n    for i in range(30):\n        procs.append(subprocess.Popen(['sleep', '1']))\n    print('spawned-all')\nexcept OSError as exc:\n    print('refused after', len(procs), exc.strerror)\n"
    out = run_python(code, Limits(processes=8, wall_seconds=30))
    assert "refused after" in out.output and "spawned-all" not in out.output, out.output


def test_cancel_kills_the_sandbox_within_a_second() -> None:
    from rescorekit import sandbox_tool as tool_of

    from reviewer.rescore.layout import fresh_staging
    from reviewer.rescore.sandbox import Cancelled, run_sandboxed

    marker = f"cancel-{os.getpid()}-{time.monotonic_ns()}"
    deadline = time.monotonic() + 1.0
    started = time.monotonic()
    with fresh_staging() as staging, pytest.raises(Cancelled):
        run_sandboxed(tool_of(), staging, ["/bin/sh", "-c", f"sleep 300 # {marker}"], binds=[],
                      env={"PATH": "/usr/bin:/bin"}, limits=Limits(wall_seconds=300),
                      cancel=lambda: time.monotonic() > deadline)
    assert time.monotonic() - started < 3
    time.sleep(0.3)
    assert processes_with(marker) == []
