"""Repairs as data (the KIND:ARGS form) and as pure transforms of printed text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.model.repair import (
    BadRepair,
    Repair,
    RepairKind,
    describe_repair,
    format_repair,
    parse_repair,
)
from reviewer.rescore.transform import apply_repairs, fields, list_items

words = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


def test_the_command_line_form_reads_every_kind() -> None:
    assert parse_repair("rename-key:steps:mults") == Repair(RepairKind.RENAME_KEY, ("steps", "mults"))
    assert parse_repair("map-value::true:yes").args == ("", "true", "yes")
    assert parse_repair("separator:path:->:\\s").args == ("path", "->", " ")
    assert parse_repair("reserialise:edges:comma-list").args == ("edges", "comma-list")
    assert parse_repair("lift-limit:recursion-limit").args == ("recursion",)
    assert parse_repair("grade-where-saved:roman/").args == ("roman",)
    assert parse_repair("map-value:t:a\\:b:c").args == ("t", "a:b", "c")


@pytest.mark.parametrize("text, why", [
    ("rename:a:b", "unknown repair kind"), ("rename-key:a", "takes 2"), ("rename-key:a:a", "the same"),
    ("rename-key:a b:c", "not a key"), ("map-value:k::x", "old value is empty"), ("reserialise:k:tree", "unknown shape"),
    ("lift-limit:stack", "unknown limit"), ("grade-where-saved:../x", "not a folder"), ("separator:k:a:b\\q", "unknown escape"),
])
def test_bad_forms_say_why(text: str, why: str) -> None:
    with pytest.raises(BadRepair, match=why):
        parse_repair(text)


@given(st.sampled_from([RepairKind.MAP_VALUE, RepairKind.SEPARATOR]), words, words, words)
def test_format_reads_back(kind: RepairKind, key: str, old: str, new: str) -> None:
    try:
        repair = parse_repair(format_repair(Repair(kind, (key, old, new))))
    except BadRepair:
        assert old == new
        return
    assert repair.args == (key, old, new)
    assert describe_repair(repair)


def test_the_corpus_notations_are_re_expressed() -> None:
    assert apply_repairs("nodes=4 edges=4 connected=true\n", [["map-value", ["connected", "true", "yes"]]]) == \
        "nodes=4 edges=4 connected=yes\n"
    trail = apply_repairs("odd_degree=2\nresult=trail\ntrail=A->C->D->A->B\n",
                          [["rename-key", ["trail", "path"]], ["separator", ["path", "->", " "]]])
    assert trail == "odd_degree=2\nresult=trail\npath=A C D A B\n"
    assert apply_repairs("weight=6 edges=3 tree=A-B,B-C,C-D\n",
                         [["rename-key", ["edges", "edge_count"]], ["rename-key", ["tree", "edges"]]]) == \
        "weight=6 edge_count=3 edges=A-B,B-C,C-D\n"
    assert apply_repairs("x=[A-B, B-C] y=1\n", [["reserialise", ["x", "comma-list"]]]) == "x=A-B,B-C y=1\n"
    assert apply_repairs("connected: true\n", [["map-value", ["connected", "true", "yes"]]]) == "connected: yes\n"


def test_json_output_is_repaired_as_json() -> None:
    out = apply_repairs('{"ok": true, "steps": 4, "path": "A->B"}\n',
                        [["map-value", ["ok", "true", "yes"]], ["rename-key", ["steps", "mults"]],
                         ["separator", ["path", "->", ","]]])
    assert json.loads(out) == {"ok": "yes", "mults": 4, "path": "A,B"} and out.endswith("\n")
    assert apply_repairs('{"a": 1}\nb=2\n', [["rename-key", ["b", "c"]]]) == '{"a": 1}\nc=2\n'


def test_keys_are_whole_tokens() -> None:
    text = "xsteps=1 steps_total=2 steps=3 a-steps=4\n"
    assert apply_repairs(text, [["rename-key", ["steps", "mults"]]]) == "xsteps=1 steps_total=2 mults=3 a-steps=4\n"
    assert apply_repairs("k=truest k=true\n", [["map-value", ["k", "true", "yes"]]]) == "k=truest k=yes\n"


def test_values_with_brackets_and_quotes_are_one_field() -> None:
    assert fields('a="x y" b=[1, [2]] c=3') == [(0, 1, 2, 7), (8, 9, 10, 18), (19, 20, 21, 22)]
    assert list_items('["A-B","B-C"]') == ["A-B", "B-C"]
    assert list_items("A -> B -> C") == ["A", "B", "C"]


KEY = st.from_regex(r"[a-z_]{1,8}", fullmatch=True)
VALUE = st.from_regex(r"[A-Za-z0-9,\-]{1,10}", fullmatch=True)


@settings(max_examples=200)
@given(st.lists(st.tuples(KEY, VALUE), min_size=1, max_size=6), KEY, VALUE)
def test_a_repair_whose_notation_is_absent_changes_nothing(pairs: list[tuple[str, str]], key: str, value: str) -> None:
    text = " ".join(f"{k}={v}" for k, v in pairs) + "\n"
    absent_key = "zz" + key
    absent_value = "QQ" + value
    for repair in (["rename-key", [absent_key, "other"]], ["map-value", [key, absent_value, "x"]],
                   ["separator", [absent_key, ",", ";"]], ["reserialise", [absent_key, "space-list"]]):
        assert apply_repairs(text, [repair]) == text


@settings(max_examples=200)
@given(st.lists(st.tuples(KEY, VALUE), min_size=1, max_size=6, unique_by=lambda p: p[0]), st.data())
def test_a_rename_touches_only_that_key(pairs: list[tuple[str, str]], data: st.DataObject) -> None:
    old, _ = data.draw(st.sampled_from(pairs))
    text = " ".join(f"{k}={v}" for k, v in pairs) + "\n"
    out = apply_repairs(text, [["rename-key", [old, "renamed_key"]]])
    expect = " ".join(f"{'renamed_key' if k == old else k}={v}" for k, v in pairs) + "\n"
    assert out == expect


def test_kinds_that_are_not_text_leave_text_alone() -> None:
    text = "value=1 steps=2\n"
    assert apply_repairs(text, [["lift-limit", ["recursion"]], ["grade-where-saved", ["x"]]]) == text


def test_a_document_nested_past_the_depth_limit_is_never_walked() -> None:
    from reviewer.rescore.transform import MAX_JSON_DEPTH

    deep = "[" * 900 + '{"a": 1}' + "]" * 900  # parses; walking it value by value would pass Python's recursion limit
    assert apply_repairs(deep, [["rename-key", ["a", "b"]]]) == deep  # read as text: no key=value line to repair
    shallow = "[" * (MAX_JSON_DEPTH - 1) + '{"a": 1}' + "]" * (MAX_JSON_DEPTH - 1)
    assert json.loads(apply_repairs(shallow, [["rename-key", ["a", "b"]]])) == json.loads(shallow.replace('"a"', '"b"'))


def test_only_a_json_document_over_the_cap_is_refused_on_the_host(tmp_path) -> None:
    from reviewer.rescore.stage import JSON_CAP, StagingError, repair_reads

    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "blank.txt").write_text(" " * (JSON_CAP + 1))  # whitespace only: not a document
    (tmp_path / "ws" / "doc.json").write_text("[" + " " * JSON_CAP + "]")
    assert repair_reads(tmp_path, ("blank.txt",), [["rename-key", ["a", "b"]]]) == []
    with pytest.raises(StagingError, match="one JSON document"):
        repair_reads(tmp_path, ("doc.json",), [["rename-key", ["a", "b"]]])
