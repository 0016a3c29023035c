"""No verdict firmer than the unknowns allow: places where a verdict (a timeline day, a what-if
cell) was firmer than some completion of the unknown facts or some reading of the evidence
allows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import EvaluationContext, Finding, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import Library, load_library
from licheck.library.layers import load
from licheck.library.source import LibrarySource
from licheck.loading.documents import load_manifest
from licheck.timeline import build
from tests.clirun import run
from tests.timeline.test_timeline import kimi_product, write_manifest

# A model whose first text ended on 2024-03-31 and whose next began only on 2024-06-01: a copy
# obtained in April or May is under a text nobody knows.
GAPPED_CATALOG = {
    "models": [
        {
            "id": "acme-coder-7b",
            "name": "Acme Coder 7B",
            "family": "acme",
            "licensor": "acme",
            "license": "apache-2.0",
            "license_history": [
                {"license": "mit", "from": "2024-01-01", "until": "2024-03-31"},
                {"license": "apache-2.0", "from": "2024-06-01"},
            ],
            "release_date": "2024-01-01",
            "source": "a test model",
        }
    ]
}


def _gapped_library(tmp_path: Path) -> Library:
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "catalog.yaml").write_text(yaml.safe_dump(GAPPED_CATALOG), encoding="utf-8")
    return load(LibrarySource(folders=(layer,)))


def test_timeline_has_the_day_a_license_history_stops_covering_copies(tmp_path: Path) -> None:
    """The day after a text's `until` with no next text yet: from then `evaluate --as-of` adds
    license-unknown (a governance risk), so the timeline must show that day, not carry the
    first text's clean verdict over it."""
    library = _gapped_library(tmp_path)
    data = kimi_product({"commercial": True})
    data["components"][0]["lineage"] = {"base": "acme-coder-7b"}
    path = write_manifest(tmp_path, data)
    manifest, document = load_manifest(path, str(path))
    report = build(manifest, document, library, POLICIES["default"])
    days = {entry.date: entry for entry in report.entries}
    assert "2024-04-01" in days
    unknown = [c for c in days["2024-04-01"].changes if "/unknown/" in c.finding]
    assert [c.verdict for c in unknown] == ["governance_risk"]
    assert [e.what for e in days["2024-04-01"].events] == ["unknown for Acme Coder 7B"]


# -- "what would settle it" over alternatives -------------------------------------------------
#
# A finding judged under several alternatives (the texts a copy obtained on an unknown date may
# be under, candidate bases, an owner who may be the licensor) has the union of their verdicts.
# Its guidance came from one alternative alone: "SATISFIED if licensor_marks_used does not
# contain 'flux-1-dev-non-commercial-original'" on FLUX.1 [dev]'s original text, where the
# v1.1.1 text reads its own id, so licensor_marks_used: [flux-1-dev-non-commercial-v1.1.1]
# (which does not contain the original's id) leaves a violation under v1.1.1.


def findings_of(tmp_path: Path, data: dict[str, Any]) -> list[Finding]:
    """The findings of the manifest `data`, written to a file and evaluated as `evaluate` does."""
    path = write_manifest(tmp_path, data)
    manifest, document = load_manifest(path, str(path))
    result = evaluate_manifest(
        manifest, document, load_library(), Options(POLICIES["default"]), EvaluationContext()
    )
    return list(result.findings)


def _findings(tmp_path: Path, data: dict[str, Any]) -> dict[tuple[str, str, str], Finding]:
    return {(f.model, f.license, f.clause): f for f in findings_of(tmp_path, data)}


def _flux(facts: dict[str, Any]) -> dict[str, Any]:
    # the direct grant stated (FLUX §3.a's second limb, audit s3-A m8), so that the copy of the
    # license alone decides license-copy
    base = {"commercial": False, "use_purpose": ["research"], "direct_grant_stated": True}
    data = kimi_product({**base, **facts})
    data["components"][0].update(delivery=["weights"], lineage={"base": "flux.1-dev"})
    return data


def _claims(finding: Finding, fact: str) -> dict[str, Verdict]:
    """What the finding says each value of `fact` alone would give, and the settlements that
    name `fact` alone."""
    said = {
        b.when: b.verdict for m in finding.missing_facts if m.fact.name == fact for b in m.outcomes
    }
    for s in finding.settled_by:
        if [f for f, _ in s.when] == [fact]:
            said[f"settles: {s.when[0][1]}"] = s.verdict
    return said


ORIGINAL = "flux-1-dev-non-commercial-original"
LATER = "flux-1-dev-non-commercial-v1.1.1"


