"""Reading an Inspect AI log (``.eval`` archive or ``.json``) into a header and its samples, one at a time.

An ``.eval`` is a ZIP with ``header.json`` (or, for a log still being written, only
``_journal/start.json``), ``summaries.json``, ``reductions.json`` and one
``samples/<id>_epoch_<n>.json`` per sample epoch; a ``.json`` log holds the same keys with
``samples`` inline. Samples are read one at a time, in a fixed order (sample id, then epoch),
so the same log always yields the same runs, and each within a budget
(:data:`SAMPLE_CAPS`: at most 5,000 messages and 10,000 events kept, a sample past a
million values or 96 MiB walked rather than parsed whole, see
:mod:`reviewer.store.logs.boundedjson`); what was left out comes back as notes. The
``inspect_ai`` package is not used.

An ``.eval`` is read from the open file, entry by entry. A worker process reading samples of
the same log opens it again by path and checks it is the same file (device and inode).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.boundedjson import (
    Caps,
    item_spans,
    member_spans,
    read_object,
    read_value,
)
from reviewer.store.logs.evalzip import EvalZip
from reviewer.store.logs.ids import as_text
from reviewer.store.logs.sources import SOURCE_CAP, open_regular, parse_json, read_fd
from reviewer.store.logs.spec import ImportFailed, NotFormat

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
SAMPLE_ENTRY = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")
MAX_MESSAGES = 5_000
MAX_EVENTS = 10_000
SAMPLE_CAPS = Caps(members={"messages": MAX_MESSAGES, "message_pool": MAX_MESSAGES, "events": MAX_EVENTS})
HEADER_CAPS = Caps(fast_values=200_000, fast_bytes=16 << 20, values=200_000, bytes=16 << 20)


def natural(value: str) -> tuple[Any, ...]:
    """A sort key that puts ``2`` before ``10``."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", value) if p)


def sample_order(sample_id: object, epoch: object) -> tuple[Any, ...]:
    """Order of samples in a log: by id (naturally), then epoch."""
    try:
        n = int(epoch)  # type: ignore[call-overload]  # anything a log holds; refused below
    except (TypeError, ValueError):
        n = 0
    return (natural(as_text(sample_id)), n)


@record(frozen=False, slots=False)
class InspectLog:
    """A log's header and where its samples are.

    Attributes:
        source: the file name, as the user gave it.
        header: ``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats`` ...
        entries: the sample entries of an ``.eval``, in order (read with :meth:`read_entry`).
        inline: samples already in memory (a ``.json`` log: their spans; summaries: the dicts).
        identity: (device, inode) of the file, to check a worker opened the same one.
    """

    source: str
    path: str
    header: dict[str, Any]
    entries: list[str] = field(default_factory=list)
    inline: list[Any] = field(default_factory=list)
    data: bytes = b""
    archive: EvalZip | None = None
    identity: tuple[int, int] = (0, 0)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """How many sample epochs the log holds."""
        return len(self.entries) or len(self.inline)

    def close(self) -> None:
        """Close the archive file."""
        if self.archive is not None:
            self.archive.file.close()

    def read_entry(self, name: str) -> tuple[dict[str, Any], list[str], bool]:
        """One sample entry of an ``.eval``, within :data:`SAMPLE_CAPS`; (sample, notes, attachments resolved)."""
        assert self.archive is not None
        return read_sample(self.archive.read(name), name)

    def read_inline(self, item: Any) -> tuple[dict[str, Any], list[str], bool]:
        """One sample of a ``.json`` log (its span) or of the summaries (the dict)."""
        if isinstance(item, dict):
            return item, [], False
        start, end = item
        return read_sample(memoryview(self.data)[start:end].tobytes(), f"sample at byte {start:,}")


REF_TOKEN = re.compile(rb'(?<=[:\[,\s])"(?:attachment|tc)://([A-Za-z0-9_-]{1,200})"(?=\s*[,\]}])')


