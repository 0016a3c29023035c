"""Issue 21, "Exactness", kept as data: each case is a manifest and the verdict one named clause
must get (or `error`: refused with a located error, exit 2).  The classes: several agreements
with one licensor, a disputed agreement, its dispute confined to its own licensor, `terms:
unknown` beside a denial, the flat `agreement` facts contradicting themselves, near-matches
beside an excluded exact name, and a year's total beside a month's figure.

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

LIBRARY = load_library()
KIMI = ("kimi-k2.5-modified-mit", "ui-attribution")
KIMI_WAIVER = "kimi-k2.5-modified-mit/ui-attribution"
MINIMAX_WAIVER = "minimax-m2-modified-mit/ui-attribution"
SEEN: dict[str, Any] = {"source": "contract", "kind": "official_statement", "date": "2026-01-10"}
PRESS: dict[str, Any] = {"source": "newspaper", "kind": "press_report", "date": "2026-01-10"}
DENIED: dict[str, Any] = {
    "source": "licensor's denial",
    "kind": "licensor_statement",
    "date": "2026-01-12",
}
DENIAL: dict[str, Any] = {**DENIED, "value": False}
DISPUTED: list[dict[str, Any]] = [
    SEEN,
    DENIAL,
]  # it exists, says one; it does not, says the other (both establish)


def moonshot(*waives: str, evidence: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    agreement: dict[str, Any] = {"licensor": "moonshot-ai", "waives": list(waives)}
    if evidence is not None:
        agreement["evidence"] = evidence
    return agreement


def unknown_terms(licensor: str, evidence: list[dict[str, Any]]) -> dict[str, Any]:
    return {"licensor": licensor, "terms": "unknown", "evidence": evidence}


def minimax(*waives: str, evidence: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {**moonshot(*waives, evidence=evidence), "licensor": "minimax"}


# (name, top-level keys of the manifest (facts merged into the defaults), component facts,
#  the clause, the expected verdict)
CASES: list[tuple[str, dict[str, Any], dict[str, Any], tuple[str, str], str]] = [
    # -- near-matches beside an excluded exact name (a person must judge) --------------------
    (
        "near-match in case beside the excluded name",
        {
            "agreements": "none",
            "facts": {"ui_attribution": {"includes": ["KIMI K2.5"], "excludes": ["Kimi K2.5"]}},
        },
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "near-match in white space beside the excluded name",
        {
            "agreements": "none",
            "facts": {
                "ui_attribution": {"includes": ["Kimi\u00a0K2.5"], "excludes": ["Kimi K2.5"]}
            },
        },
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "a near-match stated by the component beside an excluded name",
        {"agreements": "none"},
        {"ui_attribution": {"includes": ["kimi k2.5"], "excludes": ["Kimi K2.5"]}},
        KIMI,
        "governance_risk",
    ),
    (
        # the documented near-matches are case, white space and typography; the library's
        # scenarios read "Llama-3 Coder" as not beginning with "Llama 3", a hyphen as a spelling
        "a hyphen for the space is another spelling, beside the excluded name",
        {
            "agreements": "none",
            "facts": {"ui_attribution": {"includes": ["Kimi-K2.5"], "excludes": ["Kimi K2.5"]}},
        },
        {},
        KIMI,
        "violation",
    ),
    (
        "another model's name beside the excluded name is no near-match",
        {
            "agreements": "none",
            "facts": {"ui_attribution": {"includes": ["Kimi K2"], "excludes": ["Kimi K2.5"]}},
        },
        {},
        KIMI,
        "violation",
    ),
    (
        "the exact name shown beside a near-match",
        {
            "agreements": "none",
            "facts": {"ui_attribution": {"includes": ["Kimi K2.5", "KIMI K2.5"]}},
        },
        {},
        KIMI,
        "satisfied",
    ),
]


QWEN_GATE = ("tongyi-qianwen", "mau-gate")


def alibaba(*grants: str, evidence: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    agreement: dict[str, Any] = {"licensor": "alibaba-cloud", "grants": list(grants)}
    if evidence is not None:
        agreement["evidence"] = evidence
    return agreement


CASES += [
    # -- several agreements with one licensor, one of them disputed ------------------------------
    (
        "a disputed waiver beside a reported one with the same licensor",
        {
            "agreements": [
                moonshot(KIMI_WAIVER, evidence=DISPUTED),
                moonshot(KIMI_WAIVER, evidence=[PRESS]),
            ]
        },
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "two disputed waivers with the same licensor",
        {
            "agreements": [
                moonshot(KIMI_WAIVER, evidence=DISPUTED),
                moonshot(KIMI_WAIVER, evidence=DISPUTED),
            ]
        },
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "a disputed waiver beside an established agreement that waives nothing",
        {"agreements": [moonshot(KIMI_WAIVER, evidence=DISPUTED), moonshot()]},
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "an established waiver beside a disputed agreement that waives nothing",
        {"agreements": [moonshot(KIMI_WAIVER), moonshot(evidence=DISPUTED)]},
        {},
        KIMI,
        "satisfied",
    ),
    (
        "a denied waiver beside an agreement that waives nothing",
        {"agreements": [moonshot(KIMI_WAIVER, evidence=[DENIAL]), moonshot()]},
        {},
        KIMI,
        "violation",
    ),
    (
        "a disputed grant beside a grant of nothing",
        {
            "base": "qwen-72b",
            "agreements": [alibaba("tongyi-qianwen", evidence=DISPUTED), alibaba()],
        },
        {},
        QWEN_GATE,
        "governance_risk",
    ),
    # -- a dispute stays with its own licensor ----------------------------------------------------
    (
        "a disputed MiniMax agreement leaves Moonshot's known waiver of nothing",
        {"agreements": [moonshot(), minimax(MINIMAX_WAIVER, evidence=DISPUTED)]},
        {},
        KIMI,
        "violation",
    ),
    (
        "a disputed MiniMax agreement leaves Moonshot's waiver",
        {"agreements": [moonshot(KIMI_WAIVER), minimax(MINIMAX_WAIVER, evidence=DISPUTED)]},
        {},
        KIMI,
        "satisfied",
    ),
    # -- terms unknown beside a denial ------------------------------------------------------------
    (
        "terms unknown, shown and denied",
        {"agreements": [unknown_terms("moonshot-ai", DISPUTED)]},
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "terms unknown, reported and denied by the licensor",
        {"agreements": [unknown_terms("moonshot-ai", [PRESS, DENIAL])]},
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "terms unknown, only denied",
        {"agreements": [unknown_terms("moonshot-ai", [DENIAL])]},
        {},
        KIMI,
        "violation",
    ),
]


CASES += [
    # -- the flat agreement facts contradicting each other: refused, located ---------------------
    (
        "no agreement, yet a waiver",
        {"facts": {"agreement": [], "agreement_waives": [KIMI_WAIVER]}},
        {},
        KIMI,
        "error",
    ),
    (
        "no agreement, yet the component states a waiver",
        {"facts": {"agreement": []}},
        {"agreement_waives": [KIMI_WAIVER]},
        KIMI,
        "error",
    ),
    (
        "an agreement with another licensor only, yet Moonshot's waiver",
        {"facts": {"agreement": ["meta"], "agreement_waives": [KIMI_WAIVER]}},
        {},
        KIMI,
        "error",
    ),
    (
        "Moonshot excluded, yet its waiver included",
        {
            "facts": {
                "agreement": {"excludes": ["moonshot-ai"]},
                "agreement_waives": {"includes": [KIMI_WAIVER]},
            }
        },
        {},
        KIMI,
        "error",
    ),
    (
        "no agreement, yet a grant",
        {"base": "qwen-72b", "facts": {"agreement": [], "license_granted": ["tongyi-qianwen"]}},
        {},
        QWEN_GATE,
        "error",
    ),
    (
        "an agreement with Moonshot and its waiver",
        {"facts": {"agreement": ["moonshot-ai"], "agreement_waives": [KIMI_WAIVER]}},
        {},
        KIMI,
        "satisfied",
    ),
    (
        "an agreement with Meta known, Moonshot open, and Moonshot's waiver",
        {"facts": {"agreement": {"includes": ["meta"]}, "agreement_waives": [KIMI_WAIVER]}},
        {},
        KIMI,
        "satisfied",
    ),
    ("no agreement at all", {"facts": {"agreement": []}}, {}, KIMI, "violation"),
]


def revenue(monthly_revenue: Any) -> dict[str, Any]:
    """Kimi's display duty decided by revenue alone (50M users: under its 100M line)."""
    return {"agreements": "none", "facts": {"mau": "50M", "monthly_revenue": monthly_revenue}}


