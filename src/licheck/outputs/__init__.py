"""Output formats: each renders the same `Report`; the CLI writes it.

Every format is written in pieces, one per product, so that a portfolio never holds its report:
`Document.piece` turns one product into its text (in a worker process, for a large portfolio) and
a small `extra` the totals need; the writer `take`s each extra, and at the end writes `head`, the
pieces joined by `separator`, and `tail` (where each format puts its totals).  A piece may leave
holes for what only the totals know (SARIF's rule indexes): their offsets travel beside the text,
and `fill` gives their text at the end.  `render` does this in memory; `portfolio.streaming` does
it for a portfolio, with the same bytes.

The types every format shares are in `outputs.document`; this package opens a format's document
(`open_document`), importing each format lazily, so a machine format never pays for rich.  `fail_on`
matters to formats that mark what fails the gate (text summary, junit, markdown, github).
"""

from __future__ import annotations

from collections.abc import Callable

from licheck.outputs.document import (
    FORMATS,
    Context,
    Document,
    Format,
    Piece,
    Plain,
    RenderOptions,
    written,
)
from licheck.report.view import Report

__all__ = [
    "FORMATS",
    "Context",
    "Document",
    "Format",
    "Piece",
    "Plain",
    "RenderOptions",
    "open_document",
    "render",
]


def _json(context: Context) -> Document:
    from licheck.outputs.jsonreport import JsonDocument

    return JsonDocument(context.options.json_schema)


def _text(context: Context) -> Document:
    if context.options.brief:
        from licheck.outputs.brief import BriefDocument

        return BriefDocument(context.options)
    from licheck.outputs.text import TextDocument

    return TextDocument(context)


def _sarif(context: Context) -> Document:
    from licheck.outputs.sarif import SarifDocument

    return SarifDocument(context.options)


def _junit(context: Context) -> Document:
    from licheck.outputs.junit import JunitDocument

    return JunitDocument(context.options.fail_on)


def _markdown(context: Context) -> Document:
    from licheck.outputs.markdown import MarkdownDocument

    return MarkdownDocument(context.options.fail_on)


def _github(context: Context) -> Document:
    from licheck.outputs.github import GithubDocument

    return GithubDocument(context.options.fail_on, context.options.annotations)


def _compact(context: Context) -> Document:
    from licheck.outputs.compact import CompactDocument

    return CompactDocument(context.options.fail_on)


def _html(context: Context) -> Document:
    from licheck.outputs.html import HtmlDocument

    return HtmlDocument(context.options.fail_on)


def _codequality(context: Context) -> Document:
    from licheck.outputs.codequality import CodeQualityDocument

    return CodeQualityDocument(context.options.root, context.options.cwd)


def open_document(context: Context) -> Document:
    """A fresh document of the context's format."""
    openers: dict[Format, Callable[[Context], Document]] = {
        Format.TEXT: _text,
        Format.JSON: _json,
        Format.SARIF: _sarif,
        Format.JUNIT: _junit,
        Format.MARKDOWN: _markdown,
        Format.GITHUB: _github,
        Format.COMPACT: _compact,
        Format.HTML: _html,
        Format.CODEQUALITY: _codequality,
    }
    return openers[context.fmt](context)


_DEFAULTS = RenderOptions()


def render(report: Report, fmt: Format, options: RenderOptions = _DEFAULTS) -> str:
    """The report in one format, in memory (the same pieces a portfolio streams)."""
    return written(
        open_document(Context(fmt, options, report.evidence_policy, report.as_of)), report
    )
