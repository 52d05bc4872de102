"""The reviewer's own labels file: reading its TOML (shared parse, index cache) and its per-run index.

Helpers of :class:`reviewer.store.labelfile.LabelFile`, kept apart so that class stays about
keeping the file and the memory in step.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from reviewer.model.label import Label
from reviewer.store import labelread
from reviewer.store.index_files import stat_key
from reviewer.store.labelcodec import Key
from reviewer.store.tomlfile import BadToml

if TYPE_CHECKING:
    from reviewer.store.index import RunIndex

LABEL_FILE_CAP = 256 << 20


class LabelsUnsafe(Exception):
    """Saving would overwrite labels that could not be read; nothing was written."""


def now() -> str:
    """Now, RFC 3339 UTC to the second (the time of a removal in the journal)."""
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(slots=True)
class TomlRead:
    """A labels TOML as read: its labels (a dict of our own), an error text, its stat key and size."""

    labels: dict[Key, Label] = field(default_factory=dict)
    error: str = ""
    key: tuple[int, ...] | None = None
    size: int = 0


def read_own_toml(path: Path, session: str, reviewer: str, index: "RunIndex | None") -> TomlRead:
    """The reviewer's TOML file: from the shared parse when unchanged, else the index cache, else parsed.

    ``key`` is None when the file is absent; an error that leaves ``key`` None (cannot stat) keeps
    the caller's last key.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return TomlRead()
    except OSError as exc:
        return TomlRead(error=f"cannot read {path.name}: {exc.strerror or exc}")
    if not stat.S_ISREG(st.st_mode):
        return TomlRead(error=f"{path.name} is not a regular file; labels are not saved over it")
    key = stat_key(st)
    shared = labelread.cached_toml(path, key)
    if shared is not None and not shared.newer:
        return TomlRead(dict(shared.labels), "", key, st.st_size)
    cached = index.label_file(path, key, session) if index is not None else None
    if cached is not None and cached[0] == reviewer:
        return TomlRead({(lab.run, lab.check): lab for lab in cached[1]}, "", key, st.st_size)
    try:
        parsed = labelread.parse_toml(path, key, session, path.stem, LABEL_FILE_CAP)
    except OSError as exc:
        return TomlRead({}, f"cannot read {path.name}: {exc.strerror or exc}", key, st.st_size)
    except (BadToml, ValueError) as exc:
        return TomlRead({}, f"{path.name} {exc}; it is not overwritten until it is repaired", key, st.st_size)
    if parsed.newer:
        return TomlRead(dict(parsed.labels), f"{path.name} was written by a newer reviewer; read only", key, st.st_size)
    if index is not None and st.st_size <= LABEL_FILE_CAP:
        index.remember_label_file(path, key, parsed.reviewer, tuple(parsed.labels.values()))
    return TomlRead(dict(parsed.labels), "", key, st.st_size)


def apply_changes(labels: dict[Key, Label], changes: list[tuple[Key, Label | None]]) -> None:
    """Set or remove each changed label in ``labels``."""
    for key, lab in changes:
        if lab is None:
            labels.pop(key, None)
        else:
            labels[key] = lab


def index_runs(labels: dict[Key, Label]) -> dict[str, set[str]]:
    """The checks labelled per run."""
    index: dict[str, set[str]] = {}
    for run, check in list(labels):
        index.setdefault(run, set()).add(check)
    return index


def touch(index: dict[str, set[str]], labels: dict[Key, Label], keys: Iterable[Key]) -> None:
    """Bring the per-run index up to date after ``labels`` changed at ``keys``."""
    for run, check in keys:
        if (run, check) in labels:
            index.setdefault(run, set()).add(check)
        else:
            index.get(run, set()).discard(check)


def labels_of_run(index: dict[str, set[str]], labels: dict[Key, Label], pending: list[tuple[Key, Label | None]],
                  run: str) -> dict[str, Label]:
    """One run's labels by check, the pending changes applied."""
    out = {c: labels[(run, c)] for c in index.get(run, ()) if (run, c) in labels}
    for (r, c), lab in pending:
        if r != run:
            continue
        if lab is None:
            out.pop(c, None)
        else:
            out[c] = lab
    return out
