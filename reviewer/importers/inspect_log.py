"""Reading an Inspect AI log (``.eval`` archive or ``.json``) into a header and its samples.

An ``.eval`` is a ZIP with ``header.json`` (or, for a log still being written, only
``_journal/start.json``), ``summaries.json``, ``reductions.json`` and one
``samples/<id>_epoch_<n>.json`` per sample epoch; a ``.json`` log holds the same keys with
``samples`` inline. Samples are read one at a time, in a fixed order (sample id, then epoch),
so the same log always yields the same runs. The ``inspect_ai`` package is not used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from reviewer.importers.evalzip import EvalZip
from reviewer.importers.ids import as_text
from reviewer.importers.sources import parse_json, read_source
from reviewer.importers.spec import NotFormat

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
SAMPLE_ENTRY = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")


def natural(value: str) -> tuple[Any, ...]:
    """A sort key that puts ``2`` before ``10``."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", value) if p)


def sample_order(sample_id: object, epoch: object) -> tuple[Any, ...]:
    """Order of samples in a log: by id (naturally), then epoch."""
    try:
        n = int(epoch)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        n = 0
    return (natural(as_text(sample_id)), n)


@dataclass
class InspectLog:
    """A log's header and a way to read its samples in order.

    Attributes:
        source: the file name, as the user gave it.
        header: ``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats`` ...
        count: how many sample epochs the log holds.
        samples: call to iterate over the samples (each a dict), in order.
        reductions: ``reductions.json`` (per-sample reduced scores), when present.
    """

    source: str
    header: dict[str, Any]
    count: int
    samples: Callable[[], Iterator[dict[str, Any]]]
    reductions: Any = None
    notes: list[str] = field(default_factory=list)


def require_header(doc: Any, where: str) -> dict[str, Any]:
    """The header, which must be an object with an ``eval`` object naming a task."""
    if not isinstance(doc, dict):
        raise NotFormat(f"{where} is not a JSON object")
    ev = doc.get("eval")
    if not isinstance(ev, dict):
        raise NotFormat(f"{where} has no `eval` object")
    if not isinstance(ev.get("task"), str):
        raise NotFormat(f"{where} names no task (`eval.task`)")
    return doc


def read_inspect_log(path: Path) -> InspectLog:
    """Read a log; NotFormat when the file is not an Inspect log."""
    data = read_source(path)
    if data[:4] in ZIP_MAGIC:
        return read_eval_zip(path, data)
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped.startswith(b"{"):
        raise NotFormat("neither an .eval ZIP archive nor a JSON log")
    return read_json_log(path, data)


def read_json_log(path: Path, data: bytes) -> InspectLog:
    """A ``.json`` log: one document with the samples inline."""
    doc = require_header(parse_json(data, "the log"), "the JSON log")
    samples = doc.get("samples") or []
    if not isinstance(samples, list):
        raise NotFormat("`samples` is not a list")
    found = sorted((s for s in samples if isinstance(s, dict)), key=lambda s: sample_order(s.get("id"), s.get("epoch")))
    header = {k: v for k, v in doc.items() if k not in ("samples", "reductions")}
    return InspectLog(path.name, header, len(found), lambda: iter(found), doc.get("reductions"))


def read_eval_zip(path: Path, data: bytes) -> InspectLog:
    """An ``.eval`` archive: the header entry, then one entry per sample epoch."""
    archive = EvalZip(data)
    names = archive.names()
    if "header.json" in names:
        header = require_header(parse_json(archive.read("header.json"), "header.json"), "header.json")
    elif "_journal/start.json" in names:
        header = require_header(parse_json(archive.read("_journal/start.json"), "_journal/start.json"), "_journal/start.json")
        header.setdefault("status", "started")
    else:
        raise NotFormat("a ZIP archive without header.json or _journal/start.json")
    entries = []
    for name in names:
        m = SAMPLE_ENTRY.match(name)
        if m:
            entries.append((sample_order(m.group("id"), m.group("epoch")), name))
    entries.sort()
    if not entries and "summaries.json" in names:
        return summaries_log(path, archive, header)
    reductions = None
    if "reductions.json" in names:
        try:
            reductions = parse_json(archive.read("reductions.json"), "reductions.json")
        except NotFormat:
            reductions = None

    def samples() -> Iterator[dict[str, Any]]:
        """Each sample entry, parsed, in order."""
        for _order, name in entries:
            sample = parse_json(archive.read(name), name)
            if not isinstance(sample, dict):
                raise NotFormat(f"{name} is not a JSON object")
            yield sample

    return InspectLog(path.name, header, len(entries), samples, reductions)


def summaries_log(path: Path, archive: EvalZip, header: dict[str, Any]) -> InspectLog:
    """A log written without sample entries: its summaries (id, epoch, input, scores) are the samples."""
    found = parse_json(archive.read("summaries.json"), "summaries.json")
    found = sorted((s for s in found if isinstance(s, dict)), key=lambda s: sample_order(s.get("id"), s.get("epoch"))) if isinstance(found, list) else []
    log = InspectLog(path.name, header, len(found), lambda: iter(found))
    log.notes.append("the log holds no sample entries; runs come from summaries.json (no transcript)")
    return log
