"""Writing run folders into an import's build folder: few system calls, several cores for large batches.

Every path is relative to a descriptor of the build folder's ``runs/`` (opened ``O_NOFOLLOW``
by the writer). A run folder is made with one ``mkdir`` per folder it needs and one
``open``/``write``/``close`` per file (``O_CREAT | O_EXCL | O_NOFOLLOW``: nothing existing is
written through); the folders were created a moment before by this import, inside a build
folder with a random name, so nothing can stand between. Durability comes from one
``syncfs`` of the build folder's file system before it is renamed into place.

Large batches are read, laid out and written by worker processes (one per core): each
worker writes its runs into numbered folders (``.w<n>``) and returns a small
:class:`Made` per run; the parent hands out the run ids in source order and renames each
folder once, so the output is the same bytes whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
import os
import posixpath
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import field
from types import TracebackType
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.layout import Files, run_files
from reviewer.store.logs.spec import ImportFailed, Job, RunSpec, UnitFunc

WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
PARALLEL_FROM = 200
CHUNK = 32
THREADS = 4
IN_FLIGHT = 64


@record(frozen=False, slots=False)
class Made:
    """What the writer keeps of one written run (everything else is on disk)."""

    id: str
    source: str
    model: str
    task: str
    warnings: list[str] = field(default_factory=list)
    harness_version: str = ""


def safe_rel(rel: str) -> str:
    """``rel`` when it stays inside the folder it is joined to; ImportFailed otherwise."""
    norm = posixpath.normpath(rel)
    if norm != rel or norm.startswith(("../", "/")) or norm in ("..", ".") or "\x00" in norm:
        raise ImportFailed(f"refusing to write {rel!r}: it would leave the session folder")
    return norm


def write_bytes(dir_fd: int, rel: str, data: bytes) -> None:
    """Create one new file ``rel`` below ``dir_fd`` and write ``data`` (open, write, close)."""
    fd = os.open(rel, WRITE_FLAGS, 0o644, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_tree(dir_fd: int, base: str, files: Files) -> None:
    """Make the folder ``base`` below ``dir_fd`` holding ``files`` (relative path -> bytes)."""
    os.mkdir(base, 0o777, dir_fd=dir_fd)
    made = {""}
    for rel in files:
        path = safe_rel(rel)
        parent = path.rpartition("/")[0]
        if parent not in made:
            parts = parent.split("/")
            for i in range(1, len(parts) + 1):
                folder = "/".join(parts[:i])
                if folder not in made:
                    os.mkdir(f"{base}/{folder}", 0o777, dir_fd=dir_fd)
                    made.add(folder)
        write_bytes(dir_fd, f"{base}/{path}", files[rel])


class TreeWriter:
    """Writes run folders on a pool of threads, at most IN_FLIGHT runs behind the caller.

    Creating a file or folder on a busy disk often waits (for the journal, for other
    processes' syncs), so writing is handed to a few threads while the caller lays out the
    next run; on an idle disk they overlap the waits, on a CPU-bound machine they cost little
    more than writing in line. Errors come back from :meth:`submit` or :meth:`drain`; nothing
    is lost silently.
    """

    def __init__(self, threads: int | None = None) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads or THREADS, thread_name_prefix="import-write")
        self.pending: deque[Future[None]] = deque()

    def submit(self, dir_fd: int, base: str, files: Files) -> None:
        """Queue :func:`write_tree` of one run (waits when too many are queued)."""
        self.pending.append(self.pool.submit(write_tree, dir_fd, base, files))
        while len(self.pending) > IN_FLIGHT:
            self.pending.popleft().result()

    def drain(self) -> None:
        """Wait until everything queued is written; the first failure is raised."""
        while self.pending:
            self.pending.popleft().result()

    def __enter__(self) -> TreeWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        try:
            if kind is None:
                self.drain()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)


def made_of(run: RunSpec, run_id: str) -> Made:
    """The record of a written run."""
    return Made(run_id, run.source, run.model, run.task, list(run.warnings), run.harness_version)


def write_run(runs_fd: int, folder: str, run: RunSpec, writer: TreeWriter | None = None) -> Made:
    """Lay out and write one run into ``runs/<folder>`` (queued on ``writer`` when given); its record names it ``folder``."""
    files = run_files(run)
    if writer is None:
        write_tree(runs_fd, folder, files)
    else:
        writer.submit(runs_fd, folder, files)
    return made_of(run, folder)


def work_chunk(make: UnitFunc, context: Any, units: list[Any], runs_path: str, first: int) -> list[Made]:
    """In a worker: read, lay out and write ``units`` as ``runs/.w<first+i>``."""
    fd = os.open(runs_path, DIR_FLAGS)
    try:
        out = []
        with TreeWriter() as writer:
            for i, unit in enumerate(units):
                run = make(context, unit)
                made = write_run(fd, f".w{first + i}", run, writer)
                made.id = run.id  # the wanted id: the parent hands out the final one
                out.append(made)
        return out
    finally:
        os.close(fd)


def cores() -> int:
    """How many cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(units: int, wanted: int | None) -> int:
    """Worker processes for a job of ``units`` runs (0: do it in this process)."""
    n = cores() if wanted is None else wanted
    if n <= 1 or units < PARALLEL_FROM and wanted is None:
        return 0
    return min(n, 16, max(1, units // CHUNK))


def pool_context() -> Any:
    """``fork`` where there is one (workers start at once, with the modules loaded), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def parallel(job: Job, runs_fd: int, runs_path: str, workers: int) -> Iterator[tuple[str, Made]]:
    """Write a job's runs with ``workers`` processes; yields (numbered folder, record) in source order."""
    size = max(4, min(CHUNK, len(job.units) // (workers * 4) or 1))
    chunks = [(i, job.units[i : i + size]) for i in range(0, len(job.units), size)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=pool_context()) as pool:
        futures = [pool.submit(work_chunk, job.make, job.context, units, runs_path, first) for first, units in chunks]
        try:
            for (first, _units), future in zip(chunks, futures):
                for i, made in enumerate(future.result()):
                    yield f".w{first + i}", made
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def write_job(job: Job, runs_fd: int, runs_path: str, claim: Callable[[str], str], workers: int | None, writer: TreeWriter) -> Iterator[Made]:
    """Every run of ``job`` written under its final id (claimed in source order); yields each record.

    Runs written in this process are queued on ``writer``: they are on disk once it is drained.
    """
    n = 0 if job.local else workers_for(len(job.units), workers)
    if n == 0:
        for run in job.runs():
            yield write_run(runs_fd, claim(run.id), run, writer)
        return
    for folder, made in parallel(job, runs_fd, runs_path, n):
        made.id = claim(made.id)
        os.rename(folder, made.id, src_dir_fd=runs_fd, dst_dir_fd=runs_fd)
        yield made


def flush(dir_fd: int) -> None:
    """Make everything written below ``dir_fd`` durable: ``syncfs`` of its file system, else ``sync``."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.syncfs(dir_fd) == 0:
            return
    except (OSError, AttributeError):
        pass
    os.sync()
