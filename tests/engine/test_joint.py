"""Facts that bound each other (mau ≤ licensee_own_mau ≤ licensee_mau; ARR/12 ≤ a month's
revenue) are one joint constraint: the engine equals a brute force over completions that respect
it, and counts range over whole numbers only."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import TRUE, Const, Node
from licheck.engine.conditions import Test as FactTest
from licheck.engine.domains import Domain, Interval
from licheck.engine.exact import judge
from tests.engine.test_exact_properties import PROPERTY, leaf_tests, outcome, verdict_from

CHAIN = ("mau", "licensee_own_mau", "licensee_mau")
MONEY = ("annual_recurring_revenue", "monthly_revenue")  # both in USD a month
THRESHOLDS = [Fraction(n) for n in (0, 10, 20, 21, 50)]
BOUNDS = [Fraction(n) for n in (0, 5, 10, 20, 21, 35, 50, 60)]
OPS = ("more_than", "at_least", "less_than", "at_most")

Known = tuple[Fraction, bool, Fraction | None, bool]  # lo, lo_closed, hi, hi_closed


def allows(known: Known, value: Fraction) -> bool:
    lo, lo_closed, hi, hi_closed = known
    above = value > lo or (lo_closed and value == lo)
    return above and (hi is None or value < hi or (hi_closed and value == hi))


def candidates(known: Known, points: set[Fraction], whole: bool) -> list[Fraction]:
    """Dense values around `points` (every threshold and bound of the chain: a fact's value
    matters beside the others')."""
    ordered = sorted(p for p in points if isinstance(p, Fraction))
    step = Fraction(1) if whole else Fraction(1, 1000)
    dense = set(ordered) | {p + step for p in ordered} | {p - step for p in ordered}
    dense |= {(a + b) / 2 for a, b in itertools.pairwise(ordered)} | {ordered[-1] * 10 + 7}
    return sorted(
        v for v in dense if v >= 0 and (not whole or v.denominator == 1) and allows(known, v)
    )


def points(rule: Rule, knowns: Mapping[str, Known]) -> set[Fraction]:
    found = {Fraction(0)}
    for node in rule.nodes():
        found |= {t.operand for t in leaf_tests(node) if isinstance(t.operand, Fraction)}
    for lo, _, hi, _ in knowns.values():
        found |= {lo} | ({hi} if hi is not None else set())
    return found


def brute_force(rule: Rule, knowns: Mapping[str, Known], chain: tuple[str, ...]) -> Verdict:
    whole = chain == CHAIN
    pools = [candidates(knowns[n], points(rule, knowns), whole) for n in chain]
    results = {
        outcome(rule, dict(zip(chain, combo, strict=True)))
        for combo in itertools.product(*pools)
        if all(a <= b for a, b in itertools.pairwise(combo))  # the joint constraint
    }
    return verdict_from(results)


def leaf_on(facts: tuple[str, ...]) -> st.SearchStrategy[FactTest]:
    return st.builds(
        FactTest, st.sampled_from(facts), st.sampled_from(OPS), st.sampled_from(THRESHOLDS)
    )


def trees(facts: tuple[str, ...]) -> st.SearchStrategy[Node]:
    from licheck.engine.conditions import All, Any_, Not

    leaves = st.one_of(leaf_on(facts), st.builds(Const, st.booleans()))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.builds(All, st.lists(inner, min_size=1, max_size=3).map(tuple)),
            st.builds(Any_, st.lists(inner, min_size=1, max_size=3).map(tuple)),
            st.builds(Not, inner),
        ),
        max_leaves=5,
    )


@st.composite
def known(draw: st.DrawFn) -> Known:
    if draw(st.booleans()):
        return (Fraction(0), True, None, False)
    lo = draw(st.sampled_from(BOUNDS))
    hi = draw(st.one_of(st.none(), st.sampled_from([b for b in BOUNDS if b >= lo])))
    lo_closed = lo == 0 or draw(st.booleans())
    hi_closed = hi is not None and (hi == lo or draw(st.booleans()))
    if hi == lo:
        lo_closed = True
    return (lo, lo_closed, hi, hi_closed)


@st.composite
def case(draw: st.DrawFn, chain: tuple[str, ...]) -> tuple[Rule, dict[str, Known]]:
    """A rule on the chain's facts, and what is known of each fact it reads (a fact it does not
    read is unknown: the engine never sees it; `measurement` narrows by established ones)."""
    tree = trees(chain)
    rule = draw(st.builds(Rule, tree, tree, st.lists(tree, max_size=1).map(tuple), st.just(TRUE)))
    read = set(rule.facts())
    unknown: Known = (Fraction(0), True, None, False)
    return rule, {n: draw(known()) if n in read else unknown for n in chain}


def domains(knowns: Mapping[str, Known], dimension: Dimension) -> dict[str, Domain]:
    return {n: Interval(*k, dimension) for n, k in knowns.items()}


@pytest.mark.slow
@PROPERTY
@given(case(CHAIN))
def test_user_counts_chain_equals_brute_force(drawn: tuple[Rule, dict[str, Known]]) -> None:
    rule, knowns = drawn
    if brute_force_empty(rule, knowns, CHAIN):
        return
    verdict = judge(rule, domains(knowns, Dimension.COUNT)).verdict
    assert verdict is brute_force(rule, knowns, CHAIN)


@pytest.mark.slow
@PROPERTY
@given(case(MONEY))
def test_recurring_revenue_bounds_a_month_equals_brute_force(
    drawn: tuple[Rule, dict[str, Known]],
) -> None:
    rule, knowns = drawn
    if brute_force_empty(rule, knowns, MONEY):
        return
    verdict = judge(rule, domains(knowns, Dimension.MONEY)).verdict
    assert verdict is brute_force(rule, knowns, MONEY)


def brute_force_empty(rule: Rule, knowns: Mapping[str, Known], chain: tuple[str, ...]) -> bool:
    """Knowledge no completion meets (the measurement layer reports it as disputed)."""
    whole = chain == CHAIN
    pools = [candidates(knowns[n], points(rule, knowns), whole) for n in chain]
    return not any(
        all(a <= b for a, b in itertools.pairwise(combo)) for combo in itertools.product(*pools)
    )


def test_a_product_never_has_more_users_than_its_licensee() -> None:
    """`mau > 100 and licensee_mau <= 100` has no completion: not applicable, never a risk."""
    trigger = Rule(
        FactTest("mau", "more_than", Fraction(100)),
        FactTest("licensee_mau", "more_than", Fraction(100)),
    )
    everything = Interval.everything(Dimension.COUNT)
    judged = judge(trigger, {"mau": everything, "licensee_mau": everything})
    assert judged.verdict is Verdict.SATISFIED  # triggered somewhere, and then it always holds


def test_a_count_has_no_value_between_two_whole_numbers() -> None:
    """`mau > 100M` with mau at most 100000000 + 1, open: no completion above 100M."""
    rule = Rule(FactTest("mau", "more_than", Fraction(100_000_000)), Const(False))
    domain = Interval(Fraction(0), True, Fraction(100_000_001), False, Dimension.COUNT)
    assert judge(rule, {"mau": domain}).verdict is Verdict.NOT_APPLICABLE
