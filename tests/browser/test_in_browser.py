"""In Debian's chromium: the served app labels a failure, a tokenless visit is refused, the report
loads nothing from anywhere and shows the numbers of ``reviewer stats --json``."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from browserkit import SCREEN_HOOK, local_url, screen_text, serving, wait_for_panes
from reportkit import labelled_corpus

from reviewer.cli import main
from reviewer.store.sessions.store import SessionStore

pytest.importorskip("textual_serve", reason="reviewer serve needs textual-serve (pip install '.[test]')")


def labels_of(root: Path, reviewer: str) -> list[dict[str, Any]]:
    """Every label in the reviewer's files, read from disk."""
    out = []
    for path in root.glob(f"*/labels/{reviewer}/*.toml"):
        doc = tomllib.loads(path.read_text())
        out += [lab | {"session": doc["session"]} for lab in doc.get("label", [])]
    return out


def new_page(browser: Any, requests: list[str]) -> Any:
    """A page that keeps what its terminal received and logs every request it makes."""
    page = browser.new_page(viewport={"width": 1600, "height": 900})
    page.add_init_script(SCREEN_HOOK)
    page.on("request", lambda r: requests.append(r.url))
    return page


def test_the_served_app_labels_a_failure(browser: Any, folder: Path, tmp_path: Path) -> None:
    with serving(folder, "--reviewer", "carol") as served:
        requests: list[str] = []
        page = new_page(browser, requests)
        page.goto(served.url)
        wait_for_panes(page)
        page.screenshot(path=str(tmp_path / "served.png"))
        page.click("#terminal")
        page.keyboard.press("j")
        time.sleep(0.5)
        page.keyboard.press("s")
        deadline = time.monotonic() + 20
        while not labels_of(folder, "carol") and time.monotonic() < deadline:
            time.sleep(0.2)
        page.close()
    labels = labels_of(folder, "carol")
    assert [lab["verdict"] for lab in labels] == ["specification"], labels
    store = SessionStore(folder)
    store.scan()
    failures = [f.id for run in store.runs for f in store.failures(run)]
    labelled = f"{labels[0]['session']}/{labels[0]['run']}#{labels[0]['check']}"
    assert labelled in failures and labelled != failures[0]  # `j` moved off the first failure first
    assert all(url.startswith(served.base) for url in requests), requests  # nothing from elsewhere (no web font)
    assert (tmp_path / "served.png").stat().st_size > 10_000


def test_a_non_loopback_bind_refuses_the_browser_without_its_token(browser: Any, folder: Path) -> None:
    with serving(folder, "--host", "0.0.0.0") as served:
        requests: list[str] = []
        page = new_page(browser, requests)
        response = page.goto(local_url(served))
        assert response is not None and response.status == 403
        assert "needs its token" in page.inner_text("body")
        page.goto(f"{local_url(served)}?token={served.token}")
        assert page.url == local_url(served)  # the token left the address bar for a cookie
        wait_for_panes(page)
        page.close()


def test_the_report_loads_nothing_and_shows_the_stats(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    root = labelled_corpus(tmp_path / "sessions")
    out = tmp_path / "report.html"
    assert main(["report", str(root), "-o", str(out), "--final"]) == 0
    capsys.readouterr()
    assert main(["stats", str(root), "--json", "--final"]) == 0
    doc = json.loads(capsys.readouterr().out)
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.goto(out.as_uri())
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert requests == [out.as_uri()]
    svgs = page.evaluate("[...document.querySelectorAll('svg.plot')].map(s => s.getBoundingClientRect().width)")
    assert len(svgs) >= 4 and min(svgs) > 200
    cells = page.evaluate("""[...document.querySelectorAll('[data-group="models"][data-field]')]
        .map(e => [e.dataset.name, e.dataset.field, e.dataset.value ?? null, e.innerText])""")
    models = {m["model"]: m for m in doc["models"]}
    seen = 0
    for name, field, value, text in cells:
        want = models[name][field]
        assert (None if value is None else float(value)) == pytest.approx(want), (name, field)
        if field.endswith("pass_rate") and want is not None:
            assert float(text.split("%")[0]) == pytest.approx(100 * want, abs=0.051), (name, field, text)
            seen += 1
    assert seen == 2 * len([m for m in doc["models"] if m["checks"]])
    context.close()


def wait_for_text(page: Any, text: str, timeout: float = 60.0) -> None:
    """Wait until ``text`` reached the page's terminal."""
    deadline = time.monotonic() + timeout
    while text not in screen_text(page):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never arrived: {screen_text(page)[-400:]!r}")
        time.sleep(0.2)


def label_as(browser: Any, url: str, name: str, root: Path) -> str:
    """Open a tab, answer who is labelling with ``name``, press ``j`` and ``s``; the screen's text."""
    page = new_page(browser, [])
    page.goto(url)
    wait_for_panes(page)
    wait_for_text(page, "Who is labelling?")
    page.click("#terminal")
    page.keyboard.press("Escape")  # no guess to keep in a browser: the question stays
    wait_for_text(page, "type your name first")
    page.keyboard.press("Enter")
    wait_for_text(page, "type your name: your labels are saved under it")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    wait_for_text(page, f"labelling as {name} (named in this browser tab)")
    page.keyboard.press("j")
    time.sleep(0.5)
    page.keyboard.press("s")
    deadline = time.monotonic() + 20
    while not labels_of(root, name) and time.monotonic() < deadline:
        time.sleep(0.2)
    text = screen_text(page)
    page.close()
    return text


def test_each_browser_tab_asks_who_is_labelling(browser: Any, folder: Path, tmp_path: Path) -> None:
    (tmp_path / "xdg-config" / "reviewer").mkdir(parents=True)
    config = tmp_path / "xdg-config" / "reviewer" / "config.toml"
    config.write_text('reviewer = "server-owner"\n')  # the server's own name is not the browser user's
    with serving(folder) as served:
        label_as(browser, served.url, "dana", folder)
        label_as(browser, served.url, "erin", folder)
    assert [lab["verdict"] for lab in labels_of(folder, "dana")] == ["specification"]
    assert [lab["verdict"] for lab in labels_of(folder, "erin")] == ["specification"]
    assert labels_of(folder, "server-owner") == []
    assert config.read_text() == 'reviewer = "server-owner"\n'  # a tab's name is never saved for the next tab
