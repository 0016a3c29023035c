"""The report's JSON encoding, product by product: what portfolio workers send the parent."""

from __future__ import annotations

import json

from licheck.api import evaluate_paths
from licheck.evaluation import Options
from licheck.facts import POLICIES
from licheck.library import load_library
from licheck.report import build, encode_product, product_out, to_json
from tests.conftest import PRODUCTS

MANIFESTS = sorted(PRODUCTS.glob("*.yaml"))
OPTIONS = Options(POLICIES["default"])


def test_encoded_products_joined_are_to_json() -> None:
    """The report's text is its head, then each product's `encode_product` text after `[` or
    `,` and the indent, then its tail: the parent can join what workers encoded."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    assert len(results) > 1
    report = build(results, "default", None)
    text = to_json(report)
    pieces = [encode_product(product_out(r), "\n    ") for r in results]
    joined = "[\n    " + ",\n    ".join(pieces) + "\n  ]"
    assert joined in text
    head, _, tail = text.partition(joined)
    assert head.endswith('"products": ') and tail.startswith(",\n")


def test_encode_product_is_json_dumps_at_any_level() -> None:
    """With "\\n" it is the product alone as json.dumps(indent=2) writes it; deeper levels only
    indent more."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    for result in results:
        product = product_out(result)
        expected = json.dumps(product.model_dump(mode="json"), indent=2, ensure_ascii=False)
        assert encode_product(product, "\n") == expected
        assert encode_product(product, "\n  ") == expected.replace("\n", "\n  ")
