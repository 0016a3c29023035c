"""Plain lines wrapped to a width: stderr messages, `licheck licenses` tables, the text report's
summary.  Standard library only, so a caller that merely wraps a message does not import rich
or the report model (`licheck.formats.text` does)."""

from __future__ import annotations

import textwrap

from licheck.escape import rich as plain


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
