"""`licheck audit-cards`' summary of the cards it audited, counted from the report's products
(one product a card): cards by base family, by verdict, the most common findings, and the cards
not read.  It is computed from the report already built, so no card is judged twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from licheck.core.verdicts import Verdict
from licheck.report.view import CardsOut, CountOut, ErrorOut, ProductOut, Report

MOST_COMMON = 10  # findings listed
NO_LICENSE = "none"  # a card none of whose findings is under a license
_PROBLEMS = (Verdict.VIOLATION, Verdict.GOVERNANCE_RISK)


def _rows(counter: Counter[str], order: Sequence[str] | None = None) -> list[CountOut]:
    """The counts as rows: in `order`, else most cards first, then by name."""
    if order is not None:
        return [CountOut(name=name, cards=counter[name]) for name in order if counter[name]]
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return [CountOut(name=name, cards=n) for name, n in ranked]


def _findings(product: ProductOut) -> set[str]:
    """`verdict: license/clause` of each violation or governance risk, once a card."""
    return {
        f"{f.verdict.value}: {f.license}/{f.clause}"
        for f in product.findings
        if f.verdict in _PROBLEMS
    }


def cards_summary(report: Report, cards: int, not_read: Sequence[ErrorOut]) -> CardsOut:
    """The summary of `cards` cards found, `report` judging those read."""
    by_family: Counter[str] = Counter()
    by_verdict: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    for product in report.products:
        by_verdict[product.verdict.value] += 1
        by_family.update({f.license for f in product.findings} or {NO_LICENSE})
        findings.update(_findings(product))
    worst_first = sorted((v.value for v in Verdict), key=lambda v: -Verdict(v).severity)
    return CardsOut(
        cards=cards,
        judged=len(report.products),
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
