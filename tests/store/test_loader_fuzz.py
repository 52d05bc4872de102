"""Property-based fuzzing of the loader: any bytes in any manifest, never a crash."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sessionkit import small_folder

from reviewer.store.check import validate
from reviewer.store.sessions.store import SessionStore

MANIFESTS = ["s1/session.toml", "s1/runs/r1/run.toml", "s2/runs/r3/run.toml", "s2/runs/r3/transcript.toml"]

mutation = st.one_of(
    st.binary(max_size=400).map(lambda b: ("replace", b)),
    st.integers(min_value=0, max_value=600).map(lambda n: ("truncate", n)),
    st.tuples(st.integers(0, 600), st.binary(min_size=1, max_size=20)).map(lambda t: ("insert", t)),
    st.text(max_size=300).map(lambda s: ("replace", s.encode("utf-8", "surrogatepass"))),
)


def mutate(data: bytes, how: tuple[str, object]) -> bytes:
    kind, arg = how
    if kind == "replace":
        return arg  # type: ignore[return-value]
    if kind == "truncate":
        return data[: int(arg)]  # type: ignore[arg-type]
    pos, chunk = arg  # type: ignore[misc]
    return data[:pos] + chunk + data[pos:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.sampled_from(MANIFESTS), how=mutation)
def test_any_damage_to_a_manifest_never_crashes(target: str, how: tuple[str, object]) -> None:
    base = Path(tempfile.mkdtemp())
    try:
        root = small_folder(base / "sessions")
        path = root / target
        path.write_bytes(mutate(path.read_bytes(), how))
        store = SessionStore(root)
        corpus = store.scan()
        for run in corpus.runs:
            store.failures(run)
            store.transcript(run)
        problems = validate(SessionStore(root))
        untouched = {"s1/r2", "s2/r4"}
        assert untouched <= {r.key for r in corpus.runs}
        assert all(isinstance(p.reason, str) and p.reason for p in problems)
    finally:
        shutil.rmtree(base, ignore_errors=True)
