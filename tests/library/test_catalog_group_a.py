"""Issue 26, group A (Mistral, TII, Cohere, xAI): the catalog maps each model to the text it is
under, a text the reference set lacks stays an unknown license, and a stand-in says so."""

from __future__ import annotations

from typing import Any

import pytest

from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.inputs.rules import ClaimSource, Provenance
from licheck.library.compiled import load_library

LIBRARY = load_library()


@pytest.mark.parametrize(
    ("name", "license_id"),
    [
        ("mistralai/Codestral-22B-v0.1", "mistral-ai-non-production-license-mnpl-0.1"),
        ("mistralai/Ministral-8B-Instruct-2410", "mistral-ai-research-license-mrl-0.1"),
        ("mistralai/Mistral-Large-Instruct-2411", "mistral-ai-research-license-mrl-0.1"),
        ("mistralai/Mistral-Small-Instruct-2409", "mistral-ai-research-license-mrl-0.1"),
        ("mistralai/Devstral-2-123B-Instruct-2512", "mistral-medium-3.5-modified-mit"),
        ("tiiuae/falcon-11B", "falcon-2-11b-tii-license-1.0"),
        ("tiiuae/Falcon3-7B-Instruct", "tii-falcon-license-falcon-3-2024-12"),
        ("CohereForAI/c4ai-command-r-v01", "cohere-c4ai-acceptable-use-policy"),
        ("CohereLabs/c4ai-command-a-03-2025", "cohere-labs-acceptable-use-policy"),
        ("CohereForAI/aya-expanse-8b", "cohere-c4ai-acceptable-use-policy"),
        ("xai-org/grok-2", "xai-community-license-grok-2-2025-11-04"),
    ],
)
def test_aliases_lead_to_the_right_license(name: str, license_id: str) -> None:
    model = LIBRARY.model(name)
    assert model is not None and model.license == license_id


def test_devstral_2_is_a_secondary_stand_in() -> None:
    model = LIBRARY.model("devstral-2")
    assert model is not None
    assert model.text_provenance is Provenance.STAND_IN
    assert model.license_claim is ClaimSource.SECONDARY


def test_the_cohere_policies_bring_in_the_cc_by_nc_legal_code() -> None:
    for policy in ("cohere-c4ai-acceptable-use-policy", "cohere-labs-acceptable-use-policy"):
        assert LIBRARY.licenses[policy].license.incorporates == ["cc-by-nc-4.0-legalcode"]


Verdicts = dict[tuple[str, str], str]


def _findings(model: str, obtained: str | None, facts: dict[str, Any]) -> Verdicts:
    base: dict[str, Any] = {"model": model, **({"obtained": obtained} if obtained else {})}
    manifest = Manifest.model_validate(
        {
            "product": "probe",
            "owner": "probe",
            "release_date": "2026-06-01",
            "facts": facts,
            "components": [
                {"id": "c", "name": "C", "lineage": {"base": base}, "delivery": ["api"]}
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("probe", {}, {}), LIBRARY, Options(POLICIES["default"])
    )
    return {(f.license, f.clause): f.verdict.value for f in result.findings}


def test_grok_2_copies_obtained_before_the_revision_have_an_unknown_license() -> None:
    # The August 2025 original (commercial use only under 1M USD a year) was not found.
    before = _findings("grok-2", "2025-09-01", {"commercial": True})
    assert not any(lid == "xai-community-license-grok-2-2025-11-04" for lid, _ in before)
    assert set(before.values()) == {"governance_risk"}
    after = _findings("grok-2", "2025-12-01", {"commercial": True})
    assert ("xai-community-license-grok-2-2025-11-04", "powered-by-xai") in after


def test_a_hosted_commercial_command_r_breaches_cc_by_nc() -> None:
    found = _findings(
        "command-r",
        None,
        {"commercial": True, "use_purpose": ["commercial_product"], "license_granted": []},
    )
    assert found[("cc-by-nc-4.0-legalcode", "noncommercial-use")] == "violation"
