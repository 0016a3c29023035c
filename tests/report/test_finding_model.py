"""One finding model: the evaluation's finding (`evaluation.findings.Finding`) is the report's
(`report.view.FindingOut`, the JSON report's), field for field under the same names and in the
same order; the views that copy some of its fields (what-if, timeline, baseline) copy them under
those names and types.  A field renamed, dropped, reordered or mis-copied between the layers
fails here, over the example products and over generated ones."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from licheck.core.diagnostics import Location
from licheck.core.verdicts import Answer, Requirement, RiskKind, Settlement
from licheck.engine.exact import Branch
from licheck.evaluation.evaluate import Options, ProductResult
from licheck.evaluation.findings import NOT_REPORTED, Finding, MissingFact
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import Library, load_library
from licheck.portfolio.runs import evaluate_paths
from licheck.report import baseline
from licheck.report.building import build, risk_kind
from licheck.report.explain import explain
from licheck.report.view import (
    REPORTED_ONLY,
    FindingOut,
    GoneFinding,
    LocationOut,
    MissingFactOut,
    OutcomeOut,
    SettlementOut,
    to_json,
)
from licheck.timeline.report import FindingStateOut
from licheck.whatif.report import ScenarioFindingOut, _result
from tests.conftest import PRODUCTS
from tests.evaluation.test_isolation import manifests

OPTIONS = Options(POLICIES["default"], today=dt.date(2026, 12, 1))
EVALUATED = [f.name for f in dataclasses.fields(Finding) if f.name not in NOT_REPORTED]
REPORTED = [name for name in FindingOut.model_fields if name not in REPORTED_ONLY]
# the fields whose values are the same plain value in both layers (the others are the report's
# rendering of the engine's values: facts, missing facts, settlements, the location)
PLAIN = [
    f.name
    for f in dataclasses.fields(Finding)
    if f.name in REPORTED and f.name not in ("location", "facts", "missing_facts", "settled_by")
]


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("generated")


def test_the_report_s_finding_is_the_evaluation_s_field_for_field() -> None:
    assert EVALUATED == REPORTED
    assert set(NOT_REPORTED) <= {f.name for f in dataclasses.fields(Finding)}
    assert set(REPORTED_ONLY) <= set(FindingOut.model_fields)
    # the report's own fields come after the evaluation's, so the JSON keys keep their order
    names = list(FindingOut.model_fields)
    assert names.index("explanation") == REPORTED.index("location")


def test_each_plain_field_has_one_type_in_both_layers() -> None:
    hints = typing.get_type_hints(Finding)
    for name in PLAIN:
        assert FindingOut.model_fields[name].annotation == hints[name], name
    assert hints["binds"] is Answer and hints["requirement"] is Requirement
    assert FindingOut.model_fields["risk_kind"].annotation == RiskKind | None
    assert [f.name for f in dataclasses.fields(Location)] == list(LocationOut.model_fields)


def test_the_finding_s_parts_keep_their_names_in_the_report() -> None:
    """A settlement, a missing fact and its outcomes are named alike in both layers; the report
    writes a missing fact's state by its name (and status, likely value), an outcome without
    the interval the engine merges by, and without its near-match reading (`near`: the outcome's
    `when` says it, and the explanation names it)."""
    assert [f.name for f in dataclasses.fields(Settlement)] == list(SettlementOut.model_fields)
    assert [f.name for f in dataclasses.fields(MissingFact)] == ["fact", "outcomes"]
    assert {"fact", "outcomes"} <= set(MissingFactOut.model_fields)
    branch = [f.name for f in dataclasses.fields(Branch) if f.name not in ("region", "near")]
    assert branch == list(OutcomeOut.model_fields)


def test_views_that_copy_finding_fields_copy_them_by_name_and_type() -> None:
    """What-if, timeline and baseline name a finding by `finding` (its id) and copy some of its
    fields: each copied field is the report's finding's, of the same type."""
    report_types = {n: f.annotation for n, f in FindingOut.model_fields.items()}
    views: dict[type[Any], set[str]] = {
        ScenarioFindingOut: {"finding"},
        FindingStateOut: {"finding", "previous", "open_facts", "previous_open_facts"},
        GoneFinding: {"product", "file"},
        baseline._Finding: set(),
    }
    for view, own in views.items():
        copied = set(view.model_fields) - own
        assert copied <= set(report_types), (view.__name__, copied - set(report_types))
        for name in copied:
            annotation = view.model_fields[name].annotation
            expected: Any = report_types[name]
            # the timeline names a finding no longer there by its verdict None
            assert annotation in (expected, expected | None), (view.__name__, name)


def _value(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def _agree(result: ProductResult, product: dict[str, Any]) -> None:
    """Every field of each of the product's findings is in its JSON report, as evaluated."""
    assert len(product["findings"]) == len(result.findings)
    for finding, out in zip(result.findings, product["findings"], strict=True):
        assert list(out) == list(FindingOut.model_fields)
        for name in PLAIN:
            assert out[name] == _value(getattr(finding, name)), name
        assert out["location"] == dataclasses.asdict(finding.location)
        assert out["location"]["file"] == result.file
        assert [f["name"] for f in out["facts"]] == [s.name for s in finding.facts]
        assert [m["fact"] for m in out["missing_facts"]] == [
            m.fact.name for m in finding.missing_facts
        ]
        for missing, got in zip(finding.missing_facts, out["missing_facts"], strict=True):
            MissingFactOut.model_validate(got)
            assert [(o["when"], o["verdict"]) for o in got["outcomes"]] == [
                (b.when, b.verdict.value) for b in missing.outcomes
            ]
        assert [SettlementOut.model_validate(s) for s in out["settled_by"]] == [
            SettlementOut.model_validate(
                {"verdict": s.verdict, "when": [{"fact": f, "value": v} for f, v in s.when]}
            )
            for s in finding.settled_by
        ]
        assert out["explanation"] == explain(finding)
        assert out["risk_kind"] == _value(risk_kind(finding))


def _reported(results: list[ProductResult]) -> None:
    report = json.loads(to_json(build(results, "default", None)))
    assert len(report["products"]) == len(results)
    for result, product in zip(results, report["products"], strict=True):
        _agree(result, product)
        scenario = _result(result).findings
        for finding, out in zip(result.findings, scenario, strict=True):
            for name in set(ScenarioFindingOut.model_fields) - {"finding"}:
                assert getattr(out, name) == getattr(finding, name), name


def test_the_example_products_findings_reach_the_json_report_as_evaluated(
    library: Library,
) -> None:
    results = evaluate_paths(sorted(PRODUCTS.glob("*.yaml")), OPTIONS, library)
    findings = [f for r in results for f in r.findings]
    assert len(findings) >= 5
    assert len({f.requirement for f in findings}) > 1 and len({f.binds for f in findings}) > 1
    _reported(results)


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(manifests(0))
def test_generated_products_findings_reach_the_json_report_as_evaluated(
    library: Library, folder: Path, manifest: dict[str, object]
) -> None:
    path = folder / "p.yaml"
    path.write_text(yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False), "utf-8")
    results = evaluate_paths([path], OPTIONS, library)
    assert results and results[0].findings
    _reported(results)
