"""The catalog's claims (this model is under that license, for copies obtained then): every claim
has a source, a claim on secondary sources only is likely and never established (one rule for
every family: audit 2026-12-s3 B M-2), and a model under several licenses at once is judged under
each (`upstream`: audit 2026-12-s3 A C5).  Also the dated spans issue 23 names: the Gemma
revision of 2026-04-01 and Stable Audio Open's early non-commercial license (A M6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.evaluation.findings import Finding
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.inputs.rules import ClaimSource
from licheck.library.compiled import Library, load_library
from licheck.library.layers import load
from licheck.library.source import LibrarySource
from tests.clirun import run
from tests.conftest import ROOT

LIBRARY = load_library()

# Facts under which every copy, notice and display duty fails where it binds: a licensed text's
# own duty is then a violation wherever the claim is firm.
BREACH: dict[str, Any] = {
    "commercial": True,
    "license_copy_included": False,
    "notice_included": False,
    "ui_attribution": [],
    "attribution_elsewhere": [],
    "model_name": "Acme Model",
}


def _evaluate(
    model: str,
    facts: dict[str, Any],
    *,
    obtained: str | None = None,
    delivery: tuple[str, ...] = ("weights",),
    lineage: dict[str, Any] | None = None,
    library: Library = LIBRARY,
    component_facts: dict[str, Any] | None = None,
) -> list[Finding]:
    base: dict[str, Any] = {"model": model}
    if obtained is not None:
        base["obtained"] = obtained
    manifest = Manifest.model_validate(
        {
            "product": "claims",
            "owner": "acme",
            "release_date": "2026-06-01",
            "facts": facts,
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "delivery": list(delivery),
                    "lineage": lineage or {"base": base, "steps": ["fine_tuning"]},
                    "facts": component_facts or {},
                }
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("claims.yaml", {}, {}), library, Options(POLICIES["default"])
    )
    return list(result.findings)


def _claims() -> list[tuple[str, str, ClaimSource, str | None]]:
    """Every claim of the shipped catalog: (model, license, how known, its source)."""
    found = []
    for model in LIBRARY.models:
        if model.license_history:
            found += [(model.id, d.license, d.claim, d.source) for d in model.license_history]
        elif model.license:
            found.append((model.id, model.license, model.license_claim, model.source))
    return found


CLAIMS = _claims()
SECONDARY = sorted({m for m, _, claim, _ in CLAIMS if claim is ClaimSource.SECONDARY})


@pytest.mark.parametrize(("model", "license_id", "claim", "source"), CLAIMS)
def test_every_claim_has_a_source(
    model: str, license_id: str, claim: ClaimSource, source: str | None
) -> None:
    assert source and source.strip(), f"{model}: the claim {license_id} names no source"


def test_the_secondary_claims_are_the_ones_the_notes_call_secondary() -> None:
    """GLM-4-0414's and GLM-5's MIT, GLM-5.3-Flash's MIT and Gemma 4's Apache-2.0 rest on
    secondary sources only (notes 2.10, 2.11): the same position, the same rule. So do Devstral
    2's Modified MIT and Mistral Large 2's MRL (issue 26, group A), and group B's
    models known from an overlay's ebuild mapping or third-party documents only."""
    assert SECONDARY == [
        # issue 26: overlay ebuild mappings, corpus notes, secondary statements
        "codegeex4",
        "devstral-2",
        "ernie-4.5",
        "exaone-3.5",
        "exaone-deep",
        "fastvlm",
        "gemma-4",
        "glm-4-0414",
        "glm-5",
        "glm-5.3-flash",
        "lfm2",
        "medgemma",
        "mistral-large-2",
        "nemotron-3-nano-omni",
        "nemotron-mini-4b",
        "olmo",
        "poolside-laguna",
        "qwen3.8-flash-next",
        "starcoder2",
        "supertonic-3",
    ]
    for model_id in SECONDARY:
        model = LIBRARY.model(model_id)
        assert model is not None and "secondary" in model.source.lower() + (
            model.license_note or ""
        )


