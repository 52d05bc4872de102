"""Reading Inspect ``.eval`` archives: ZIP files whose entries are deflated or zstd-compressed.

Inspect writes entries with ZIP method 93 (zstd) since v0.3.206; Python's ``zipfile`` refuses
that method before 3.14, so those entries are read by hand: the central directory (read by
``zipfile``) gives each entry's offset and compressed size, the local file header gives where
its data starts, and the ``zstandard`` package decompresses it. Every entry is checked against
its CRC-32. Zip bombs are refused: an entry count cap, a cap per entry and a cap on everything
decompressed from one archive (per process: entries are read one at a time and dropped, so
this bounds time, not memory), enforced while decompressing (declared sizes may lie). An entry
read again (a session reading its log in place reads a sample each time it is looked at) is
charged once: the archive cap bounds the distinct bytes it holds, the entry cap every read. The
archive is read from an open file, entry by entry; nothing but the entry being read is held.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import BinaryIO

import zstandard

from reviewer.store.logs.spec import NotFormat

ZSTD = 93
MAX_ENTRIES = 100_000
ENTRY_CAP = 256 << 20
TOTAL_CAP = 2 << 30
LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")


class ArchiveTooLarge(NotFormat):
    """An archive whose entries decompress past the caps."""


class EvalZip:
    """An ``.eval`` archive (bytes, or a file open for reading); entries are read one at a time, under the caps."""

    def __init__(self, data: bytes | BinaryIO, total_cap: int = TOTAL_CAP, entry_cap: int = ENTRY_CAP) -> None:
        self.file: BinaryIO = io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data
        self.total_cap = total_cap
        self.entry_cap = entry_cap
        self.used = 0
        self.charged: set[str] = set()
        """Entries whose bytes count in :attr:`used` already."""
        self.dctx = zstandard.ZstdDecompressor()
        try:
            self.zip = zipfile.ZipFile(self.file)
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
            raise NotFormat(f"not a ZIP archive: {exc}") from None
        if len(infos) > MAX_ENTRIES:
            raise ArchiveTooLarge(f"the archive has {len(infos):,} entries, more than {MAX_ENTRIES:,}")
        self.infos = {i.filename: i for i in infos if not i.is_dir()}

    def names(self) -> list[str]:
        """Entry names, in archive order."""
        return list(self.infos)

    def read(self, name: str) -> bytes | bytearray:
        """One entry's bytes; NotFormat when it is damaged, encrypted or too large."""
        info = self.infos[name]
        if info.flag_bits & 0x1:
            raise NotFormat(f"entry {name} is encrypted")
        budget = self.entry_cap if name in self.charged else min(self.entry_cap, self.total_cap - self.used)
        data: bytes | bytearray
        if info.compress_type == ZSTD:
            data = self.read_zstd(info, budget)
        else:
            data = self.read_zipfile(info, budget)
        if zlib.crc32(data) & 0xFFFFFFFF != info.CRC:
            raise NotFormat(f"entry {name} is damaged (CRC mismatch)")
        if name not in self.charged:
            self.charged.add(name)
            self.used += len(data)
        return data

    def too_large(self, name: str) -> ArchiveTooLarge:
        """The error for an entry past the caps."""
        return ArchiveTooLarge(
            f"entry {name} decompresses past the cap ({self.entry_cap >> 20} MiB per entry, "
            f"{self.total_cap >> 20} MiB per archive): refused as a possible zip bomb"
        )

    def read_zipfile(self, info: zipfile.ZipInfo, budget: int) -> bytes:
        """A stored or deflated entry, read through zipfile in chunks up to the budget."""
        try:
            with self.zip.open(info) as fh:
                data = fh.read(budget + 1)
        except NotImplementedError as exc:
            raise NotFormat(f"entry {info.filename} uses an unsupported compression: {exc}") from None
        except (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError) as exc:
            raise NotFormat(f"entry {info.filename} is damaged: {exc}") from None
        if len(data) > budget:
            raise self.too_large(info.filename)
        return data

    def read_zstd(self, info: zipfile.ZipInfo, budget: int) -> bytes | bytearray:
        """A zstd entry (method 93): locate its data by the local header and decompress it."""
        offset = info.header_offset
        self.file.seek(offset)
        header = self.file.read(LOCAL_HEADER.size)
        if len(header) < LOCAL_HEADER.size:
            raise NotFormat(f"entry {info.filename}: local header is cut short")
        sig, _v, _f, method, _t, _d, _crc, _cs, _us, name_len, extra_len = LOCAL_HEADER.unpack(header)
        if sig != b"PK\x03\x04" or method != ZSTD:
            raise NotFormat(f"entry {info.filename}: local header does not match the central directory")
        self.file.seek(offset + LOCAL_HEADER.size + name_len + extra_len)
        payload = self.file.read(info.compress_size)
        if len(payload) < info.compress_size:
            raise NotFormat(f"entry {info.filename}: compressed data is cut short")
        try:
            size = zstandard.frame_content_size(payload)
        except zstandard.ZstdError:
            size = -1
        if 0 <= size == info.file_size <= budget:
            try:
                whole = self.dctx.decompress(payload)
            except zstandard.ZstdError:
                whole = b""  # read again as a stream below, which says what is wrong
            if len(whole) == size:
                return whole  # a frame of the declared size, decompressed at once; the CRC is checked next
        out = bytearray()
        try:
            with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(payload), read_across_frames=True) as reader:
                want = min(budget + 1, max(info.file_size + 1, 1 << 12), 8 << 20)  # small entries: one read
                while len(out) <= budget:
                    chunk = reader.read(want)
                    want = 1 << 20
                    if not chunk:
                        break
                    out += chunk
        except zstandard.ZstdError as exc:
            raise NotFormat(f"entry {info.filename}: zstd data is damaged: {exc}") from None
        if len(out) > budget:
            raise self.too_large(info.filename)
        return out
