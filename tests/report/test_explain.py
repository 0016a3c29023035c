"""Explanations in the user's units: a range is never said to settle a threshold it straddles,
and every quantity shows the figure as written (with the rate of a currency) beside the
normalised one.  Over the Kimi K2.5 display duty (more than 20M USD a month in revenue)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from licheck.core.units import rate_text
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS

MANIFEST = """\
product: Acme Chat
owner: Acme
agreements: none
currency_rates:
  EUR: 1.08
sources:
  press: {{title: "Press estimate", kind: press_report, date: 2026-03-01}}
facts:
  commercial: {{value: true}}
  mau: {{value: 5M}}
  ui_attribution: {{excludes: [Kimi K2.5]}}
  monthly_revenue:
{revenue}
components:
  - id: chat
    name: Acme Chat
    delivery: [hosted_service]
    lineage:
      base: kimi-k2.5
"""


def finding(capsys: pytest.CaptureFixture[str], tmp_path: Path, revenue: str) -> dict[str, Any]:
    """The Kimi display duty's finding for a product whose monthly revenue is `revenue`."""
    path = tmp_path / "m.yaml"
    body = "\n".join("    " + line for line in revenue.splitlines())
    path.write_text(MANIFEST.format(revenue=body), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path), "-f", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    return next(f for f in product["findings"] if f["clause"] == "ui-attribution")


def revenue_fact(found: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in found["facts"] if f["name"] == "monthly_revenue")


def test_a_range_below_the_threshold_settles_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "at_least: 5M USD/month\nat_most: 10M USD/month")
    assert found["verdict"] == "not_applicable"
    assert "monthly_revenue is between 5M and 10M USD/month" in found["explanation"]
    assert "inside" not in found["explanation"]


def test_a_range_above_the_threshold_settles_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "at_least: 25M USD/month\nat_most: 30M USD/month")
    assert found["verdict"] == "violation"
    assert "monthly_revenue is between 25M and 30M USD/month" in found["explanation"]


def test_a_straddling_range_is_unsettled_never_triggered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "at_least: 15M USD/month\nat_most: 30M USD/month")
    assert found["verdict"] == "governance_risk"
    explanation = found["explanation"]
    assert (
        "monthly_revenue is between 15M and 30M USD/month: the threshold 20M USD/month lies "
        "inside, so it is unsettled" in explanation
    )
    assert "would be triggered" not in explanation


def test_a_likely_straddling_range_is_unsettled_never_triggered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The bug of issue 15: weak evidence for a range across 20M was explained as 'the clause
    would be triggered'."""
    found = finding(
        capsys,
        tmp_path,
        "at_least: 15M USD/month\nat_most: 30M USD/month\nevidence: [{source: press}]",
    )
    assert (found["verdict"], found["likely_verdict"]) == ("governance_risk", "governance_risk")
    explanation = found["explanation"]
    assert "would be triggered" not in explanation
    assert (
        "Counting it, the verdict would be governance risk (monthly_revenue is likely between "
        "15M and 30M USD/month: the threshold 20M USD/month lies inside, so it is unsettled)"
    ) in explanation


def test_arr_shows_the_figure_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "value: 40M USD ARR")
    fact = revenue_fact(found)
    assert fact["value"] == "≥ ≈3.33M USD/month"
    assert fact["written"] == "40M USD/year (ARR)"
    assert (
        "monthly_revenue is ≥ ≈3.33M USD/month (as written: 40M USD/year (ARR)): the threshold "
        "20M USD/month lies inside, so it is unsettled" in found["explanation"]
    )


def test_a_yearly_figure_shows_the_figure_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "value: 300M USD/year")
    assert revenue_fact(found)["written"] == "300M USD/year"
    assert (
        "monthly_revenue is likely 25M USD/month (as written: 300M USD/year)"
        in found["explanation"]
    )


def test_a_foreign_currency_shows_the_figure_and_the_rate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "value: 19M EUR")
    assert found["verdict"] == "violation"
    written = "19M EUR/month, at the manifest's rate of 1.08 USD per EUR"
    assert revenue_fact(found)["written"] == written
    assert f"monthly_revenue is 20.52M USD/month (as written: {written})" in found["explanation"]


