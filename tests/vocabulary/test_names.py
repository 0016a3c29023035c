"""The fact table of docs/facts.md is the vocabulary's, row for row."""

from __future__ import annotations

from licheck.vocabulary.names import FACTS
from tests.conftest import ROOT


def test_the_docs_fact_table_matches_the_vocabulary() -> None:
    text = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    start = text.index("\n", text.index("<!-- facts:begin")) + 1
    table = text[start : text.index("<!-- facts:end -->")].strip().splitlines()
    expected = ["| fact | type | unit | meaning |", "|---|---|---|---|"] + [
        f"| `{d.name}` | {d.type.value} | {d.unit} | "
        f"{d.meaning}{' (supplied by licheck)' if d.implicit else ''} |"
        for d in FACTS.values()
    ]
    assert table == expected
