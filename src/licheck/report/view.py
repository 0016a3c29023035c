"""The report: one view-model that every output format renders, and the exit-status policy.

The JSON report is this model dumped as is; its JSON Schema is published (`licheck schema
report`).  Everything is sorted and free of timestamps and absolute paths, so the same inputs give
byte-identical output.  Built from the evaluation's results by `report.building`: this module
knows nothing of the evaluation, so formats import it without the engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from licheck._version import __version__
from licheck.core.diagnostics import Diagnostic
from licheck.core.verdicts import Answer, Requirement, RiskKind, Verdict
from licheck.files.jsontext import dumps
from licheck.report.digest import product_digest, report_digest

SCHEMA_VERSION = "1.0"


class _Model(BaseModel):
    # Built lazily: a JSON report is written from plain data, and never needs the validators.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class EvidenceOut(_Model):
    source: str
    kind: str
    date: str | None
    url: str | None
    retracted_on: str | None
    note: str | None
    claims: str | None
    counted: str


class FactOut(_Model):
    name: str
    status: Literal["established", "likely", "disputed", "unknown"]
    value: str  # what the verdict relies on ("unknown" when not established)
    stated: str  # as the manifest states it
    likely: str | None
    note: str | None
    # a quantity in the currency and period the manifest states it in, and the rate it
    # converted at, where normalising (to USD a month) changed it: "40M USD/year (ARR)"
    written: str | None = None
    # where it was found: product, component, model:ID, license:ID, lineage, or licheck
    scope: str
    evidence: list[EvidenceOut]


class OutcomeOut(_Model):
    when: str
    verdict: Verdict


class OutcomeCondition(_Model):
    fact: str
    value: str


class MissingFactOut(_Model):
    fact: str
    status: Literal["likely", "disputed", "unknown", "established"]
    likely: str | None
    decides_alone: bool
    outcomes: list[OutcomeOut]


class SettlementOut(_Model):
    verdict: Verdict
    when: list[OutcomeCondition]


class LocationOut(_Model):
    file: str
    line: int
    column: int


# The report's finding: the evaluation's (`evaluation.findings.Finding`), field for field and in
# its order, with the facts and guidance as the report writes them; then what only the report
# adds, from `explanation` on (`REPORTED_ONLY`).  (A comment: a docstring would enter the schema.)
class FindingOut(_Model):
    """One clause of one license for one component of a product: its verdict (and the verdict
    weaker evidence suggests), whether the clause binds, is triggered and its requirement holds,
    why, the facts it read, and the facts missing with what each would change."""

    component: str
    model: str
    model_name: str
    license: str
    license_name: str
    clause: str
    title: str
    kind: str
    quote: str | None
    provenance: str
    verdict: Verdict
    likely_verdict: Verdict
    binds: Answer
    triggered: Answer
    requirement: Requirement
    exception: Answer
    explanation: str
    location: LocationOut
    facts: list[FactOut]
    missing_facts: list[MissingFactOut]
    settled_by: list[SettlementOut]
    # a governance risk's: open on the product's record (evidence), or only on conduct facts
    # to attest (attestation); None for every other verdict
    risk_kind: RiskKind | None = None
    # a not-applicable finding's reason, in one line ("the owner is the licensor"); None else
    reason: str | None = None
    waived: bool = False  # an applying waiver accepts it: it does not count toward --fail-on
    waiver: WaiverRef | None = None  # the waiver that names it (applied, or why it no longer is)
    baseline: BaselineRef | None = None  # with --baseline: how it compares with the baseline's


# What a report's finding adds to the evaluation's: each is computed from the finding (the
# explanation, the risk kind, a not-applicable finding's reason) or by the run (waivers, baseline).
REPORTED_ONLY = ("explanation", "risk_kind", "reason", "waived", "waiver", "baseline")

BaselineStatus = Literal["new", "worse", "unchanged", "improved", "fixed"]
GATING = frozenset({"new", "worse"})  # the statuses that count toward --fail-on with a baseline


class BaselineRef(_Model):
    """How a finding compares with the baseline report's finding of the same key."""

    status: BaselineStatus
    verdict: Verdict | None  # in the baseline (None: new)


