"""Shared helpers for the what-if tests: a subject from a manifest file or from data."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from licheck.evaluation.evaluate import Options
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library
from licheck.loading.documents import load_manifest
from licheck.whatif import Analysis, Scenario, Subject, analyse
from licheck.whatif.spec import parse_assignment, parse_swap, parse_sweep
from tests.conftest import PRODUCTS

COMPOSER2 = PRODUCTS / "composer2.yaml"


def subject(
    path: Path = COMPOSER2, policy: str = "default", as_of: dt.date | None = None
) -> Subject:
    manifest, document = load_manifest(path, str(path))
    return Subject(manifest, document, load_library(), Options(POLICIES[policy], as_of))


def subject_of(data: dict[str, Any], policy: str = "default") -> Subject:
    manifest = Manifest.model_validate(data)
    return Subject(
        manifest, Document("inline.yaml", data, {}), load_library(), Options(POLICIES[policy])
    )


def run(
    base: Subject,
    *,
    sets: tuple[str, ...] = (),
    swaps: tuple[str, ...] = (),
    sweeps: tuple[str, ...] = (),
    as_of: dt.date | None = None,
) -> Analysis:
    scenario = Scenario(
        tuple(parse_assignment(s) for s in sets), tuple(parse_swap(s) for s in swaps), as_of
    )
    return analyse(base, scenario, [parse_sweep(s, base.rates()) for s in sweeps])


def product(
    facts: dict[str, Any], component_facts: dict[str, Any] | None = None, model: str = "kimi-k2.5"
) -> dict[str, Any]:
    """A one-component product on `model`, hosted, with the given facts."""
    return {
        "product": "Example",
        "owner": "Example Inc.",
        "facts": facts,
        "components": [
            {
                "id": "main",
                "name": "Main model",
                "delivery": ["hosted_service"],
                "lineage": {"base": model, "steps": ["fine_tuning"]},
                "facts": component_facts or {},
            }
        ],
    }


# A made-up license with many thresholds and every comparison operator (tests/data).
LIBRARY = Path(__file__).resolve().parent / "data" / "whatif_library"
# Baselines for it: (product facts, component facts), from nothing known to much settled.
BASELINES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({}, {}),
    ({"commercial": True, "ui_attribution": [], "notice_included": False}, {"derivative": True}),
    (
        {
            "commercial": True,
            "ui_attribution": ["Test"],
            "notice_included": True,
            "license_granted": [],
        },
        {},
    ),
    (
        {
            "commercial": True,
            "ui_attribution": [],
            "agreement_waives": [],
            "notice_included": False,
            "license_granted": ["test-thresholds"],
        },
        {"derivative": True},
    ),
    (
        {
            "commercial": True,
            "ui_attribution": {"excludes": ["Test"]},
            "agreement_waives": ["test-thresholds/display"],
        },
        {"derivative": False},
    ),
    # Related facts bound the swept one: mau above 200M contradicts licensee_mau.
    (
        {
            "commercial": True,
            "licensee_mau": "200M",
            "license_granted": [],
            "notice_included": False,
        },
        {"derivative": True},
    ),
    ({"licensee_own_mau": {"at_least": "20M", "at_most": "400M"}, "license_granted": []}, {}),
]


def made_up_subject(index: int) -> Subject:
    """A product on the made-up license, with the facts of BASELINES[index]."""
    facts, component = BASELINES[index]
    data = product(facts, component, model="test-model")
    return Subject(
        Manifest.model_validate(data),
        Document("inline.yaml", data, {}),
        load_library(LIBRARY),
        Options(POLICIES["default"]),
    )
