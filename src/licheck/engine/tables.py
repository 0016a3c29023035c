"""A rule compiled over the facts' cells, as bit masks: what `engine` judges with.

A completion's outcome depends only on which of the rule's tests hold.  So each cell is reduced
once to its *signature* (the results of the tests on its fact), and cells with the same signature
count once.  The combinations of signatures are numbered as `itertools.product` lists them, and
each condition becomes a bit mask over all of them at once (bit i: true in combination i), made
with integer AND, OR and XOR: no condition tree is walked per completion.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from licheck.core.verdicts import Outcome
from licheck.engine import joint
from licheck.engine.cells import Cell, Rule
from licheck.engine.conditions import All, Any_, Const, Node, Not, Test

Signature = tuple[bool, ...]  # the results of the tests on one fact, for one cell


@dataclass(frozen=True, slots=True, eq=False)
class Compiled:
    """What depends only on the rule (and the order of its facts), worked out once: the distinct
    tests on each fact, where each test of the rule sits among them, and which facts bound each
    other (`joint`).  Compared and hashed by identity: a memo table keyed by it is keyed by the
    clause."""

    rule: Rule
    names: tuple[str, ...]
    tests: tuple[tuple[Test, ...], ...]  # the distinct tests on each fact, by position
    where: Mapping[Test, tuple[int, int]]  # each test of the rule: its fact, its index
    chained: frozenset[int]  # the positions of facts a `joint` chain relates to another

    def signatures(self, cells_: Sequence[Sequence[Cell]]) -> list[list[Signature]]:
        """Each cell's signature, fact by fact, aligned with `cells_`."""
        return [
            [tuple([t.holds(c.value) for t in tests]) for c in on_fact]
            for tests, on_fact in zip(self.tests, cells_, strict=True)
        ]


def compile_rule(rule: Rule, names: Sequence[str] | None = None) -> Compiled:
    """The rule compiled for its facts in the order of `names` (default: `Rule.facts`)."""
    every = rule.tests()  # walked once: the rule's trees are the slow part here
    order = tuple(sorted({t.key for t in every}) if names is None else names)
    position = {name: i for i, name in enumerate(order)}
    tests: list[list[Test]] = [[] for _ in order]
    for test in every:
        if test not in tests[position[test.key]]:
            tests[position[test.key]].append(test)
    where = {t: (position[t.key], tests[position[t.key]].index(t)) for t in every}
    chained = frozenset(p for chain in joint.related(order) for p in chain)
    return Compiled(rule, order, tuple(tuple(t) for t in tests), where, chained)


def _distinct_signatures(signatures: Sequence[Signature]) -> list[Signature]:
    return list(dict.fromkeys(signatures))


@dataclass(frozen=True, slots=True)
class Table:
    """A rule over given cells: each cell's signature, the distinct ones per fact (the fact's
    *digits*), and the combinations of digits where each outcome occurs, as bit masks."""

    names: tuple[str, ...]
    signatures: list[list[Signature]]  # aligned with the cells, fact by fact
    choices: list[list[Signature]]  # the distinct signatures of each fact: its digits
    digit: list[list[int]]  # digit[p][k]: the combinations whose fact p has digit k
    strides: list[int]  # how far apart combinations differing by one in a fact's digit are
    full: int  # every combination
    scope: int  # where the license binds
    trigger: int  # where the clause's own trigger holds
    outcomes: dict[Outcome, int]  # where each outcome occurs (only those that do)

    def over(self, choices: Sequence[Sequence[Signature]]) -> set[Outcome]:
        """The outcomes over every combination of `choices` (some of each fact's digits)."""
        selected = self.full
        for p, chosen in enumerate(choices):
            if len(chosen) == len(self.choices[p]):
                continue  # all of them
            allowed = 0
            for signature in chosen:
                allowed |= self.digit[p][self.choices[p].index(signature)]
            selected &= allowed
        return {outcome for outcome, where in self.outcomes.items() if where & selected}

    def depends_on(self, p: int) -> bool:
        """Whether two combinations that differ only in fact p's digit end differently (both
        combinations some completion has: see `joint`)."""
        stride, digits = self.strides[p], self.digit[p]
        for j, k in itertools.combinations(range(len(digits)), 2):
            shift = (k - j) * stride
            # combination i (digit j) beside i + shift (digit k), the others alike
            both = (self.full & digits[j]) & ((self.full & digits[k]) >> shift)
            for where in self.outcomes.values():
                if ((where & digits[j]) ^ ((where & digits[k]) >> shift)) & both:
                    return True
        return False