class WaiverRef(_Model):
    """The waiver that names a finding, and whether it applies."""

    id: str
    status: Literal["applied", "expired", "pins_changed"]
    reason: str
    owner: str
    expires: str
    comment: str
    file: str
    line: int
    message: str


class Counts(_Model):
    violation: int = 0
    governance_risk: int = 0
    satisfied: int = 0
    not_applicable: int = 0
    waived: int = 0  # violations and governance risks accepted by a waiver (also counted above)
    to_attest: int = 0  # governance risks open only on conduct facts (also counted above)


class WaiverStatus(_Model):
    """What one waiver of the waiver file did in this run."""

    id: str
    file: str
    line: int
    column: int
    status: Literal["applied", "expired", "pins_changed", "unmatched", "not_needed"]
    message: str
    findings: list[str]  # the findings it names, as file#component/license/clause


class Summary(_Model):
    products: int
    findings: int
    counts: Counts
    # the worst finding that is not waived (with a baseline: and new or worse): what --fail-on
    # compares
    gate_verdict: Verdict
    # when that is a governance risk: evidence when any such risk is, else attestation (what
    # --fail-on evidence-risk compares)
    gate_risk_kind: RiskKind | None = None


class LineageModelOut(_Model):
    model: str  # as findings name it: the catalog id, or the name the manifest gives
    name: str
    role: str  # base, candidate base, merged in, distilled from, parent, trained on outputs
    status: Literal["established", "likely", "disputed", "unknown"]  # of the relation
    step: int | None = None  # a step's parent (merged in, distilled from): the step's index


class ComponentOut(_Model):
    """A component and its lineage, as the HTML report draws it."""

    id: str
    name: str
    delivery: list[str]
    steps: list[str]  # continued_pretraining, fine_tuning, rl, ... in order
    models: list[LineageModelOut]


class ProductOut(_Model):
    """One product's part of the report: its manifest, its verdict (its worst finding), the
    counts of each verdict, its findings and its components' lineage."""

    product: str
    owner: str
    file: str
    verdict: Verdict
    counts: Counts
    findings: list[FindingOut]
    components: list[ComponentOut] = []


class GoneFinding(_Model):
    """A violation or governance risk of the baseline that no finding of this run matches."""

    product: str
    file: str
    component: str
    model: str
    license: str
    clause: str
    verdict: Verdict  # in the baseline


class BaselineCounts(_Model):
    """Violations and risks of this run by how they compare with the baseline, and the
    baseline's violations and risks that are now satisfied, not applicable or gone (fixed)."""

    new: int = 0
    worse: int = 0
    unchanged: int = 0
    improved: int = 0
    fixed: int = 0


class BaselineOut(_Model):
    file: str
    tool_version: str  # of the licheck that wrote the baseline
    counts: BaselineCounts
    gone: list[GoneFinding]


class ErrorOut(_Model):
    """A manifest that could not be read or evaluated, located (`licheck check` goes on with the
    others); `line` and `column` are 1-based, 0 when unknown."""

    file: str
    line: int
    column: int
    message: str
    hint: str | None = None


def errors_out(diagnostics: Sequence[Diagnostic]) -> list[ErrorOut]:
    """Located problems as the report lists them: sorted, each once."""
    return [
        ErrorOut(file=d.file, line=d.line, column=d.column, message=d.message, hint=d.hint or None)
        for d in sorted(set(diagnostics))
    ]


class CountOut(_Model):
    """A row of a count table: a name and how many cards it holds."""

    name: str
    cards: int


class CardsOut(_Model):
    """`licheck audit-cards`: the summary of the cards audited (only its reports carry it).
    A card's base family is the license its findings are under (a card may be in several,
    "none" when no license applies); the most common findings count the cards with each
    violation or governance risk, waived or not; a card not read is listed, located, with the
    reason (also in the report's `errors`)."""

    cards: int  # every card found, read or not
    judged: int
    not_read: list[ErrorOut]
    by_base_family: list[CountOut]
    by_verdict: list[CountOut]
    most_common_findings: list[CountOut]