def test_a_figure_in_dollars_a_month_has_nothing_to_add(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(capsys, tmp_path, "value: 25M USD/month")
    assert revenue_fact(found)["written"] is None
    assert "as written" not in found["explanation"]


def test_the_text_report_shows_the_figure_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(MANIFEST.format(revenue="    value: 19M EUR"), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path))
    assert code == 1, err
    assert "as written: 19M EUR/month, at the manifest's rate of 1.08 USD" in " ".join(out.split())


def test_composer2_likely_revenue_lies_above_the_threshold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "evaluate", str(PRODUCTS / "composer2.yaml"), "-f", "json")
    assert code == 0, err
    (product,) = report_json(out)["products"]
    found = next(f for f in product["findings"] if f["clause"] == "ui-attribution")
    # the manifest writes Cursor's ARR as ARR (audit 2026-12-s3 B m-2): a lower bound now
    assert (
        "Counting it, the verdict would be governance risk (monthly_revenue is likely "
        "≥ ≈166.67M USD/month (as written: 2B USD/year (ARR)), which is > 20M USD/month; "
        "agreement_waives and mau would still be open)" in " ".join(found["explanation"].split())
    )


def test_a_range_in_another_currency_names_its_rate_once_and_in_full(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.yaml"
    text = MANIFEST.format(revenue="    at_least: 10M CNY\n    at_most: 200M CNY")
    path.write_text(text.replace("EUR: 1.08", "CNY: 0.1389"), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path), "-f", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    found = next(f for f in product["findings"] if f["clause"] == "ui-attribution")
    assert revenue_fact(found)["written"] == (
        "10M CNY/month to 200M CNY/month, at the manifest's rate of 0.1389 USD per CNY"
    )
    assert "≈0.14" not in found["explanation"]  # a rate is never rounded to cents


def test_figures_stated_by_evidence_are_shown_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    found = finding(
        capsys, tmp_path, "evidence:\n  - {source: press, value: 30M EUR, note: an estimate}"
    )
    fact = revenue_fact(found)
    assert fact["status"] == "likely"
    assert fact["written"] == "30M EUR/month, at the manifest's rate of 1.08 USD per EUR"


@pytest.mark.parametrize(
    ("rate", "shown"),
    [(Fraction(108, 100), "1.08"), (Fraction(1389, 10000), "0.1389"), (Fraction(7), "7")],
)
def test_rate_text_keeps_every_digit(rate: Fraction, shown: str) -> None:
    assert rate_text(rate) == shown


def test_rate_text_marks_a_rate_it_cannot_write_exactly() -> None:
    assert rate_text(Fraction(1, 3)) == "≈0.333333333333"


# -- near-matches: every clause that compares names names the near-match -----------------------

NEAR = """\
format: 2
product: Near
owner: Acme
release_date: 2025-03-19
agreements: none
facts:
  commercial: true
  mau: 200M
  monthly_revenue: 50M USD
{facts}
components:
  - id: app
    name: App
    delivery: [weights]
    lineage:
      base: {{model: {model}}}
    facts:
      derivative: true
      model_made_available: true
      model_name: {name}
"""


def near_finding(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    model: str,
    facts: str,
    name: str,
    clause: str,
) -> tuple[dict[str, Any], str]:
    """One clause's JSON finding, and the default text output, for a product stating `facts`."""
    path = tmp_path / "near.yaml"
    path.write_text(NEAR.format(model=model, facts=facts, name=name), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path), "-f", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    found = next(f for f in product["findings"] if f["clause"] == clause)
    code, text, err = run(capsys, "evaluate", str(path))
    assert code in (0, 1), err
    return found, " ".join(text.split())


@pytest.mark.parametrize(
    ("model", "facts", "name", "clause", "fact", "written", "asked"),
    [
        (  # a display string, the set stated whole
            "kimi-k2.5",
            "  ui_attribution: [KIMI K2.5]",
            "Acme",
            "ui-attribution",
            "ui_attribution",
            "KIMI K2.5",
            "'Kimi K2.5'",
        ),
        (  # a display string beside the excluded name
            "kimi-k2.5",
            "  ui_attribution: {includes: [KIMI K2.5], excludes: [Kimi K2.5]}",
            "Acme",
            "ui-attribution",
            "ui_attribution",
            "KIMI K2.5",
            "'Kimi K2.5'",
        ),
        (  # an attribution elsewhere (Llama's "Built with Llama")
            "llama-3.1-8b",
            "  ui_attribution: []\n  attribution_elsewhere: [built with Llama]",
            "Llama-acme",
            "built-with-llama",
            "attribution_elsewhere",
            "built with Llama",
            "'Built with Llama'",
        ),
        (  # a name prefix
            "llama-3.1-8b",
            "",
            "llama-3.1-acme",
            "model-name-prefix",
            "model_name",
            "llama-3.1-acme",
            "starting with 'Llama'",
        ),
    ],
)
def test_a_near_match_is_named_in_the_finding(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    model: str,
    facts: str,
    name: str,
    clause: str,
    fact: str,
    written: str,
    asked: str,
) -> None:
    found, text = near_finding(capsys, tmp_path, model, facts, name, clause)
    assert found["verdict"] == "governance_risk"
    said = f"{fact} holds a near-match of a name the clause asks for: '{written}' read as {asked}"
    assert said in found["explanation"]
    assert "Whether it counts as that name is for a person to judge." in found["explanation"]
    assert said in text  # the default text output says it too, not only the branches
    # the facts shown keep the near-matching member the reading is about
    shown = next(f for f in found["facts"] if f["name"] == fact)
    assert written in shown["value"]


# -- figures in the clause's own period --------------------------------------------------------

MINIMAX = """\
format: 2
product: MM
owner: Acme
release_date: 2026-03-19
agreements: none
sources:
  press: {{title: "Press estimate", kind: press_report, date: 2026-03-01}}
facts:
  commercial: true
  mau: 5M
  annual_recurring_revenue: {arr}
  ui_attribution: []
components:
  - id: app
    name: App
    delivery: [hosted_service]
    lineage:
      base: {{model: minimax-m2, obtained: 2026-01-05}}
"""


def test_a_yearly_clause_shows_the_year(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """MiniMax's 30M USD of ARR: the figure, the threshold and the branches are per year, as the
    clause and the user state them, never a twelfth of them per month."""
    path = tmp_path / "mm.yaml"
    arr = "{value: 40M USD ARR, evidence: [{source: press}]}"
    path.write_text(MINIMAX.format(arr=arr), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path), "-f", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    found = next(f for f in product["findings"] if f["clause"] == "ui-attribution")
    assert found["verdict"] == "governance_risk"
    explanation = found["explanation"]
    assert "annual_recurring_revenue is likely 40M USD/year" in explanation
    assert "USD/month" not in explanation
    fact = next(f for f in found["facts"] if f["name"] == "annual_recurring_revenue")
    assert (fact["stated"], fact["likely"]) == ("40M USD/year", "40M USD/year")
    (missing,) = [m for m in found["missing_facts"] if m["fact"] == "annual_recurring_revenue"]
    assert [o["when"] for o in missing["outcomes"]] == ["≤ 30M USD/year", "> 30M USD/year"]
    assert {c["value"] for s in found["settled_by"] for c in s["when"]} == {
        "≤ 30M USD/year",
        "> 30M USD/year",
    }
    code, text, _ = run(capsys, "evaluate", str(path))
    assert "USD/month" not in text  # no figure of this product is per month


def test_a_twelve_month_gate_shows_the_year(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Stability's USD 1M a year: the range and the threshold inside it per year."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "format: 2\nproduct: S\nowner: Acme\nrelease_date: 2025-03-19\nagreements: none\n"
        "facts:\n  commercial: true\n"
        "  licensee_peak_12_month_revenue: {at_least: 500K USD/year, at_most: 2M USD/year}\n"
        "components:\n  - id: app\n    name: App\n    delivery: [hosted_service]\n"
        "    lineage:\n      base: {model: stable-diffusion-3.5-large}\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "evaluate", str(path), "-f", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    found = next(f for f in product["findings"] if f["clause"] == "revenue-gate")
    assert (
        "licensee_peak_12_month_revenue is between 500K and 2M USD/year: the threshold 1M "
        "USD/year lies inside, so it is unsettled" in found["explanation"]
    )
    fact = next(f for f in found["facts"] if f["name"] == "licensee_peak_12_month_revenue")
    assert fact["value"] == "[500K USD/year, 2M USD/year]"
    assert fact["written"] is None  # as written is as shown: not said twice
