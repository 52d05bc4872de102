"""The tag vocabulary of a sessions folder: ``<folder>/tags.toml``, else sensible defaults."""

from __future__ import annotations

from pathlib import Path

from reviewer.model.label import DEFAULT_TAGS
from reviewer.store.safe_fs import Missing, Unreadable, read_capped
from reviewer.store.tomlfile import BadToml, parse_toml_bytes

TAGS_FILE = "tags.toml"


def load_vocabulary(root: Path) -> tuple[tuple[str, ...], str]:
    """The folder's tags and a warning ("" when none).

    ``tags.toml`` holds ``tags = ["unpublished-key", ...]``; without it, the defaults apply.
    """
    try:
        raw = read_capped(Path(root), TAGS_FILE, 64 << 10)
    except Missing:
        return DEFAULT_TAGS, ""
    except Unreadable as exc:
        return DEFAULT_TAGS, f"{TAGS_FILE}: {exc}; using the default tags"
    try:
        doc = parse_toml_bytes(raw.data)
    except BadToml as exc:
        return DEFAULT_TAGS, f"{TAGS_FILE} {exc}; using the default tags"
    tags = doc.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) and t.strip() for t in tags):
        return DEFAULT_TAGS, f"{TAGS_FILE}: `tags` must be a non-empty list of strings; using the default tags"
    seen: dict[str, None] = {}
    for t in tags:
        seen.setdefault(t.strip()[:60], None)
    return tuple(seen), ""