class ReplacementOut(_Model):
    """A library entry a layer replaced: the layer's file now defines the id."""

    kind: Literal["license", "model"]
    id: str
    file: str
    replaced: str  # the file of the entry it replaced ("built-in NAME" for the shipped library)
    # a model whose replacement changes its license: the license ids before and after ("" for
    # a license not in the library; dated texts joined by ", ")
    license_before: str | None = Field(None, exclude_if=lambda value: value is None)
    license_after: str | None = Field(None, exclude_if=lambda value: value is None)


class LibraryOut(_Model):
    """The rule library of a run that layered folders over the built-in one (or left it out)."""

    builtin: bool  # whether the built-in library is the base
    layers: list[str]  # the folders, in order, each over those before
    policies: list[str] = []  # organisation policy files (their rules: policy/ORG/RULE)
    replaced: list[ReplacementOut]


class ConfigSettingOut(_Model):
    """A setting of the configuration file that this run used (no option replaced it)."""

    key: str  # as written in the file, e.g. fail-on
    value: str | int | bool | list[str]
    at: str  # FILE:LINE:COLUMN where the file sets it


class ConfigOut(_Model):
    """The configuration file a run read, and each of its settings the run used: a setting
    that weakens the gate (`fail-on: never`) is seen where it came from."""

    file: str
    settings: list[ConfigSettingOut]


class GateSettingOut(_Model):
    """A setting that decides verdicts or the gate, as this run used it (`report.gatesettings`):
    every one is listed, the defaults too, so that a reader sees what the gate was."""

    # fail-on, evidence, as-of, licenses, builtin-licenses, policy, waivers, baseline, today
    key: str
    value: str | bool | list[str] | None  # None: not set (no waivers, no baseline, ...)
    # "default", "command line", "environment", FILE:LINE:COLUMN of the configuration file, or
    # "found in the working folder" (the default waiver file)
    source: str
    default: bool  # licheck's default: the setting changes nothing
    effect: str | None = None  # what a non-default setting does, where it is not plain


class Report(_Model):
    """The report of one run, which every output format renders: each product's findings, the
    summary and the gate's verdict, the waivers and what they did, and the manifests that could
    not be read.  The JSON report is this model (`licheck schema report`)."""

    schema_version: Literal["1.0"] = "1.0"
    tool: str = "licheck"
    tool_version: str = __version__
    evidence_policy: str
    as_of: str | None
    verdict: Verdict  # the worst finding, waived or not
    summary: Summary
    products: list[ProductOut]
    waivers: list[WaiverStatus] = []
    baseline: BaselineOut | None = None  # with --baseline: the comparison

    # Manifests that could not be read or evaluated: each is reported here, every other one is
    # evaluated; any makes the run exit 2 (`exit_code`).
    errors: list[ErrorOut] = []
    # present only when the run read more, or other, than the built-in library
    library: LibraryOut | None = Field(None, exclude_if=lambda value: value is None)
    # present only when a configuration file set some of the run's options
    config: ConfigOut | None = Field(None, exclude_if=lambda value: value is None)
    # every setting that decides a verdict or the gate, and where it came from (the command line
    # fills it; a report a program builds has none)
    gate_settings: list[GateSettingOut] = Field([], exclude_if=lambda value: not value)
    # present only in `licheck audit-cards` reports: the cards audited, counted
    cards: CardsOut | None = Field(None, exclude_if=lambda value: value is None)
    # SHA-256 over what a baseline comparison reads (`licheck.report.digest`): every JSON report
    # licheck writes carries it, last, and `--baseline` refuses a report it does not match
    digest: str | None = Field(
        None,
        exclude_if=lambda value: value is None,
        description="sha256:HEX over what a baseline comparison reads (docs/baselines.md gives "
        "the canonical form); `--baseline` refuses a report it does not match",
    )


