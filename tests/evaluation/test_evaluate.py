"""What `evaluate_manifest` reports: a decided finding (satisfied, violated, not applicable)
lists no missing facts, since none would change its verdict; a governance risk lists them."""

from __future__ import annotations

from typing import Any

from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Finding, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library


def _kimi(facts: dict[str, Any]) -> Finding:
    manifest = Manifest.model_validate(
        {
            "product": "Kimi app",
            "owner": "test",
            "release_date": "2026-03-19",
            "agreements": "none",
            "facts": {"commercial": True, **facts},
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "delivery": ["hosted_service"],
                    "lineage": {"base": {"model": "kimi-k2.5"}},
                }
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("k.yaml", {}, {}), load_library(), Options(POLICIES["default"])
    )
    return next(f for f in result.findings if f.clause == "ui-attribution")


def test_a_satisfied_finding_lists_no_missing_facts() -> None:
    """Kimi K2.5 displayed: satisfied whatever the user count and revenue, which are unknown."""
    found = _kimi({"mau": "unknown", "monthly_revenue": "unknown", "ui_attribution": ["Kimi K2.5"]})
    assert found.verdict is Verdict.SATISFIED
    assert found.missing_facts == ()
    assert found.settled_by == ()


def test_a_violation_lists_no_missing_facts() -> None:
    found = _kimi({"mau": "200M", "monthly_revenue": "unknown", "ui_attribution": []})
    assert found.verdict is Verdict.VIOLATION
    assert found.missing_facts == ()


def test_a_governance_risk_still_lists_its_missing_facts() -> None:
    found = _kimi({"mau": "unknown", "monthly_revenue": "unknown", "ui_attribution": []})
    assert found.verdict is Verdict.GOVERNANCE_RISK
    assert {m.fact.name for m in found.missing_facts} == {"mau", "monthly_revenue"}
