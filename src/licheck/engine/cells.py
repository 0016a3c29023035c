"""A clause as the engine sees it (`Rule`), and one class of a fact's values that every test of
it treats alike (`Cell`): the types `tables` compiles, `joint` bounds and `exact` judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from licheck.core.verdicts import Outcome
from licheck.engine.conditions import TRUE, Node, Test, Value, evaluate, tests_in
from licheck.engine.domains import Domain


@dataclass(frozen=True, slots=True)
class Rule:
    """A clause as the engine sees it.  `scope` says whether the license binds at all (the
    component is built on the model and is still a derivative of it); outside it, the clause is
    not triggered, like a false trigger, but it is reported apart from the clause's own trigger."""

    trigger: Node
    requirement: Node
    exceptions: tuple[Node, ...] = ()
    scope: Node = TRUE

    def nodes(self) -> tuple[Node, ...]:
        return (self.scope, self.trigger, self.requirement, *self.exceptions)

    def tests(self) -> list[Test]:
        return [t for node in self.nodes() for t in tests_in(node)]

    def facts(self) -> list[str]:
        """The values the rule reads: fact names, and `fact@measured` for measured tests."""
        return sorted({t.key for t in self.tests()})

    def outcome(self, values: Mapping[str, Value]) -> Outcome:
        if not evaluate(self.scope, values) or not evaluate(self.trigger, values):
            return Outcome.NOT_TRIGGERED
        if any(evaluate(e, values) for e in self.exceptions):
            return Outcome.LIFTED
        return Outcome.HOLDS if evaluate(self.requirement, values) else Outcome.FAILS


@dataclass(frozen=True, slots=True)
class Cell:
    """One class of values of a fact that every test treats alike."""

    value: Value
    region: Domain  # the values of the domain in this cell
    words: str | None = None  # its label where it is not `str(region)`
    # where the cell reads a near-match as the name a test asks for: that reading in words
    # ("'KIMI K2.5' read as 'Kimi K2.5' (differs only in case: …)"), for the reports to name
    near: str | None = None

    @property
    def label(self) -> str:
        """The cell in words: "> 20M USD/month", "true", "contains 'Kimi K2.5'".  Only an open
        fact's cells are ever shown, so a quantity's (formatting amounts) is made on demand."""
        return self.words if self.words is not None else str(self.region)
