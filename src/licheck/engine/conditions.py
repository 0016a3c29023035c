"""Conditions compiled for the engine: a small tree of tests with normalised operands.

Compiling checks each test against the fact vocabulary (the fact exists, the operator suits its
type, a threshold's unit suits its dimension) and turns thresholds into exact USD-per-month or count
`Fraction`s.  Evaluation over one completion (a value for every fact) is plain boolean logic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from licheck.core import territory
from licheck.core.units import Dimension, UnitError, format_amount, parse_quantity
from licheck.inputs.rules import AllOf, Always, AnyOf, Condition, FactTest, Measured, NotOf
from licheck.vocabulary.factdefs import FactType, suggest
from licheck.vocabulary.names import FACTS, TERRITORIAL

Value = Fraction | bool | str | frozenset[str]

_OPERATORS_BY_TYPE: dict[FactType, frozenset[str]] = {
    FactType.QUANTITY: frozenset({"more_than", "at_least", "less_than", "at_most"}),
    FactType.BOOLEAN: frozenset({"is"}),
    FactType.STRING: frozenset({"equals", "in", "starts_with"}),
    FactType.SET: frozenset({"contains", "contains_any"}),
}
_SYMBOLS = {"more_than": ">", "at_least": "≥", "less_than": "<", "at_most": "≤"}


@dataclass(frozen=True, slots=True)
class Test:
    __test__ = False  # not a pytest test class

    fact: str
    operator: str
    operand: Fraction | bool | str | frozenset[str]
    measured: Measured = Measured.NOW

    @property
    def key(self) -> str:
        """The value this test reads: the fact, or the fact at the date it is measured on
        (`licensee_mau@month_before_release`), which the caller supplies apart."""
        return self.fact if self.measured is Measured.NOW else f"{self.fact}@{self.measured}"

    def holds(self, value: Value) -> bool:
        op, operand = self.operator, self.operand
        match op:
            case "more_than":
                return value > operand  # type: ignore[operator]
            case "at_least":
                return value >= operand  # type: ignore[operator]
            case "less_than":
                return value < operand  # type: ignore[operator]
            case "at_most":
                return value <= operand  # type: ignore[operator]
            case "is" | "equals":
                return value == operand
            case "in":
                return value in operand  # type: ignore[operator]
            case "starts_with":
                return isinstance(value, str) and value.startswith(operand)  # type: ignore[arg-type]
            case "contains":
                return operand in value  # type: ignore[operator]
            case "contains_any":
                return bool(value & operand)  # type: ignore[operator]
        raise AssertionError(op)  # pragma: no cover

    def __str__(self) -> str:
        definition = FACTS[self.fact]
        operand = self.operand
        if isinstance(operand, Fraction):
            dimension = definition.dimension or Dimension.COUNT
            shown = format_amount(operand, dimension, definition.period_months)
            return f"{self.key} {_SYMBOLS[self.operator]} {shown}"
        if isinstance(operand, frozenset):
            shown = "[" + ", ".join(repr(s) for s in sorted(operand)) + "]"
        elif isinstance(operand, bool):
            shown = "true" if operand else "false"
        else:
            shown = repr(operand)
        return f"{self.key} {self.operator.replace('_', ' ')} {shown}"


@dataclass(frozen=True, slots=True)
class All:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Any_:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Not:
    item: Node


@dataclass(frozen=True, slots=True)
class Const:
    value: bool


Node = Test | All | Any_ | Not | Const
TRUE = Const(True)


def evaluate(node: Node, values: Mapping[str, Value]) -> bool:
    """The condition's truth in one completion (`values` has every fact the node tests)."""
    match node:
        case Test():
            return node.holds(values[node.key])
        case All():
            return all(evaluate(item, values) for item in node.items)
        case Any_():
            return any(evaluate(item, values) for item in node.items)
        case Not():
            return not evaluate(node.item, values)
        case Const():
            return node.value
    raise AssertionError(node)  # pragma: no cover


def strings_read(tests: Iterable[Test]) -> frozenset[str]:
    """The strings `tests` compare their fact with: a string fact's names, a set fact's members
    (their operands are strings or sets of strings; other operands have none)."""
    found: set[str] = set()
    for test in tests:
        if isinstance(test.operand, frozenset):
            found |= test.operand
        elif isinstance(test.operand, str):
            found.add(test.operand)
    return frozenset(found)


def tests_in(node: Node) -> Iterator[Test]:
    match node:
        case Test():
            yield node
        case All() | Any_():
            for item in node.items:
                yield from tests_in(item)
        case Not():
            yield from tests_in(node.item)
        case Const():
            return


class ConditionError(ValueError):
    """A condition does not fit the vocabulary: `path` locates it within the condition."""

    def __init__(self, message: str, path: tuple[str | int, ...] = (), hint: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.hint = hint


def compile_condition(condition: Condition, path: tuple[str | int, ...] = ()) -> Node:
    """Check a parsed condition against the vocabulary and normalise its operands."""
    match condition:
        case AllOf():
            return All(
                tuple(compile_condition(c, (*path, "all", i)) for i, c in enumerate(condition.all))
            )
        case AnyOf():
            return Any_(
                tuple(compile_condition(c, (*path, "any", i)) for i, c in enumerate(condition.any))
            )
        case NotOf():
            return Not(compile_condition(condition.not_, (*path, "not")))
        case Always():
            return Const(condition.always)
        case FactTest():
            return _compile_test(condition, path)
    raise AssertionError(condition)  # pragma: no cover


def _compile_test(test: FactTest, path: tuple[str | int, ...]) -> Test:
    definition = FACTS.get(test.fact)
    if definition is None:
        raise ConditionError(
            f"unknown fact {test.fact!r}{suggest(test.fact, FACTS)}",
            (*path, "fact"),
            "run `licheck facts` for the fact names, `licheck facts NAME` for one",
        )
    operator, raw = test.operator, test.operand
    allowed = _OPERATORS_BY_TYPE[definition.type]
    if operator not in allowed:
        raise ConditionError(
            f"{test.fact} is a {definition.type.value} fact: {operator} does not apply "
            f"(use {', '.join(sorted(allowed))})",
            (*path, operator),
        )
    if test.measured is not Measured.NOW and definition.type is not FactType.QUANTITY:
        raise ConditionError(
            f"only quantities can be measured at a date, not {test.fact}", (*path, "measured")
        )
    operand: Any
    if definition.type is FactType.QUANTITY:
        dimension = definition.dimension or Dimension.COUNT
        try:
            operand = parse_quantity(
                raw, dimension, default_period_months=definition.period_months
            ).amount
        except UnitError as exc:
            raise ConditionError(f"{test.fact}: {exc}", (*path, operator)) from None
    elif test.fact in TERRITORIAL:
        try:
            codes = [territory.code(c) for c in (raw if isinstance(raw, list) else [raw])]
        except territory.TerritoryError as exc:
            raise ConditionError(str(exc), (*path, operator)) from None
        operand = frozenset(codes) if operator == "contains_any" else codes[0]
    elif operator in ("in", "contains_any"):
        operand = frozenset(raw)
    else:
        operand = raw
    return Test(test.fact, operator, operand, test.measured)
