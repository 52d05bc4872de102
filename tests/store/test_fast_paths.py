"""The shortcuts a cold scan takes for plain paths give what the general rules give."""

from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.store.fs.untrusted import (
    _SIMPLE_SEEN,
    SIMPLE_REF,
    SIMPLE_SEEN_MAX,
    Unreadable,
    lexically_inside,
    simple_ref,
)
from reviewer.store.runs.manifest import file_in_expected

PATHS = st.text(alphabet="ab./\\-_:\x00 \u00e9\n", max_size=14)
BASES = st.sampled_from(["", "s1/runs/r1", "s1/runs/r1/attempts/2", "a"])


def joined_by_the_rules(base: str, ref: str) -> str | None:
    """The reference: refuse empty, NUL and absolute paths, normalise, refuse climbing out."""
    if not ref.strip() or "\x00" in ref:
        return None
    if ref.startswith("/") or ref.startswith("\\") or (len(ref) > 1 and ref[1] == ":"):
        return None
    joined = posixpath.normpath(posixpath.join(base, ref.replace("\\", "/")))
    if joined == ".." or joined.startswith("../"):
        return None
    return "" if joined == "." else joined


@settings(max_examples=400, deadline=None)
@given(base=BASES, ref=PATHS)
def test_lexically_inside_is_the_normalised_join(base: str, ref: str) -> None:
    try:
        got: str | None = lexically_inside(base, ref)
    except Unreadable:
        got = None
    assert got == joined_by_the_rules(base, ref)


def test_plain_references_take_the_shortcut_and_odd_ones_are_still_refused() -> None:
    assert lexically_inside("s1/runs/r1", "attempts/1/main.go") == "s1/runs/r1/attempts/1/main.go"
    assert lexically_inside("", "brief.md") == "brief.md"
    for bad in ("../../etc/passwd", "/etc/passwd", "C:/x", "a\x00b", " ", "a/../../.."):
        try:
            lexically_inside("s1", bad)
        except Unreadable:
            continue
        raise AssertionError(f"{bad!r} was let through")


@settings(max_examples=400, deadline=None)
@given(path=PATHS.filter(lambda p: p != ""), expected=st.sampled_from(["", ".", "./", "src", "src/", "a/b"]))
def test_file_in_expected_matches_the_folder_rule(path: str, expected: str) -> None:
    folder = posixpath.dirname(posixpath.normpath(path)) or "."
    want = posixpath.normpath(expected) if expected else "."
    assert file_in_expected(path, expected) == (folder == want)


@settings(max_examples=300, deadline=None)
@given(path=PATHS)
def test_simple_ref_is_the_pattern_asked_once_or_twice(path: str) -> None:
    expected = SIMPLE_REF.match(path) is not None
    assert simple_ref(path) is expected
    assert simple_ref(path) is expected  # the second answer may come from memory: the same


def test_simple_ref_remembers_only_what_passed_and_stays_small() -> None:
    assert not simple_ref("a/../b") and not simple_ref("a/../b")
    assert "a/../b" not in _SIMPLE_SEEN
    for n in range(SIMPLE_SEEN_MAX + 10):
        assert simple_ref(f"attempts/{n}/main.go")
    assert 0 < len(_SIMPLE_SEEN) <= SIMPLE_SEEN_MAX
