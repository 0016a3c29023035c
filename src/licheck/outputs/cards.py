"""`licheck audit-cards`' summary (`Report.cards`) as the formats show it.

Text, Markdown and HTML draw it as a table after the products; JSON carries it as the report's
`cards`; SARIF as `run.properties.cards`; JUnit as the properties of a suite of no tests.
codequality, compact and github show no table, by choice: each is read by a machine one line
(or entry) a problem, and a table would be read as problems; the cards not read are in them as
every format lists the report's errors (docs/import.md).  Only audit-cards reports have it: the
reports of `evaluate` and `check` are unchanged."""

from __future__ import annotations

from licheck.report.cards import summary_rows
from licheck.report.view import Report

TITLE = "Cards audited"


def table_rows(top: Report) -> list[tuple[str, str, str]]:
    """(table, name, cards) for each row, the table's name only on its first row; [] without
    a summary."""
    if top.cards is None:
        return []
    rows, last = [], ""
    for table, name, count in summary_rows(top.cards):
        rows.append((table if table != last else "", name, str(count)))
        last = table
    return rows


def text_lines(top: Report) -> list[str]:
    """The table as plain lines (user text: the caller makes it safe), [] without one."""
    rows = table_rows(top)
    if not rows:
        return []
    width = max(len(row[0]) for row in rows)
    lines = [f"{TITLE}:", f"  {'':<{width}}  {'cards':>5}"]
    lines += [f"  {t:<{width}}  {c:>5}  {n}" for t, n, c in rows]
    return lines