def test_a_value_that_settles_one_text_is_not_said_to_settle_the_finding(tmp_path: Path) -> None:
    found = _findings(tmp_path, _flux({}))
    marks = found[("flux.1-dev", ORIGINAL, "no-licensor-marks")]
    assert marks.verdict is Verdict.GOVERNANCE_RISK
    assert set(_claims(marks, "licensor_marks_used").values()) == {Verdict.GOVERNANCE_RISK}
    # the claim it used to make, checked: a value without the original's id is not satisfied
    stated = _findings(tmp_path, _flux({"licensor_marks_used": [LATER]}))
    assert stated[("flux.1-dev", ORIGINAL, "no-licensor-marks")].verdict is Verdict.GOVERNANCE_RISK
    # what does hold is said with the date that picks the text
    pinned = {(s.verdict, s.when) for s in marks.settled_by}
    assert (
        Verdict.SATISFIED,
        (
            ("obtained", f"from 2024-08-01 to 2024-11-20 ({ORIGINAL})"),
            ("licensor_marks_used", f"does not contain '{ORIGINAL}'"),
        ),
    ) in pinned


def test_guidance_every_text_agrees_on_is_kept(tmp_path: Path) -> None:
    found = _findings(tmp_path, _flux({}))
    copy = found[("flux.1-dev", ORIGINAL, "license-copy")]
    assert _claims(copy, "license_copy_included") == {
        "false": Verdict.VIOLATION,
        "true": Verdict.SATISFIED,
        "settles: false": Verdict.VIOLATION,
        "settles: true": Verdict.SATISFIED,
    }
    stated = _findings(tmp_path, _flux({"license_copy_included": False}))
    assert stated[("flux.1-dev", ORIGINAL, "license-copy")].verdict is Verdict.VIOLATION


def _two_llamas(facts: dict[str, Any]) -> dict[str, Any]:
    data = kimi_product({"commercial": True})
    candidates = [{"model": "llama-3.1-8b"}, {"model": "llama-3.1-70b"}]
    data["components"][0].update(
        delivery=["weights"], lineage={"base": {"candidates": candidates}}, facts=facts
    )
    return data


def test_a_candidate_base_breaching_keeps_the_others_guidance_from_promising_satisfied(
    tmp_path: Path,
) -> None:
    """Llama 3.1 8B or 70B, the 8B's copy stated without the Agreement: whatever the component
    says of the 70B, the 8B keeps breaching, so 'license_copy_included: true' settles nothing."""
    facts = {"license_copy_included": {"by_model": {"llama-3.1-8b": False}}}
    found = _findings(tmp_path, _two_llamas(facts))
    copy = next(f for k, f in found.items() if k[2] == "agreement-copy")
    assert copy.verdict is Verdict.GOVERNANCE_RISK
    assert Verdict.SATISFIED not in _claims(copy, "license_copy_included").values()
    stated = {"license_copy_included": {"value": True, "by_model": {"llama-3.1-8b": False}}}
    again = _findings(tmp_path, _two_llamas(stated))
    assert next(f for k, f in again.items() if k[2] == "agreement-copy").verdict is not (
        Verdict.SATISFIED
    )


def test_an_owner_who_may_be_the_licensor_keeps_a_breach_open(tmp_path: Path) -> None:
    """An affiliation with the licensor only reported in the press: a clause the product would
    breach is not applicable if the owner is the licensor, so the breach alone settles nothing."""
    data = _flux({})
    data["sources"] = {"press": {"title": "P", "kind": "press_report", "date": "2025-01-01"}}
    data["owner"] = {
        "name": "O",
        "id": "o",
        "affiliates": [
            {"id": "black-forest-labs", "name": "BFL", "evidence": [{"source": "press"}]}
        ],
    }
    found = _findings(tmp_path, data)
    copy = found[("flux.1-dev", ORIGINAL, "license-copy")]
    assert copy.verdict is Verdict.GOVERNANCE_RISK
    claims = _claims(copy, "license_copy_included")
    assert claims["false"] is Verdict.GOVERNANCE_RISK
    assert Verdict.VIOLATION not in claims.values()
    assert claims["true"] is Verdict.SATISFIED  # not applicable or satisfied: satisfied


# -- a month of the product's revenue against the licensee's year ------------------------------