@pytest.mark.parametrize("model_id", SECONDARY)
@pytest.mark.parametrize("delivery", [("weights",), ("hosted_service",), ("api", "weights")])
def test_a_secondary_claim_is_likely_never_established(
    model_id: str, delivery: tuple[str, ...]
) -> None:
    """Whatever the facts, no finding under a license claimed on secondary sources is a
    violation, and a governance risk names the claim: likely not applicable (so the product is
    never clean on that claim alone)."""
    findings = _evaluate(model_id, BREACH, delivery=delivery)
    model = LIBRARY.model(model_id)
    assert model is not None and model.license is not None
    under = [f for f in findings if f.license == model.license]
    assert under, "the likely license's findings are given"
    assert all(f.verdict is not Verdict.VIOLATION for f in under)
    assert all(f.facts[0].name == "license_confirmed" for f in under)
    (claim,) = [f for f in findings if f.clause == "license-unconfirmed"]
    assert claim.verdict is Verdict.GOVERNANCE_RISK
    assert claim.likely_verdict is Verdict.NOT_APPLICABLE
    assert model.license in (claim.summary or "")


def test_a_secondary_claim_keeps_each_findings_likely_verdict() -> None:
    """The violation the likely license would give is the likely verdict, and what would have
    made it firm is no longer promised as a violation."""
    findings = _evaluate("glm-5", {"notice_included": False})
    (notice,) = [f for f in findings if f.clause == "copyright-notice"]
    assert notice.verdict is Verdict.GOVERNANCE_RISK
    assert notice.likely_verdict is Verdict.VIOLATION
    first = notice.missing_facts[0]
    assert first.fact.name == "license_confirmed"
    assert {b.when: b.verdict for b in first.outcomes} == {
        "true": Verdict.VIOLATION,
        "false": Verdict.NOT_APPLICABLE,
    }
    unsettled = _evaluate("glm-5", {})
    (open_notice,) = [f for f in unsettled if f.clause == "copyright-notice"]
    assert all(s.verdict is not Verdict.VIOLATION for s in open_notice.settled_by)


@pytest.mark.parametrize("model_id", ["glm-4.5", "glm-4.7", "phi-4"])
def test_a_claim_from_the_licensors_own_file_stays_firm(model_id: str) -> None:
    findings = _evaluate(model_id, BREACH)
    assert not [f for f in findings if f.clause == "license-unconfirmed"]
    (notice,) = [f for f in findings if f.clause == "copyright-notice"]
    assert notice.verdict is Verdict.VIOLATION


def test_glm_5_and_gemma_4_are_treated_alike() -> None:
    """B M-2: the two families in the same position (weights license on secondary sources
    only) give findings of the same shape."""

    def shape(model_id: str) -> tuple[tuple[str, str], ...]:
        return tuple(
            sorted(
                (f.verdict.value, f.likely_verdict.value)
                for f in _evaluate(model_id, BREACH, delivery=("hosted_service",))
                if f.clause == "license-unconfirmed"
            )
        )

    assert shape("glm-5") == shape("gemma-4") == (("governance_risk", "not_applicable"),)


# -- a model under several licenses at once ---------------------------------------------------


def test_upstream_models_are_catalog_models_whose_licenses_are_in_the_library() -> None:
    with_upstream = {m.id: m.upstream for m in LIBRARY.models if m.upstream}
    assert with_upstream == {
        "llama-3.1-nemotron-nano-8b-v1": ["llama-3.1-8b"],
        "llama-3.1-nemotron-51b": ["llama-3.1-70b"],
    }
    for names in with_upstream.values():
        for name in names:
            upstream = LIBRARY.model(name)
            assert upstream is not None and upstream.license in LIBRARY.licenses


def _clauses(findings: list[Finding]) -> dict[tuple[str, str, str], Verdict]:
    return {(f.model, f.license, f.clause): f.verdict for f in findings}


def test_a_renamed_nemotron_fine_tune_gets_its_llama_findings() -> None:
    """A C5 (probe L5): a fine-tune of Llama-3.1-Nemotron-Nano-8B named "Acme Nano", weights
    distributed, no "Built with Llama": NVIDIA's clauses and Llama 3.1's."""
    found = _clauses(_evaluate("nvidia/Llama-3.1-Nemotron-Nano-8B-v1", BREACH, obtained="2025-11"))
    llama = ("llama-3.1-8b", "llama-3.1-community")
    assert found[(*llama, "built-with-llama")] is Verdict.VIOLATION
    assert found[(*llama, "model-name-prefix")] is Verdict.VIOLATION
    assert found[(*llama, "agreement-copy")] is Verdict.VIOLATION
    nvidia = ("llama-3.1-nemotron-nano-8b-v1", "nvidia-open-model-license")
    assert found[(*nvidia, "agreement-copy")] is Verdict.VIOLATION
    # the acceptable use policy Llama 3.1 incorporates binds as well
    assert any(k[1] == "llama-3.1-acceptable-use-policy" for k in found)


