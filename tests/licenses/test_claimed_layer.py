"""Scenarios on licenses whose built-in models rest on secondary claims, run on a model the
licensor names.

A catalog model whose license is known from secondary sources only (`license_claim: secondary`)
never gives a violation on that claim alone: a breach is a governance risk naming the claim.  For
a license whose every built-in model is such a model (the Qwen Community License 1.0, EXAONE
1.1-NC, OpenMDW-1.1), no scenario in `licenses/tests/` can show that its clauses can fail.  They
can: a catalog layer that lists a model under the license on the licensor's own word makes them
bind.  The scenario files in `tests/licenses/claimed/` (the format of `licenses/tests/`) run here
on such a layer, one model `claimed-LICENSE` per license; `tests/licenses/test_scenario_coverage.py`
counts what they expect.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.library.compiled import Library
from licheck.library.layers import load
from licheck.library.source import LibrarySource
from tests.scenarios import Scenario, build_manifest, load_scenarios

CLAIMED_DIR = Path(__file__).resolve().parent / "claimed"
SCENARIOS = load_scenarios(CLAIMED_DIR)
MODEL_PREFIX = "claimed-"


def _catalog(licenses: list[str]) -> str:
    entries = "".join(
        f"  - id: {MODEL_PREFIX}{license_id}\n"
        f"    name: A model the licensor publishes under {license_id}\n"
        "    kind: language\n"
        f"    license: {license_id}\n"
        '    source: "a test catalog: the licensor\'s own model card names the license"\n'
        for license_id in licenses
    )
    return "models:\n" + entries


def catalog_layer(layer: Path) -> Path:
    """`layer` (an empty folder) made a catalog layer with one licensor-claimed model per
    license of the claimed scenario files."""
    licenses = sorted({s.license for s in SCENARIOS})
    (layer / "catalog.yaml").write_text(_catalog(licenses), encoding="utf-8")
    return layer


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return load(LibrarySource((catalog_layer(tmp_path_factory.mktemp("claimed-layer")),)))


def test_each_file_runs_on_its_own_claimed_model() -> None:
    """A scenario on another model would not show what this module is for."""
    assert SCENARIOS, "no scenario files in tests/licenses/claimed"
    for scenario in SCENARIOS:
        assert scenario.defaults.get("model") == MODEL_PREFIX + scenario.license, scenario.file


def test_the_built_in_models_of_these_licenses_rest_on_secondary_claims(library: Library) -> None:
    """Were a built-in model licensor-claimed, the scenarios belong in licenses/tests/."""
    for license_id in {s.license for s in SCENARIOS}:
        layer_model = MODEL_PREFIX + license_id
        built_in = [m for m in library.models if m.license == license_id and m.id != layer_model]
        assert built_in, f"no built-in model under {license_id}"
        assert all(not m.license_claim.established for m in built_in), license_id


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.license}: {s.name}" for s in SCENARIOS])
def test_scenario(scenario: Scenario, library: Library) -> None:
    manifest = build_manifest(scenario)
    document = Document(scenario.file, {}, {})
    result = evaluate_manifest(manifest, document, library, Options(POLICIES["default"]))
    verdicts = {f.clause: f.verdict.value for f in result.findings if f.license == scenario.license}
    for clause, expected in scenario.expect.items():
        assert clause in verdicts, f"no finding for {scenario.license}/{clause}: {verdicts}"
        assert verdicts[clause] == expected, (
            f"{scenario.license}/{clause}: expected {expected}, got {verdicts[clause]}"
        )
