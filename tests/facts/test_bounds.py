"""A quantity known only from below (`mau: {at_least: ...}`, no `at_most`) against a "more than"
threshold: Kimi K2.5's display duty binds a commercial product with more than 100 million monthly
active users (or more than 20 million USD in monthly revenue).

A lower bound above the threshold settles the trigger, so the verdict is firm; a lower bound at or
below it leaves every value from the bound upwards possible, some under the line and some over
it, so the verdict is a governance risk that names `mau` and what each side of the line gives.
Checked in the engine (`evaluate_paths`) and end to end through `licheck evaluate` / `check`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck.core.verdicts import Verdict
from licheck.engine.domains import Interval
from licheck.evaluation.evaluate import Finding, Options
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import load_library
from licheck.portfolio.runs import evaluate_paths
from tests.clirun import run

LICENSE = "kimi-k2.5-modified-mit"
CLAUSE = "ui-attribution"


def manifest(mau: str, ui_attribution: str = "[]") -> str:
    """A commercial hosted product on Kimi K2.5, revenue well under the 20M USD/month line, so
    only the MAU half of the trigger can decide; no agreement waives the duty."""
    return f"""\
product: Open Bound
owner: Test Co
release_date: 2026-03-19
facts:
  commercial: true
  mau: {mau}
  monthly_revenue: 1M USD/month
  ui_attribution: {ui_attribution}
  agreement_waives: []
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {{model: kimi-k2.5}}
"""


def write(tmp_path: Path, text: str, name: str = "product.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def finding(tmp_path: Path, mau: str, ui_attribution: str = "[]") -> Finding:
    path = write(tmp_path, manifest(mau, ui_attribution))
    (result,) = evaluate_paths([path], Options(POLICIES["default"]), load_library())
    (found,) = [f for f in result.findings if f.license == LICENSE and f.clause == CLAUSE]
    return found


# -- engine ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mau", "ui_attribution", "verdict"),
    [
        ("{at_least: 150M}", "[]", Verdict.VIOLATION),
        ("{at_least: 100000001}", "[]", Verdict.VIOLATION),  # the first count over the line
        ("{at_least: 150M}", "[Kimi K2.5]", Verdict.SATISFIED),
        ("{at_least: 50M, at_most: 90M}", "[]", Verdict.NOT_APPLICABLE),  # closed: under it
    ],
)
def test_a_bound_on_one_side_of_the_threshold_gives_a_firm_verdict(
    tmp_path: Path, mau: str, ui_attribution: str, verdict: Verdict
) -> None:
    f = finding(tmp_path, mau, ui_attribution)
    assert f.verdict is verdict
    assert f.missing_facts == ()
    assert f.triggered == ("yes" if verdict is not Verdict.NOT_APPLICABLE else "no")


def test_an_open_bound_above_the_threshold_is_shown_as_a_lower_bound(tmp_path: Path) -> None:
    f = finding(tmp_path, "{at_least: 150M}")
    (mau,) = [s for s in f.facts if s.name == "mau"]
    assert mau.shown == "≥ 150M"
    assert isinstance(mau.domain, Interval) and mau.domain.hi is None


@pytest.mark.parametrize(
    ("mau", "under"),
    [
        ("{at_least: 50M}", "[50M, 100M]"),
        ("{at_least: 100M}", "100M"),  # the bound itself is not "more than 100 million"
    ],
)
def test_an_open_bound_at_or_below_the_threshold_is_a_risk_naming_the_fact(
    tmp_path: Path, mau: str, under: str
) -> None:
    f = finding(tmp_path, mau)
    assert f.verdict is Verdict.GOVERNANCE_RISK
    assert f.triggered == "depends"
    assert [m.fact.name for m in f.missing_facts] == ["mau"]
    (missing,) = f.missing_facts
    assert [(b.when, b.verdict) for b in missing.outcomes] == [
        (under, Verdict.NOT_APPLICABLE),
        ("> 100M", Verdict.VIOLATION),
    ]
    assert {(s.verdict, s.when) for s in f.settled_by} == {
        (Verdict.VIOLATION, (("mau", "> 100M"),)),
        (Verdict.NOT_APPLICABLE, (("mau", under),)),
    }


# -- end to end --------------------------------------------------------------------------------


def ui_attribution(report: dict[str, Any]) -> dict[str, Any]:
    (product,) = report["products"]
    (found,) = [f for f in product["findings"] if f["license"] == LICENSE and f["clause"] == CLAUSE]
    return dict(found)


@pytest.mark.parametrize("command", ["evaluate", "check"])
def test_cli_lower_bound_above_the_threshold_is_a_violation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    path = write(tmp_path, manifest("{at_least: 150M}"))
    code, out, err = run(capsys, command, str(path), "--format", "json")
    assert code == 1, err  # a violation fails the default gate (--fail-on violation)
    found = ui_attribution(json.loads(out))
    assert found["verdict"] == "violation"
    assert found["missing_facts"] == []


@pytest.mark.parametrize("command", ["evaluate", "check"])
def test_cli_lower_bound_below_the_threshold_is_a_risk_naming_mau(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    path = write(tmp_path, manifest("{at_least: 50M}"))
    code, out, err = run(capsys, command, str(path), "--format", "json")
    assert code == 0, err  # a governance risk passes --fail-on violation ...
    found = ui_attribution(json.loads(out))
    assert found["verdict"] == "governance_risk"
    assert found["missing_facts"] == [
        {
            "fact": "mau",
            "status": "established",
            "likely": None,
            "decides_alone": True,
            "outcomes": [
                {"when": "[50M, 100M]", "verdict": "not_applicable"},
                {"when": "> 100M", "verdict": "violation"},
            ],
        }
    ]
    code, _, err = run(capsys, command, str(path), "--format", "json", "--fail-on", "risk")
    assert code == 1, err  # ... and fails --fail-on risk


def test_cli_text_report_names_mau_and_both_sides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, manifest("{at_least: 50M}"))
    code, out, err = run(capsys, "evaluate", str(path))
    assert code == 0, err
    assert "GOVERNANCE RISK  kimi-k2.5-modified-mit / ui-attribution" in out
    assert "≥ 50M" in out
    assert "mau  if [50M, 100M] → NOT APPLICABLE · if > 100M → VIOLATION" in out
