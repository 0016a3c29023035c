"""The JSON report, product by product: `report.to_json`'s bytes, each product's part encoded
where it was evaluated and the totals written around them."""

from __future__ import annotations

import re
from typing import Any

from pydantic_core import to_json

from licheck.files.jsontext import Hole, Lasting, dumps
from licheck.outputs.document import Piece, Plain
from licheck.report.digest import product_digest, report_digest
from licheck.report.leaner import SCHEMA_V1, Clauses, leaner_product, merge, top_v2
from licheck.report.view import ProductOut, Report

INDENT = "\n    "  # a product's level in the report's `products` array


def product_text(data: dict[str, Any], lasting: Lasting | None = None) -> str:
    """A product's data (`report.product_data`) as it stands in the report's `products` array."""
    return dumps(data, INDENT, lasting).text


def product_bytes(data: dict[str, Any]) -> bytes:
    """`product_text(data).encode()`, by pydantic-core's compiled encoder: the same bytes (its
    indented output is the standard library's, ensure_ascii off; a JSON text holds no raw line
    break, so re-indenting is one replace), about three times faster than the pure-Python one;
    a string a CI runner could read as a workflow command is written as `jsontext` writes it."""
    raw = to_json(data, indent=2).replace(b"\n", _INDENT_BYTES)
    if not any(unsafe.search(raw) for unsafe in _UNSAFE):
        return raw
    from licheck.text.escape import json_text

    return json_text(raw.decode()).encode()


_INDENT_BYTES = INDENT.encode()
# What `json_text` changes (in UTF-8), one pattern each: a pattern that starts with a literal is
# searched for by that literal, the alternation of all four byte by byte through its first bytes'
# set (a product's part of 38 KB: about 45 µs against 110, 0.8 M instructions against 2.2 M)
_UNSAFE = tuple(re.compile(p) for p in (rb"::", rb"##\[", rb"\xc2\x85", rb"\xe2\x80[\xa8\xa9]"))


class JsonDocument(Plain):
    """The report; each piece's extra is its product's digest (at schema 2.0: and its clause
    entries, `report.leaner`), and the tail ends with the report's (`licheck.report.digest`)."""

    separator = "," + INDENT

    def __init__(self, schema: str = "2.0") -> None:
        self.v1 = schema == SCHEMA_V1
        self._digests: dict[int, str] = {}  # by the product's position
        self._clauses: Clauses = {}  # schema 2.0: the report's clause table

    def piece(self, product: ProductOut) -> Piece:
        data = product.model_dump(mode="json")
        if self.v1:
            return Piece(product_text(data), product_digest(data))
        leaner, clauses = leaner_product(data)
        return Piece(product_text(leaner), (product_digest(data), clauses))

    def take(self, index: int, extra: Any) -> None:
        if self.v1:
            self._digests[index] = extra
            return
        self._digests[index] = extra[0]
        merge(self._clauses, extra[1])

    def head(self, top: Report, pieces: int) -> str:
        return self._split(top)[0] + ("[" + INDENT if pieces else "[]")

    def tail(self, top: Report, pieces: int) -> str:
        products = (self._digests[index] for index in sorted(self._digests))
        data = self._top(top)
        data["digest"] = report_digest(data, products)
        return ("\n  ]" if pieces else "") + self._split(data)[1]

    def _top(self, top: Report) -> dict[str, Any]:
        data = top.model_dump(mode="json")
        return data if self.v1 else top_v2(data, self._clauses)

    def _split(self, top: Report | dict[str, Any]) -> tuple[str, str]:
        """The report's text before and after its products array."""
        data = self._top(top) if isinstance(top, Report) else top
        data["products"] = Hole("products")
        before, after = dumps(data).split()
        return before, after + "\n"
