"""Screens shown over the review screen: help and load errors."""

from __future__ import annotations
