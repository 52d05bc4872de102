"""All I/O below the analysis: sessions folders, labels, the index cache, git, settings. Imports no Textual.

- :mod:`.sessions`: a sessions folder read (its scan, the store of its runs, failures found by name).
- :mod:`.index`: the index cache that makes the next open only stat.
- :mod:`.runs`: one run's manifest read into model values.
- :mod:`.check`: ``reviewer check``, everything wrong with a folder (runs and labels), one problem per entry.
- :mod:`.labels`: labels on disk, one small TOML file per run and reviewer; agreement, adjudication, tags.
- :mod:`.predictions`: judges' predictions, one TOML file per judge and session.
- :mod:`.git`: the repository (provenance, label history, committing labels), safe against its contents.
- :mod:`.settings`: the user's config, identity and themes.
- :mod:`.fs`: atomic writes, untrusted reads, links refused, TOML read and written.
"""