def tabulate(rule: Rule | Compiled, by_fact: Mapping[str, Sequence[Cell]]) -> Table:
    """The rule over the given cells of each of its facts (keyed and ordered as compiled)."""
    names = tuple(by_fact)
    compiled = rule if isinstance(rule, Compiled) else compile_rule(rule, names)
    assert compiled.names == names, (compiled.names, names)
    lists = [by_fact[n] for n in names]
    signatures = compiled.signatures(lists)
    choices = [_distinct_signatures(s) for s in signatures]
    strides, full, digit = _digits(choices)

    def mask(node: Node) -> int:
        return _mask(node, compiled, choices, digit, full)

    rule = compiled.rule
    scope, trigger = mask(rule.scope), mask(rule.trigger)
    # Facts that bound each other (mau ≤ licensee_mau): only combinations some completion has.
    chains = joint.related(names)
    possible = joint.feasible(chains, lists, signatures, choices, digit, full) if chains else full
    outcomes = _outcomes(rule, mask, scope & trigger, full, possible)
    return Table(
        names,
        signatures,
        choices,
        digit,
        strides,
        possible,
        scope & possible,
        trigger & possible,
        outcomes,
    )


def _digits(choices: list[list[Signature]]) -> tuple[list[int], int, list[list[int]]]:
    """The strides, the mask of every combination, and for each fact and cell the mask of the
    combinations with that cell.  Combination i has, for fact p, the digit
    (i // strides[p]) % len(choices[p]): the last fact varies fastest, as in itertools.product."""
    strides = [1] * len(choices)
    size = 1
    for p in range(len(choices) - 1, -1, -1):
        strides[p] = size
        size *= len(choices[p])
    full = (1 << size) - 1
    digit = []
    for p, on_fact in enumerate(choices):
        period = strides[p] * len(on_fact)
        # A 1 at the start of every period (no combination at all where a fact has no cell).
        repeat = full // ((1 << period) - 1) if size else 0
        block = (1 << strides[p]) - 1
        digit.append([(block << (k * strides[p])) * repeat for k in range(len(on_fact))])
    return strides, full, digit


def _mask(
    node: Node,
    compiled: Compiled,
    choices: list[list[Signature]],
    digit: list[list[int]],
    full: int,
) -> int:
    """The combinations in which `node` holds."""
    match node:
        case Test():
            fact, index = compiled.where[node]
            result = 0
            for k, signature in enumerate(choices[fact]):
                if signature[index]:
                    result |= digit[fact][k]
            return result
        case All():
            result = full
            for item in node.items:
                result &= _mask(item, compiled, choices, digit, full)
            return result
        case Any_():
            result = 0
            for item in node.items:
                result |= _mask(item, compiled, choices, digit, full)
            return result
        case Not():
            return full ^ _mask(node.item, compiled, choices, digit, full)
        case Const():
            return full if node.value else 0
    raise AssertionError(node)  # pragma: no cover


def _outcomes(
    rule: Rule, mask: Callable[[Node], int], triggered: int, full: int, possible: int
) -> dict[Outcome, int]:
    """Each outcome's combinations, among the possible ones (outcomes with none left out)."""
    lifted = 0
    for exception in rule.exceptions:
        lifted |= mask(exception)
    lifted &= triggered
    holds = (triggered ^ lifted) & mask(rule.requirement)
    fails = triggered ^ lifted ^ holds
    return {
        outcome: where & possible
        for outcome, where in (
            (Outcome.NOT_TRIGGERED, full ^ triggered),
            (Outcome.LIFTED, lifted),
            (Outcome.HOLDS, holds),
            (Outcome.FAILS, fails),
        )
        if where & possible
    }
