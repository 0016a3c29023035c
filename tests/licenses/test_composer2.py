"""The reference case: Composer 2 on Kimi K2.5 is a governance risk, not a violation — and the
same manifest with the missing facts settled gives violation or satisfied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import report_json, run
from tests.conftest import PRODUCTS

COMPOSER2 = PRODUCTS / "composer2.yaml"


def evaluate_json(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json", *extra)
    assert code in (0, 1), err
    return report_json(out)  # type: ignore[no-any-return]


def attribution(report: dict[str, Any]) -> dict[str, Any]:
    (product,) = report["products"]
    return next(
        f
        for f in product["findings"]
        if f["license"] == "kimi-k2.5-modified-mit" and f["clause"] == "ui-attribution"
    )


def test_composer2_is_a_governance_risk_with_missing_facts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = evaluate_json(capsys, COMPOSER2)
    assert report["products"][0]["verdict"] == "governance_risk"
    finding = attribution(report)
    assert finding["verdict"] == "governance_risk"
    missing = {m["fact"]: m for m in finding["missing_facts"]}
    assert {"agreement_waives", "mau", "monthly_revenue"} <= set(missing)
    assert missing["monthly_revenue"]["status"] == "likely"
    # The clause binds a product the Software "is used for" (audit M5): whether Composer 2 is
    # still a derivative of Kimi K2.5 no longer decides anything.
    assert "derivative" not in missing
    waiver = [o["verdict"] for o in missing["agreement_waives"]["outcomes"]]
    assert sorted(waiver) == ["governance_risk", "satisfied"]
    assert finding["requirement"] == "fails"
    assert "not a violation" in finding["explanation"]


def test_terminal_report_says_why_it_is_not_a_violation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "evaluate", str(COMPOSER2))
    assert code == 0
    assert "GOVERNANCE RISK" in out
    assert "not a violation" in out
    assert "mau" in out and "agreement_waives" in out


def _variant(
    tmp_path: Path, change: dict[str, Any], component: dict[str, Any] | None = None
) -> Path:
    data = yaml.safe_load(COMPOSER2.read_text(encoding="utf-8"))
    data["facts"].update(change)
    if {"agreement", "agreement_waives", "license_granted"} & set(change):
        data.pop("agreements")  # the flat facts replace what agreements: states
    if component is not None:
        data["components"][0]["facts"].update(component)
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


SETTLED_AGAINST = {
    "monthly_revenue": {
        "value": "2B USD ARR",  # ARR: at least a twelfth of it every month (a year's total is not)
        "evidence": [
            {"source": "audited accounts", "kind": "official_statement", "date": "2026-03-25"}
        ],
    },
    "agreement_waives": {
        "value": [],
        "evidence": [{"source": "Moonshot", "kind": "licensor_statement", "date": "2026-03-25"}],
    },
}


def test_settled_against_the_product_is_a_violation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _variant(
        tmp_path,
        SETTLED_AGAINST,
        {
            "derivative": {
                "value": True,
                "evidence": [{"source": "court", "kind": "observed", "date": "2026-04-01"}],
            }
        },
    )
    report = evaluate_json(capsys, path)
    assert attribution(report)["verdict"] == "violation"
    assert report["products"][0]["verdict"] == "violation"
    code, _, _ = run(capsys, "evaluate", str(path), "--format", "json")
    assert code == 1  # --fail-on violation by default


def test_ui_showing_the_name_is_satisfied(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _variant(
        tmp_path,
        {
            "ui_attribution": {
                "value": ["Composer 2", "Kimi K2.5"],
                "evidence": [{"source": "screenshot", "kind": "observed", "date": "2026-04-01"}],
            }
        },
    )
    assert attribution(evaluate_json(capsys, path))["verdict"] == "satisfied"


def test_estimates_admitted_trigger_the_clause_in_every_completion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    finding = attribution(evaluate_json(capsys, COMPOSER2, "--evidence", "estimates"))
    # The manifest writes Cursor's ARR as ARR (audit 2026-12-s3 B m-2; it was "2B USD/year", a
    # year's total, which gives only the average month and so never triggered the clause even
    # admitted): ARR/12 bounds every month from below, so admitted, the clause is triggered in
    # every completion, as the specification's reference case says.
    assert finding["triggered"] == "yes"
    assert finding["verdict"] == "governance_risk"  # the agreement and derivative are unknown


def test_an_arr_estimate_admitted_triggers_the_clause(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _variant(
        tmp_path,
        {
            "monthly_revenue": {
                "value": "2B USD ARR",
                "evidence": [{"source": "Seed", "kind": "press_report", "date": "2026-03-20"}],
            }
        },
    )
    finding = attribution(evaluate_json(capsys, path, "--evidence", "estimates"))
    assert finding["triggered"] == "yes"  # ARR/12 bounds every month's revenue from below
    assert finding["verdict"] == "governance_risk"  # the agreement is still unknown
    assert "stated as ARR (2B USD ARR)" in finding["explanation"]


def test_as_of_changes_the_picture(capsys: pytest.CaptureFixture[str]) -> None:
    before = attribution(evaluate_json(capsys, COMPOSER2, "--as-of", "2026-03-19"))
    after = attribution(evaluate_json(capsys, COMPOSER2, "--as-of", "2026-03-20"))
    missing_before = {m["fact"] for m in before["missing_facts"]}
    missing_after = {m["fact"] for m in after["missing_facts"]}
    # On the 19th the staff posts (not yet deleted) said there was no authorization; on the
    # 20th they are gone and the official post speaks of a partnership: the agreement is open.
    assert "agreement_waives" not in missing_before
    assert "agreement_waives" in missing_after
    # The UI observation and the revenue estimate date from the 20th.
    assert "ui_attribution" in missing_before and "ui_attribution" not in missing_after
    lineage = {f["name"]: f for f in after["facts"]}["lineage"]
    assert lineage["status"] == "established"


def test_other_products(capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = {}
    for path in sorted(PRODUCTS.glob("*.yaml")):
        report = evaluate_json(capsys, path)
        verdicts[path.stem] = {
            (f["license"], f["clause"]): f["verdict"] for f in report["products"][0]["findings"]
        }
    assert verdicts["composer1"] == {("unknown", "base-undisclosed"): "governance_risk"}
    assert verdicts["swe-1.5"][("unknown", "lineage-unconfirmed")] == "governance_risk"
    assert verdicts["swe-1.5"][("mit", "copyright-notice")] == "not_applicable"
    assert all("violation" not in v.values() for v in verdicts.values())


def test_report_says_what_would_make_it_firm(capsys: pytest.CaptureFixture[str]) -> None:
    finding = attribution(evaluate_json(capsys, COMPOSER2))
    paths = {
        (s["verdict"], tuple(sorted((c["fact"], c["value"]) for c in s["when"])))
        for s in finding["settled_by"]
    }
    assert ("not_applicable", (("mau", "≤ 100M"), ("monthly_revenue", "≤ 20M USD/month"))) in paths
    violation = [dict(when) for verdict, when in paths if verdict == "violation"]
    assert {"monthly_revenue": "> 20M USD/month"}.items() <= next(
        v for v in violation if "monthly_revenue" in v
    ).items()
    assert all("derivative" not in when for when in violation)
    assert any(
        verdict == "satisfied" and [f for f, _ in when] == ["agreement_waives"]
        for verdict, when in paths
    )
