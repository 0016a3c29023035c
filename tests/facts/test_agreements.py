"""One notion of a separate agreement (issue 12, deliverable 5): `agreements:` derives
`agreement`, `agreement_waives` and `license_granted`; the flat facts stay readable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import report_json, run

KIMI = ("kimi-k2.5-modified-mit", "ui-attribution")
QWEN_GATE = ("tongyi-qianwen", "mau-gate")
SEEN = [{"source": "contract", "kind": "official_statement", "date": "2026-01-10"}]
PRESS = [{"source": "newspaper", "kind": "press_report", "date": "2026-01-10"}]


def _manifest(tmp_path: Path, base: str, **top: Any) -> Path:
    data: dict[str, Any] = {
        "product": "P",
        "owner": "O",
        "facts": {
            "commercial": True,
            "monthly_revenue": "30M USD/month",
            "mau": "150M",
            "ui_attribution": [],
            **top.pop("facts", {}),
        },
        **top,
        "components": [
            {
                "id": "c",
                "name": "C",
                "delivery": ["hosted_service"],
                "lineage": {"base": base},
                "facts": {"derivative": True},
            }
        ],
    }
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _verdict(capsys: pytest.CaptureFixture[str], path: Path, clause: tuple[str, str]) -> str:
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json")
    assert code in (0, 1), err
    (product,) = report_json(out)["products"]
    found = [f for f in product["findings"] if (f["license"], f["clause"]) == clause]
    return str(found[0]["verdict"])


@pytest.mark.parametrize(
    ("top", "verdict"),
    [
        ({"agreements": "none"}, "violation"),
        ({"agreements": []}, "violation"),
        # the audit's bug: `agreement: []` left the display duty a governance risk
        ({"facts": {"agreement": []}}, "violation"),
        ({"facts": {"agreement": {"value": [], "evidence": SEEN}}}, "violation"),
        # an agreement with another licensor says nothing waived of Moonshot's
        ({"agreements": [{"licensor": "meta", "grants": [], "waives": []}]}, "violation"),
        ({"facts": {"agreement": ["meta"]}}, "violation"),
        ({"agreements": [{"licensor": "moonshot-ai", "terms": "unknown"}]}, "governance_risk"),
        ({"agreements": [{"licensor": "moonshot-ai", "grants": []}]}, "governance_risk"),
        ({"facts": {"agreement": ["moonshot-ai"]}}, "governance_risk"),
        ({"agreements": [{"licensor": "moonshot-ai", "waives": []}]}, "violation"),
        (
            {"agreements": [{"licensor": "moonshot-ai", "waives": ["kimi-k2.5-modified-mit/*"]}]},
            "satisfied",
        ),
        (
            {
                "agreements": [
                    {
                        "licensor": "moonshot-ai",
                        "via": "fireworks-ai",
                        "waives": ["kimi-k2.5-modified-mit/ui-attribution"],
                        "evidence": SEEN,
                    }
                ]
            },
            "satisfied",
        ),
        # only a press report says the agreement exists: the waiver is likely, not established
        (
            {
                "agreements": [
                    {
                        "licensor": "moonshot-ai",
                        "waives": ["kimi-k2.5-modified-mit/*"],
                        "evidence": PRESS,
                    }
                ]
            },
            "governance_risk",
        ),
        # the only agreement with Moonshot is denied by established evidence: nothing waived
        (
            {
                "agreements": [
                    {
                        "licensor": "moonshot-ai",
                        "terms": "unknown",
                        "evidence": [{**SEEN[0], "value": False}],
                    }
                ]
            },
            "violation",
        ),
        # issue 24: no agreement, and what shows it: as certain as that evidence
        ({"agreements": {"none": True, "evidence": SEEN}}, "violation"),
        ({"agreements": {"none": True, "evidence": PRESS}}, "governance_risk"),
        ({"agreements": {"none": True}}, "violation"),  # the manifest's own declaration
    ],
)
def test_kimi_display_duty_follows_the_agreements(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, top: dict[str, Any], verdict: str
) -> None:
    assert _verdict(capsys, _manifest(tmp_path, "kimi-k2.5", **top), KIMI) == verdict


@pytest.mark.parametrize(
    ("agreement", "verdict"),
    [
        ({"licensor": "alibaba-cloud", "grants": ["tongyi-qianwen"]}, "satisfied"),
        ({"licensor": "alibaba-cloud", "grants": []}, "violation"),
        # a contract that waives a clause is not the license the gate asks for
        ({"licensor": "alibaba-cloud", "waives": ["tongyi-qianwen/*"], "grants": []}, "violation"),
        ({"licensor": "alibaba-cloud", "terms": "unknown"}, "governance_risk"),
    ],
)
def test_a_gate_is_met_only_by_a_grant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, agreement: dict[str, Any], verdict: str
) -> None:
    path = _manifest(tmp_path, "qwen-72b", agreements=[agreement])
    assert _verdict(capsys, path, QWEN_GATE) == verdict


def _errors(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2, err
    return err


def test_agreements_and_flat_facts_together_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _manifest(
        tmp_path,
        "kimi-k2.5",
        agreements="none",
        facts={"agreement_waives": ["kimi-k2.5-modified-mit/*"]},
    )
    err = _errors(capsys, path)
    assert "agreement_waives is implied by agreements:" in err and "p.yaml:" in err


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_a_licensor_cannot_grant_anothers_license(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agreement = {"licensor": "fireworks-ai", "waives": ["kimi-k2.5-modified-mit/ui-attribution"]}
    path = _manifest(tmp_path, "kimi-k2.5", agreements=[agreement])
    err = _errors(capsys, path)
    assert "is moonshot-ai's to grant or waive, not fireworks-ai's" in err
    assert "licensor: moonshot-ai, via: fireworks-ai" in err


def test_misspelt_ids_and_bad_terms_are_located(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agreement = {"licensor": "moonshot-ai", "waives": ["kimi-k2.5-modified-mit/ui-atribution"]}
    err = _errors(capsys, _manifest(tmp_path, "kimi-k2.5", agreements=[agreement]))
    assert "did you mean 'ui-attribution'" in err
    both = {"licensor": "moonshot-ai", "terms": "unknown", "grants": []}
    err = _errors(capsys, _manifest(tmp_path, "kimi-k2.5", agreements=[both]))
    assert "terms: unknown leaves grants and waives unknown" in err


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"restricted_uses": ["militray"]}, "did you mean 'military'"),
        ({"improves_other_models": {"includes": ["lm"]}}, "did you mean 'llm'"),
        ({"use_purpose": ["reserch"]}, "did you mean 'research'"),
        ({"restricted_uses": ["policy:no-such-license"]}, "is not in the library"),
        ({"commercial": False, "use_purpose": ["commercial_product"]}, "commercial is false"),
        ({"use_purpose": ["research", "evaluation"]}, "commercial is true, but use_purpose"),
    ],
)
def test_closed_vocabularies_and_purpose_contradictions_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, facts: dict[str, Any], message: str
) -> None:
    err = _errors(capsys, _manifest(tmp_path, "kimi-k2.5", facts=facts))
    assert message in err and "p.yaml:" in err


def test_a_misspelt_member_is_located_at_the_member(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        "product: P\nowner: O\nfacts:\n  restricted_uses: [unlawful, militray]\n"
        "components:\n  - {id: c, name: C, lineage: {base: kimi-k2.5}}\n",
        encoding="utf-8",
    )
    assert "m.yaml:4:31:" in _errors(capsys, path)
    code, _, err = run(capsys, "whatif", str(path), "--set", "restricted_uses=[militray]")
    assert code == 2 and "did you mean 'military'" in err


@pytest.mark.parametrize(
    ("sets", "verdict"),
    [
        # what if there were no agreement (issue 21): the listed waiver no longer holds
        (["agreement=[]"], "violation"),
        (["agreement=[meta]"], "violation"),
        (["agreement=[moonshot-ai]"], "governance_risk"),  # one exists: its terms are not known
        (["agreement=unknown"], "governance_risk"),
        (["agreement=[]", "agreement_waives=[]"], "violation"),
        (["agreement_waives=[]"], "violation"),
    ],
)
def test_a_what_if_agreement_implies_its_waivers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sets: list[str], verdict: str
) -> None:
    waiver = {"licensor": "moonshot-ai", "waives": ["kimi-k2.5-modified-mit/ui-attribution"]}
    path = _manifest(tmp_path, "kimi-k2.5", agreements=[waiver])
    options = [arg for item in sets for arg in ("--set", item)]
    code, out, err = run(capsys, "whatif", str(path), *options, "--format", "json")
    assert code in (0, 1), err
    found = report_json(out)["result"]["findings"]
    assert [f["verdict"] for f in found if (f["license"], f["clause"]) == KIMI] == [verdict]


def test_a_what_if_waiver_without_its_agreement_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _manifest(tmp_path, "kimi-k2.5", agreements="none")
    sets = ("--set", "agreement=[]", "--set", "agreement_waives=[kimi-k2.5-modified-mit/*]")
    code, _, err = run(capsys, "whatif", str(path), *sets)
    assert code == 2 and "says there is no agreement with moonshot-ai" in err


def test_no_agreement_carries_its_evidence_into_the_findings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    statement = [{**SEEN[0], "source": "Moonshot: no agreement with O"}]
    path = _manifest(tmp_path, "kimi-k2.5", agreements={"none": True, "evidence": statement})
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json")
    assert code == 1, err
    (product,) = report_json(out)["products"]
    (finding,) = [f for f in product["findings"] if (f["license"], f["clause"]) == KIMI]
    (waives,) = [f for f in finding["facts"] if f["name"] == "agreement_waives"]
    assert waives["status"] == "established"
    assert [e["source"] for e in waives["evidence"]] == ["Moonshot: no agreement with O"]


@pytest.mark.parametrize(
    ("agreements", "message"),
    [
        ({"none": True, "evidence": [{**SEEN[0], "value": False}]}, "claims no value"),
        ({"none": False}, "agreements.none"),
        ({"none": True, "grants": []}, "key 'grants' does not belong here"),
        ("non", "did you mean 'none'?"),
    ],
)
def test_no_agreement_in_a_wrong_form_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, agreements: Any, message: str
) -> None:
    path = _manifest(tmp_path, "kimi-k2.5", agreements=agreements)
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert message in err and f"{path}:" in err
