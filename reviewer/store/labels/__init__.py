"""Labels on disk: one small TOML file per run and reviewer, read in either format, written in one.

- :mod:`~reviewer.store.labels.layout`: where files live (format 2, and format 1 read).
- :mod:`~reviewer.store.labels.format`: a file's bytes and back.
- :mod:`~reviewer.store.labels.legacy`: format 1 and its journal, read.
- :mod:`~reviewer.store.labels.reading`: any reviewer's files read, merged, their problems.
- :mod:`~reviewer.store.labels.store`: one reviewer's own labels, every decision saved at once.
- :mod:`~reviewer.store.labels.labeller`: decide, clear, annotate, undo.
- :mod:`~reviewer.store.labels.adjudication`, :mod:`~reviewer.store.labels.final`: final verdicts.

The format is documented for harness authors in ``sessions/README.md`` (Labels).
"""

from __future__ import annotations

from reviewer.store.labels.format import FORMAT, Entry, Key, label_from_table, label_table, run_file_bytes
from reviewer.store.labels.format import parse as parse_labels
from reviewer.store.labels.labeller import Labeller, LabelState, SaveFailed, utc_now
from reviewer.store.labels.layout import ADJUDICATED, ADJUDICATED_FILE, FINAL, LABELS_DIR, label_dirs, run_file_name
from reviewer.store.labels.reading import (
    FILE_CAP,
    FORGET,
    READ_BUDGET,
    LabelFile,
    ReviewerLabels,
    clear_cache,
    problems,
    read_all_labels,
    read_file,
)
from reviewer.store.labels.store import LabelStore, LabelsUnsafe
from reviewer.store.sessions.lookup import UnknownFailure

__all__ = [
    "ADJUDICATED",
    "ADJUDICATED_FILE",
    "FILE_CAP",
    "FINAL",
    "FORGET",
    "FORMAT",
    "LABELS_DIR",
    "READ_BUDGET",
    "Entry",
    "Key",
    "LabelFile",
    "LabelState",
    "LabelStore",
    "Labeller",
    "LabelsUnsafe",
    "ReviewerLabels",
    "SaveFailed",
    "UnknownFailure",
    "clear_cache",
    "label_dirs",
    "label_from_table",
    "label_table",
    "parse_labels",
    "problems",
    "read_all_labels",
    "read_file",
    "run_file_bytes",
    "run_file_name",
    "utc_now",
]
