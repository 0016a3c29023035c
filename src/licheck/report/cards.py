"""`licheck audit-cards`' summary of the cards it audited, counted from the report's products
(one product a card): cards by base family, by verdict, the most common findings, and the cards
not read.  Each product is counted as a `CardRow`, from the report already built or, in a
streamed run, where the product was judged (the worker sends its row beside its part of the
report), so no card is judged twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from licheck.core.verdicts import Verdict
from licheck.report.view import CardsOut, CountOut, ErrorOut, ProductOut, Report

MOST_COMMON = 10  # findings listed
NO_LICENSE = "none"  # a card none of whose findings is under a license
_PROBLEMS = (Verdict.VIOLATION.value, Verdict.GOVERNANCE_RISK.value)


def _rows(counter: Counter[str], order: Sequence[str] | None = None) -> list[CountOut]:
    """The counts as rows: in `order`, else most cards first, then by name."""
    if order is not None:
        return [CountOut(name=name, cards=counter[name]) for name in order if counter[name]]
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return [CountOut(name=name, cards=n) for name, n in ranked]


@dataclass(frozen=True, slots=True)
class CardRow:
    """What the summary counts of one card's product: its verdict, its base families (the
    licenses of its findings) and its problems (`verdict: license/clause` of each violation or
    governance risk, once).  Waivers change none of these (they mark findings, never their
    verdicts), so a worker counts a product as the finished report would."""

    verdict: str
    families: frozenset[str]
    findings: frozenset[str]


def card_row(verdict: str, findings: Iterable[tuple[str, str, str]]) -> CardRow:
    """A product's row from its verdict and each finding's (verdict, license, clause), verdicts
    by value: from a `ProductOut` (`product_row`) or its plain data (`data_row`) alike."""
    listed = list(findings)
    return CardRow(
        verdict,
        frozenset(license for _, license, _ in listed) or frozenset({NO_LICENSE}),
        frozenset(f"{v}: {lic}/{clause}" for v, lic, clause in listed if v in _PROBLEMS),
    )


def product_row(product: ProductOut) -> CardRow:
    return card_row(
        product.verdict.value,
        ((f.verdict.value, f.license, f.clause) for f in product.findings),
    )


def data_row(data: Mapping[str, Any]) -> CardRow:
    """The row of a product's plain data (`report.building.product_data`), as a worker has it."""
    return card_row(
        data["verdict"], ((f["verdict"], f["license"], f["clause"]) for f in data["findings"])
    )


def cards_summary(report: Report, cards: int, not_read: Sequence[ErrorOut]) -> CardsOut:
    """The summary of `cards` cards found, `report` judging those read."""
    return summary_of([product_row(p) for p in report.products], cards, not_read)


def summary_of(rows: Sequence[CardRow], cards: int, not_read: Sequence[ErrorOut]) -> CardsOut:
    """The summary of `cards` cards found, `rows` counting those judged (a row a product)."""
    by_family: Counter[str] = Counter()
    by_verdict: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    for row in rows:
        by_verdict[row.verdict] += 1
        by_family.update(row.families)
        findings.update(row.findings)
    worst_first = sorted((v.value for v in Verdict), key=lambda v: -Verdict(v).severity)
    return CardsOut(
        cards=cards,
        judged=len(rows),
        not_read=list(not_read),
        by_base_family=_rows(by_family),
        by_verdict=_rows(by_verdict, worst_first),
        most_common_findings=_rows(findings)[:MOST_COMMON],
    )


def summary_rows(cards: CardsOut) -> list[tuple[str, str, int]]:
    """(table, name, cards) for each row every table-drawing format shows: the totals, then
    each count table (user text: the formats escape it)."""
    rows = [
        ("cards", "found", cards.cards),
        ("cards", "judged", cards.judged),
        ("cards", "not read", len(cards.not_read)),
    ]
    for table, counted in (
        ("by base family", cards.by_base_family),
        ("by verdict", cards.by_verdict),
        ("most common finding", cards.most_common_findings),
    ):
        rows += [(table, row.name, row.cards) for row in counted]
    return rows
