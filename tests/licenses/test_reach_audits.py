"""The audits' critical findings on reach (issue 23; audit A C1-C4, M3, M5; audit B C-1 to C-4,
C-6), each as a manifest of the kind the reviewers probed with, and the verdict the text asks for:
never satisfied or not applicable where the license's own terms reach the component."""

from __future__ import annotations

from typing import Any

import pytest

from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library, load_library

V, R, NA, S = (
    Verdict.VIOLATION,
    Verdict.GOVERNANCE_RISK,
    Verdict.NOT_APPLICABLE,
    Verdict.SATISFIED,
)


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def _verdicts(
    library: Library, lineage: dict[str, Any], delivery: list[str], facts: dict[str, Any]
) -> dict[str, Verdict]:
    manifest = Manifest.model_validate(
        {
            "product": "probe",
            "owner": "probe-owner",
            "release_date": "2026-06-01",
            "components": [
                {"id": "c", "name": "C", "lineage": lineage, "delivery": delivery, "facts": facts}
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("p.yaml", {}, {}), library, Options(POLICIES["default"])
    )
    return {f"{f.license}/{f.clause}": f.verdict for f in result.findings}


def test_unmodified_llama_served_without_its_agreement_is_a_violation_whatever_derivative_says(
    library: Library,
) -> None:
    """Audit A C4 (probe D3)."""
    found = _verdicts(
        library,
        {"base": "llama-3.1-8b"},
        ["weights", "api"],
        {
            "derivative": False,
            "license_copy_included": False,
            "notice_included": False,
            "ui_attribution": [],
            "attribution_elsewhere": [],
        },
    )
    for clause in ("agreement-copy", "built-with-llama", "notice-file"):
        assert found[f"llama-3.1-community/{clause}"] is V, clause


def test_derivative_false_against_deepseeks_definition_is_a_risk_not_an_override(
    library: Library,
) -> None:
    """Audit B C-2 (probe d1): a continued-pretrained DeepSeek-V3 is a Derivative by definition."""
    facts = {"use_restrictions_passed_on": False, "license_copy_included": False}
    lineage = {"base": "deepseek-v3", "steps": ["continued_pretraining", "rl"]}
    stated_false = _verdicts(library, lineage, ["hosted_service"], {**facts, "derivative": False})
    unstated = _verdicts(library, lineage, ["hosted_service"], facts)
    for clause in ("license-copy", "pass-through-restrictions"):
        assert stated_false[f"deepseek-license-v1.0/{clause}"] is R, clause
        assert unstated[f"deepseek-license-v1.0/{clause}"] is V, clause


def test_a_judge_is_left_open_by_gemmas_definition(library: Library) -> None:
    """Audit A M3 (probe G1): a false violation before; a teacher is a Model Derivative."""
    facts = {"license_copy_included": False, "notice_included": False}
    judged = {
        "base": "qwen3",
        "steps": ["rl"],
        "trained_on_outputs_of": [{"model": "gemma-3", "role": "judge", "obtained": "2025-06-01"}],
    }
    taught = {
        "base": "qwen3",
        "steps": ["rl"],
        "trained_on_outputs_of": [
            {"model": "gemma-3", "role": "teacher", "obtained": "2025-06-01"}
        ],
    }
    assert _verdicts(library, judged, ["weights"], facts)["gemma-terms-of-use/agreement-copy"] is R
    assert _verdicts(library, taught, ["weights"], facts)["gemma-terms-of-use/agreement-copy"] is V


def test_gates_reach_a_model_trained_on_the_outputs(library: Library) -> None:
    """Audit A C2 (probe L8): a 3B-MAU licensee distilling Llama 3.1 and DBRX."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [
            {"model": "llama-3.1-405b", "role": "teacher"},
            {"model": "dbrx-instruct", "role": "teacher"},
        ],
    }
    facts: dict[str, Any] = {
        "licensee_mau": {
            "value": "3000M",
            "series": {"2024-06": "3000M", "2024-02": "3000M", "2024-03": "3000M"},
        },
        "license_granted": [],
    }
    unknown = _verdicts(library, lineage, ["api"], facts)
    ran = _verdicts(library, lineage, ["api"], {**facts, "outputs_generated_by_licensee": True})
    bought = _verdicts(library, lineage, ["api"], {**facts, "outputs_generated_by_licensee": False})
    gate = "llama-3.1-community/additional-commercial-terms"
    assert unknown[gate] is R
    assert ran[gate] is V
    assert bought[gate] is NA
    assert unknown["databricks-open-model-license/additional-commercial-terms"] in (R, V)


def test_stabilitys_definition_makes_a_distilled_model_a_derivative_work(library: Library) -> None:
    """Audit A C2 (probe S1): a 10B-revenue group distilling SD 3.5 Large."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [{"model": "stable-diffusion-3.5-large", "role": "teacher"}],
    }
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "licensee_annual_revenue": "10B USD/year",
            "license_granted": [],
            "commercial": True,
            "registered_with": [],
        },
    )
    assert found["stability-ai-community/revenue-gate"] is V
    assert found["stability-ai-community/registration"] is V


