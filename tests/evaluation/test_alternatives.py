"""A licensor is not its own licensee (the manifest's owner as an organisation), and a lineage
entry may name several candidate models: verdicts exact over the candidates.

The property tests compare an evaluation with candidates (or with a weakly evidenced owner) to
the brute force: each alternative evaluated on its own, then combined (firm only where every
alternative agrees)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.evaluation.binding import clause_key
from licheck.evaluation.evaluate import Finding, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files import yamlsafe
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library, load_library
from licheck.loading.documents import validate
from licheck.report.explain import explain

LIBRARY = load_library()
NA, RISK = Verdict.NOT_APPLICABLE, Verdict.GOVERNANCE_RISK
PRESS = {"source": "a press report", "kind": "press_report", "date": "2025-01-01"}


def _evaluate(
    base: Any,
    owner: Any = "Acme",
    facts: dict[str, Any] | None = None,
    steps: list[Any] | None = None,
    delivery: tuple[str, ...] = ("api",),
    policy: str = "default",
    library: Library = LIBRARY,
) -> dict[tuple[str, str, str], Finding]:
    manifest = Manifest.model_validate(
        {
            "product": "p",
            "owner": owner,
            "facts": facts or {},
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "delivery": list(delivery),
                    "lineage": {"base": base, "steps": steps if steps is not None else []},
                }
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("p.yaml", {}, {}), library, Options(POLICIES[policy])
    )
    return {(f.model, f.license, f.clause): f for f in result.findings}


# -- the licensor is not its own licensee ----------------------------------------------------


def test_meta_on_llama_is_not_its_own_licensee() -> None:
    found = _evaluate("llama-3.1-8b", {"name": "Meta Platforms", "id": "meta"})
    assert found and all(f.verdict is NA for f in found.values())
    copy = found[("llama-3.1-8b", "llama-3.1-community", "agreement-copy")]
    assert "The owner is the licensor" in explain(copy)
    assert "Meta Platforms" in explain(copy)


def test_the_same_product_owned_by_another_company_is_bound() -> None:
    found = _evaluate("llama-3.1-8b", {"name": "Acme", "id": "acme"})
    copy = found[("llama-3.1-8b", "llama-3.1-community", "agreement-copy")]
    assert copy.verdict is RISK  # the copy duty of an API, license_copy_included unknown


def test_an_id_that_merely_resembles_the_licensor_is_not_the_licensor() -> None:
    plain = _evaluate("llama-3.1-8b")
    for resembling in ("meta-ai", "meta-platforms", "metaverse"):
        found = _evaluate("llama-3.1-8b", {"name": "Meta AI fan", "id": resembling})
        assert {k: f.verdict for k, f in found.items()} == {k: f.verdict for k, f in plain.items()}


def test_a_weakly_evidenced_affiliate_is_a_governance_risk_not_a_pass() -> None:
    owner = {
        "name": "Helper Inc",
        "id": "helper",
        "affiliates": [{"id": "meta", "name": "Meta Platforms", "evidence": [PRESS]}],
    }
    found = _evaluate("llama-3.1-8b", owner, facts={"license_copy_included": False})
    copy = found[("llama-3.1-8b", "llama-3.1-community", "agreement-copy")]
    assert copy.verdict is RISK and copy.likely_verdict is NA
    (missing,) = [m for m in copy.missing_facts if m.fact.name == "owner_is_licensor"]
    assert [(b.when, b.verdict) for b in missing.outcomes] == [
        ("true", NA),
        ("false", Verdict.VIOLATION),
    ]
    assert missing.fact.path == ("owner", "affiliates", 0, "id")


def test_an_affiliate_established_by_an_official_statement_counts() -> None:
    official = {"source": "10-K", "kind": "official_statement", "date": "2025-01-01"}
    owner = {"name": "Sub", "id": "sub", "affiliates": [{"id": "meta", "evidence": [official]}]}
    found = _evaluate("llama-3.1-8b", owner, facts={"license_copy_included": False})
    assert all(f.verdict is NA for f in found.values())


def test_an_unsourced_owner_id_does_not_count_under_the_strict_policy() -> None:
    found = _evaluate("llama-3.1-8b", {"name": "Meta", "id": "meta"}, policy="strict")
    copy = found[("llama-3.1-8b", "llama-3.1-community", "agreement-copy")]
    assert copy.verdict is RISK


def test_deepseek_distilling_r1_into_qwen_is_bound_by_qwen_not_by_its_own_r1() -> None:
    steps = [{"kind": "distillation", "parents": ["deepseek-r1"]}]
    owner = {"name": "DeepSeek", "id": "deepseek"}
    found = _evaluate("qwen2.5", owner, steps=steps, delivery=("weights",))
    r1 = [f for k, f in found.items() if k[0] == "deepseek-r1"]
    qwen = [f for k, f in found.items() if k[0] == "qwen2.5"]
    assert r1 and all(f.verdict is NA for f in r1)
    assert any(f.verdict is not NA for f in qwen)  # Alibaba's Apache-2.0 still binds DeepSeek


def test_deepseek_on_its_llama_distill_is_still_meta_s_licensee() -> None:
    """The catalog names the inherited license's licensor (meta), not the publisher."""
    owner = {"name": "DeepSeek", "id": "deepseek"}
    for model in ("deepseek-r1-distill-llama-8b", "deepseek-r1-distill-qwen"):
        found = _evaluate(model, owner, delivery=("weights",))
        assert any(f.verdict is not NA for f in found.values())
        assert not any(s.name == "owner_is_licensor" for f in found.values() for s in f.facts)


