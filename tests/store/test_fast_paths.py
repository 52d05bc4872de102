"""The shortcuts a cold scan takes for plain paths give what the general rules give."""

from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.store.manifest import file_in_expected
from reviewer.store.safe_fs import Unreadable, lexically_inside

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
