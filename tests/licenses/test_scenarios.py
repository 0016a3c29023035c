"""Every scenario of every license gives the expected verdict for each named clause."""

from __future__ import annotations

import json

import pytest

from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.library.compiled import Library, load_library
from licheck.library.layers import load as load_layers
from licheck.library.source import LibrarySource
from tests.scenarios import Scenario, build_manifest, load_scenarios

SCENARIOS = load_scenarios()


@pytest.fixture(scope="module")
def library() -> Library:
    """Loaded once for the module: the library is immutable, and loading it (validating and
    compiling ~300 clauses) costs more than evaluating a scenario."""
    return load_library()


@pytest.fixture(scope="module")
def layered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Library]:
    """The library with each scenario file's `catalog_layer` over it, by file (built once)."""
    found: dict[str, Library] = {}
    for scenario in SCENARIOS:
        models = scenario.defaults.get("catalog_layer")
        if models and scenario.file not in found:
            folder = tmp_path_factory.mktemp("layer")
            (folder / "catalog.yaml").write_text(json.dumps({"models": models}), "utf-8")
            found[scenario.file] = load_layers(LibrarySource(folders=(folder,)))
    return found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.license}: {s.name}" for s in SCENARIOS])
def test_scenario(scenario: Scenario, library: Library, layered: dict[str, Library]) -> None:
    manifest = build_manifest(scenario)
    document = Document(scenario.file, {}, {})
    result = evaluate_manifest(
        manifest,
        document,
        layered.get(scenario.file, library),
        Options(POLICIES[scenario.data.get("evidence", "default")]),
    )
    verdicts = {f.clause: f.verdict.value for f in result.findings if f.license == scenario.license}
    for clause, expected in scenario.expect.items():
        assert clause in verdicts, f"no finding for {scenario.license}/{clause}: {verdicts}"
        assert verdicts[clause] == expected, (
            f"{scenario.license}/{clause}: expected {expected}, got {verdicts[clause]}"
        )


def test_every_clause_has_a_scenario(library: Library) -> None:
    covered = {(s.license, clause) for s in SCENARIOS for clause in s.expect}
    missing = sorted(
        f"{license_id}/{c.clause.id}"
        for license_id, entry in library.licenses.items()
        for c in entry.clauses
        if (license_id, c.clause.id) not in covered
    )
    assert not missing, f"clauses without a scenario test: {missing}"