def test_owner_id_that_appears_twice_is_a_located_error() -> None:
    text = "product: p\nowner:\n  name: A\n  id: meta\n  affiliates: [{id: meta}]\n"
    text += "components: [{id: c, name: C, lineage: {base: llama-3.1-8b}}]\n"
    with pytest.raises(InputError) as caught:
        validate(yamlsafe.parse(text, "o.yaml"), Manifest)
    (diagnostic,) = caught.value.diagnostics
    assert "appears twice" in diagnostic.message and diagnostic.line >= 2


# -- candidate bases -------------------------------------------------------------------------

COMMUNITY = {"source": "community", "kind": "community_inference", "date": "2025-10-01"}


def test_candidates_agreeing_keep_a_firm_verdict_and_differing_give_a_risk() -> None:
    base = {"candidates": [{"model": "glm-4.6"}, {"model": "unknown"}]}
    found = _evaluate(base, delivery=("weights",), facts={"notice_included": False})
    notice = found[("glm-4.6", "mit", "copyright-notice")]
    assert notice.verdict is RISK
    (which,) = [m for m in notice.missing_facts if m.fact.name == "base"]
    assert [(b.when, b.verdict) for b in which.outcomes] == [
        ("glm-4.6", Verdict.VIOLATION),
        ("unknown", NA),
    ]
    assert "glm-4.6: violation" in explain(notice)


def test_a_weakly_evidenced_candidate_is_open_on_its_own_too() -> None:
    base = {"candidates": [{"model": "glm-4.6", "evidence": [COMMUNITY]}, {"model": "unknown"}]}
    found = _evaluate(base, delivery=("weights",), facts={"notice_included": False})
    assert found[("glm-4.6", "mit", "copyright-notice")].verdict is RISK
    assert found[("glm-4.6", "unknown", "lineage-unconfirmed")].verdict is RISK


def test_two_candidates_under_one_license_agree() -> None:
    base = {"candidates": ["llama-3.1-8b", "llama-3.1-70b"]}
    found = _evaluate(base, facts={"license_copy_included": False})
    copy = found[("llama-3.1-8b", "llama-3.1-community", "agreement-copy")]
    assert copy.verdict is Verdict.VIOLATION
    assert copy.model_name == "Llama 3.1 8B or Llama 3.1 70B"


@pytest.mark.parametrize(
    ("base", "message"),
    [
        ("{candidates: [glm-4.6]}", "at least 2"),
        ("{candidates: [glm-4.6, GLM-4.6]}", "appears twice"),
        ("{candidates: [glm-4.6, {model: glm-4.7, colour: red}]}", "colour"),
    ],
)
def test_bad_candidates_are_located_errors(base: str, message: str) -> None:
    text = "product: p\nowner: A\ncomponents:\n  - id: c\n    name: C\n    lineage:\n"
    text += f"      base: {base}\n"
    with pytest.raises(InputError) as caught:
        validate(yamlsafe.parse(text, "c.yaml"), Manifest)
    diagnostic = caught.value.diagnostics[0]
    assert message in diagnostic.message and diagnostic.line == 7


