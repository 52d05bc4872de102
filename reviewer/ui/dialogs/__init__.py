"""Dialogs that ask the reviewer for an answer over the review screen: who is labelling, a note,
tags, an adjudication, a confirmation, whether to re-score."""

from __future__ import annotations
