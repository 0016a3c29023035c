"""The Llama 3.3 acceptable-use policy's EU clause binds only "multimodal models included in
Llama 3.3", and the built-in catalog lists none, so no scenario over it can breach the gate
(`tests/licenses/test_scenario_coverage.py` names the clause).  It is not a rule that can
never fail: a catalog layer that lists a multimodal model under the Llama 3.3 license makes it
bind, and a missing fact leaves it open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import run

CATALOG = """models:
  - id: acme-llama-3.3-vision
    name: Acme Llama 3.3 Vision
    family: llama
    licensor: meta
    license: llama-3.3-community
    release_date: 2024-12-06
    multimodal: true
    source: "a test catalog: a multimodal model under the Llama 3.3 license"
"""
MANIFEST = """format: 2
product: Vision Desk
owner: Example GmbH
sources:
  own: {{title: Our own records, kind: official_statement, date: 2026-01-10}}
facts:
  commercial: {{value: true, evidence: [{{source: own}}]}}
  licensee_domicile: {domicile}
  license_granted: {{value: [], evidence: [{{source: own}}]}}
components:
  - id: desk
    name: Desk
    delivery: [hosted_service]
    lineage:
      base: {{model: acme-llama-3.3-vision, evidence: [{{source: own}}]}}
"""


def _verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str], domicile: str) -> str:
    layer = tmp_path / "layer"
    layer.mkdir(exist_ok=True)
    (layer / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    manifest = tmp_path / "desk.yaml"
    manifest.write_text(MANIFEST.format(domicile=domicile), encoding="utf-8")
    code, out, err = run(
        capsys, "evaluate", str(manifest), "--licenses", str(layer), "-f", "json",
        "--fail-on", "never", "--no-waivers",
    )  # fmt: skip
    assert code == 0, err
    found = [
        f["verdict"]
        for p in json.loads(out)["products"]
        for f in p["findings"]
        if f["license"] == "llama-3.3-acceptable-use-policy" and f["clause"] == "eu-multimodal"
    ]
    assert len(found) == 1, found
    return str(found[0])


def test_an_eu_company_on_a_multimodal_llama_3_3_model_without_a_grant_is_a_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domicile = "{value: [DE], evidence: [{source: own}]}"
    assert _verdict(tmp_path, capsys, domicile) == "violation"


def test_an_unknown_domicile_leaves_it_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _verdict(tmp_path, capsys, "{value: unknown}") == "governance_risk"


def test_a_us_company_is_not_gated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    domicile = "{value: [US], evidence: [{source: own}]}"
    assert _verdict(tmp_path, capsys, domicile) == "not_applicable"
