"""Headless subcommands: each module holds one command's work, free of argument parsing."""

from __future__ import annotations
