"""A Pilot test of what an 80x24 terminal keeps: the status line's position and labelled count
first, and on the footer the help key and the command palette key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from uihelp import make_app, settle, sync

GO_PANIC = "pounce-2026-11/roman-go--gale-13b#heldout:TestHeldOutZero"


def rows(app: Any) -> list[str]:
    """The composed screen, row by row."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


@sync
async def test_at_80x24_the_status_keeps_the_count_and_the_footer_keeps_help_and_palette(bundled: Path) -> None:
    app = make_app(bundled, reviewer="a reviewer with a rather long name", start_failure=GO_PANIC)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = rows(app)
        status, footer = screen[-2], screen[-1]
        assert "failure 61 of 70" in status and "0/70 labelled" in status, status
        assert "? Help" in footer and footer.rstrip().endswith("^p palette"), footer
        assert len(footer) == 80
