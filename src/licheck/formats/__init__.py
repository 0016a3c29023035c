"""Output formats: each renders the same `Report`; the CLI writes it.

Every format is written in pieces, one per product, so that a portfolio never holds its report:
`Document.piece` turns one product into its text (in a worker process, for a large portfolio) and
a small `extra` the totals need; the parent `take`s each extra, and at the end writes `head`, the
pieces joined by `separator`, and `tail` (where each format puts its totals).  `render` does the
same in memory, so a whole report and a stream of products give the same bytes.

`open_document` imports each format lazily, so a machine format never pays for rich.  `fail_on`
matters to formats that mark what fails the gate (text summary, junit, markdown, github).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from licheck.report import FailOn, ProductOut, Report

MARK = "\x00"  # brackets a marker in a piece (`Document.marker`): a format whose pieces have
# markers writes JSON, where a NUL is always escaped; other pieces have theirs escaped (`escape`)
NUL = MARK + "0" + MARK  # the marker for a NUL of the data itself


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    JUNIT = "junit"
    MARKDOWN = "markdown"
    GITHUB = "github"


FORMATS = tuple(f.value for f in Format)


@dataclass(frozen=True, slots=True)
class RenderOptions:
    fail_on: FailOn = FailOn.VIOLATION
    color: bool | None = False
    verbose: bool = False
    summary: bool = False  # text: append the gate summary (licheck check)


@dataclass(frozen=True, slots=True)
class Context:
    """What rendering a product needs besides the product: sent to the workers."""

    fmt: Format
    options: RenderOptions
    evidence_policy: str
    as_of: str | None


@dataclass(frozen=True, slots=True)
class Piece:
    text: str  # the product's text in the document's body ("" when it shows nothing there)
    extra: Any = None  # what the head or tail needs of the product (format-specific, small)


class Document(Protocol):
    """One format, written product by product."""

    separator: str  # between two non-empty pieces
    markers: bool  # whether its pieces may hold markers (any other NUL in them is data)

    def piece(self, product: ProductOut) -> Piece:
        """The product's piece: pure (workers call it), the same for the same product."""
        ...

    def take(self, index: int, extra: Any) -> None:
        """Count a piece's extra; `index` is the product's position (extras may come out of
        order: products a waiver may change are rendered last)."""
        ...

    def head(self, top: Report, pieces: int) -> str:
        """The text before the pieces; `top` is the report without its products, `pieces` the
        number of non-empty pieces."""
        ...

    def tail(self, top: Report, pieces: int) -> str: ...

    def marker(self, name: str) -> str:
        """The text for a marker a piece left for what only the totals know."""
        ...


class Plain:
    """Defaults for formats whose pieces need no totals and leave no markers."""

    separator = ""
    markers = False

    def take(self, index: int, extra: Any) -> None:
        return None

    def head(self, top: Report, pieces: int) -> str:
        return ""

    def tail(self, top: Report, pieces: int) -> str:
        return ""

    def marker(self, name: str) -> str:
        raise ValueError(f"unexpected marker {name!r}")


def _json(context: Context) -> Document:
    from licheck.formats.jsonreport import JsonDocument

    return JsonDocument()


def _text(context: Context) -> Document:
    from licheck.formats.text import TextDocument

    return TextDocument(context)


def _sarif(context: Context) -> Document:
    from licheck.formats.sarif import SarifDocument

    return SarifDocument()


def _junit(context: Context) -> Document:
    from licheck.formats.junit import JunitDocument

    return JunitDocument(context.options.fail_on)


def _markdown(context: Context) -> Document:
    from licheck.formats.markdown import MarkdownDocument

    return MarkdownDocument(context.options.fail_on)


def _github(context: Context) -> Document:
    from licheck.formats.github import GithubDocument

    return GithubDocument(context.options.fail_on)


def open_document(context: Context) -> Document:
    """A fresh document of the context's format."""
    openers: dict[Format, Callable[[Context], Document]] = {
        Format.TEXT: _text,
        Format.JSON: _json,
        Format.SARIF: _sarif,
        Format.JUNIT: _junit,
        Format.MARKDOWN: _markdown,
        Format.GITHUB: _github,
    }
    return openers[context.fmt](context)


def escape(text: str, document: Document) -> str:
    """A piece as it is kept between its rendering and `resolve`: a NUL of a format without
    markers is data, kept as the marker for a NUL."""
    return text if document.markers or MARK not in text else text.replace(MARK, NUL)


def resolve(text: str, document: Document) -> str:
    """`text` (escaped) with its markers replaced by what they stand for."""
    if MARK not in text:
        return text
    tokens = text.split(MARK)
    for index in range(1, len(tokens), 2):
        name = tokens[index]
        tokens[index] = MARK if name == "0" else document.marker(name)
    return "".join(tokens)


def render(report: Report, fmt: Format, options: RenderOptions = RenderOptions()) -> str:
    """The report in one format, in memory (the same pieces a portfolio streams)."""
    document = open_document(Context(fmt, options, report.evidence_policy, report.as_of))
    texts = []
    for index, product in enumerate(report.products):
        piece = document.piece(product)
        document.take(index, piece.extra)
        if piece.text:
            texts.append(piece.text)
    top = report.model_copy(update={"products": []})
    body = document.separator.join(texts)
    return (
        document.head(top, len(texts))
        + (resolve(body, document) if document.markers else body)
        + document.tail(top, len(texts))
    )
