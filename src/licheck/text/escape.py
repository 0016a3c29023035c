"""Escaping user text for every place licheck prints it: pure functions, one per target.

User text — file names, product and component names, fact values, waiver comments — is data in
every output: it must not move the cursor or retitle the terminal (escape sequences), turn into
rich markup or hyperlinks, close or open Markdown/HTML blocks, become a GitHub workflow command,
make XML or SVG ill-formed, or write keys into generated YAML.

Workflow commands, one rule for every target (`commands`): the GitHub runner reads a line of a
step's log as a command in two syntaxes (actions/runner `ActionCommand.cs`): `::name ...::data`
at the start of a line after white space, and the older `##[name ...]data` *anywhere* in a line
(`##[error]`, `##[add-mask]`, `##[stop-commands]`, `##[set-output]`, `##[group]`...).  Text
that is wrapped or follows a line break (any of `str.splitlines`' breaks, U+2028 included) may
come to start a line, so in user text every `::` and every `##[` is broken: the second `:` or
`#` is written as the target's escape of it (`\x3a`, `\x23` in terminal text; `&#58;`,
`&#35;` in XML and HTML; `\u003a`, `\u0023` in JSON), which reads the same to a person or a
parser and is no command to the runner.
"""

from __future__ import annotations

import re

# C0 controls but tab, DEL, C1 controls, the bidirectional overrides and isolates that can make
# text read differently from what it is (CVE-2021-42574, "trojan source"), and the line and
# paragraph separators U+2028 and U+2029, which some readers take as line breaks
_CONTROL = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_CONTROL_KEEP_NEWLINE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# the character of a workflow command's opening that is escaped: the second of `::`, and the
# `#` before the `[` of `##[`
_WORKFLOW_COMMAND = re.compile(r"(?<=:):|(?<=#)#(?=\[)")


def commands(text: str, colon: str, hash_sign: str) -> str:
    """`text` with every workflow-command opening broken (the module says why): the `:` that
    follows a `:` written as `colon`, the `#` between `#` and `[` as `hash_sign`."""
    return _WORKFLOW_COMMAND.sub(lambda m: colon if m.group() == ":" else hash_sign, text)


def controls(text: str, *, newlines: bool = False) -> str:
    """`text` with every control character shown as an escape (`\\e`, `\\x07`, `\\n`), so it
    cannot drive the terminal; `newlines=True` keeps line breaks (`\\n` only).  Workflow
    commands are left alone: for a GitHub command's own data only (`formats.github`)."""
    pattern = _CONTROL_KEEP_NEWLINE if newlines else _CONTROL
    return pattern.sub(_visible, text)


def terminal(text: str, *, newlines: bool = False) -> str:
    """`controls(text)`, and no workflow command (`::`, `##[`) anywhere: text for a terminal or
    a CI log, which any wrapping may break anywhere."""
    return commands(controls(text, newlines=newlines), "\\x3a", "\\x23")


def rich(text: str) -> str:
    """`terminal(text)` for text that rich lays out (rich wraps at spaces and folds long words
    anywhere: any `::` could come to start a line)."""
    return terminal(text)


def markup(text: str) -> str:
    """`rich(text)` made literal for rich markup: `[` cannot open a tag or a link."""
    from rich.markup import escape as rich_escape

    return rich_escape(rich(text))


def line(text: str) -> str:
    """One line of plain output (stderr messages) that may start with user text (a file name):
    `terminal(text)`, line breaks included."""
    return terminal(text)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")


def markdown(text: str) -> str:
    """Inline Markdown that renders as `text`: HTML escaped, Markdown punctuation
    backslash-escaped, line breaks as spaces, controls shown; cannot open or close a block."""
    flat = terminal(text.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", flat)
    return escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def markdown_code(text: str) -> str:
    """Text for inside a Markdown code span: HTML escaped, no backticks (shown as `'`), one
    line, pipes escaped for tables."""
    flat = terminal(text.replace("\n", " ").replace("\r", " "))
    return (
        flat.replace("`", "'")
        .replace("|", "\\|")
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
    )


def github_data(text: str) -> str:
    """A GitHub workflow command's message (actions/toolkit `command.ts`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A GitHub workflow command's property value (file, title): also `:` and `,`."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


# characters XML 1.0 does not allow at all (even as references), and those it allows that
# should not be shown raw either: DEL, C1 controls, bidirectional marks, overrides and isolates
_NOT_XML = re.compile(
    "[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
    "|[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def xml_chars(text: str) -> str:
    """`text` with the characters XML 1.0 forbids, and the invisible controls that make text
    read differently from what it is, shown as escapes (`\\x1b`, `\\u202e`); the XML writer
    still escapes `&`, `<` and `>`."""
    return _NOT_XML.sub(_visible, text)


def no_workflow_command(xml: str) -> str:
    """Serialised XML (or HTML) with every workflow-command opening (`::`, `##[`) broken by a
    character reference: the same text to a reader, no command to a CI runner."""
    return commands(xml, "&#58;", "&#35;")


# the line breaks of `str.splitlines` that JSON writes raw (the others are below U+0020)
_JSON_BREAKS = re.compile("[\x85\u2028\u2029]")


def json_text(serialised: str) -> str:
    """Serialised JSON with no workflow-command opening and no raw line break: `::`, `##[` and
    the separators U+0085, U+2028, U+2029 occur in JSON text only inside strings, where a
    `\\uXXXX` escape is the same character to every JSON reader."""
    escaped = commands(serialised, "\\u003a", "\\u0023")
    return _JSON_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped)


def xml_text(text: str) -> str:
    """Text content or an attribute value for hand-written XML, SVG or HTML: forbidden
    characters shown, markup characters escaped, and `::` written as a character reference,
    so that a page printed to a CI log cannot start a workflow command on a line of its own
    (it renders the same)."""
    return no_workflow_command(
        xml_chars(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def yaml_comment(text: str) -> str:
    """One line of a YAML comment: line breaks and controls shown, so text cannot end the
    comment and write keys."""
    return terminal(text.replace("\r\n", "\n"))
