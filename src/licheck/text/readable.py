"""Text for an output whose encoding lacks some characters (a cp1252 console, an ASCII pipe).

Python's `errors="replace"` writes `?` for each such character, which turns "≈166.67M → risk"
into "?166.67M ? risk".  The error handler registered here writes a readable ASCII stand-in
instead: `≈` → `~`, `→` → `->`, `…` → `...`, box-drawing lines → `-`, `|`, `+`, accented letters
without their accents; a character with no stand-in (a CJK name) is shown as its escape
(`\\u4e2d`), never dropped or guessed.

Also plain lines wrapped to a width (`fit`, `fit_lines`): stderr messages, `licheck licenses`
tables, the text report's summary.  Standard library only, so a caller that merely wraps a
message imports neither rich nor the report model.
"""

from __future__ import annotations

import codecs
import textwrap
import unicodedata

from licheck.text.escape import rich as plain

HANDLER = "licheck-readable"  # the name to give as `errors=` once `register` ran

STAND_INS = {
    "≈": "~",
    "→": "->",
    "←": "<-",
    "⇒": "=>",
    "…": "...",
    "—": "--",
    "–": "-",
    "‑": "-",
    "−": "-",
    "“": '"',
    "”": '"',
    "„": '"',
    "‘": "'",
    "’": "'",
    "·": "-",
    "•": "*",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "×": "x",
    "÷": "/",
    "±": "+/-",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "✓": "v",
    "✔": "v",
    "✗": "x",
    "✘": "x",
    "⚠": "!",
    "✅": "[ok]",  # the Markdown report's marks
    "🛑": "[x]",
    "🔕": "[-]",
    "\u00a0": " ",  # no-break space
    "\u200b": "",  # zero-width space
    "\ufe0f": "",  # emoji presentation selector (after ⚠)
}


def stand_in(char: str) -> str:
    """A readable ASCII stand-in for one character."""
    found = STAND_INS.get(char)
    if found is not None:
        return found
    if "\u2500" <= char <= "\u257f":  # box drawing: rich's tables and rules
        return _box(unicodedata.name(char, ""))
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    if plain:
        return plain
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _box(name: str) -> str:
    words = set(name.split())
    if words & {"HORIZONTAL"} and not words & {"VERTICAL", "UP", "DOWN"}:
        return "=" if "DOUBLE" in words else "-"
    if words & {"VERTICAL"} and not words & {"HORIZONTAL", "LEFT", "RIGHT"}:
        return "|"
    return "+"  # corners, crossings and tees


def readable(text: str) -> str:
    """`text` with every non-ASCII character replaced by its stand-in."""
    return "".join(c if c < "\x80" else stand_in(c) for c in text)


def _handle(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return readable(error.object[error.start : error.end]), error.end


def register() -> str:
    """Register the handler (idempotent: a codec registry entry, not state of ours); its name."""
    codecs.register_error(HANDLER, _handle)
    return HANDLER


def encodable(text: str, encoding: str) -> str:
    """`text` as `encoding` can show it: the characters it lacks replaced by stand-ins (and
    nothing else changed), so that text can be laid out as it will be printed.  An encoding
    Python does not know leaves `text` as it is (the stream's handler still applies)."""
    if encoding.lower().replace("-", "").replace("_", "") == "utf8":
        return text
    try:
        return text.encode(encoding, register()).decode(encoding)
    except LookupError:
        return text


def fit(line: str, width: int, indent: str = "    ") -> str:
    """A plain line wrapped at spaces to `width`, continued lines starting with `indent`; a
    word longer than a line is folded, never cut.  A `::` is shown escaped (`escape.rich`): a
    wrapped line must not start a CI workflow command."""
    line = plain(line)
    if len(line) <= width:
        return line
    return textwrap.fill(
        line, width, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True
    )


def fit_lines(text: str, width: int, extra: str = "    ") -> str:
    """Each line of `text` `fit` to `width`, a continued line indented `extra` more than its
    own line (so a wrapped list item stays under its item)."""
    return "\n".join(
        fit(line, width, line[: len(line) - len(line.lstrip(" "))] + extra)
        for line in text.split("\n")
    )
