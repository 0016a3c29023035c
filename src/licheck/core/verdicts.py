"""Verdicts and outcomes: the small value types that reports and formats share with the engine.

They sit at the bottom of the package so that formats, reports and waivers import them without
importing the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic.json_schema import JsonSchemaValue
    from pydantic_core import CoreSchema

__all__ = [
    "Answer",
    "Outcome",
    "Requirement",
    "RiskKind",
    "Settlement",
    "Verdict",
    "union",
    "verdict_of",
    "worst",
]


class Verdict(StrEnum):
    """A finding's verdict, over every way the unknown facts could turn out: a violation or
    satisfied only when it is so in all of them; a governance risk when it depends on missing
    or weakly evidenced facts; not applicable when the clause is never triggered.  `severity`
    orders them (violation highest), `label` names them for people."""

    VIOLATION = "violation"
    GOVERNANCE_RISK = "governance_risk"
    SATISFIED = "satisfied"
    NOT_APPLICABLE = "not_applicable"

    @property
    def severity(self) -> int:
        return _SEVERITY[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


_SEVERITY = {
    Verdict.NOT_APPLICABLE: 0,
    Verdict.SATISFIED: 1,
    Verdict.GOVERNANCE_RISK: 2,
    Verdict.VIOLATION: 3,
}


def worst(verdicts: Sequence[Verdict]) -> Verdict:
    """A product's verdict: violation > governance risk > satisfied > not applicable."""
    return max(verdicts, key=lambda v: v.severity, default=Verdict.NOT_APPLICABLE)


class _Words(StrEnum):
    """An enum whose members a report writes as their words, and whose JSON Schema lists them
    in place (`{"enum": [...], "type": "string"}`, as a `Literal` of the same words gives)
    rather than as a named definition: the published schemas stay as they were written.
    Validated by pydantic-core's enum validator (as fast as the `Literal`)."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.enum_schema(cls, list(cls), sub_type="str")

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"enum": [member.value for member in cls], "type": "string"}


class Answer(_Words):
    """Whether the license binds the component, the clause is triggered, or an exception lifts
    it, over every completion of the unknown facts."""

    YES = "yes"
    NO = "no"
    DEPENDS = "depends"


class Requirement(_Words):
    """Whether the clause's requirement holds where it is triggered and not lifted."""

    HOLDS = "holds"
    FAILS = "fails"
    DEPENDS = "depends"
    NOT_REACHED = "not reached"  # never triggered, or always lifted


class RiskKind(_Words):
    """A governance risk's: open on the product's record (evidence: a figure, the UI, the
    lineage, an agreement, an unknown license), or only on conduct facts to attest."""

    EVIDENCE = "evidence"
    ATTESTATION = "attestation"


class Outcome(StrEnum):
    """How the clause ends in one completion."""

    NOT_TRIGGERED = "not_triggered"
    LIFTED = "lifted"  # triggered, and an exception lifts it
    HOLDS = "holds"  # triggered, and the requirement holds
    FAILS = "fails"  # triggered, not lifted, the requirement fails


def verdict_of(outcomes: set[Outcome]) -> Verdict:
    """The verdict from the set of outcomes over all completions."""
    if not outcomes or outcomes == {Outcome.NOT_TRIGGERED}:
        return Verdict.NOT_APPLICABLE
    if Outcome.FAILS not in outcomes:
        return Verdict.SATISFIED
    if outcomes == {Outcome.FAILS}:
        return Verdict.VIOLATION
    return Verdict.GOVERNANCE_RISK


@dataclass(frozen=True, slots=True)
class Settlement:
    """A smallest set of open facts whose values, supplied together, make the verdict firm."""

    verdict: Verdict
    when: tuple[tuple[str, str], ...]  # (fact, the cell in words)


def union(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict over alternatives (candidate bases, dated texts, an owner who may be the
    licensor), each judged exactly: the verdict of the union of their completions.  Not
    triggered anywhere is not applicable; never failing and triggered somewhere is satisfied;
    failing everywhere is a violation; anything else is a governance risk."""
    found = set(verdicts)
    if found <= {Verdict.NOT_APPLICABLE}:
        return Verdict.NOT_APPLICABLE
    if found <= {Verdict.NOT_APPLICABLE, Verdict.SATISFIED}:
        return Verdict.SATISFIED
    if found == {Verdict.VIOLATION}:
        return Verdict.VIOLATION
    return Verdict.GOVERNANCE_RISK
