"""The published JSON Schemas match the models, and real files validate against them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from licheck.api import evaluate
from licheck.files import yamlsafe
from licheck.library.compiled import NOT_RULE_FILES
from licheck.report.view import to_json
from licheck.schemas import NAMES, dumps, generate, shipped
from tests.clirun import run
from tests.conftest import LICENSES, PRODUCTS


@pytest.mark.parametrize("name", NAMES)
def test_shipped_schema_matches_the_models(name: str) -> None:
    assert shipped(name) == dumps(generate(name)), (
        f"{name}.schema.json drifted from the models: run python -m licheck.schemas"
    )


@pytest.mark.parametrize("name", NAMES)
def test_schema_identifier_names_no_domain_the_project_does_not_own(name: str) -> None:
    assert json.loads(shipped(name))["$id"] == f"urn:licheck:schema:{name}"


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(shipped(name)))


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(shipped(name)))


@pytest.mark.parametrize("path", sorted(PRODUCTS.glob("*.yaml")), ids=lambda p: p.name)
def test_products_validate_against_the_manifest_schema(path: Path) -> None:
    errors = list(_validator("manifest").iter_errors(yamlsafe.load(path).data))
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize(
    "path",
    sorted(p for p in LICENSES.glob("*.yaml") if p.name not in NOT_RULE_FILES),
    ids=lambda p: p.name,
)
def test_rule_files_validate_against_the_license_schema(path: Path) -> None:
    errors = list(_validator("license").iter_errors(yamlsafe.load(path).data))
    assert not errors, [e.message for e in errors]


def test_catalog_validates() -> None:
    data = yamlsafe.load(LICENSES / "catalog.yaml").data
    assert not list(_validator("catalog").iter_errors(data))


def test_report_validates_against_the_report_schema() -> None:
    from licheck.outputs.document import written
    from licheck.outputs.jsonreport import JsonDocument

    report = evaluate(sorted(PRODUCTS.glob("*.yaml")))
    data = json.loads(written(JsonDocument(), report))
    assert data["schema_version"] == "2.0" and data["clauses"]
    errors = list(_validator("report").iter_errors(data))
    assert not errors, [e.message for e in errors]
    # the deprecated shape (`--json-schema 1.0`, `report.to_json`) against its own schema
    old = json.loads(to_json(report))
    assert not [e.message for e in _validator("report-1.0").iter_errors(old)]
    assert list(_validator("report").iter_errors(old))  # and it is not a 2.0 report


def test_schema_command_prints_the_shipped_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "manifest")
    assert code == 0 and out == shipped("manifest")
