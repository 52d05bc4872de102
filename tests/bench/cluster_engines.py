"""The two engines ``--cluster`` could run on, measured the same way: ``python
tests/bench/cluster_engines.py dask|ray [--tasks 200] [--json]``, in a venv that has the engine
(``pip install distributed`` or ``pip install ray``; reviewer itself is not needed).

For the engine given: ``import_s`` (its client imported), ``cluster_start_s`` (a local cluster of
two worker processes, one thread each), ``first_task_s``, ``tasks_s`` and ``per_task_ms`` (``--tasks``
tasks, each carrying 16 KiB of bytes and returning a short JSON text, as a re-score's grading
does), ``worker_processes`` (distinct worker processes that ran them), ``shutdown_s``, and
``pickle_runs_on_client``: whether a result that is a pickled object runs code on the client when
read. The object's ``__reduce__`` calls ``os.getpid`` when it is unpickled: the result equals the
client's own pid when the client unpickled it; false when the client refuses it. Dask's client is
built as ``reviewer.parallel.cluster`` builds it (``deserializers=["msgpack"]``); Ray's ``ray.get``
has no such setting.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from typing import Any

PAYLOAD = os.urandom(16 << 10)


def work(name: str, data: bytes) -> str:
    """A task's stand-in: reads its bytes, answers in JSON."""
    return json.dumps({"name": name, "sha": hashlib.sha256(data).hexdigest(), "pid": os.getpid()})


class Unpickles:
    """An object whose unpickling calls a function (here the harmless ``os.getpid``)."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (os.getpid, ())


def hostile() -> Unpickles:
    return Unpickles()


def measure_dask(tasks: int) -> dict[str, Any]:
    started = time.perf_counter()
    from distributed import Client, LocalCluster, as_completed

    figures: dict[str, Any] = {"import_s": time.perf_counter() - started}
    started = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster.scheduler_address, deserializers=["msgpack"])
    figures["cluster_start_s"] = time.perf_counter() - started
    started = time.perf_counter()
    client.submit(work, "warm", b"x", pure=False).result()
    figures["first_task_s"] = time.perf_counter() - started
    started = time.perf_counter()
    futures = [client.submit(work, f"t{i}", PAYLOAD, pure=False) for i in range(tasks)]
    out = [f.result() for f in as_completed(futures)]
    figures["tasks_s"] = time.perf_counter() - started
    figures["worker_processes"] = len({json.loads(o)["pid"] for o in out})
    try:
        figures["pickle_runs_on_client"] = client.submit(hostile, pure=False).result() == os.getpid()
    except TypeError:  # "only able to deserialize data with ['msgpack']"
        figures["pickle_runs_on_client"] = False
    started = time.perf_counter()
    client.close()
    cluster.close()
    figures["shutdown_s"] = time.perf_counter() - started
    return figures


def measure_ray(tasks: int) -> dict[str, Any]:
    started = time.perf_counter()
    import ray

    figures: dict[str, Any] = {"import_s": time.perf_counter() - started}
    started = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    figures["cluster_start_s"] = time.perf_counter() - started
    remote = ray.remote(num_cpus=1)(work)
    started = time.perf_counter()
    ray.get(remote.remote("warm", b"x"))
    figures["first_task_s"] = time.perf_counter() - started
    started = time.perf_counter()
    pending = [remote.remote(f"t{i}", PAYLOAD) for i in range(tasks)]
    out = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        out.append(ray.get(done[0]))
    figures["tasks_s"] = time.perf_counter() - started
    figures["worker_processes"] = len({json.loads(o)["pid"] for o in out})
    figures["pickle_runs_on_client"] = ray.get(ray.remote(hostile).remote()) == os.getpid()
    started = time.perf_counter()
    ray.shutdown()
    figures["shutdown_s"] = time.perf_counter() - started
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", choices=["dask", "ray"])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = (measure_dask if args.engine == "dask" else measure_ray)(args.tasks)
    out = {"engine": args.engine, "tasks": args.tasks, **{k: round(v, 3) if isinstance(v, float) else v
                                                          for k, v in figures.items()}}
    out["per_task_ms"] = round(1000 * figures["tasks_s"] / args.tasks, 2)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:<24}{value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
