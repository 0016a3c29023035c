"""The published JSON Schemas, generated from the pydantic models and shipped as files.

`python -m licheck.schemas` rewrites them; a test fails when the shipped files drift from the
models.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

HERE = Path(__file__).resolve().parent
# A URN, not an address: the project owns no domain to serve its schemas from (issue "Ship it"),
# and no schema refers to another, so nothing needs to resolve the identifier.
BASE_ID = "urn:licheck:schema:"


def _models() -> dict[str, Callable[[], type[BaseModel]]]:
    def license_() -> type[BaseModel]:
        from licheck.inputs.rules import License

        return License

    def manifest() -> type[BaseModel]:
        from licheck.inputs.manifest import Manifest

        return Manifest

    def catalog() -> type[BaseModel]:
        from licheck.inputs.rules import Catalog

        return Catalog

    def report() -> type[BaseModel]:
        from licheck.report.leaner import report_model

        return report_model()

    def report_1_0() -> type[BaseModel]:  # `--json-schema 1.0`: deprecated, for one release
        from licheck.report.view import Report

        return Report

    def waivers() -> type[BaseModel]:
        from licheck.report.waivers import WaiverFile

        return WaiverFile

    def attestations() -> type[BaseModel]:
        from licheck.report.attestations import AttestationFile

        return AttestationFile

    def policy() -> type[BaseModel]:
        from licheck.library.orgpolicy import PolicyFile

        return PolicyFile

    def whatif() -> type[BaseModel]:
        from licheck.whatif.report import WhatIfReport

        return WhatIfReport

    def timeline() -> type[BaseModel]:
        from licheck.timeline.report import TimelineReport

        return TimelineReport

    return {
        "license": license_,
        "manifest": manifest,
        "catalog": catalog,
        "report": report,
        "report-1.0": report_1_0,
        "waivers": waivers,
        "whatif": whatif,
        "timeline": timeline,
        "policy": policy,
        "attestations": attestations,
    }


NAMES = (
    "license",
    "manifest",
    "catalog",
    "report",
    "report-1.0",
    "waivers",
    "whatif",
    "timeline",
    "policy",
    "attestations",
)
# machine output: its schema describes what is serialised
OUTPUTS = ("report", "report-1.0", "whatif", "timeline")


def generate(name: str) -> dict[str, Any]:
    """The JSON Schema of one format, from its model."""
    model = _models()[name]()
    if name in ("license", "manifest", "catalog", "policy"):
        from licheck.inputs import manifest as manifest_models
        from licheck.inputs import rules as rule_models

        rule_models.build_validators()  # the models defer building; defaults need serializers
        manifest_models.build_validators()
    schema = model.model_json_schema(mode="serialization" if name in OUTPUTS else "validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE_ID}{name}",
        **schema,
    }


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}.schema.json"


def shipped(name: str) -> str:
    return path(name).read_text(encoding="utf-8")


def write_all() -> None:
    for name in NAMES:
        path(name).write_text(dumps(generate(name)), encoding="utf-8")
