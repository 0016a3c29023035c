"""The JSON report, product by product: `report.to_json`'s bytes, with each product encoded where
it was evaluated (`report.encode_product`) and the totals written around them."""

from __future__ import annotations

from licheck.formats import Piece, Plain
from licheck.report import ProductOut, Report, encode_product, to_json

INDENT = "\n    "  # a product's level in the report's `products` array
FIELD = '\n  "products": '  # where the products go in the report's text


class JsonDocument(Plain):
    separator = "," + INDENT

    def piece(self, product: ProductOut) -> Piece:
        return Piece(encode_product(product, INDENT))

    def head(self, top: Report, pieces: int) -> str:
        return _split(top)[0] + ("[" + INDENT if pieces else "[]")

    def tail(self, top: Report, pieces: int) -> str:
        return ("\n  ]" if pieces else "") + _split(top)[1]


def _split(top: Report) -> tuple[str, str]:
    """The report's text before and after its (empty) products array.  The field's name is
    found with its line break and indent, which no encoded string contains."""
    text = to_json(top)
    start = text.index(FIELD + "[]") + len(FIELD)
    return text[:start], text[start + 2 :]
