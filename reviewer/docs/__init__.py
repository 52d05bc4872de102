"""The guides shipped with the package: Markdown pages read by ``reviewer help TOPIC`` and the app's help.

Each page is a file ``<topic>.md`` of this folder whose first line is ``# Title`` and whose
first paragraph says what it covers. Two topics are the documents kept where their readers
look first: ``sessions`` (the sessions format, ``sessions/README.md``, shipped with the example
corpus) and ``themes`` (the theme format, ``themes/README.md``).
"""

from __future__ import annotations

from pathlib import Path

from reviewer.model.records import record

HERE = Path(__file__).resolve().parent


@record
class Topic:
    """One guide: its name (what ``reviewer help`` takes), title, one-line summary and file."""

    name: str
    title: str
    summary: str
    path: Path


def elsewhere() -> dict[str, Path]:
    """The topics whose page lives beside the files it documents."""
    from reviewer.store.fs.paths import bundled_sessions
    from reviewer.store.settings.themes import shipped_themes_dir

    return {"sessions": bundled_sessions() / "README.md", "themes": shipped_themes_dir() / "README.md"}


def heading(text: str, fallback: str) -> tuple[str, str]:
    """A page's title (its ``# `` line) and its first paragraph as one line."""
    lines = text.splitlines()
    title = next((line[2:].strip() for line in lines if line.startswith("# ")), fallback)
    paragraph: list[str] = []
    started = False
    for line in lines:
        if line.startswith("#"):
            if started:
                break
            continue
        if not line.strip():
            if paragraph:
                break
            continue
        started = True
        paragraph.append(line.strip())
    summary = " ".join(paragraph)
    first = summary.split(". ")[0].rstrip(".")
    return title, first + "."


def topics() -> list[Topic]:
    """Every guide, in the order ``reviewer help`` lists them (the pages here by name, then the others)."""
    found = {p.stem: p for p in sorted(HERE.glob("*.md"))}
    found.update({k: v for k, v in elsewhere().items() if v.is_file()})
    order = [n for n in ORDER if n in found] + sorted(n for n in found if n not in ORDER)
    out = []
    for name in order:
        title, summary = heading(found[name].read_text(encoding="utf-8"), name)
        out.append(Topic(name, title, summary, found[name]))
    return out


ORDER = ("importing", "keys", "evidence", "rescoring", "judges", "labels", "sharing", "settings", "sessions",
         "themes", "security", "performance", "architecture", "contributing")
"""The order of the list: a user's questions first, a maintainer's last."""


def find(name: str) -> Topic | None:
    """The guide of that name, or of the only name it starts (None: no such guide)."""
    every = topics()
    exact = [t for t in every if t.name == name]
    if exact:
        return exact[0]
    starting = [t for t in every if t.name.startswith(name.lower())]
    return starting[0] if len(starting) == 1 else None