def test_the_upstream_findings_say_whose_upstream_they_are() -> None:
    findings = _evaluate("llama-3.1-nemotron-51b", BREACH, obtained="2025-11")
    names = {f.model_name for f in findings if f.license == "llama-3.1-community"}
    assert names == {"Llama 3.1 70B (upstream of Llama-3.1-Nemotron-51B)"}


def test_the_upstream_700m_gate_is_measured_on_llama_3_1s_release() -> None:
    facts = {**BREACH, "licensee_mau": {"series": {"2024-06": "800M"}}, "license_granted": []}
    found = _clauses(_evaluate("llama-3.1-nemotron-nano-8b-v1", facts, obtained="2025-11"))
    assert found[("llama-3.1-8b", "llama-3.1-community", "additional-commercial-terms")] is (
        Verdict.VIOLATION
    )


def test_naming_the_upstream_model_too_judges_it_once() -> None:
    """The old advice (state a merge with parents [llama-3.1-8b]) still works, and gives one
    finding per Llama clause, not two."""
    lineage = {
        "base": {"model": "llama-3.1-nemotron-nano-8b-v1", "obtained": "2025-11"},
        "steps": [{"kind": "merge", "parents": ["llama-3.1-8b"]}],
    }
    findings = _evaluate("unused", BREACH, lineage=lineage)
    keys = [(f.model, f.license, f.clause) for f in findings]
    assert len(keys) == len(set(keys))
    assert ("llama-3.1-8b", "llama-3.1-community", "built-with-llama") in keys


def test_what_a_manifest_states_for_the_named_model_holds_for_its_upstream() -> None:
    """`by_model` for the Nemotron model reaches its Llama 3.1 upstream; a statement for the
    upstream itself wins over it."""
    named = {"llama-3.1-nemotron-nano-8b-v1": True}
    key = ("llama-3.1-8b", "llama-3.1-community", "notice-file")

    def verdict(by_model: dict[str, bool]) -> Verdict:
        stated = {"notice_included": {"by_model": by_model}}
        found = _evaluate(
            "llama-3.1-nemotron-nano-8b-v1", BREACH, obtained="2025-11", component_facts=stated
        )
        return _clauses(found)[key]

    assert verdict(named) is Verdict.SATISFIED
    assert verdict({**named, "llama-3.1-8b": False}) is Verdict.VIOLATION


def test_a_student_of_nemotron_outputs_is_related_to_llama_the_same_way() -> None:
    lineage = {
        "base": {"model": "qwen3"},
        "steps": ["fine_tuning"],
        "trained_on_outputs_of": [{"model": "llama-3.1-nemotron-nano-8b-v1"}],
    }
    found = _clauses(_evaluate("unused", BREACH, lineage=lineage))
    # Llama 3.1's name prefix reaches a model trained on its outputs (reach [use, outputs])
    assert found[("llama-3.1-8b", "llama-3.1-community", "model-name-prefix")] is (
        Verdict.VIOLATION
    )


def _layer(tmp_path: Path, models: list[dict[str, Any]]) -> Path:
    folder = tmp_path / "layer"
    folder.mkdir()
    (folder / "catalog.yaml").write_text(json.dumps({"models": models}), encoding="utf-8")
    return folder


def test_an_upstream_that_is_not_a_catalog_id_is_refused(tmp_path: Path) -> None:
    model = {
        "id": "acme-nano",
        "name": "Acme Nano",
        "license": "nvidia-open-model-license",
        "upstream": ["llama-3.1-9b"],
        "source": "s",
    }
    with pytest.raises(InputError) as raised:
        load(LibrarySource((_layer(tmp_path, [model]),)))
    assert "upstream 'llama-3.1-9b' is not a catalog id" in str(raised.value)


def test_an_upstream_chain_that_returns_is_refused(tmp_path: Path) -> None:
    models = [
        {"id": "a-model", "name": "A", "license": "mit", "upstream": ["b-model"], "source": "s"},
        {"id": "b-model", "name": "B", "license": "mit", "upstream": ["a-model"], "source": "s"},
    ]
    with pytest.raises(InputError) as raised:
        load(LibrarySource((_layer(tmp_path, models),)))
    assert "leads back to" in str(raised.value)


