"""What to find out next: the facts the governance risks hang on, ranked by how many findings
each would settle, with the verdict each of its values would give.

A fact *settles* a finding when every value it could take gives a firm verdict (anything but a
governance risk); it *may settle* it when some value does.  The branches come from the engine
(`evaluation.MissingFact`), so they are exact, with the other open facts left open.
"""

from __future__ import annotations

from dataclasses import dataclass

from licheck.engine import Branch, Verdict
from licheck.evaluation import ProductResult
from licheck.facts import FactState
from licheck.whatif.compare import FindingKey


@dataclass(frozen=True, slots=True)
class Settling:
    """What one fact does for one finding."""

    key: FindingKey
    branches: tuple[Branch, ...]

    @property
    def settles(self) -> bool:
        return all(b.verdict is not Verdict.GOVERNANCE_RISK for b in self.branches)

    @property
    def may_settle(self) -> bool:
        return any(b.verdict is not Verdict.GOVERNANCE_RISK for b in self.branches)


@dataclass(frozen=True, slots=True)
class NextFact:
    fact: FactState
    findings: tuple[Settling, ...]

    @property
    def settles(self) -> int:
        return sum(s.settles for s in self.findings)

    @property
    def may_settle(self) -> int:
        return sum(s.may_settle for s in self.findings)


def rank(result: ProductResult) -> list[NextFact]:
    """The open facts of the product's governance risks, most decisive first (then by name)."""
    by_fact: dict[str, tuple[FactState, list[Settling]]] = {}
    for finding in result.findings:
        if finding.verdict is not Verdict.GOVERNANCE_RISK:
            continue
        for missing in finding.missing:
            _, settlings = by_fact.setdefault(missing.fact.name, (missing.fact, []))
            settlings.append(Settling(finding.key, missing.branches))
    ranked = [NextFact(state, tuple(settlings)) for state, settlings in by_fact.values()]
    ranked.sort(key=lambda n: (-n.settles, -n.may_settle, -len(n.findings), n.fact.name))
    return ranked
