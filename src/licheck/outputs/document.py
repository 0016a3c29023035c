"""What every output format shares: the formats, their options, the context a product is
rendered in, and a document written in pieces (one per product), with `written`, which writes a
whole report through one document in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from licheck.report.view import FailOn, LibraryOut, ProductOut, Report


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    JUNIT = "junit"
    MARKDOWN = "markdown"
    GITHUB = "github"
    COMPACT = "compact"
    HTML = "html"
    CODEQUALITY = "codequality"


FORMATS = tuple(f.value for f in Format)


@dataclass(frozen=True, slots=True)
class RenderOptions:
    fail_on: FailOn = FailOn.VIOLATION
    color: bool | None = False
    verbose: bool = False
    summary: bool = False  # text: append the gate summary (licheck check)
    brief: bool = False  # text: one line per problem and the summary (`check` without -v)
    width: int = 100  # text: the columns no line may exceed (the terminal's, or COLUMNS)
    encoding: str = "utf-8"  # text: what standard output takes (stand-ins laid out for others)
    json_schema: str = "2.0"  # json: the report's schema_version ("1.0": deprecated, one release)
    annotations: int = 10  # github: workflow commands of each kind (GitHub shows 10 per step)
    # sarif: the repository's top folder and the working folder (absolute, "/"-separated), so
    # that URIs are repository-relative; None: relative to the working folder
    root: str | None = None
    cwd: str | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """What rendering a product needs besides the product: sent to the workers."""

    fmt: Format
    options: RenderOptions
    evidence_policy: str
    as_of: str | None
    library: LibraryOut | None = None  # the layered rule library, for the report's top


@dataclass(frozen=True, slots=True)
class Piece:
    text: str  # the product's text in the document's body ("" when it shows nothing there)
    extra: Any = None  # what the head or tail needs of the product (format-specific, small)
    holes: tuple[tuple[int, str], ...] = ()  # (offset in `text`, name) for `Document.fill`

    def filled(self, document: Document) -> str:
        """The text with its holes filled (once every piece was taken)."""
        if not self.holes:
            return self.text
        out, start = [], 0
        for offset, name in self.holes:
            out += [self.text[start:offset], document.fill(name)]
            start = offset
        out.append(self.text[start:])
        return "".join(out)


class Document(Protocol):
    """One format, written product by product."""

    separator: str  # between two non-empty pieces

    def piece(self, product: ProductOut) -> Piece:
        """The product's piece: pure (workers call it), the same for the same product."""
        ...

    def take(self, index: int, extra: Any) -> None:
        """Count a piece's extra; `index` is the product's position (extras may come out of
        order: products a waiver may change are rendered last)."""
        ...

    def admits(self, index: int, extra: Any) -> bool:
        """Whether the (taken) piece's text is written: a format with a cap on its size (SARIF's
        results per run) refuses pieces past it.  Asked in the order the pieces are taken."""
        ...

    def head(self, top: Report, pieces: int) -> str:
        """The text before the pieces; `top` is the report without its products, `pieces` the
        number of non-empty pieces."""
        ...

    def tail(self, top: Report, pieces: int) -> str: ...

    def fill(self, name: str) -> str:
        """The text of a hole a piece left for what only the totals know."""
        ...


class Plain:
    """Defaults for formats whose pieces need no totals and leave no holes."""

    separator = ""

    def take(self, index: int, extra: Any) -> None:
        return None

    def admits(self, index: int, extra: Any) -> bool:
        return True

    def head(self, top: Report, pieces: int) -> str:
        return ""

    def tail(self, top: Report, pieces: int) -> str:
        return ""

    def fill(self, name: str) -> str:
        raise ValueError(f"unexpected hole {name!r}")


def written(document: Document, report: Report) -> str:
    """The report through one document, in memory (the same pieces a portfolio streams)."""
    pieces = []
    for index, product in enumerate(report.products):
        piece = document.piece(product)
        document.take(index, piece.extra)
        if piece.text and document.admits(index, piece.extra):
            pieces.append(piece)
    top = report.model_copy(update={"products": []})
    body = document.separator.join(piece.filled(document) for piece in pieces)
    return document.head(top, len(pieces)) + body + document.tail(top, len(pieces))
