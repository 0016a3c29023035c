"""Gates apart from obligations, and rule files incorporated by reference (acceptable use
policies)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from licheck.core.diagnostics import InputError
from licheck.engine.conditions import Test
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library, load_license_file
from licheck.report.explain import explain

HEADER = """id: {id}
name: Test license
version: "1"
text: {{file: t.txt, sha256: "{sha}"}}
"""
SHA = "0" * 64


def write(folder: Path, license_id: str, body: str) -> Path:
    path = folder / f"{license_id}.yaml"
    path.write_text(HEADER.format(id=license_id, sha=SHA) + body, encoding="utf-8")
    return path


def test_a_gates_requirement_defaults_to_the_licensors_grant(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "gated",
        """clauses:
  - id: gate
    kind: gate
    title: A gate
    quote: If big, ask.
    trigger: {fact: mau, more_than: 1M}
""",
    )
    (clause,) = load_license_file(path).clauses
    assert clause.rule.requirement == Test("license_granted", "contains", "gated")


def test_an_obligation_needs_a_requirement(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "duty",
        """clauses:
  - id: show
    kind: obligation
    title: Show it
    quote: Show it.
""",
    )
    with pytest.raises(InputError, match="needs a requirement"):
        load_license_file(path)


def test_a_gate_is_lifted_only_by_a_grant(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "gated",
        """clauses:
  - id: gate
    kind: gate
    title: A gate
    quote: If big, display.
    trigger: {fact: mau, more_than: 1M}
    requirement: {fact: ui_attribution, contains: Gated}
""",
    )
    with pytest.raises(InputError, match="must test license_granted") as caught:
        load_license_file(path)
    assert caught.value.diagnostics[0].line == 11  # the requirement's line


def test_incorporated_files_must_exist_and_not_loop(tmp_path: Path) -> None:
    write(tmp_path, "a", "incorporates: [b]\nclauses: []\n")
    write(tmp_path, "b", "incorporates: [a, c]\nclauses: []\n")
    with pytest.raises(InputError) as caught:
        load_library(tmp_path)
    messages = " | ".join(d.message for d in caught.value.diagnostics)
    assert "incorporates 'c', which is not in the library" in messages
    assert "incorporation loop: a -> b -> a" in messages


def manifest(model: str, facts: Mapping[str, object]) -> Manifest:
    return Manifest.model_validate(
        {
            "product": "p",
            "owner": "o",
            "facts": dict(facts),
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "delivery": ["hosted_service"],
                    "lineage": {"base": model, "steps": ["fine_tuning"]},
                }
            ],
        }
    )


def run(model: str, facts: Mapping[str, object]) -> dict[tuple[str, str], tuple[str, str]]:
    result = evaluate_manifest(
        manifest(model, facts),
        Document("m.yaml", {}, {}),
        load_library(),
        Options(POLICIES["default"]),
    )
    return {(f.license, f.clause): (f.verdict.value, explain(f)) for f in result.findings}


def test_a_license_brings_the_policy_it_incorporates() -> None:
    findings = run("llama-3.2-11b-vision", {"licensee_domicile": ["DE"], "license_granted": []})
    assert findings[("llama-3.2-acceptable-use-policy", "eu-multimodal")][0] == "violation"
    assert ("llama-3.2-community", "additional-commercial-terms") in findings


def test_a_crossed_gate_explains_that_no_rights_remain() -> None:
    facts = {"licensee_mau": {"series": {"2024-08": "800M"}}, "license_granted": []}
    verdict, why = run("llama-3.2-1b", facts)[
        ("llama-3.2-community", "additional-commercial-terms")
    ]
    assert verdict == "violation"
    assert "none of the license's rights" in why
    assert "2024-08" in why


def test_a_crossed_gate_with_the_grant_unknown_is_a_risk_naming_it() -> None:
    facts = {"licensee_mau": {"series": {"2024-08": "800M"}}}
    verdict, why = run("llama-3.2-1b", facts)[
        ("llama-3.2-community", "additional-commercial-terms")
    ]
    assert verdict == "governance_risk"
    assert "license_granted" in why
