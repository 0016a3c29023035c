"""The memo tables of one run, owned by the caller and passed down.

Products repeat the same few facts, domains and clauses, so a run remembers what it has judged,
resolved and parsed.  Everything here is a pure function of immutable values, and each key is
the whole of the value its answer depends on (a key that is less lets one product's answer
stand for another's: tests/test_isolation.py), so a table may be emptied at any time (each is
bounded) and two contexts give the same results; only speed differs.
Create one per run (`EvaluationContext()`), or one per worker process, and hand it to
`evaluate_manifest`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from fractions import Fraction

    from licheck.core.verdicts import Verdict
    from licheck.facts.resolution import FactState

K = TypeVar("K")
V = TypeVar("V")

LIMIT = 4096  # entries per table: memory stays flat over a portfolio


@dataclass(eq=False, slots=True)
class EvaluationContext:
    """One run's memo tables (see each user for what its keys mean)."""

    limit: int = LIMIT
    judged: dict[tuple[object, ...], Any] = field(default_factory=dict)  # judging.Judged
    likely: dict[tuple[object, ...], Verdict] = field(default_factory=dict)
    cells: dict[tuple[object, ...], tuple[Any, ...]] = field(default_factory=dict)
    defaults: dict[tuple[object, ...], FactState] = field(default_factory=dict)
    unstated: dict[str, FactState] = field(default_factory=dict)
    parsed: dict[tuple[object, ...], tuple[Fraction, str, int, bool]] = field(default_factory=dict)

    def keep(self, table: dict[K, V], key: K, value: V) -> V:
        """Remember `value` under `key`, emptying the table first when it is full."""
        if len(table) >= self.limit:
            table.clear()
        table[key] = value
        return value
