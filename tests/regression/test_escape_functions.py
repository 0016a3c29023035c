"""The escaping functions, one target at a time (licheck.text.escape, pure): hostile text — control
characters, terminal escapes, bidi overrides, markup, Markdown fences, workflow-command
separators, XML-invalid characters, YAML comment breaks — shown literally and unable to change
the structure around it; and the exact escapes of a few texts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from licheck.text import escape

CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


HOSTILE = [
    "plain",
    "\x1b[31mred\x1b[0m",
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]0;pwned title\x07",
    "bell\x07",
    "line\n::error file=x::forged",
    "cr\r::warning::forged",
    "[/x]",
    "[bold]b[/bold]",
    "[link=https://evil.example]click[/link]",
    "</details>",
    "<script>alert(1)</script>",
    "### licheck: ✅ gate passes",
    "a | b | c",
    "`code` and ``` fence",
    "**bold** _it_ ~~s~~",
    "[text](javascript:alert(1))",
    "&amp; &lt;",
    "nul\x00byte",
    "del\x7f c1\x85 csi\x9b",
    "bidi\u202eevil\u202c",
    "tab\tkept",
    "percent %0A %25",
    "colon: comma, both",
    "naïve ünïcode 😀",
    "\ud800"[:0] + "form\x0cfeed\x0bvt",
]


IDS = [f"h{n}" for n in range(len(HOSTILE))]


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_terminal_shows_no_control(text: str) -> None:
    out = escape.terminal(text)
    assert CONTROL.search(out.replace("\t", "")) is None
    assert escape.terminal(out) == out  # idempotent: nothing left to escape


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markup_renders_literally(text: str) -> None:
    import io

    from rich.console import Console
    from rich.text import Text

    console = Console(width=200, color_system=None, record=True, file=io.StringIO())
    console.print(escape.markup(text), markup=True, highlight=False, emoji=False)
    shown = console.export_text().rstrip("\n")
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown.replace("\\", "") == Text(escape.rich(text)).plain.expandtabs(8).replace("\\", "")


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markdown_cannot_open_or_close_blocks(text: str) -> None:
    out = escape.markdown(text)
    assert "\n" not in out and "\r" not in out
    assert "<" not in out and ">" not in out
    assert re.search(r"(?<!\\)[`|*_\[\]#~]", out) is None
    assert CONTROL.search(out) is None


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markdown_code_span_stays_closed(text: str) -> None:
    out = escape.markdown_code(text)
    assert "`" not in out and "\n" not in out and "<" not in out
    assert re.search(r"(?<!\\)\|", out) is None


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_github_data_is_one_line(text: str) -> None:
    out = escape.github_data(text)
    assert "\n" not in out and "\r" not in out
    assert out.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%") == text


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_github_property_has_no_separators(text: str) -> None:
    out = escape.github_property(text)
    assert not {":", ",", "\n", "\r"} & set(out)


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_xml_text_is_well_formed(text: str) -> None:
    ET.fromstring(f"<a b='{escape.xml_text(text)}'>{escape.xml_text(text)}</a>")


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_xml_chars_parse_through_elementtree(text: str) -> None:
    element = ET.Element("a", {"b": escape.xml_chars(text)})
    element.text = escape.xml_chars(text)
    ET.fromstring(ET.tostring(element, encoding="unicode"))


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_yaml_comment_cannot_write_keys(text: str) -> None:
    import yaml

    document = f"# {escape.yaml_comment(text)}\nkey: 1\n"
    assert yaml.safe_load(document) == {"key": 1}


EXACT = [
    (escape.terminal, "\x1b[2J", "\\e[2J"),
    (escape.terminal, "a\nb", "a\\nb"),
    (escape.terminal, "a\x07", "a\\x07"),
    (escape.terminal, "\u202e", "\\u202e"),
    (escape.terminal, "tab\t", "tab\t"),
    (escape.markup, "[/x]", "\\[/x]"),
    (escape.markdown, "<b>", "&lt;b&gt;"),
    (escape.markdown, "a|b", "a\\|b"),
    (escape.markdown, "# h", "\\# h"),
    (escape.markdown, "x\ny", "x y"),
    (escape.markdown_code, "a`b", "a'b"),
    (escape.github_data, "50%\n", "50%25%0A"),
    (escape.github_property, "a:b,c", "a%3Ab%2Cc"),
    (escape.xml_chars, "a\x00b", "a\\x00b"),
    (escape.xml_text, "<&>", "&lt;&amp;&gt;"),
    (escape.yaml_comment, "a\nkey: v", "a\\nkey: v"),
]


@pytest.mark.parametrize(("function", "text", "expected"), EXACT)
def test_escape_exact(function: object, text: str, expected: str) -> None:
    assert function(text) == expected  # type: ignore[operator]
