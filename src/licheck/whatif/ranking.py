"""What to find out next: the facts the governance risks hang on, ranked by how many findings
each would settle, with the verdict each of its values would give.

A fact *settles* a finding when every value it could take gives a firm verdict (anything but a
governance risk); it *may settle* it when some value does.  The branches come from the engine
(`evaluation.MissingFact`), so they are exact, with the other open facts left open.
"""

from __future__ import annotations

from dataclasses import dataclass

from licheck.core.verdicts import Verdict
from licheck.engine.exact import Branch
from licheck.evaluation.evaluate import ProductResult
from licheck.facts.resolution import FactState
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
    model: str = ""  # for `lineage`: the model it is about

    @property
    def label(self) -> str:
        return f"lineage of {self.model}" if self.model else self.fact.name

    @property
    def settles(self) -> int:
        return sum(s.settles for s in self.findings)

    @property
    def may_settle(self) -> int:
        return sum(s.may_settle for s in self.findings)


def rank(result: ProductResult) -> list[NextFact]:
    """The open facts of the product's governance risks, most decisive first (then by name)."""
    by_fact: dict[tuple[str, str], tuple[FactState, list[Settling]]] = {}

    def add(state: FactState, model: str, settling: Settling) -> None:
        key = (state.name, model if state.name == "lineage" else "")
        by_fact.setdefault(key, (state, []))[1].append(settling)

    for finding in result.findings:
        if finding.verdict is not Verdict.GOVERNANCE_RISK:
            continue
        # (an unconfirmed base's finding carries `lineage` as its missing fact: confirmed, the
        # model's own findings stand alone; refuted, an unknown base's license binds instead)
        for missing in finding.missing_facts:
            add(missing.fact, finding.model_name, Settling(finding.key, missing.outcomes))
    ranked = [
        NextFact(state, tuple(settlings), model)
        for (_, model), (state, settlings) in by_fact.items()
    ]
    ranked.sort(key=lambda n: (-n.settles, -n.may_settle, -len(n.findings), n.label))
    return ranked
