"""Attestations and the two kinds of governance risk (issue 24, deliverables 1 and 2), as data:
each case is an attestation file, a manifest and a command line, and what the report must say
(verdicts and risk kinds by clause, the counts, the exit code, notes) or the located refusals."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from licheck.vocabulary.names import CONDUCT, FACTS
from tests.clirun import report_json, run

DOCS = Path(__file__).resolve().parents[2] / "docs"

# A Llama 3.1 product whose record is complete: only conduct keeps its risks open.
MINI = """\
product: Acme Mini
owner: Acme Inc
facts:
  mau: 5M
  commercial: true
  ui_attribution: ["Built with Llama"]
  license_copy_included: true
  license_granted: []
  agreement: []
  licensee_mau:
    value: 5M
    series: {2024-06: 1M}
components:
  - id: chat
    name: Chat
    delivery: [api]
    lineage:
      base: llama-3.1-8b-instruct
format: 2
"""
# The same product with its users unknown: the 700M gate is an evidence risk whatever is attested.
OPEN = MINI.replace("product: Acme Mini", "product: Acme Open").replace(
    "  licensee_mau:\n    value: 5M\n    series: {2024-06: 1M}\n", ""
)
# States a conduct fact itself: its own statement wins over any attestation.
OWN = MINI.replace("product: Acme Mini", "product: Acme Own").replace(
    "  commercial: true\n",
    "  commercial: true\n  use_policy_followed:\n    value: false\n"
    "    evidence: [{source: Incident review, kind: official_statement, date: 2026-03-01}]\n",
)
# No agreement stated: whether Meta granted a license is open, yet attesting no IP claim settles
# the termination clause (a settling set of conduct facts alone).
UNGRANTED = MINI.replace("product: Acme Mini", "product: Acme Ungranted").replace(
    "  license_granted: []\n  agreement: []\n", ""
)
MANIFESTS = {"mini": MINI, "open": OPEN, "own": OWN, "ungranted": UNGRANTED}

FACTS_ALL = """\
    facts:
      use_policy_followed: true
      restricted_uses: []
      export_laws_complied: true
      licensor_marks_used: []
      ip_claims: []