def test_a_layer_may_name_an_upstream_model_of_the_library_below(tmp_path: Path) -> None:
    model = {
        "id": "acme-nano",
        "name": "Acme Nano",
        "license": "mit",
        "upstream": ["llama-3.1-8b"],
        "source": "our own card",
    }
    library = load(LibrarySource((_layer(tmp_path, [model]),)))
    found = _clauses(_evaluate("acme-nano", BREACH, library=library))
    assert found[("llama-3.1-8b", "llama-3.1-community", "built-with-llama")] is (Verdict.VIOLATION)
    assert found[("acme-nano", "mit", "copyright-notice")] is Verdict.VIOLATION


# -- dated spans ------------------------------------------------------------------------------


def test_stable_audio_open_copies_from_before_the_community_license_are_unknown() -> None:
    """A M6: an early copy shows a non-commercial license; before 2024-07-05 the license is
    unknown (a governance risk), never the Community License's verdict."""
    early = _evaluate("stable-audio-open-1.0", BREACH, obtained="2024-06-10")
    assert [(f.license, f.clause) for f in early] == [("unknown", "license-unknown")]
    assert early[0].verdict is Verdict.GOVERNANCE_RISK
    later = _evaluate("stable-audio-open-1.0", BREACH, obtained="2024-08-01")
    assert all(f.license == "stability-ai-community" for f in later)
    unstated = _evaluate("stable-audio-open-1.0", BREACH)
    assert ("unknown", "license-unknown") in {(f.license, f.clause) for f in unstated}


def test_the_catalog_file_states_the_claims_it_is_read_from() -> None:
    """The YAML, not only the compiled library, holds the sources: `python -m licheck.library`
    was run after the catalog changed."""
    text = (ROOT / "licenses" / "catalog.yaml").read_text(encoding="utf-8")
    assert text.count("license_claim: secondary") == len(SECONDARY)
    assert "upstream: [llama-3.1-8b]" in text


# -- what `licenses show` tells a reviewer (audit 2026-12-s3 A m1) ----------------------------


@pytest.mark.parametrize("license_id", sorted(LIBRARY.licenses))
def test_no_summary_or_note_tells_of_a_limit_licheck_no_longer_has(license_id: str) -> None:
    """Eight summaries said "Not encoded (no fact in the vocabulary): ..." for clauses encoded
    since, and notes said "licheck conjoins `derivative` to every clause" after the outputs
    reach existed: a reviewer reading `licenses show` was told the wrong thing.  A duty still
    to encode is a `not_encoded` entry whose reason says so, not a line of the summary."""
    entry = LIBRARY.licenses[license_id]
    texts = [entry.license.summary or ""] + [c.clause.note or "" for c in entry.clauses]
    for text in texts:
        flat = " ".join(text.split())
        assert "Not encoded (no fact in the vocabulary)" not in flat, license_id
        assert "conjoins `derivative` to every clause" not in flat, license_id


@pytest.mark.parametrize(
    ("fact", "value", "words"),
    [
        (
            "further_terms_kept",
            "nvidia-open-model-licence",
            "did you mean 'nvidia-open-model-license'",
        ),
        ("readings_settled", "tongyi-qianwen/mau-gate-products", "has no clause"),
    ],
)
def test_the_review_facts_name_the_library_or_are_refused(
    fact: str, value: str, words: str
) -> None:
    """A misspelt license or clause in a review fact would leave the clause it meant a
    governance risk, or make it a violation, in silence: it is a located error."""
    with pytest.raises(InputError) as raised:
        _evaluate("nemotron-4-340b", {fact: [value]}, obtained="2025-11")
    assert words in str(raised.value)


def test_licenses_show_a_nemotron_model_shows_both_licenses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "licenses", "show", "llama-3.1-nemotron-nano-8b-v1")
    assert code == 0
    flat = " ".join(out.split())
    assert "(nvidia-open-model-license, version 2025-10-24)" in flat
    assert "(llama-3.1-community, version 3.1)" in flat
    assert "and those of llama-3.1-8b, which it is built on" in flat
    code, out, _ = run(capsys, "licenses", "models")
    assert "secondary sources only: likely" in out