def test_flux_outputs_used_for_military_purposes_breach_its_restrictions(library: Library) -> None:
    """Audit A C3 (probe F2), and C1: commercial use of a model trained on FLUX outputs."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [
            {"model": "flux.1-dev", "role": "synthetic_data", "obtained": "2025-07-01"}
        ],
    }
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "restricted_uses": ["military"],
            "commercial": True,
            "use_purpose": ["commercial_product"],
            "license_granted": [],
        },
    )
    assert found["flux-1-dev-non-commercial-v1.1.1/use-restrictions"] is V
    assert found["flux-1-dev-non-commercial-v1.1.1/commercial-license"] in (R, V)


def test_a_fine_tuned_flux_stated_not_derivative_is_still_bound(library: Library) -> None:
    """Audit A C3 (probe F3): FLUX defines a fine-tuned version as a Derivative."""
    lineage = {"base": {"model": "flux.1-dev", "obtained": "2025-07-01"}, "steps": ["fine_tuning"]}
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "derivative": False,
            "restricted_uses": ["military"],
            "export_laws_complied": False,
            "guardrails_circumvented": True,
        },
    )
    for clause in ("use-restrictions", "export-laws", "no-circumvention"):
        assert found[f"flux-1-dev-non-commercial-v1.1.1/{clause}"] in (R, V), clause
    assert found["flux-1-dev-non-commercial-v1.1.1/use-restrictions"] is V


def test_glm4_bans_use_for_military_purposes_whatever_derivative_says(library: Library) -> None:
    """Audit B C-3 (probe f1)."""
    lineage = {"base": "glm-4-voice-9b", "steps": ["continued_pretraining"]}
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "derivative": False,
            "restricted_uses": ["military"],
            "model_name": "acme-defense-9b",
            "registered_with": ["glm-4"],
        },
    )
    assert found["glm-4/no-military-or-illegal-use"] is V
    assert found["glm-4/model-name-prefix"] is V


def test_minimax_m2_display_reaches_as_kimis_identical_words_do(library: Library) -> None:
    """Audit B C-1 (probes b1, b1k): the same facts give the same verdict."""
    facts = {
        "derivative": False,
        "commercial": True,
        "annual_recurring_revenue": "50M USD/year",
        "ui_attribution": [],
        "agreement_waives": [],
    }
    m2 = _verdicts(
        library,
        {
            "base": {"model": "minimax-m2", "obtained": "2025-12-01"},
            "steps": ["continued_pretraining", "rl"],
        },
        ["api"],
        facts,
    )
    assert m2["minimax-m2-modified-mit/ui-attribution"] is V


def test_yis_derivatives_reach_a_distilled_model_for_military_use(library: Library) -> None:
    """Audit B C-4 (probe e1b)."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [
            {"model": "yi", "role": "synthetic_data", "obtained": "2024-01-10"}
        ],
    }
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "commercial": True,
            "registered_with": [],
            "restricted_uses": ["military"],
            "license_copy_included": True,
            "source_attributed": True,
            "license_granted": [],
        },
    )
    assert found["yi-community-license-v2.1/no-military-or-unlawful-use"] is V
    assert found["yi-community-license-v2.1/commercial-registration"] is V


