"""All I/O: reading sessions folders, labels, git. Imports no textual."""

from __future__ import annotations
