"""The checks a clause passes when it is compiled: a requirement it must have (a gate's defaults
to the licensor's grant) and a number of fact combinations the exact engine can enumerate."""

from __future__ import annotations

from licheck.engine.cells import Rule
from licheck.engine.conditions import (
    ConditionError,
    Node,
    Test,
    compile_condition,
    strings_read,
    tests_in,
)
from licheck.engine.exact import MAX_SET_MEMBERS
from licheck.inputs.rules import Clause, ClauseKind
from licheck.vocabulary.factdefs import FactType
from licheck.vocabulary.names import FACTS


def requirement_of(license_id: str, clause: Clause, base: tuple[str | int, ...]) -> Node:
    """A clause's requirement; a gate's is the licensor's grant unless it says otherwise.

    A gate withdraws every right once crossed, and only the licensor can restore them, so its
    requirement must test `license_granted`: that keeps gates apart from obligations (which a
    display or a notice satisfies)."""
    path = (*base, "requirement")
    if clause.requirement is None:
        if clause.kind is not ClauseKind.GATE:
            raise ConditionError(
                f"clause {clause.id!r} is {clause.kind.value}: it needs a "
                "requirement (only a gate defaults to the licensor's grant)",
                base,
            )
        return Test("license_granted", "contains", license_id)
    node = compile_condition(clause.requirement, path)
    if clause.kind is ClauseKind.GATE and "license_granted" not in {t.fact for t in tests_in(node)}:
        raise ConditionError(
            f"gate {clause.id!r}: its requirement must test license_granted "
            "(only the licensor's grant restores the rights a gate withdraws)",
            path,
        )
    return node


# Each clause is judged by enumerating every combination of its facts' cells: keep that finite in
# practice too (real clauses have a few hundred; a hostile or generated rule file could ask for
# billions and hang the run).
MAX_COMPLETIONS = 50_000


def too_complex(rule: Rule) -> str:
    """Why the engine could not enumerate this clause's completions quickly, or ''."""
    tests: dict[str, list[Test]] = {}
    for test in rule.tests():
        tests.setdefault(test.fact, []).append(test)
    total = 1
    for fact, on_fact in sorted(tests.items()):
        strings = strings_read(on_fact)
        kind = FACTS[fact].type
        if kind is FactType.SET and len(strings) > MAX_SET_MEMBERS:
            return (
                f"the clause tests {len(strings)} strings of the set fact {fact}; the limit "
                f"is {MAX_SET_MEMBERS}"
            )
        total *= {
            FactType.QUANTITY: 2 * len({t.operand for t in on_fact}) + 1,
            FactType.BOOLEAN: 2,
            FactType.STRING: 2 * len(strings) + 1,
            FactType.SET: 2 ** len(strings),
        }[kind]
    if total > MAX_COMPLETIONS:
        return (
            f"the clause has too many combinations of facts to judge exactly (about "
            f"{total:,}; the limit is {MAX_COMPLETIONS:,})"
        )
    return ""