def test_hunyuans_gate_reaches_a_distilled_model(library: Library) -> None:
    """Audit B C-4 (probe g1)."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [{"model": "hunyuan-a13b", "role": "teacher"}],
    }
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "licensee_own_mau": {"value": "300M", "series": {"2025-05": "300M", "2025-06": "300M"}},
            "license_granted": [],
        },
    )
    assert found["tencent-hunyuan-community-a13b/licensee-mau-gate"] is V


def test_kimi_k3s_gate_reaches_a_student_trained_on_its_outputs(library: Library) -> None:
    """Audit B C-6 (probe c7): interpretive, a governance risk at least."""
    lineage = {
        "base": "qwen3",
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [{"model": "kimi-k3", "role": "teacher"}],
    }
    found = _verdicts(
        library,
        lineage,
        ["api"],
        {
            "commercial": True,
            "maas_business": True,
            "licensee_peak_12_month_revenue": "30M USD/year",
            "license_granted": [],
        },
    )
    assert found["kimi-k3/maas-gate"] in (R, V)


# -- issue 23 (8): the other findings of both audits, probed on this branch --------------------


@pytest.mark.parametrize("integrated", [True, False])
def test_hunyuans_modified_files_notice_has_the_section_3_integrated_product_exception(
    library: Library, integrated: bool
) -> None:
    """Audit B m-1: "If You receive Tencent Hunyuan Works from a Licensee as part of an
    integrated end user product, then this Section 3 of this Agreement will not apply to You"
    lifts 3(b) as it lifts 3(a) and 3(c)."""
    found = _verdicts(
        library,
        {"base": "hunyuan-large", "steps": ["fine_tuning"]},
        ["weights"],
        {"received_in_integrated_product": integrated, "modification_notices": False},
    )
    verdict = found["tencent-hunyuan-community-large/modified-files-notice"]
    assert verdict is (S if integrated else V)


def test_hunyuans_marks_covenant_is_not_lifted_by_derivative_false(library: Library) -> None:
    """Audit B m-7: "Licensee may not use any name or mark owned by or associated with Tencent"
    binds any use, not only Model Derivatives."""
    found = _verdicts(
        library,
        {"base": "hunyuan-large", "steps": ["fine_tuning"]},
        ["api"],
        {"derivative": False, "licensor_marks_used": ["tencent-hunyuan-community-large"]},
    )
    assert found["tencent-hunyuan-community-large/no-licensor-marks"] is V


@pytest.mark.parametrize(
    ("model", "clause"),
    [
        ("gpt-oss-20b", "gpt-oss-usage-policy/comply-with-law"),  # audit A C7 (probe O1)
        ("kimi-k3", "kimi-k3/comply-with-laws"),  # audit B M-5 (probe c9)
        ("deepseek-v3", "deepseek-license-v1.0/use-restrictions"),  # audit B M-5 (probe d3)
    ],
)
def test_a_stated_export_law_breach_breaches_the_duty_to_comply_with_law(
    library: Library, model: str, clause: str
) -> None:
    found = _verdicts(library, {"base": model}, ["api"], {"export_laws_complied": False})
    assert found[clause] is V


def test_a_commercial_model_trained_on_flux_outputs_is_not_comforted(library: Library) -> None:
    """Audit A C1 (probe F1s): FLUX §1.c, training other models for commercial use is not a
    Non-Commercial Purpose; never not applicable or satisfied."""
    found = _verdicts(
        library,
        {
            "base": "qwen3",
            "steps": ["fine_tuning"],
            "trained_on_outputs_of": [
                {"model": "flux.1-dev", "role": "synthetic_data", "obtained": "2025-07-01"}
            ],
        },
        ["api"],
        {"commercial": True, "outputs_generated_by_licensee": True},
    )
    assert found["flux-1-dev-non-commercial-v1.1.1/commercial-license"] in (V, R)


def test_a_monthly_revenue_written_as_arr_gives_the_arr(library: Library) -> None:
    """Audit B m-3 (probe b6): `monthly_revenue: 36M USD ARR` states an ARR over MiniMax M2's
    30M USD threshold; `annual_recurring_revenue` was left unknown (a false governance risk)."""
    facts = {"mau": 1000, "ui_attribution": [], "commercial": True, "agreement_waives": []}
    # the figure bounds the ARR from below (a range's upper end is not kept): under the
    # threshold it stays open, never satisfied or not applicable on that bound alone
    written_as = {"36M USD ARR": V, "20M USD ARR": R}
    for revenue, verdict in written_as.items():
        found = _verdicts(
            library,
            {"base": {"model": "minimax-m2", "obtained": "2025-12-01"}},
            ["api"],
            {**facts, "monthly_revenue": revenue},
        )
        assert found["minimax-m2-modified-mit/ui-attribution"] is verdict, revenue


# -- issue 23 (8): the findings fixed by rule changes, probed as the reviewers probed them -----


@pytest.mark.parametrize(
    ("review", "verdict"),
    [(None, R), (True, S), (False, V)],
    ids=["unstated", "lawful", "unlawful"],
)
def test_a_declared_use_lawful_in_many_places_is_for_the_review_to_settle(
    library: Library, review: bool | None, verdict: Verdict
) -> None:
    """Audit A M1 (probe O2-gptoss-lawful-automated): automated decisions on legal rights with
    export law complied with was a violation, though "you agree to comply with all applicable
    law" names no use: a governance risk until a review of lawfulness is stated."""
    facts: dict[str, Any] = {
        "restricted_uses": ["automated_legal_decisions"],
        "export_laws_complied": True,
    }
    if review is not None:
        facts["use_policy_followed"] = review
    found = _verdicts(library, {"base": "gpt-oss-20b"}, ["api"], facts)
    assert found["gpt-oss-usage-policy/comply-with-law"] is verdict


