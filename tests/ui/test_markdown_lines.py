"""The brief's Markdown drawn as lines: every construct, wrapped rows, recorded text kept inert,
and find in the Brief pane."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.content import Content
from uihelp import make_app, press, settle, sync

from reviewer.ui.render.markdown import markdown_lines
from reviewer.ui.render.wrap import fold
from reviewer.ui.widgets.brief import BriefPane

DOC = """# Roman numerals

Write a **Go** package `roman` with *two* functions; see [the spec](https://example.com/spec), not ~~this~~.
Same paragraph.  
After a hard break.

- first
- second
  - nested
- third

3. three
4. four

> quoted
> still quoted

```go
package roman
```

| key | value |
|-----|-------|
| connected | yes |

---

<b>raw</b>

![diagram](d.png)
"""


def plain(lines: list[Content]) -> list[str]:
    return [line.plain for line in lines]


def styles_of(line: Content, text: str) -> str:
    """The styles of the spans covering ``text`` in ``line``."""
    start = line.plain.index(text)
    return " ".join(str(s.style) for s in line.spans if s.start <= start and s.end >= start + len(text))


def test_every_construct_is_drawn() -> None:
    lines, hangs = markdown_lines(DOC)
    text = plain(lines)
    assert text == [
        "Roman numerals",
        "",
        "Write a Go package roman with two functions; see the spec (https://example.com/spec), not this. Same paragraph.",
        "After a hard break.",
        "",
        "\u2022 first",
        "\u2022 second",
        "  \u25e6 nested",
        "\u2022 third",
        "",
        "3. three",
        "4. four",
        "",
        "\u258c quoted still quoted",
        "",
        "  package roman",
        "",
        "key       \u2502 value",
        "connected \u2502 yes  ",
        "",
        "\u2500" * 40,
        "",
        "<b>raw</b>",
        "",
        "[image: diagram] (d.png)",
    ]
    assert "markdown-h1-color" in styles_of(lines[0], "Roman")
    para = lines[2]
    assert "bold" in styles_of(para, "Go")
    assert "italic" in styles_of(para, "two")
    assert "strike" in styles_of(para, "this")
    assert "text-accent" in styles_of(para, "roman")
    assert "underline" in styles_of(para, "the spec") and "text-muted" in styles_of(para, "(https://example.com/spec)")
    # wrapped rows of a list item line up after its marker; a quote repeats its bar
    assert [h.plain for h in hangs[5:9]] == ["  ", "  ", "    ", "  "]
    assert hangs[13].plain == "\u258c " and hangs[15].plain == "  "
    assert hangs[18].plain == " " * len("connected \u2502 ")  # a long last cell wraps under itself
    assert "bold underline" in styles_of(lines[17], "key") and "underline" not in styles_of(lines[18], "yes")


def test_code_blocks_are_coloured_only_by_the_language_they_name() -> None:
    go, _ = markdown_lines("```go\nfunc main() {}\n```\n")
    assert styles_of(go[0], "func").strip()  # a keyword colour
    unnamed, _ = markdown_lines("```\nfunc main() {}\n```\n")
    assert unnamed[0].plain == "  func main() {}"
    assert styles_of(unnamed[0], "func") != styles_of(go[0], "func")  # plain text: no keyword colour
    odd, _ = markdown_lines("```no-such-language\nx = 1\n```\n")
    assert odd[0].plain == "  x = 1"


def test_recorded_text_is_never_markup_or_escapes() -> None:
    lines, _ = markdown_lines("[b]bold?[/b] [@click=app.quit]quit[/] \x1b[2J\x07 $text-error\n")
    assert lines[0].plain.startswith("[b]bold?[/b] [@click=app.quit]quit[/] ")
    assert "\x1b" not in lines[0].plain and "\x07" not in lines[0].plain
    assert not any("click" in str(s.style) for s in lines[0].spans)


def test_links_are_shown_never_clickable() -> None:
    lines, _ = markdown_lines("[open me](https://evil.example/run) and <https://auto.example>\n")
    assert lines[0].plain.startswith("open me (https://evil.example/run)")
    assert not any("@click" in str(s.style) or "link" in str(s.style) for s in lines[0].spans)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab #*_`>-|[]()!~\n1.\\<", max_size=80))
def test_any_source_draws_without_error_and_keeps_its_words(source: str) -> None:
    lines, hangs = markdown_lines(source)
    assert len(lines) == len(hangs)
    drawn = " ".join(plain(lines))
    for word in source.replace("\n", " ").split():
        if word.isalpha():
            assert word in drawn


def test_fold_starts_wrapped_rows_with_the_hang() -> None:
    line = Content("\u2022 " + "word " * 12)
    rows = fold(line, 20, Content("  "))
    assert rows[0].plain.startswith("\u2022 word")
    assert all(r.plain.startswith("  ") and not r.plain.startswith("   ") for r in rows[1:])
    assert " ".join(r.plain.strip("\u2022 ") for r in rows).split() == ["word"] * 12


@sync
async def test_find_works_in_the_brief(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        brief = app.review_screen.query_one(BriefPane)
        word = next(w for line in brief.view.plain_lines() for w in line.split() if len(w) > 4 and w.isalpha())
        brief.view.focus()
        await press(app, pilot, "ctrl+f")
        assert app.focused is not None and app.focused.id == "find-input"
        await pilot.press(*word)
        await settle(app, pilot)
        assert brief.view.find_query == word and brief.view.matches


def test_nested_emphasis_ends_where_it_was_opened() -> None:
    lines, _ = markdown_lines("**bold *both* bold** plain\n")
    line = lines[0]
    assert line.plain == "bold both bold plain"
    assert "bold" in styles_of(line, "both") and "italic" in styles_of(line, "both")
    assert "italic" not in styles_of(line, "bold ") and styles_of(line, "plain") == ""
