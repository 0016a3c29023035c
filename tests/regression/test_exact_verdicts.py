"""Issue 21, "Exactness", kept as data (tests/data/exact_verdicts/): each case is a manifest and
the verdict one named clause must get (or `error`: refused with a located error, exit 2).  The
classes: several agreements with one licensor, a disputed agreement, its dispute confined to its
own licensor, `terms: unknown` beside a denial, the flat `agreement` facts contradicting
themselves, near-matches beside an excluded exact name, and a year's total beside a month's
figure.

The expected verdicts are read off the clause's text over every completion of the facts (a
disputed agreement may or may not exist; terms unknown may waive anything of its licensor's; a
near-match may or may not be the name; a year's total says nothing of one month)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from licheck.core.diagnostics import InputError
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import parse
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library
from licheck.loading.documents import validate
from tests.conftest import ROOT

LIBRARY = load_library()
DATA = ROOT / "tests" / "data" / "exact_verdicts"
CASES: list[dict[str, Any]] = [
    case
    for path in sorted(DATA.glob("*.yaml"))
    for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
]


def _manifest(top: dict[str, Any], component_facts: dict[str, Any]) -> dict[str, Any]:
    top = dict(top)
    facts = {
        "commercial": True,
        "mau": "150M",
        "monthly_revenue": "30M USD/month",
        "ui_attribution": [],
        **top.pop("facts", {}),
    }
    base = top.pop("base", "kimi-k2.5")
    return {
        "product": "P",
        "owner": "O",
        **top,
        "facts": facts,
        "components": [
            {
                "id": "c",
                "name": "C",
                "delivery": ["hosted_service"],
                "lineage": {"base": base},
                "facts": {"derivative": True, **component_facts},
            }
        ],
    }


def verdict_of(data: dict[str, Any], clause: tuple[str, str], policy: str = "default") -> str:
    """The clause's verdict, or `error` for a located refusal."""
    document = parse(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "m.yaml")
    try:
        manifest = validate(document, Manifest)
        result = evaluate_manifest(manifest, document, LIBRARY, Options(POLICIES[policy]))
    except InputError as exc:
        assert all(d.line and d.file == "m.yaml" for d in exc.diagnostics), exc.diagnostics
        return "error"
    found = [f.verdict.value for f in result.findings if (f.license, f.clause) == clause]
    assert len(set(found)) == 1, found
    return found[0]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_clause_gets_its_verdict(case: dict[str, Any]) -> None:
    clause = tuple(case["clause"].split("/"))
    assert len(clause) == 2, case["clause"]
    data = _manifest(case["manifest"], case.get("component_facts", {}))
    assert verdict_of(data, (clause[0], clause[1])) == case["verdict"]
