"""Finding 17 (finding 7 of the 'promises under attack' pass): URLs in recorded text became live
links in the page ``reviewer serve`` serves; a click opened them.

textual-serve's page script loads xterm.js's web-links addon, which makes any ``http(s)://`` text
on the terminal a link (underlined on hover) that a click opens in a new tab. A recorded run is
hostile: its brief, check messages, grader output and transcript may name any address.

The fixture is a sessions folder whose one failing run names a canary address (an HTTP server
this check runs on 127.0.0.1, which records every request) as plain text in all four. In Debian's
chromium (Playwright, ``/usr/bin/chromium``), the page of the server is opened, the canary
address is found on the terminal (the output the page received, replayed on a grid) and the
mouse moves onto it and clicks, as a person does.

Live: with the server as it was, the terminal shows the address as a link on hover, and the click
opens a new page that requests the canary. The server as it was is the code before the fix when
``REVIEWER_BEFORE_FIX_PYTHON`` names a Python whose ``reviewer`` is that code; otherwise the
attack's reference: textual-serve's own server and page (the page script the old page loaded).
Contained: with this tree's ``reviewer serve``, no link shows on hover, the click opens no page
and sends the canary nothing, the tab stays where it was, and ``window.open`` asked by script
opens nothing either. Without chromium or Playwright the live part cannot be shown (``live`` is
None) and containment is read from what the server sends (the page script without the addon, the
page's CSP sandbox without popups, ``window.open`` replaced).
"""

from __future__ import annotations

import sys
import urllib.request
from pathlib import Path
from typing import Any

from attacks import Outcome

FINDING = 17
TITLE = "URLs in recorded text were live links in the served page; a click opened them"
LINK_PATH = "/recorded-link"


def click_the_link(browser: Any, url: str, link: str, canary: Any) -> dict[str, Any]:
    """Open ``url`` in a fresh context, click the recorded ``link`` on the terminal; what followed."""
    from browserkit import SCREEN_HOOK, click_text, followed, wait_for_panes

    context = browser.new_context(viewport={"width": 1400, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(SCREEN_HOOK)
        page.goto(url)
        wait_for_panes(page)
        before, pages = page.url, len(context.pages)
        seen = {"hover_showed_link": click_text(page, link), **followed(context, page, canary, before, pages)}
        if not seen["canary_requests"] and not seen["left_page"]:
            seen["script_window_open"] = page.evaluate(f"String(window.open({link!r}, '_blank'))")
            seen.update({f"after_script_{k}": v for k, v in followed(context, page, canary, before, pages).items()})
        return seen
    finally:
        context.close()


def served_statically(base: str, token: str) -> dict[str, bool]:
    """Without a browser: what the server sends that keeps links inert."""
    def get(path: str) -> tuple[str, dict[str, str]]:
        request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read().decode(), dict(response.headers)

    page, headers = get("")
    script, _ = get("static/js/textual.js")
    policy = headers.get("Content-Security-Policy", "")
    return {"no_links_addon": "Terminal" in script and "loadAddon(this.weblinksAddon)" not in script,
            "sandbox_without_popups": "sandbox " in policy and "allow-popups" not in policy,
            "window_open_replaced": 'Object.defineProperty(window, "open"' in page}


def check(work: Path) -> Outcome:
    """Click a recorded URL in the page of the server as it was, then in this tree's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "browser"))
    from browserkit import ARGS, CHROMIUM, Canary, linked_folder, running, server_before_fix, serving

    home = {f"XDG_{kind}_HOME": str(work / kind.lower()) for kind in ("CONFIG", "DATA", "CACHE")}
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not CHROMIUM.exists():
        with Canary() as canary:
            root = linked_folder(work / "new" / "sessions", canary.url(LINK_PATH))
            with serving(root, "--reviewer", "owner", timeout=60, env=home) as new:
                static = served_statically(new.base, new.token or "")
        return Outcome(all(static.values()), None, f"no chromium or Playwright here: the live click cannot be shown; the server sends {static}", static)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            with Canary() as canary:
                link = canary.url(LINK_PATH)
                argv, which_old = server_before_fix(linked_folder(work / "old" / "sessions", link), "owner")
                with running(argv, timeout=60, env=home, cwd=work) as old:
                    old_seen = click_the_link(browser, old.url, link, canary)
            with Canary() as canary:
                link = canary.url(LINK_PATH)
                with serving(linked_folder(work / "new" / "sessions", link), "--reviewer", "owner", timeout=60, env=home) as new:
                    new_seen = click_the_link(browser, new.url, link, canary)
        finally:
            browser.close()
    live = old_seen["hover_showed_link"] and bool(old_seen["canary_requests"]) and old_seen["new_pages"] > 0
    contained = (not new_seen["hover_showed_link"] and new_seen["new_pages"] == 0 and not new_seen["canary_requests"]
                 and not new_seen["left_page"] and new_seen.get("script_window_open") == "null"
                 and new_seen.get("after_script_new_pages") == 0 and not new_seen.get("after_script_canary_requests"))
    detail = "\n".join([
        f"old server ({which_old}): {old_seen}",
        f"this tree's reviewer serve: {new_seen}",
    ])
    figures = {"old_new_pages": old_seen["new_pages"], "old_canary_requests": len(old_seen["canary_requests"]),
               "new_new_pages": new_seen["new_pages"], "new_canary_requests": len(new_seen["canary_requests"])}
    return Outcome(contained, live, detail, figures)