@pytest.mark.parametrize(
    ("competes", "verdict"), [(None, R), (False, S), (True, V)], ids=["unstated", "no", "yes"]
)
def test_a_classifier_trained_on_flux_outputs_is_not_barred_as_competitive(
    library: Library, competes: bool | None, verdict: Verdict
) -> None:
    """Audit A M2 (probe F4-flux-classifier): a defect-detection classifier (`other`) trained on
    FLUX outputs was a violation, though only a model "competitive with the FLUX.1 [dev] Model"
    is barred; and the commercial use in the same probe was not applicable (C1)."""
    facts: dict[str, Any] = {
        "improves_other_models": ["other"],
        "commercial": True,
        "outputs_generated_by_licensee": True,
        "license_granted": [],
    }
    if competes is not None:
        facts["competes_with_licensed_model"] = competes
    found = _verdicts(
        library,
        {
            "base": "unknown",
            "trained_on_outputs_of": [
                {"model": "flux.1-dev", "role": "synthetic_data", "obtained": "2025-07-01"}
            ],
        },
        ["api"],
        facts,
    )
    assert found["flux-1-dev-non-commercial-v1.1.1/no-competitive-training"] is verdict
    assert found["flux-1-dev-non-commercial-v1.1.1/commercial-license"] in (V, R)


def test_an_image_model_trained_on_flux_outputs_competes(library: Library) -> None:
    """Audit A M2, the other side: an image model trained on FLUX outputs stays a violation."""
    found = _verdicts(
        library,
        {
            "base": "stable-diffusion-3.5-large",
            "steps": ["fine_tuning"],
            "trained_on_outputs_of": [
                {"model": "flux.1-dev", "role": "synthetic_data", "obtained": "2025-07-01"}
            ],
        },
        ["weights"],
        {"improves_other_models": ["foundation_model"]},
    )
    assert found["flux-1-dev-non-commercial-v1.1.1/no-competitive-training"] is V


@pytest.mark.parametrize("tag", ["pii_misuse", "discrimination", "military"])
def test_a_review_does_not_clear_a_use_gemmas_policy_may_cover(library: Library, tag: str) -> None:
    """Audit A M7 (probe G2-gemma-pii-review): `[pii_misuse]` with `use_policy_followed: true`
    was satisfied; a declared use the Prohibited Use Policy may cover is a breach, as for DBRX,
    Stability and NVIDIA (a review that settles it is recorded as a waiver)."""
    found = _verdicts(
        library,
        {"base": "gemma-3", "steps": ["fine_tuning"]},
        ["api"],
        {
            "restricted_uses": [tag],
            "use_policy_followed": True,
            "export_laws_complied": True,
            "guardrails_circumvented": False,
        },
    )
    assert found["gemma-terms-of-use/use-restrictions"] is V


_K3_MAAS_GROUP: dict[str, Any] = {
    "maas_business": True,
    "licensee_peak_12_month_revenue": "5B USD/year",
    "made_available": False,
    "via_licensor_channel": False,  # §4(b): not through Moonshot AI's own products
    "license_granted": [],
}


@pytest.mark.parametrize(
    ("shipped", "verdict"), [(None, R), (True, V), (False, S)], ids=["unstated", "yes", "no"]
)
def test_kimi_k3s_internal_use_is_outputs_kept_in_house(
    library: Library, shipped: bool | None, verdict: Verdict
) -> None:
    """Audit B C-5 (probe c1-k3-internal-outputs-shipped): an in-house coding assistant of a 5B
    MaaS group, not made available and with no product revenue, was internal use and satisfied,
    though §4(a) internal use "does not make the Software, its outputs, or its underlying
    capabilities available to third parties": code shipped to customers is outputs made
    available."""
    facts: dict[str, Any] = {**_K3_MAAS_GROUP, "commercial": True, "monthly_revenue": 0}
    if shipped is not None:
        facts["outputs_reach_third_parties"] = shipped
    found = _verdicts(library, {"base": "kimi-k3"}, [], facts)
    assert found["kimi-k3/maas-gate"] is verdict


def test_kimi_k3s_internal_business_use_is_a_commercial_purpose(library: Library) -> None:
    """Audit B C-5 (probe c8-k3-internal-business-not-commercial): `commercial: false` with
    `use_purpose: [internal_business]` was not applicable, though §2 binds use "for any
    commercial purpose"; the outputs' reach unstated, a governance risk."""
    found = _verdicts(
        library,
        {"base": "kimi-k3"},
        [],
        {**_K3_MAAS_GROUP, "commercial": False, "use_purpose": ["internal_business"]},
    )
    assert found["kimi-k3/maas-gate"] is R