def _revenues(tmp_path: Path, month: str, year: str) -> list[str]:
    data = kimi_product(
        {"commercial": True, "monthly_revenue": month, "licensee_annual_revenue": year}
    )
    path = write_manifest(tmp_path, data)
    manifest, document = load_manifest(path, str(path))
    try:
        evaluate_manifest(
            manifest, document, load_library(), Options(POLICIES["default"]), EvaluationContext()
        )
    except InputError as error:
        return [d.message for d in error.diagnostics]
    return []


def test_a_month_of_revenue_above_the_licensees_monthly_average_is_not_refused(
    tmp_path: Path,
) -> None:
    """900K USD in the licensee's year and 200K USD in one month of the product: the year's other
    months may be smaller, so nothing contradicts (it was refused: 75K USD/month, the year's
    average, 'is less than' the month)."""
    assert _revenues(tmp_path, "200K USD/month", "900K USD/year") == []


def test_a_month_of_revenue_above_the_licensees_whole_year_is_refused(tmp_path: Path) -> None:
    problems = _revenues(tmp_path, "2M USD/month", "900K USD/year")
    assert len(problems) == 1 and "licensee_annual_revenue" in problems[0]


# -- a month's figure from a source dated before the month was over ---------------------------


def _llama_series(month_evidence: list[dict[str, Any]], fact_evidence: list[dict[str, Any]]) -> Any:
    month: dict[str, Any] = {"value": "500M"}
    if month_evidence:
        month["evidence"] = month_evidence
    mau: dict[str, Any] = {"series": {"2024-03": month}}
    if fact_evidence:
        mau["evidence"] = fact_evidence
    data = kimi_product({"commercial": True, "licensee_mau": mau})
    data["components"][0]["lineage"] = {"base": "llama-3-8b"}
    return data


def _problems(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    path = write_manifest(tmp_path, data)
    manifest, document = load_manifest(path, str(path))
    try:
        evaluate_manifest(
            manifest, document, load_library(), Options(POLICIES["default"]), EvaluationContext()
        )
    except InputError as error:
        return [f"{d.line}: {d.message}" for d in error.diagnostics]
    return []


FEB = {"source": "Forecast", "kind": "official_statement", "date": "2024-02-01"}
MAY = {"source": "10-K", "kind": "official_statement", "date": "2024-05-01"}


def test_a_months_figure_dated_before_the_month_was_over_is_refused(tmp_path: Path) -> None:
    """March 2024's users, on a statement of 2024-02-01: evaluated as of May it was read as
    established (Llama 3's gate not applicable), though nobody could know March's users then."""
    problems = _problems(tmp_path, _llama_series([FEB], []))
    assert len(problems) == 1 and "2024-03" in problems[0] and "'Forecast'" in problems[0]
    inherited = _problems(tmp_path, _llama_series([], [FEB]))
    assert len(inherited) == 1 and "the evidence of licensee_mau" in inherited[0]


def test_a_months_figure_dated_after_the_month_is_read(tmp_path: Path) -> None:
    assert _problems(tmp_path, _llama_series([MAY], [])) == []
    assert _problems(tmp_path, _llama_series([], [MAY])) == []
    last_day = {**FEB, "date": "2024-03-31"}
    a_month = {**FEB, "date": "2024-03"}  # possibly its last day
    assert _problems(tmp_path, _llama_series([last_day, a_month], [])) == []


# -- a sweep of a monthly fact in yearly figures ----------------------------------------------


def test_a_monthly_fact_is_not_swept_in_yearly_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--set monthly_revenue='200M USD/year'` is a governance risk on Kimi K2.5 (a year's total
    gives only the average month), but `--sweep 'monthly_revenue=1M USD/year..400M USD/year'`
    read its ends as months and reported not applicable up to 240M USD/year: a cell firmer than
    setting the same figure.  Refused, naming the per-month sweep."""
    facts = {"commercial": True, "mau": "1M", "ui_attribution": {"excludes": ["Kimi K2.5"]}}
    path = str(write_manifest(tmp_path, kimi_product(facts)))
    code, out, _ = run(capsys, "whatif", path, "--set", "monthly_revenue=200M USD/year")
    assert code == 0 and "NOT APPLICABLE" not in out.split("ui-attribution")[1].splitlines()[0]
    for sweep in ("monthly_revenue=1M USD/year..400M USD/year", "monthly_revenue=1M..2B USD ARR"):
        code, _, err = run(capsys, "whatif", path, "--sweep", sweep)
        assert code == 2 and "is not a month of monthly_revenue" in err
    code, out, _ = run(capsys, "whatif", path, "--sweep", "monthly_revenue=1M..40M")
    assert code == 0 and "(20M USD/month, 40M USD/month]" in out