class SingleProductReport(BaseModel):
    """The fields `licheck what-if` and `licheck evaluate --timeline` reports open with: one
    manifest's product, seen another way than the report above."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal["1.0"] = "1.0"
    tool: str = "licheck"
    tool_version: str = __version__
    product: str
    owner: str
    file: str
    evidence_policy: str
    # present only when the run read more, or other, than the built-in library: a layer that
    # weakens or replaces a license is named wherever its verdicts are
    library: LibraryOut | None = Field(None, exclude_if=lambda value: value is None)


def assemble(products: list[ProductOut], policy: str, as_of: dt.date | None) -> Report:
    """The report of products already built."""
    verdict = max(
        (p.verdict for p in products), key=lambda v: v.severity, default=Verdict.NOT_APPLICABLE
    )
    return Report(
        evidence_policy=policy,
        as_of=as_of.isoformat() if as_of else None,
        verdict=verdict,
        summary=summarize(products),
        products=products,
    )


def summarize(products: Sequence[ProductOut]) -> Summary:
    """Totals over every product; the gate verdict leaves waived findings out."""
    totals = dict.fromkeys(Counts.model_fields, 0)
    gate = Verdict.NOT_APPLICABLE
    kinds: set[str | None] = set()
    findings = 0
    for product in products:
        for key in totals:
            totals[key] += getattr(product.counts, key)
        for finding in product.findings:
            findings += 1
            if counts_toward_gate(finding):
                kinds.add(finding.risk_kind)
                if finding.verdict.severity > gate.severity:
                    gate = finding.verdict
    return Summary(
        products=len(products),
        findings=findings,
        counts=Counts(**totals),
        gate_verdict=gate,
        gate_risk_kind=gate_kind(gate, kinds),
    )


def gate_kind(gate: Verdict, kinds: Iterable[str | None]) -> RiskKind | None:
    """The kind of the gate's governance risks: evidence when any is, else attestation."""
    if gate is not Verdict.GOVERNANCE_RISK:
        return None
    return RiskKind.EVIDENCE if RiskKind.EVIDENCE in set(kinds) else RiskKind.ATTESTATION


def counts_toward_gate(finding: FindingOut) -> bool:
    """Not waived, and (with a baseline) new or worse than in it."""
    return not finding.waived and (finding.baseline is None or finding.baseline.status in GATING)


def to_json(report: Report) -> str:
    """The report as `json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False)`
    writes it, with its digest, plus a line break: schema 1.0, this model's shape (the JSON
    format writes 2.0 by default: `report.leaner`)."""
    data = report.model_dump(mode="json")
    if "digest" not in data:
        data["digest"] = report_digest(data, (product_digest(p) for p in data["products"]))
    return dumps(data).text + "\n"


class FailOn(StrEnum):
    VIOLATION = "violation"
    EVIDENCE_RISK = "evidence-risk"  # violations and risks open on the product's record
    RISK = "risk"  # violations and every governance risk, those to attest included
    NEVER = "never"


def fails(verdict: Verdict, fail_on: FailOn, risk_kind: str | None = None) -> bool:
    """Whether a finding of this verdict (not waived) is at or above the policy; `risk_kind`:
    a governance risk's (evidence-risk passes one that is only to attest).  No level but never
    passes a violation."""
    if fail_on is FailOn.NEVER:
        return False
    if fail_on is FailOn.EVIDENCE_RISK and verdict is Verdict.GOVERNANCE_RISK:
        return risk_kind != RiskKind.ATTESTATION
    floor = Verdict.VIOLATION if fail_on is FailOn.VIOLATION else Verdict.GOVERNANCE_RISK
    return verdict.severity >= floor.severity


def gate_fails(summary: Summary, fail_on: FailOn) -> bool:
    """Whether the run's findings that count toward the gate fail it at this policy."""
    return fails(summary.gate_verdict, fail_on, summary.gate_risk_kind)


BROKEN_INPUT = 2  # the exit code when a manifest could not be read or evaluated


def exit_code(report: Report, fail_on: FailOn) -> int:
    """2 when any manifest could not be read (whatever the gate and --fail-on: its findings are
    unknown, so a pass would be false comfort and a plain failure would hide that the input
    needs fixing); else 1 when a finding that is not waived is at or above the policy; else 0."""
    if report.errors:
        return BROKEN_INPUT
    return 1 if gate_fails(report.summary, fail_on) else 0