def read_sample(data: bytes | bytearray, what: str) -> tuple[dict[str, Any], list[str], bool]:
    """A sample within :data:`SAMPLE_CAPS`, its attachment references replaced when that is cheap.

    Inspect stores long strings once in ``attachments`` and writes ``"attachment://<hash>"``
    in their place. For a sample read whole, every such string token in the JSON text is
    replaced by the attachment (JSON-encoded) and the text parsed again: two parses in C
    instead of a Python walk over every value. Returns (sample, notes, resolved).
    """
    sample, notes = read_object(data, what, SAMPLE_CAPS)
    attachments = sample.get("attachments")
    if notes or not isinstance(attachments, dict) or not attachments or REF_TOKEN.search(data) is None:
        return sample, notes, False

    def value(m: re.Match[bytes]) -> bytes:
        key = m.group(1).decode("ascii")
        return json.dumps(attachments[key], ensure_ascii=False).encode("utf-8", "surrogatepass") if key in attachments else m.group(0)

    resolved, _ = read_object(REF_TOKEN.sub(value, data), what, SAMPLE_CAPS)
    for key, cap in SAMPLE_CAPS.members.items():
        if isinstance(sample.get(key), list):
            resolved[key] = resolved[key][:cap]
    return resolved, notes, True


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
    """Open a log and read its header; NotFormat when the file is not an Inspect log."""
    fd = open_regular(path)
    st = os.fstat(fd)
    magic = os.pread(fd, 4, 0)
    if magic in ZIP_MAGIC:
        file = os.fdopen(fd, "rb")
        try:
            log = read_eval_zip(path, EvalZip(file))
        except BaseException:
            file.close()  # a refused archive keeps no file open
            raise
        log.identity = (st.st_dev, st.st_ino)
        return log
    data = read_fd(fd, path, SOURCE_CAP)
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped.startswith(b"{"):
        raise NotFormat("neither an .eval ZIP archive nor a JSON log")
    return read_json_log(path, data)


def reopen(path: str, identity: tuple[int, int]) -> InspectLog:
    """The same ``.eval`` opened again (in a worker); ImportFailed when the file was replaced meanwhile."""
    log = read_inspect_log(Path(path))
    if log.identity != identity:
        log.close()
        raise ImportFailed(f"{path}: the file was replaced while it was being imported")
    return log


def read_json_log(path: Path, data: bytes) -> InspectLog:
    """A ``.json`` log: the header members read within a budget, the samples located, each read later."""
    spans = member_spans(data, "the JSON log")
    header: dict[str, Any] = {}
    for name, (start, _end) in spans.items():
        if name not in ("samples", "reductions"):
            header[name], _ = read_value(data, start, name, HEADER_CAPS)
    require_header(header, "the JSON log")
    items: list[tuple[int, int]] = []
    if "samples" in spans:
        start, end = spans["samples"]
        if data[start : start + 1] == b"[":
            items = item_spans(data, start, "samples")
        elif data[start:end] != b"null":
            raise NotFormat("`samples` is not a list")
    log = InspectLog(path.name, str(path), header, data=data)
    keyed = []
    for span in items:
        if data[span[0] : span[0] + 1] != b"{":
            continue
        sample, _notes, _resolved = log.read_inline(span)
        keyed.append((sample_order(sample.get("id"), sample.get("epoch")), span))
    keyed.sort()
    log.inline = [span for _key, span in keyed]
    return log


def read_eval_zip(path: Path, archive: EvalZip) -> InspectLog:
    """An ``.eval`` archive: the header entry, then the names of its sample entries in order."""
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
    log = InspectLog(path.name, str(path), header, entries=[name for _order, name in entries], archive=archive)
    if not entries and "summaries.json" in names:
        found = parse_json(archive.read("summaries.json"), "summaries.json")
        found = sorted((s for s in found if isinstance(s, dict)), key=lambda s: sample_order(s.get("id"), s.get("epoch"))) if isinstance(found, list) else []
        log.inline = found
        log.notes.append("the log holds no sample entries; runs come from summaries.json (no transcript)")
    return log
