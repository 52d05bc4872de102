"""One headless chromium for the browser tests (skipped cleanly when it is absent)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import ARGS, CHROMIUM, browser_or_skip


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright."""
    sync_playwright = browser_or_skip()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()
