"""The report's data and its JSON encoding, product by product: what portfolio workers send the
parent."""

from __future__ import annotations

import json

from licheck.evaluation.evaluate import Options
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.jsontext import Hole, Lasting, dumps
from licheck.library.compiled import load_library
from licheck.outputs.jsonreport import product_bytes, product_text
from licheck.portfolio.runs import evaluate_paths
from licheck.report.building import ReportMemo, build, product_data
from licheck.report.view import ProductOut, Report, to_json
from tests.conftest import PRODUCTS

MANIFESTS = sorted(PRODUCTS.glob("*.yaml"))
OPTIONS = Options(POLICIES["default"])


def test_encoded_products_joined_are_to_json() -> None:
    """The report's text is its head, then each product's text after `[` or `,` and the
    indent, then its tail: the parent can join what workers encoded."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    assert len(results) > 1
    report = build(results, "default", None)
    text = to_json(report)
    memo = ReportMemo()
    pieces = [dumps(product_data(r, memo), "\n    ", memo.lasting).text for r in results]
    joined = "[\n    " + ",\n    ".join(pieces) + "\n  ]"
    assert joined in text
    head, _, tail = text.partition(joined)
    assert head.endswith('"products": ') and tail.startswith(",\n")


def test_encoding_is_json_dumps_at_any_level() -> None:
    """With "\\n" it is the product alone as json.dumps(indent=2) writes it; deeper levels only
    indent more; the memo's texts of shared parts change nothing."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    memo = ReportMemo()
    for _ in range(2):
        for result in results:
            data = product_data(result, memo)
            expected = json.dumps(data, indent=2, ensure_ascii=False)
            assert dumps(data, "\n", memo.lasting).text == expected
            assert dumps(data, "\n  ", memo.lasting).text == expected.replace("\n", "\n  ")
            assert dumps(data).text == expected


def test_product_bytes_are_the_product_text() -> None:
    """The workers' compiled encoder writes the bytes of the pure-Python one, control
    characters, non-ASCII text and big integers included."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    memo = ReportMemo()
    for result in results:
        data = product_data(result, memo)
        assert product_bytes(data) == product_text(data, memo.lasting).encode()
    odd = {"s": '\x00\x1f\x7f é \u2028 😀 "\\/\b\f\n\r\t', "n": [10**30, -1, 0, True, None]}
    assert product_bytes(odd) == product_text(odd).encode()
    assert product_bytes({"a": [], "b": {}}) == product_text({"a": [], "b": {}}).encode()


def test_product_bytes_break_each_workflow_command_as_the_product_text_does() -> None:
    """Each form `json_text` changes is found alone (one pattern each), wherever it stands."""
    for unsafe in ("::set-output", "##[error]", "\x85", "\u2028", "\u2029"):
        for text in (unsafe, f"a long text, then {unsafe} within it", f"{unsafe}{unsafe}"):
            data = {"quote": text, "other": ["plain"]}
            assert product_bytes(data) == product_text(data).encode(), text
            assert unsafe.encode() not in product_bytes(data), text


def test_a_hole_is_left_out_and_located() -> None:
    text = dumps({"a": [1, {"b": Hole("x")}], "c": "é"})
    assert text.text == '{\n  "a": [\n    1,\n    {\n      "b": \n    }\n  ],\n  "c": "é"\n}'
    assert text.holes == ((text.text.index("\n    }"), "x"),)


def test_lasting_parts_are_cleared_when_full() -> None:
    lasting = Lasting(limit=2)
    parts = [lasting.keep({"n": n}) for n in range(3)]
    assert [dumps([p], "\n", lasting).text for p in parts] == [
        f'[\n  {{\n    "n": {n}\n  }}\n]' for n in range(3)
    ]
    assert len(lasting.objects) <= 2


def test_data_is_what_the_validated_model_dumps() -> None:
    """The report's data is built without its models: it equals the same data validated and
    dumped, so every field is present and of its declared type."""
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    report = build(results, "default", None)
    assert Report.model_validate(report.model_dump()) == report
    memo = ReportMemo()
    for result in results:
        data = product_data(result, memo)
        assert ProductOut.model_validate(data).model_dump(mode="json") == data


def test_shared_parts_are_reused_across_products() -> None:
    """Building the same product twice gives equal data, and parts that depend only on the
    evaluation's shared objects (the facts licheck supplies) are the same objects within a
    run's memo."""
    library = load_library()
    memo = ReportMemo()
    first = [product_data(r, memo) for r in evaluate_paths(MANIFESTS, OPTIONS, library)]
    second = [product_data(r, memo) for r in evaluate_paths(MANIFESTS, OPTIONS, library)]
    assert first == second
    assert [dumps(p, "\n    ", memo.lasting).text for p in first] == [
        dumps(p, "\n    ").text for p in second
    ]
    supplied: dict[tuple[str, str], set[int]] = {}
    for product in first:
        for finding in product["findings"]:
            for fact in finding["facts"]:
                if fact["evidence"] and fact["evidence"][0]["source"].startswith(
                    "licheck's default"
                ):
                    key = (fact["name"], fact["evidence"][0]["source"])
                    supplied.setdefault(key, set()).add(id(fact))
    assert supplied and all(len(ids) == 1 for ids in supplied.values())


def test_a_small_memo_changes_nothing() -> None:
    """The memo's tables are bounded: cleared when full, the data and its text are the same."""
    results = evaluate_paths(MANIFESTS * 2, OPTIONS, load_library())
    memo = ReportMemo(limit=2)
    for result in results:
        data = product_data(result, memo)
        expected = json.dumps(data, indent=2, ensure_ascii=False)
        assert dumps(data, "\n", memo.lasting).text == expected
        assert data == product_data(result, ReportMemo())
