"""Baseline against scenario: which findings flip, which only change, which are gone or new —
and why: the facts (and the pieces of evidence) that differ between the two runs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Finding, ProductResult
from licheck.facts.resolution import EvidenceView, FactState, Status

FindingKey = tuple[str, str, str, str]  # component, model, license, clause


def finding_id(key: FindingKey) -> str:
    return "/".join(key)


class ChangeKind(StrEnum):
    FLIPPED = "flipped"  # in both runs, with another verdict
    CHANGED = "changed"  # same verdict, but other facts or other facts missing
    GONE = "gone"  # only in the baseline (e.g. a swapped-out base's clauses)
    NEW = "new"  # only in the scenario
    SAME = "same"


@dataclass(frozen=True, slots=True)
class FactChange:
    fact: str
    before: str  # as the baseline knows it ("unknown", "likely ≈166.67M USD/month", "50M")
    after: str
    evidence: tuple[str, ...]  # pieces of evidence counted differently, and how


@dataclass(frozen=True, slots=True)
class Change:
    key: FindingKey
    baseline: Finding | None
    scenario: Finding | None
    facts: tuple[FactChange, ...]
    settled: tuple[str, ...]  # missing in the baseline, no longer in the scenario
    opened: tuple[str, ...]  # missing in the scenario, not in the baseline

    @property
    def kind(self) -> ChangeKind:
        if self.scenario is None:
            return ChangeKind.GONE
        if self.baseline is None:
            return ChangeKind.NEW
        if self.baseline.verdict is not self.scenario.verdict:
            return ChangeKind.FLIPPED
        if self.facts or self.settled or self.opened:
            return ChangeKind.CHANGED
        return ChangeKind.SAME

    @property
    def before(self) -> Verdict | None:
        return self.baseline.verdict if self.baseline else None

    @property
    def after(self) -> Verdict | None:
        return self.scenario.verdict if self.scenario else None


def compare(baseline: ProductResult, scenario: ProductResult) -> list[Change]:
    """One change per finding of either run, in the order of their keys."""
    before = {f.key: f for f in baseline.findings}
    after = {f.key: f for f in scenario.findings}
    changes = []
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old is None or new is None:
            changes.append(Change(key, old, new, (), (), ()))
            continue
        missing_old = {m.fact.name for m in old.missing_facts}
        missing_new = {m.fact.name for m in new.missing_facts}
        changes.append(
            Change(
                key,
                old,
                new,
                _fact_changes(old, new),
                tuple(sorted(missing_old - missing_new)),
                tuple(sorted(missing_new - missing_old)),
            )
        )
    return changes


def _fact_changes(old: Finding, new: Finding) -> tuple[FactChange, ...]:
    before = {s.name: s for s in old.facts}
    after = {s.name: s for s in new.facts}
    changes = []
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        shown_a = describe(a) if a else "not used"
        shown_b = describe(b) if b else "not used"
        evidence = _evidence_changes(a, b) if a and b else ()
        if shown_a != shown_b or evidence:
            changes.append(FactChange(name, shown_a, shown_b, evidence))
    return tuple(changes)


def is_hypothesis(state: FactState) -> bool:
    return any(e.source.startswith("what-if") for e in state.evidence)


def describe(state: FactState) -> str:
    """What a run relies on for one fact, in a few words."""
    match state.status:
        case Status.ESTABLISHED:
            if is_hypothesis(state):  # "(what-if)", or "(what-if, contradicting …)"
                source = next(e.source for e in state.evidence if e.source.startswith("what-if"))
                return f"{state.domain} ({source})"
            return str(state.domain)
        case Status.LIKELY:
            return f"unknown (likely {state.likely})"
        case Status.DISPUTED:
            return "disputed (the counting evidence contradicts itself)"
        case Status.UNKNOWN:
            return "unknown"
    raise AssertionError(state.status)  # pragma: no cover


def _evidence_changes(a: FactState, b: FactState) -> tuple[str, ...]:
    old = {_evidence_key(e): e for e in a.evidence}
    lines = []
    for piece in b.evidence:
        previous = old.get(_evidence_key(piece))
        if previous is not None and previous.counted != piece.counted:
            lines.append(f"{_evidence_title(piece)}: {previous.counted} → {piece.counted}")
    return tuple(lines)


def _evidence_key(view: EvidenceView) -> tuple[str, str, str]:
    return (view.source, view.kind.value, view.date.isoformat() if view.date else "")


def _evidence_title(view: EvidenceView) -> str:
    date = f" {view.date.isoformat()}" if view.date else ""
    return f"{view.kind.value.replace('_', ' ')}{date} “{view.source}”"