"""


def attestation(
    scope: str = "all",
    kind: str = "official_statement",
    facts: str = FACTS_ALL,
    dates: tuple[str, str] = ("2026-01-15", "2026-12-31"),
    ident: str = "conduct-2026",
) -> str:
    return (
        f"  - id: {ident}\n"
        "    attested_by: Jane Roe, General Counsel\n"
        f"    date: {dates[0]}\n"
        f"    expires: {dates[1]}\n"
        f"    scope: {scope}\n"
        f"    evidence: {{source: Annual conduct review, kind: {kind}}}\n" + facts
    )


def file_of(*entries: str) -> str:
    return "attestations:\n" + "".join(entries)


def docs_example() -> str:
    """The attestation file docs/attestations.md shows (its first YAML block with one)."""
    text = (DOCS / "attestations.md").read_text(encoding="utf-8")
    blocks: list[str] = re.findall(r"```yaml\n(.*?)```", text, re.S)
    return next(b for b in blocks if b.startswith("attestations:\n"))


CONDUCT_RISKS = {
    "prohibited-uses",
    "brand-guidelines",
    "comply-with-laws",
    "ip-claim-termination",
    "mark-only-as-required",
    "no-licensor-marks",
}
R, S, V = "governance_risk", "satisfied", "violation"
TO_ATTEST = dict.fromkeys(CONDUCT_RISKS, (R, "attestation"))
D = "decided"  # satisfied or not applicable: no longer open
ATTESTED = dict.fromkeys(CONDUCT_RISKS, (D, None))
IN_FORCE = "2026-06-01"


@dataclass(frozen=True)
class Case:
    name: str
    attestations: str | None  # the file's text (None: no --attestations)
    manifest: str = "mini"
    args: tuple[str, ...] = ("--today", IN_FORCE)
    code: int = 0
    findings: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)
    to_attest: int | None = None  # the counts' to_attest
    notes: tuple[str, ...] = ()  # each in some fact's note
    errors: tuple[str, ...] = ()  # each on stderr (the run refused: exit 2)
    said: str = ""  # on stderr of a run that was not refused ("" : nothing)


CASES = [
    # -- risk kinds without attestations
    Case("no-attestations-conduct-risks", None, findings=TO_ATTEST, to_attest=6),
    Case(
        "no-attestations-evidence-risk-beside",
        None,
        "open",
        findings={"additional-commercial-terms": (R, "evidence"), **TO_ATTEST},
        to_attest=6,
    ),
    Case(
        "conduct-settles-beside-open-record",
        None,
        "ungranted",
        findings={"ip-claim-termination": (R, "attestation")},
    ),
    Case(
        "conduct-settled-beside-open-record",
        file_of(attestation()),
        "ungranted",
        findings={"ip-claim-termination": (D, None)},
    ),
    # -- gate levels
    Case("strict-risk-fails-on-attestation-risks", None, args=("--fail-on", "risk"), code=1),
    Case("evidence-risk-passes-attestation-risks", None, args=("--fail-on", "evidence-risk")),
    Case(
        "evidence-risk-fails-on-evidence-risk",
        None,
        "open",
        args=("--fail-on", "evidence-risk"),
        code=1,
    ),
    Case("violation-level-passes-risks", None, "open"),
    # -- attestations applied
    Case(
        "attested-all-settles",
        file_of(attestation()),
        findings=ATTESTED,
        to_attest=0,
        notes=("attested by Jane Roe, General Counsel on 2026-01-15",),
    ),
    Case(
        "attested-strict-gate-passes",
        file_of(attestation()),
        args=("--today", IN_FORCE, "--fail-on", "risk"),
    ),
    Case(
        "attested-evidence-risk-stays",
        file_of(attestation()),
        "open",
        args=("--today", IN_FORCE, "--fail-on", "evidence-risk"),
        code=1,
        findings={"additional-commercial-terms": (R, "evidence"), **ATTESTED},
    ),
    Case(
        "scope-by-product-name",
        file_of(attestation(scope="{products: [Acme Mini]}")),
        findings=ATTESTED,
    ),
    Case(
        "scope-by-other-name",
        file_of(attestation(scope="{products: [Acme Max]}")),
        findings=TO_ATTEST,
    ),
    Case(
        "scope-by-file-glob",
        file_of(attestation(scope='{files: ["products/m*.yaml"]}')),
        findings=ATTESTED,
    ),
    Case(
        "scope-glob-missing",
        file_of(attestation(scope='{files: ["other/*.yaml"]}')),
        findings=TO_ATTEST,
    ),
    Case(
        "partial-attestation",
        file_of(attestation(facts="    facts:\n      licensor_marks_used: []\n")),
        findings={
            "brand-guidelines": (S, None),
            "no-licensor-marks": (S, None),
            "prohibited-uses": (R, "attestation"),
            "ip-claim-termination": (R, "attestation"),
        },
        to_attest=3,
    ),
    Case(
        "attested-false-is-violation",
        file_of(attestation(facts="    facts:\n      use_policy_followed: false\n")),
        args=("--today", IN_FORCE, "--fail-on", "evidence-risk"),
        code=1,
        findings={"prohibited-uses": (V, None)},
    ),
    # -- expiry, by --today and by --as-of
    Case(
        "expired-reopens",
        file_of(attestation()),
        args=("--today", "2027-01-01"),
        findings=TO_ATTEST,
        to_attest=6,
        notes=("attestation conduct-2026 (att.yaml:2:5) expired on 2026-12-31",),
        said="att.yaml:2:5: note: attestation conduct-2026 expired on 2026-12-31: the facts it "
        "attests are open again\n",
    ),
    Case(
        "last-day-holds", file_of(attestation()), args=("--today", "2026-12-31"), findings=ATTESTED
    ),
    Case(
        "not-yet-made",
        file_of(attestation()),
        args=("--today", "2026-01-14"),
        findings=TO_ATTEST,
        notes=("is dated 2026-01-15, after 2026-01-14",),
        said="att.yaml:2:5: note: attestation conduct-2026 is dated 2026-01-15, after 2026-01-14: "
        "the facts it attests are open again\n",
    ),
    Case(
        "as-of-inside",
        file_of(attestation()),
        args=("--today", "2027-03-01", "--as-of", "2026-06-30"),
        findings=ATTESTED,
    ),
    Case(
        "expired-first-later-second-holds",
        file_of(
            attestation(dates=("2025-01-01", "2025-12-31"), ident="old"), attestation(ident="new")
        ),
        findings=ATTESTED,
        notes=("attestation new",),
        said="att.yaml:2:5: note: attestation old expired on 2025-12-31: the facts it attests "
        "are open again\n",
    ),
    # -- the product's own statement wins
    Case(
        "own-statement-wins",
        file_of(attestation()),
        "own",
        code=1,
        findings={"prohibited-uses": (V, None), "brand-guidelines": (S, None)},
        notes=("the product's own statement wins over attestation conduct-2026 (att.yaml:2:5)",),
    ),
    # -- evidence kind under the evidence policy
    Case(
        "press-report-only-likely",
        file_of(attestation(kind="press_report")),
        findings={"brand-guidelines": (R, "evidence")},
        to_attest=0,
    ),
    Case(
        "press-report-estimates-establish",
        file_of(attestation(kind="press_report")),
        args=("--today", IN_FORCE, "--evidence", "estimates"),
        findings=ATTESTED,
    ),
    Case(
        "declared-under-strict",
        file_of(attestation(kind="declared")),
        args=("--today", IN_FORCE, "--evidence", "strict"),
        findings={"no-licensor-marks": (R, "evidence")},
    ),
    # -- the docs' example file
    Case("docs-example", docs_example(), findings=ATTESTED),
    # -- refusals, located
    Case(
        "refuses-record-fact",
        file_of(attestation(facts="    facts:\n      mau: 5M\n")),
        code=2,
        errors=("att.yaml:9:7: error: cannot attest 'mau': not a conduct fact",),
    ),
    Case(
        "refuses-misspelt",
        file_of(attestation(facts="    facts:\n      use_policy_folowed: true\n")),
        code=2,
        errors=("att.yaml:9:7:", "did you mean 'use_policy_followed'?"),
    ),
    Case(
        "refuses-member",
        file_of(attestation(facts="    facts:\n      restricted_uses: [militray]\n")),
        code=2,
        errors=("att.yaml:9:25:", "did you mean 'military'?"),
    ),
    Case(
        "refuses-unknown-license",
        file_of(attestation(facts="    facts:\n      licensor_marks_used: [acme-license]\n")),
        code=2,
        errors=("att.yaml:9:29: error: licensor_marks_used: license 'acme-license' is not",),
    ),
    Case(
        "refuses-wrong-type",
        file_of(attestation(facts="    facts:\n      use_policy_followed: maybe\n")),
        code=2,
        errors=("att.yaml:9:",),
    ),
    Case(
        "refuses-expiry-before-date",
        file_of(attestation(dates=("2026-05-01", "2026-04-01"))),
        code=2,
        errors=("att.yaml:", "after it expires (2026-04-01)"),
    ),
    Case(
        "refuses-month",
        file_of(attestation(dates=("2026-05", "2026-12-31"))),
        code=2,
        errors=("att.yaml:4:11:", "expected a day as YYYY-MM-DD"),
    ),
    Case(
        "refuses-empty-scope",
        file_of(attestation(scope="{}")),
        code=2,
        errors=("names no product",),
    ),
    Case(
        "refuses-duplicate-id",
        file_of(attestation(), attestation()),
        code=2,
        errors=("conduct-2026",),
    ),
    Case(
        "refuses-unknown-key",
        file_of(attestation()).replace("attested_by", "attested"),
        code=2,
        errors=("att.yaml:3:5:",),
    ),
    Case(
        "refuses-no-facts",
        file_of(attestation(facts="    facts: {}\n")),
        code=2,
        errors=("att.yaml:8:5:",),
    ),
    Case("refuses-bad-yaml", "attestations: [\n", code=2, errors=("att.yaml:2:1:",)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_attestations(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "products").mkdir()
    manifest = tmp_path / "products" / f"{case.manifest}.yaml"
    manifest.write_text(MANIFESTS[case.manifest], encoding="utf-8")
    argv = ["evaluate", f"products/{case.manifest}.yaml", "--format", "json", *case.args]
    if case.attestations is not None:
        (tmp_path / "att.yaml").write_text(case.attestations, encoding="utf-8")
        argv += ["--attestations", "att.yaml"]
    code, out, err = run(capsys, *argv)
    assert code == case.code, err
    if case.errors:
        for expected in case.errors:
            assert expected in err
        assert "Traceback" not in err and "internal error" not in err
        return
    assert err == case.said
    report = report_json(out)
    (product,) = report["products"]
    by_clause = {f["clause"]: f for f in product["findings"]}
    for clause, (verdict, kind) in case.findings.items():
        finding = by_clause[clause]
        got = finding["verdict"]
        if verdict == D and got in (S, "not_applicable"):
            got = D
        assert (got, finding["risk_kind"]) == (verdict, kind), clause
    for finding in product["findings"]:  # every risk has a kind, and only risks
        assert (finding["risk_kind"] is None) == (finding["verdict"] != R)
        if finding["risk_kind"] == "attestation":  # conduct facts alone can close it
            assert any(m["fact"] in CONDUCT for m in finding["missing_facts"])
    counted = sum(f["risk_kind"] == "attestation" for f in product["findings"])
    assert product["counts"]["to_attest"] == counted == report["summary"]["counts"]["to_attest"]
    if case.to_attest is not None:
        assert counted == case.to_attest
    notes = [fact["note"] or "" for f in product["findings"] for fact in f["facts"]]
    for expected in case.notes:
        assert any(expected in note for note in notes), expected
    settings = {s["key"]: s for s in report["gate_settings"]}
    assert settings["attestations"]["value"] == ("att.yaml" if case.attestations else None)


def test_the_conduct_facts_are_facts_and_the_docs_list_them() -> None:
    """One set decides both what may be attested and which risks are only to attest."""
    assert set(FACTS) >= CONDUCT
    text = (DOCS / "attestations.md").read_text(encoding="utf-8")
    listed = text.split("**Only conduct facts**", 1)[1].split(". A product's", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", listed)) - {"licheck"} == CONDUCT


def test_validate_reads_an_attestation_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`licheck validate` tells an attestation file by its key and checks it as a run does."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(file_of(attestation()), encoding="utf-8")
    bad = file_of(attestation(facts="    facts:\n      licensor_marks_used: [acme-license]\n"))
    (tmp_path / "bad.yaml").write_text(bad, encoding="utf-8")
    assert run(capsys, "validate", "good.yaml")[:2] == (0, "ok: good.yaml (attestations)\n")
    code, _, err = run(capsys, "validate", "bad.yaml")
    assert code == 2 and "bad.yaml:9:29: error: licensor_marks_used: license 'acme-license'" in err
