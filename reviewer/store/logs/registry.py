"""The formats whose logs a session reads where they lie: registered by name, found by file name.

Each format module defines its :class:`~.spec.LogFormat` (``IN_PLACE``); this module registers
the built-in ones. Any format whose reader yields runs one at a time plugs in by registering its
own :class:`~.spec.LogFormat` (see :mod:`.spec` for what ``open`` must give)::

    register(LogFormat("harbor-x", "Harbor", "folder", (".x.json",), open_x))

A registered format is then readable in place everywhere: a session's ``[log] format``,
``reviewer LOG`` on one of its files or folders, ``reviewer check``.
"""

from __future__ import annotations

from pathlib import Path

from reviewer.store.logs import atif, inspect_ai, mini_swe, swe_agent
from reviewer.store.logs.sources import walk
from reviewer.store.logs.spec import LogFormat

FORMATS: dict[str, LogFormat] = {f.name: f for f in (inspect_ai.IN_PLACE, mini_swe.IN_PLACE, swe_agent.IN_PLACE,
                                                     atif.IN_PLACE)}
"""The registered formats, by name, in the order they were registered."""


def register(log_format: LogFormat) -> None:
    """Make a format readable in place (a later registration of a name replaces the earlier one)."""
    FORMATS[log_format.name] = log_format


def by_name(name: str) -> LogFormat | None:
    """The registered format of that name."""
    return FORMATS.get(name)


def claiming(name: str) -> LogFormat | None:
    """The format that claims a file name, a log file's or a file a folder format holds (the longest
    suffix wins: ``.traj.json`` is mini-swe-agent's, not an Inspect ``.json`` log; a format that
    detects its folders claims no file by name)."""
    best: tuple[int, LogFormat] | None = None
    for f in FORMATS.values():
        if f.detect is not None:
            continue
        for suffix in f.suffixes:
            if name.endswith(suffix) and (best is None or len(suffix) > best[0]):
                best = (len(suffix), f)
    return best[1] if best else None


def folder_format(path: Path) -> LogFormat | None:
    """The folder format whose files a folder holds (searched :data:`~.sources.FOLDER_DEPTH` deep, no link
    followed, hidden entries skipped); None when none, or when files of two formats are there."""
    found = {f.name for rel in walk(path, lambda name: held_by_folder(name) is not None, 64)
             if (f := held_by_folder(rel.rpartition("/")[2])) is not None}
    if len(found) == 1:
        return FORMATS[found.pop()]
    if found:
        return None
    detected = [f for f in FORMATS.values() if f.kind == "folder" and f.detect is not None and f.detect(path)]
    return detected[0] if len(detected) == 1 else None


def held_by_folder(name: str) -> LogFormat | None:
    """The folder format a file of this name belongs to (by name alone: not a format that detects its folders)."""
    found = claiming(name)
    return found if found is not None and found.kind == "folder" and found.detect is None else None


def names() -> list[str]:
    """The registered formats' names."""
    return list(FORMATS)
