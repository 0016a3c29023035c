"""The JSON report, product by product: `report.to_json`'s bytes, each product's part encoded
where it was evaluated and the totals written around them."""

from __future__ import annotations

import re
from typing import Any

from pydantic_core import to_json

from licheck.files.jsontext import Hole, Lasting, dumps
from licheck.outputs.document import Piece, Plain
from licheck.report.digest import product_digest, report_digest
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
    """The report; each piece's extra is its product's digest, and the tail ends with the
    report's (`licheck.report.digest`)."""

    separator = "," + INDENT

    def __init__(self) -> None:
        self._digests: dict[int, str] = {}  # by the product's position

    def piece(self, product: ProductOut) -> Piece:
        data = product.model_dump(mode="json")
        return Piece(product_text(data), product_digest(data))

    def take(self, index: int, extra: str) -> None:
        self._digests[index] = extra

    def head(self, top: Report, pieces: int) -> str:
        return _split(top)[0] + ("[" + INDENT if pieces else "[]")

    def tail(self, top: Report, pieces: int) -> str:
        products = (self._digests[index] for index in sorted(self._digests))
        digest = report_digest(top.model_dump(mode="json"), products)
        return ("\n  ]" if pieces else "") + _split(top.model_copy(update={"digest": digest}))[1]


def _split(top: Report) -> tuple[str, str]:
    """The report's text before and after its products array."""
    data = top.model_dump(mode="json")
    data["products"] = Hole("products")
    before, after = dumps(data).split()
    return before, after + "\n"
