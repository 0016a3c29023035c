"""docs/audits.md: one row per finding of the second review's two reports (issue 23, deliverable
8), each with a status, and every test, rule file or page it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REFERENCE, needs_reference

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "audits.md"
STATUSES = frozenset({"fixed", "answered", "open"})
# the issue's count: 14 critical, 12 major, 21 minor
SEVERITIES = {"C": 14, "M": 12, "m": 21}


def _rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"[AB]-[CMm]\d+", cells[0]):
            assert cells[0] not in rows, f"audits.md: two rows for {cells[0]}"
            rows[cells[0]] = (cells[2], cells[3])
    return rows


def _report_ids(report: Path, prefix: str) -> set[str]:
    text = report.read_text(encoding="utf-8")
    found = re.findall(r"^### ([CM])-?(\d+)\b", text, re.MULTILINE)
    found += re.findall(r"^\s*(?:- )?\*\*(m)-?(\d+)\b", text, re.MULTILINE)
    return {f"{prefix}-{kind}{number}" for kind, number in found}


def test_every_row_has_a_status_and_the_counts_are_the_issues() -> None:
    rows = _rows()
    for finding, (status, _) in rows.items():
        assert status in STATUSES, f"{finding}: status {status!r}"
    for severity, count in SEVERITIES.items():
        assert sum(f.split("-")[1][0] == severity for f in rows) == count, severity


@needs_reference()
def test_there_is_a_row_for_every_finding_of_both_reports() -> None:
    expected = _report_ids(REFERENCE / "audit-2026-12-s3-A.md", "A")
    expected |= _report_ids(REFERENCE / "audit-2026-12-s3-B.md", "B")
    assert len(expected) == sum(SEVERITIES.values())
    assert set(_rows()) == expected


@pytest.mark.parametrize("finding", sorted(_rows()))
def test_what_a_row_names_exists(finding: str) -> None:
    status, shown = _rows()[finding]
    named = re.findall(r"`([^`]+)`", shown)
    paths = [n for n in named if re.match(r"(tests|licenses|products|docs|src)/", n)]
    if status == "open":  # an open finding says what is left and why
        assert len(shown) >= 60, f"{finding}: open, without saying what is left"
    else:
        assert paths, f"{finding}: names no test, rule file or page"
    for name in paths:
        path, _, test = name.partition("::")
        assert (ROOT / path).is_file(), f"{finding}: {path} does not exist"
        if test:
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(test)}\(", source, re.MULTILINE), (
                f"{finding}: {path} has no test {test}"
            )
