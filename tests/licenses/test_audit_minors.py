"""The audit's minor findings fixed outside the scenario files (docs/audit-2026-12-minors.md):
code distribution derived from the delivery (m2), stand-in license texts flagged in reports (m4),
SD3 Medium copies from before the Community License (m28), successor models (m30)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Finding, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.inputs.rules import Provenance
from licheck.library.compiled import load_library
from tests.clirun import run

LIBRARY = load_library()


def _findings(base: dict[str, Any], delivery: list[str], facts: dict[str, Any]) -> list[Finding]:
    manifest = Manifest.model_validate(
        {
            "product": "minors",
            "owner": "test",
            "facts": facts,
            "components": [
                {"id": "c", "name": "C", "delivery": delivery, "lineage": {"base": base}}
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("minors.yaml", {}, {}), LIBRARY, Options(POLICIES["default"])
    )
    return list(result.findings)


def _one(findings: list[Finding], license_id: str, clause: str) -> Finding:
    return next(f for f in findings if (f.license, f.clause) == (license_id, clause))


def _fact(finding: Finding, name: str) -> str:
    return next(state.shown for state in finding.facts if state.name == name)


# -- m2: distributes_code ---------------------------------------------------------------------


def test_a_hosted_service_alone_ships_no_code_and_says_where_that_comes_from() -> None:
    notice = _one(
        _findings({"model": "kimi-k2.5"}, ["hosted_service"], {}),
        "kimi-k2.5-modified-mit",
        "copyright-notice",
    )
    assert notice.verdict is Verdict.NOT_APPLICABLE
    state = next(s for s in notice.facts if s.name == "distributes_code")
    assert "derived from the component's delivery" in str(state.evidence[0].source)


@pytest.mark.parametrize("delivery", [[], ["weights"]])
def test_without_a_hosted_only_delivery_code_distribution_is_left_open(
    delivery: list[str],
) -> None:
    notice = _one(_findings({"model": "glm-4.6"}, delivery, {}), "mit", "copyright-notice")
    assert _fact(notice, "distributes_code") == "unknown"
    assert notice.verdict is Verdict.GOVERNANCE_RISK  # notice_included is not stated


def test_vendored_code_stated_binds_the_notice_of_a_hosted_product() -> None:
    facts = {"distributes_code": True, "notice_included": False}
    notice = _one(
        _findings({"model": "qwen3"}, ["api"], facts), "apache-2.0", "attribution-notices"
    )
    assert notice.verdict is Verdict.VIOLATION


# -- m4: stand-in texts -----------------------------------------------------------------------


def test_a_stand_in_mapping_carries_its_caveat_into_the_finding() -> None:
    notice = _one(_findings({"model": "glm-4.6"}, ["weights"], {}), "mit", "copyright-notice")
    assert notice.provenance == Provenance.STAND_IN.value
    verbatim = _one(
        _findings({"model": "kimi-linear"}, ["weights"], {}), "kimi-linear-mit", "copyright-notice"
    )
    assert verbatim.provenance == Provenance.VERBATIM.value


def test_the_terminal_report_shows_the_stand_in_caveat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "p.yaml"
    manifest.write_text(
        "format: 2\nproduct: P\nowner: acme\ncomponents:\n  - id: c\n    name: C\n"
        "    delivery: [weights]\n    lineage: {base: glm-4.6}\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "evaluate", str(manifest))
    assert code == 0
    assert "STAND-IN: the model's own license file was not read" in " ".join(out.split())


def test_every_stand_in_mapping_is_a_model_whose_file_was_not_read() -> None:
    stand_ins = {m.id for m in LIBRARY.models if m.text_provenance is Provenance.STAND_IN}
    assert stand_ins == {
        "glm-4-0414",
        "glm-4.5",
        "glm-4.6",
        "glm-4.7",
        "glm-5",
        "glm-5.3-flash",
        "gemma-4",
        "phi-3-mini",
        "phi-3",
        "phi-4",
        # issue 26: the notes-only families, whose own license files were not read
        "snowflake-arctic",
        "granite-3.1",
        "olmo",
        "ernie-4.5",
        "devstral-2",  # issue 26: Mistral Medium 3.5's text stands in (Devstral 2's file not found)
        "openelm",  # issue 26: CoreNet's LICENSE stands in for the unread model-card file
    }


def test_licenses_show_flags_the_stand_in_models(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "licenses", "show", "mit")
    assert code == 0
    shown = " ".join(out.split())
    assert "glm-4.6 (stand-in text)" in shown and "phi-4 (stand-in text)" in shown


# -- m28: Stable Diffusion 3 Medium before the Community License -----------------------------


def test_sd3_medium_obtained_before_the_community_license_has_an_unknown_license() -> None:
    found = _findings(
        {"model": "stable-diffusion-3-medium", "obtained": "2024-06-20"}, ["hosted_service"], {}
    )
    assert [(f.license, f.clause, f.verdict) for f in found] == [
        ("unknown", "license-unknown", Verdict.GOVERNANCE_RISK)
    ]


def test_sd3_medium_obtained_under_the_community_license_is_judged_by_it() -> None:
    found = _findings(
        {"model": "stable-diffusion-3-medium", "obtained": "2024-07-05"}, ["hosted_service"], {}
    )
    assert {f.license for f in found} == {"stability-ai-community"}


# -- m30: successor models ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "deepseek-ai/DeepSeek-V3-0324",
        "deepseek-ai/DeepSeek-R1-0528",
        "Qwen/Qwen2.5-Coder-7B-Instruct",
    ],
)
def test_a_listed_successor_is_an_unknown_license_not_its_predecessors(name: str) -> None:
    found = _findings({"model": name}, ["hosted_service"], {})
    assert [(f.license, f.verdict) for f in found] == [("unknown", Verdict.GOVERNANCE_RISK)]


def test_an_unlisted_variant_is_refused_without_offering_the_nearest_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "p.yaml"
    manifest.write_text(
        "format: 2\nproduct: P\nowner: acme\ncomponents:\n  - id: c\n    name: C\n"
        "    delivery: [api]\n    lineage: {base: deepseek-ai/DeepSeek-V3-1226}\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "evaluate", str(manifest))
    assert code == 2
    assert "unknown model 'deepseek-ai/DeepSeek-V3-1226'" in err
    assert "did you mean" not in err
    assert "rather than the nearest id" in " ".join(err.split())


def test_a_misspelt_id_still_gets_its_suggestion() -> None:
    assert "'deepseek-v3' (license deepseek-license-v1.0)" in LIBRARY.suggest_model(
        "deepseek-ai/DeepSek-V3"
    )
    assert LIBRARY.suggest_model("deepseek-ai/DeepSeek-V3-1226") == ""
