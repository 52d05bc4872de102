"""The tag vocabulary of a sessions folder: ``<folder>/tags.toml``, else sensible defaults.

:func:`add_tag` grows the vocabulary (``reviewer label --new-tag``, the app's tag picker). It
edits the ``tags = [...]`` array in place, so comments in the file survive; a file without
``tags.toml`` gets one holding the defaults plus the new tag. A folder reviewer does not write
into (the bundled corpus, a read-only folder) keeps its additions in the per-user labels folder
of that folder, read together with the folder's own vocabulary.
"""

from __future__ import annotations

import re
from pathlib import Path

from reviewer.model.label import DEFAULT_TAGS
from reviewer.model.sanitize import plain
from reviewer.store.fs.atomic import atomic_write, folder_lock
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.tomlfile import dumps as toml_dumps
from reviewer.store.fs.untrusted import Missing, Unreadable, read_capped

TAGS_FILE = "tags.toml"
TAG_CAP = 60
TAGS_ARRAY_END = re.compile(r"^(?P<head>[ \t]*tags[ \t]*=[ \t]*\[)(?P<body>[^\]]*?)(?P<end>,?[ \t\r\n]*\])", re.MULTILINE | re.DOTALL)


class BadTag(ValueError):
    """A tag that cannot be added (empty, too long, control characters), or a vocabulary file that
    cannot be changed; the message says why and nothing was written."""


def read_tags(folder: Path) -> tuple[tuple[str, ...] | None, str]:
    """The tags of ``folder/tags.toml`` (None when absent or unusable) and a warning ("" when none)."""
    try:
        raw = read_capped(Path(folder), TAGS_FILE, 64 << 10)
    except Missing:
        return None, ""
    except Unreadable as exc:
        return None, f"{TAGS_FILE}: {exc}; using the default tags"
    try:
        doc = parse_toml_bytes(raw.data)
    except BadToml as exc:
        return None, f"{TAGS_FILE} {exc}; using the default tags"
    tags = doc.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) and t.strip() for t in tags):
        return None, f"{TAGS_FILE}: `tags` must be a non-empty list of strings; using the default tags"
    seen: dict[str, None] = {}
    for t in tags:
        seen.setdefault(t.strip()[:TAG_CAP], None)
    return tuple(seen), ""


def vocabulary_folder(root: Path) -> Path:
    """Where this folder's vocabulary additions are written: the folder itself, or the per-user
    labels folder when reviewer never writes into it."""
    from reviewer.store.fs.paths import fallback_root, redirect_reason

    return fallback_root(root) if redirect_reason(root) else Path(root)


def load_vocabulary(root: Path) -> tuple[tuple[str, ...], str]:
    """The folder's tags and a warning ("" when none).

    ``tags.toml`` holds ``tags = ["unpublished-key", ...]``; without it, the defaults apply.
    Additions kept in the per-user folder (see :func:`add_tag`) follow.
    """
    tags, warning = read_tags(Path(root))
    out = dict.fromkeys(tags or DEFAULT_TAGS)
    extra = vocabulary_folder(root)
    if extra != Path(root):
        more, _ = read_tags(extra)
        out.update(dict.fromkeys(more or ()))
    return tuple(out), warning


def clean_tag(tag: str) -> str:
    """A tag as it is stored; raises BadTag when it cannot be one."""
    tag = tag.strip()
    if not tag:
        raise BadTag("a tag cannot be empty")
    if len(tag) > TAG_CAP:
        raise BadTag(f"a tag is at most {TAG_CAP} characters")
    if plain(tag) != tag or any(ch.isspace() and ch != " " for ch in tag):
        raise BadTag("a tag cannot hold control characters or line breaks")
    return tag


def add_tag(root: Path, tag: str) -> tuple[str, ...]:
    """Add a tag to the folder's vocabulary (nothing to do when it is there); the new vocabulary.

    Raises:
        BadTag: the tag is not valid, or the vocabulary file cannot be read or parsed (it is
            never overwritten then).
        OSError: the file could not be written.
    """
    tag = clean_tag(tag)
    vocabulary, _ = load_vocabulary(root)
    if tag in vocabulary:
        return vocabulary
    folder = vocabulary_folder(root)
    folder.mkdir(parents=True, exist_ok=True)
    with folder_lock(folder):
        write_tag(folder, tag, seed=() if folder != Path(root) else DEFAULT_TAGS)
    return load_vocabulary(root)[0]


def write_tag(folder: Path, tag: str, seed: tuple[str, ...]) -> None:
    """Append ``tag`` to ``folder/tags.toml`` keeping the rest of the file (created from ``seed``)."""
    try:
        raw = read_capped(folder, TAGS_FILE, 64 << 10).data
    except Missing:
        atomic_write(folder / TAGS_FILE, toml_dumps({"tags": [*seed, tag]}).encode())
        return
    except Unreadable as exc:
        raise BadTag(f"{folder / TAGS_FILE}: {exc}; not changed") from None
    try:
        doc = parse_toml_bytes(raw)
    except BadToml as exc:
        raise BadTag(f"{folder / TAGS_FILE} {exc}; not changed") from None
    tags = doc.get("tags")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise BadTag(f"{folder / TAGS_FILE}: `tags` must be a list of strings; not changed")
    expected = {**doc, "tags": [*tags, tag]}
    text = raw.decode("utf-8").removeprefix("\ufeff")
    literal = toml_dumps({"t": tag}).split("=", 1)[1].strip()
    m = TAGS_ARRAY_END.search(text)
    new = None
    if m:
        sep = ", " if m["body"].strip() else ""
        body = m["body"].rstrip()
        new = text[: m.start("body")] + body + sep + literal + m["end"].lstrip(",") + text[m.end("end"):]
        try:
            if parse_toml_bytes(new.encode()) != expected:
                new = None
        except BadToml:
            new = None
    atomic_write(folder / TAGS_FILE, (new or toml_dumps(expected)).encode())
