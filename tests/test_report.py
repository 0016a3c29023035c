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


def test_built_without_validation_equals_the_validated_report() -> None:
    """The report's models are made without validation from licheck's own data: each product
    equals the same data validated, so every field is present and of its declared type."""
    from licheck.report import ProductOut, Report

    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    report = build(results, "default", None)
    assert Report.model_validate(report.model_dump()) == report
    for result in results:
        product = product_out(result)
        assert ProductOut.model_validate(product.model_dump(mode="json")) == product
        assert (
            ProductOut.model_validate(product.model_dump(mode="json")).model_dump()
            == product.model_dump()
        )


def test_shared_parts_are_reused_across_products() -> None:
    """Building the same product twice gives equal reports, and parts that depend only on the
    evaluation's shared objects (the facts licheck supplies) are the same objects."""
    library = load_library()
    first = [product_out(r) for r in evaluate_paths(MANIFESTS, OPTIONS, library)]
    second = [product_out(r) for r in evaluate_paths(MANIFESTS, OPTIONS, library)]
    assert first == second
    assert [encode_product(p, "\n    ") for p in first] == [
        encode_product(p, "\n    ") for p in second
    ]
    supplied: dict[tuple[str, str], set[int]] = {}
    for product in first:
        for finding in product.findings:
            for fact in finding.facts:
                if fact.evidence and fact.evidence[0].source.startswith("licheck's default"):
                    supplied.setdefault((fact.name, fact.evidence[0].source), set()).add(id(fact))
    assert supplied and all(len(ids) == 1 for ids in supplied.values())
