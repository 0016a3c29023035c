"""The scope a clause binds within: the relations its `applies_to` reaches, as one condition
conjoined to the clause's rule, compiled once a clause when the library is compiled.

A clause binds a component built on the model's weights and still a derivative of it in the
license's sense (`lineage` ∧ `derivative`, the default), built on its weights at all (`lineage`),
or trained on its outputs (`outputs_lineage`); which licenses bind is `evaluation.binding`'s.
"""

from __future__ import annotations

from licheck.engine.cells import Rule
from licheck.engine.conditions import All, Any_, Node, Test
from licheck.engine.tables import Compiled, compile_rule
from licheck.inputs.rules import DEFAULT_REACH, Reach

_WEIGHTS = Test("lineage", "is", True)
# Each relation a clause may reach, as a condition on the implicit lineage facts.
REACHES: dict[Reach, Node] = {
    Reach.DERIVATIVES: All((_WEIGHTS, Test("derivative", "is", True))),
    Reach.USE: _WEIGHTS,
    Reach.OUTPUTS: Test("outputs_lineage", "is", True),
}


def scope_for(reach: tuple[Reach, ...] = DEFAULT_REACH) -> Node:
    """The relations a clause reaches, as one condition: any of them binds the component.
    `use` (the weights, derivative or not) already covers `derivatives`."""
    kept = sorted(set(reach) - ({Reach.DERIVATIVES} if Reach.USE in reach else set()))
    nodes = tuple(REACHES[r] for r in kept)
    return nodes[0] if len(nodes) == 1 else Any_(nodes)


def bind(rule: Rule, reach: tuple[Reach, ...] = DEFAULT_REACH) -> Compiled:
    """A clause's rule within the scope of its reach, compiled: the library does it once a
    clause."""
    return compile_rule(Rule(rule.trigger, rule.requirement, rule.exceptions, scope_for(reach)))
