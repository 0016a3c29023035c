"""`commercial` derived from the product's revenue or a paid offering (issue 24, deliverable 3).

A product with 300M USD ARR is commercial: Kimi K2.5's display duty is then decided (a violation
where the name is left off and no agreement lifts it), not a risk "maybe not commercial"; a stated
`commercial: false` beside revenue above zero is a located error (exit 2).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from licheck.checks.revenue import implied_commercial
from licheck.inputs.manifest import FactSpec
from tests.clirun import report_json, run

KIMI = """product: Coder
owner: Acme
agreements: none
facts:
  monthly_revenue: {value: 300M USD ARR}
  mau: 20M
  ui_attribution: {excludes: [Kimi K2.5]}
{extra}components:
  - id: coder
    name: Coder
    delivery: [hosted_service]
    lineage:
      base: kimi-k2.5
      steps: [fine_tuning]
"""


def _write(tmp_path: Path, extra: str = "", revenue: str = "{value: 300M USD ARR}") -> Path:
    path = tmp_path / "coder.yaml"
    text = KIMI.replace("{extra}", extra).replace("{value: 300M USD ARR}", revenue)
    path.write_text(text, encoding="utf-8")
    return path


def _finding(out: str, clause: str) -> dict[str, Any]:
    products: list[dict[str, Any]] = report_json(out)["products"]
    (found,) = [f for p in products for f in p["findings"] if f["clause"] == clause]
    assert isinstance(found, dict)
    return found


def _fact(finding: dict[str, Any], name: str) -> dict[str, Any]:
    facts = finding["facts"]
    assert isinstance(facts, list)
    (fact,) = [f for f in facts if f["name"] == name]
    assert isinstance(fact, dict)
    return fact


def test_arr_above_zero_makes_the_product_commercial_and_the_display_duty_firm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "evaluate", str(_write(tmp_path)), "--format", "json")
    assert code == 1, err
    finding = _finding(out, "ui-attribution")
    assert finding["verdict"] == "violation"
    commercial = _fact(finding, "commercial")
    assert commercial["status"] == "established"
    assert "monthly_revenue" in str(commercial.get("note"))


def test_a_press_reported_figure_makes_it_only_likely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revenue = "{value: 300M USD ARR, evidence: [{source: a blog, kind: rumour, date: 2026-01-05}]}"
    code, out, err = run(
        capsys, "evaluate", str(_write(tmp_path, revenue=revenue)), "--format", "json"
    )
    assert code in (0, 1), err
    assert _fact(_finding(out, "ui-attribution"), "commercial")["status"] != "established"


def test_no_revenue_derives_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, revenue="0 USD/month")
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json")
    assert code in (0, 1), err
    assert _fact(_finding(out, "ui-attribution"), "commercial")["status"] == "unknown"


def test_a_paid_offering_is_commercial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, extra="", revenue="{value: unknown}")
    path.write_text(path.read_text().replace("  mau: 20M\n", "  mau: 200M\n  paid: true\n"))
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json")
    assert code == 1, err
    assert _finding(out, "ui-attribution")["verdict"] == "violation"


def test_a_stated_commercial_wins_where_it_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "evaluate", str(_write(tmp_path, "  commercial: true\n")))
    assert code == 1, err


def test_commercial_false_beside_revenue_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "  commercial: false\n")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2
    assert f"{path}:8:15: error: commercial is false, but monthly_revenue (line 5)" in err
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "commercial is false" in err


def test_a_component_stating_commercial_false_against_the_products_revenue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path)
    path.write_text(path.read_text() + "    facts: {commercial: false}\n")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and f"{path}:15:" in err and "commercial is false" in err


@pytest.mark.parametrize(
    ("specs", "fact"),
    [
        ({"monthly_revenue": FactSpec(at_least="1 USD/month")}, "monthly_revenue"),
        ({"annual_recurring_revenue": FactSpec(value="2B USD")}, "annual_recurring_revenue"),
        ({"paid": FactSpec(value=True)}, "paid"),
    ],
)
def test_each_figure_implies_it(specs: dict[str, FactSpec], fact: str) -> None:
    found = implied_commercial(specs, {})
    assert found is not None and found.fact == fact and found.spec.value is True


@pytest.mark.parametrize(
    "specs",
    [
        {"monthly_revenue": FactSpec(value="0 USD/month")},
        {"monthly_revenue": FactSpec(value="unknown")},
        {"monthly_revenue": FactSpec(at_most="5M USD/month")},
        {"paid": FactSpec(value=False)},
        {},
    ],
)
def test_nothing_else_implies_it(specs: dict[str, FactSpec]) -> None:
    assert implied_commercial(specs, {"EUR": Fraction(1)}) is None
