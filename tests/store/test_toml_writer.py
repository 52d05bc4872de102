"""The project's one TOML writer gives the bytes of tomli_w, on any document this project can write."""

from __future__ import annotations

import math
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.model.label import Label, Note, Verdict
from reviewer.store.fs.tomlfile import dumps
from reviewer.store.labels import run_file_bytes
from reviewer.store.labels.format import label_table, note_table, parse

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30) | st.sampled_from(
    ["a\nb", "x\r\ny", '"""', 'q"\n', "\x7f\n\x00", "é\n\\", "tab\there", "", "[[label]]", "k = 1", "#"])
KEYS = TEXT | st.sampled_from(["check", "run", "a-b_c", "settled", "label", "note"])
FLOATS = st.floats(allow_nan=False)
SCALARS = st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | FLOATS | TEXT
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=25)
TABLES = st.dictionaries(KEYS, VALUES, max_size=5)
DOCS = st.dictionaries(KEYS, VALUES | st.lists(TABLES, min_size=1, max_size=4), max_size=6)


@settings(max_examples=500, deadline=None)
@given(DOCS, st.booleans())
def test_dumps_is_tomli_w_byte_for_byte(doc: dict[str, Any], multiline: bool) -> None:
    assert dumps(doc, multiline) == tomli_w.dumps(doc, multiline_strings=multiline)


def test_dumps_on_the_shapes_of_every_file_the_project_writes() -> None:
    wide = {"check": "c" * 120, "note": "n"}
    short = {"a": 1, "b": [1, 2], "c": {"d": "e"}}
    for doc in ({"format": 2, "label": [wide, wide], "note": [short, short]}, {"label": []}, {"t": {"u": {"v": []}}},
                {"tags": ["a", "b"], "x": [[1, [2]], []]}, {"f": [math.inf, -math.inf, 1e300, -0.0, 0.1]},
                {"aot": [{"sub": {"deep": [{"k": "v"}]}}]}, {"": "", "a b": {"": 1}}):
        for multiline in (False, True):
            assert dumps(doc, multiline) == tomli_w.dumps(doc, multiline_strings=multiline)


def test_what_dumps_cannot_write_is_a_type_error_as_in_tomli_w() -> None:
    import datetime as dt

    for value in (None, dt.date(2026, 1, 1), object()):
        with pytest.raises(TypeError):
            dumps({"x": value})


label_rows = st.lists(st.tuples(TEXT, st.sampled_from(list(Verdict)), TEXT, TEXT, st.lists(TEXT, max_size=2), TEXT,
                                TEXT, st.lists(st.tuples(TEXT, st.sampled_from(list(Verdict))), max_size=2)),
                      max_size=5)
note_rows = st.lists(st.tuples(TEXT, TEXT, TEXT, st.lists(TEXT, max_size=2), TEXT), max_size=3)


@settings(max_examples=200, deadline=None)
@given(label_rows, note_rows, TEXT.filter(bool), TEXT.filter(bool))
def test_a_run_file_is_tomli_ws_bytes_and_reads_back_the_same(rows: list[Any], notes: list[Any], reviewer: str,
                                                              run: str) -> None:
    labels = [Label("s", run, c or "c", v, reviewer, at, ev, tuple(tags), n, adj, tuple(sorted(dict(settled).items())))
              for c, v, at, ev, tags, n, adj, settled in rows]
    entries = [Note("s", run, c or "c", reviewer, at, n, tuple(tags), ev) for c, at, n, tags, ev in notes]
    data = run_file_bytes("s", reviewer, run, labels, entries)
    ordered = sorted(labels, key=lambda lab: (lab.check, lab.labelled_at, lab.verdict.value, lab.note, lab.evidence))
    doc: dict[str, Any] = {"format": 2, "reviewer": reviewer, "run": run, "session": "s"}
    if labels:
        doc["label"] = [label_table(lab) for lab in ordered]
    if entries:
        doc["note"] = [note_table(n) for n in sorted(entries, key=lambda n: (n.check, n.noted_at))]
    assert data == tomli_w.dumps(doc).encode()
    back = parse(data, "s", "?")
    assert sorted(back.labels, key=repr) == sorted(map(replace_tags, labels), key=repr)
    assert back.damage == () and len(back.notes) == len(entries)


def replace_tags(lab: Label) -> Label:
    """A label as it reads back: its tags sorted (files keep them sorted)."""
    from dataclasses import replace

    return replace(lab, tags=tuple(sorted(lab.tags)))