OFFICIAL = {"source": "10-K", "kind": "official_statement", "date": "2026-01-10"}
CASES += [
    # -- a year's total is not a month ----------------------------------------------------------
    (
        "a month's figure beside an established year's total",
        revenue(
            {
                "value": "30M USD/month",
                "evidence": [OFFICIAL, {**OFFICIAL, "source": "AR", "value": "240M USD/year"}],
            }
        ),
        {},
        KIMI,
        "violation",
    ),
    (
        "a month's figure beside a press estimate of the year",
        revenue(
            {"value": "30M USD/month", "evidence": [OFFICIAL, {**PRESS, "value": "240M USD/year"}]}
        ),
        {},
        KIMI,
        "violation",
    ),
    (
        "a month of at least 25M beside a year of at most 240M",
        revenue({"at_least": "25M USD/month", "at_most": "240M USD/year"}),
        {},
        KIMI,
        "violation",
    ),
    (
        "a year of at least 300M beside a month of at most 20M",
        revenue({"at_least": "300M USD/year", "at_most": "20M USD/month"}),
        {},
        KIMI,
        "not_applicable",
    ),
    (
        "a year's total alone gives only the average month",
        revenue("300M USD/year"),
        {},
        KIMI,
        "governance_risk",
    ),
    ("ARR floors the month", revenue("300M USD ARR"), {}, KIMI, "violation"),
    (
        "a reported ARR above twelve established months is a dispute, not dropped",
        {
            "agreements": "none",
            "facts": {
                "mau": "50M",
                "monthly_revenue": "2M USD/month",
                "annual_recurring_revenue": {"value": "40M USD", "evidence": [PRESS]},
            },
        },
        {},
        KIMI,
        "governance_risk",
    ),
    (
        "a range of months inverted is refused",
        revenue({"at_least": "30M USD/month", "at_most": "20M USD/month"}),
        {},
        KIMI,
        "error",
    ),
    (
        "a range of years inverted is refused",
        revenue({"at_least": "300M USD/year", "at_most": "240M USD/year"}),
        {},
        KIMI,
        "error",
    ),
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


@pytest.mark.parametrize(
    ("top", "component_facts", "clause", "expected"),
    [
        pytest.param(top, facts, clause, expected, id=name)
        for name, top, facts, clause, expected in CASES
    ],
)
def test_exactness_case(
    top: dict[str, Any], component_facts: dict[str, Any], clause: tuple[str, str], expected: str
) -> None:
    assert verdict_of(_manifest(top, component_facts), clause) == expected