def test_an_unknown_candidate_model_is_located_at_the_candidate() -> None:
    text = "product: p\nowner: A\ncomponents:\n  - id: c\n    name: C\n    lineage:\n"
    text += "      base:\n        candidates:\n          - glm-4.6\n          - glm-9\n"
    document = yamlsafe.parse(text, "c.yaml")
    manifest = validate(document, Manifest)
    with pytest.raises(InputError) as caught:
        evaluate_manifest(manifest, document, LIBRARY, Options(POLICIES["default"]))
    (diagnostic,) = caught.value.diagnostics
    assert "glm-9" in diagnostic.message and diagnostic.line == 10


# -- property tests: the combination equals the alternatives enumerated ----------------------

POOL = ["llama-3.1-8b", "llama-2-7b", "glm-4.6", "kimi-k2.5", "deepseek-v3", "unknown", "qwen-7b"]
FACTS: dict[str, list[Any]] = {
    "license_copy_included": [True, False],
    "notice_included": [True, False],
    "commercial": [True, False],
    "mau": ["50M", "150M"],
    "ui_attribution": [[], ["Kimi K2.5"]],
}


def _by_clause(found: dict[tuple[str, str, str], Finding]) -> dict[tuple[str, ...], Verdict]:
    return {clause_key(f): f.verdict for f in found.values()}


# What each verdict says about the completions it was judged over (design.md's definitions):
# none triggered; triggered and never failing; failing everywhere; failing in some only.
_OUTCOMES = {
    NA: {"not triggered"},
    Verdict.SATISFIED: {"triggered, holds"},
    Verdict.VIOLATION: {"fails"},
    RISK: {"fails", "triggered, holds"},
}


def _verdict_of(outcomes: set[str]) -> Verdict:
    if "fails" in outcomes:
        return Verdict.VIOLATION if outcomes == {"fails"} else RISK
    return Verdict.SATISFIED if "triggered, holds" in outcomes else NA


def _combine(per: list[dict[tuple[str, str, str], Finding]]) -> dict[tuple[str, ...], Verdict]:
    """Brute force: the completions of all alternatives together, each alternative's verdict
    for each clause (absent: not applicable) standing for the outcomes it was judged over."""
    verdicts = [_by_clause(found) for found in per]
    combined = {}
    for key in {k for by_key in verdicts for k in by_key}:
        outcomes = set().union(*(_OUTCOMES[by_key.get(key, NA)] for by_key in verdicts))
        combined[key] = _verdict_of(outcomes)
    return combined


facts_strategy = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in FACTS.items()}
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    models=st.lists(st.sampled_from(POOL), min_size=2, max_size=3, unique=True),
    facts=facts_strategy,
    delivery=st.sampled_from([("api",), ("weights",), ("hosted_service",)]),
    steps=st.sampled_from([[], ["fine_tuning"]]),
)
def test_candidates_equal_each_candidate_enumerated(
    models: list[str], facts: dict[str, Any], delivery: tuple[str, ...], steps: list[str]
) -> None:
    together = _evaluate({"candidates": models}, facts=facts, steps=steps, delivery=delivery)
    alone = [_evaluate(m, facts=facts, steps=steps, delivery=delivery) for m in models]
    assert _by_clause(together) == _combine(alone)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=st.sampled_from([m for m in POOL if m != "unknown"]),
    facts=facts_strategy,
    delivery=st.sampled_from([("api",), ("weights",), ("hosted_service",)]),
)
def test_a_weak_owner_equals_both_owners_enumerated(
    model: str, facts: dict[str, Any], delivery: tuple[str, ...]
) -> None:
    licensor = LIBRARY.model(model).licensor  # type: ignore[union-attr]
    weak = {"name": "X", "id": "x", "affiliates": [{"id": licensor, "evidence": [PRESS]}]}
    strong = {"name": "X", "id": licensor}
    together = _evaluate(model, weak, facts=facts, delivery=delivery)
    per = [_evaluate(model, o, facts=facts, delivery=delivery) for o in (strong, "X")]
    assert _by_clause(together) == _combine(per)
