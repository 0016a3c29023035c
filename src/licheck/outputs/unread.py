"""Manifests that could not be read, as the formats list them: `licheck check` evaluates every
other manifest, reports these with their file:line:column, and exits 2 (over the gate's 1)."""

from __future__ import annotations

from licheck.outputs.summary import unread
from licheck.report.view import ErrorOut, Report
from licheck.text.escape import line

TITLE = "licheck: manifest not read"


def where(error: ErrorOut) -> str:
    """file:line:column, or the file alone when the position is unknown."""
    return error.file if error.line == 0 else f"{error.file}:{error.line}:{error.column}"


def message(error: ErrorOut) -> str:
    """The problem with its hint, on one line."""
    return error.message + (f" (hint: {error.hint})" if error.hint else "")


def error_lines(report: Report) -> list[str]:
    """`file:line:column: error: message` for each problem: what editors and CI problem matchers
    read (user text shown safely: no controls, no workflow commands)."""
    return [line(f"{where(e)}: error: {message(e)}") for e in report.errors]


def block(report: Report) -> str:
    """The text block listing them, or ''."""
    if not report.errors:
        return ""
    heading = f"\n{unread(report)} (the others were evaluated; exit 2):\n"
    return heading + "".join(f"  {text}\n" for text in error_lines(report))
