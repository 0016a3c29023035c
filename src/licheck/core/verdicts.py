"""Verdicts and outcomes: the small value types that reports and formats share with the engine.

They sit at the bottom of the package so that formats, reports and waivers import them without
importing the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Outcome", "Settlement", "Verdict", "union", "verdict_of", "worst"]


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
    conditions: tuple[tuple[str, str], ...]  # (fact, the cell in words)


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
