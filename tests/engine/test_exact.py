"""The verdict semantics of design.md, on small hand-checked examples.

(The engine is checked against brute-force enumeration on random rules in
test_engine_properties.py.)"""

from __future__ import annotations

from fractions import Fraction

from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict, worst
from licheck.engine.cells import Rule
from licheck.engine.conditions import TRUE, All, Any_, Not, Test
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine.exact import branches, fact_cells, judge

M = 10**6
UNKNOWN_COUNT = Interval.everything(Dimension.COUNT)
BOTH = Booleans(frozenset({True, False}))


def count(value: int) -> Interval:
    return Interval.point(Fraction(value), Dimension.COUNT)


def more_than(fact: str, value: int) -> Test:
    return Test(fact, "more_than", Fraction(value))


def at_most(fact: str, value: int) -> Test:
    return Test(fact, "at_most", Fraction(value))


def is_(fact: str, value: bool = True) -> Test:
    return Test(fact, "is", value)


def test_exact_not_kleene() -> None:
    # mau > 100M or mau <= 100M is true even when MAU is unknown.
    rule = Rule(Any_((more_than("mau", 100 * M), at_most("mau", 100 * M))), is_("ok"))
    assert (
        judge(rule, {"mau": UNKNOWN_COUNT, "ok": Booleans(frozenset({False}))}).verdict
        is Verdict.VIOLATION
    )


def test_four_verdicts() -> None:
    rule = Rule(more_than("mau", 100 * M), is_("shown"))
    yes, no = Booleans(frozenset({True})), Booleans(frozenset({False}))
    assert judge(rule, {"mau": count(50 * M), "shown": no}).verdict is Verdict.NOT_APPLICABLE
    assert judge(rule, {"mau": count(150 * M), "shown": yes}).verdict is Verdict.SATISFIED
    assert judge(rule, {"mau": count(150 * M), "shown": no}).verdict is Verdict.VIOLATION
    assert judge(rule, {"mau": UNKNOWN_COUNT, "shown": no}).verdict is Verdict.GOVERNANCE_RISK
    # Satisfied also when triggered only in some completions, as long as it never fails.
    assert judge(rule, {"mau": UNKNOWN_COUNT, "shown": yes}).verdict is Verdict.SATISFIED


def test_strict_threshold_at_the_line() -> None:
    rule = Rule(more_than("mau", 100 * M), is_("shown"))
    no = Booleans(frozenset({False}))
    assert judge(rule, {"mau": count(100 * M), "shown": no}).verdict is Verdict.NOT_APPLICABLE
    assert judge(rule, {"mau": count(100 * M + 1), "shown": no}).verdict is Verdict.VIOLATION


def test_a_range_on_one_side_of_the_line_decides() -> None:
    rule = Rule(more_than("mau", 100 * M), is_("shown"))
    no = Booleans(frozenset({False}))
    above = Interval(Fraction(150 * M), True, Fraction(300 * M), True, Dimension.COUNT)
    straddling = Interval(Fraction(50 * M), True, Fraction(300 * M), True, Dimension.COUNT)
    at_line = Interval(Fraction(50 * M), True, Fraction(100 * M), True, Dimension.COUNT)
    assert judge(rule, {"mau": above, "shown": no}).verdict is Verdict.VIOLATION
    assert judge(rule, {"mau": straddling, "shown": no}).verdict is Verdict.GOVERNANCE_RISK
    assert judge(rule, {"mau": at_line, "shown": no}).verdict is Verdict.NOT_APPLICABLE


def test_exception_lifts() -> None:
    waiver = Test("agreement_waives", "contains", "x/y")
    rule = Rule(TRUE, is_("shown"), (waiver,))
    no = Booleans(frozenset({False}))
    waived = StringSet(frozenset({"x/y"}), frozenset(), True)
    unknown = StringSet(frozenset(), frozenset(), False)
    assert judge(rule, {"shown": no, "agreement_waives": waived}).verdict is Verdict.SATISFIED
    assert (
        judge(rule, {"shown": no, "agreement_waives": unknown}).verdict is Verdict.GOVERNANCE_RISK
    )


def test_scope_is_part_of_applicability() -> None:
    rule = Rule(TRUE, is_("shown"), scope=is_("derivative"))
    no = Booleans(frozenset({False}))
    judgement = judge(rule, {"shown": no, "derivative": BOTH})
    assert judgement.verdict is Verdict.GOVERNANCE_RISK
    assert judgement.in_scope == {True, False}
    assert judgement.open_facts == ("derivative",)


def test_irrelevant_unknown_facts_are_not_missing() -> None:
    # b only matters when a holds; with a false, b is not a missing fact.
    rule = Rule(All((is_("a"), is_("b"))), is_("c"))
    judgement = judge(rule, {"a": Booleans(frozenset({False})), "b": BOTH, "c": BOTH})
    assert judgement.verdict is Verdict.NOT_APPLICABLE
    assert judgement.open_facts == ()


def test_branches_say_what_each_value_gives() -> None:
    rule = Rule(more_than("mau", 100 * M), is_("shown"))
    domains: dict[str, Domain] = {"mau": UNKNOWN_COUNT, "shown": Booleans(frozenset({False}))}
    found = branches(rule, fact_cells(rule, domains), "mau")
    assert [(b.when, b.verdict) for b in found] == [
        ("≤ 100M", Verdict.NOT_APPLICABLE),
        ("> 100M", Verdict.VIOLATION),
    ]


def test_string_prefix_cells() -> None:
    rule = Rule(TRUE, Test("model_name", "starts_with", "Llama"))
    assert judge(rule, {"model_name": Strings("Llama-3-Ours")}).verdict is Verdict.SATISFIED
    assert judge(rule, {"model_name": Strings("Ours")}).verdict is Verdict.VIOLATION
    assert judge(rule, {"model_name": Strings(None)}).verdict is Verdict.GOVERNANCE_RISK


def test_not_and_sets() -> None:
    eu = Test("territories", "contains_any", frozenset({"EU", "DE"}))
    rule = Rule(TRUE, Not(eu))
    only_us = StringSet(frozenset({"US"}), frozenset(), True)
    partial = StringSet(frozenset({"US"}), frozenset({"EU"}), False)
    assert judge(rule, {"territories": only_us}).verdict is Verdict.SATISFIED
    assert judge(rule, {"territories": partial}).verdict is Verdict.GOVERNANCE_RISK


def test_worst_orders_verdicts() -> None:
    assert worst([Verdict.SATISFIED, Verdict.GOVERNANCE_RISK]) is Verdict.GOVERNANCE_RISK
    assert worst([Verdict.NOT_APPLICABLE, Verdict.VIOLATION]) is Verdict.VIOLATION
    assert worst([]) is Verdict.NOT_APPLICABLE


def test_settlements_are_minimal_and_firm() -> None:
    from licheck.engine.exact import settlements

    rule = Rule(
        Any_((more_than("mau", 100 * M), more_than("rev", 20 * M))),
        is_("shown"),
        scope=is_("derivative"),
    )
    domains: dict[str, Domain] = {
        "mau": UNKNOWN_COUNT,
        "rev": UNKNOWN_COUNT,
        "shown": Booleans(frozenset({False})),
        "derivative": BOTH,
    }
    by_fact = fact_cells(rule, domains)
    found = {(s.verdict, s.when) for s in settlements(rule, by_fact, ["derivative", "mau", "rev"])}
    assert (Verdict.NOT_APPLICABLE, (("derivative", "false"),)) in found
    assert (Verdict.VIOLATION, (("derivative", "true"), ("mau", "> 100M"))) in found
    assert (Verdict.NOT_APPLICABLE, (("mau", "≤ 100M"), ("rev", "≤ 20M"))) in found
    # Nothing listed is a superset of another listed settlement.
    keys = [frozenset(c) for _, c in found]
    assert not any(a < b for a in keys for b in keys)


def test_a_bounded_settlements_search_keeps_the_smaller_sizes_it_could_afford() -> None:
    """Past `max_tries` combinations of one size the search stops: the pairs (2 x 2 x 3 = 12
    tries for "derivative", "mau", "rev") are found, the larger sizes are not searched, and
    every settlement found is one the unbounded search finds too."""
    from licheck.engine.exact import settlements

    rule = Rule(
        Any_((more_than("mau", 100 * M), more_than("rev", 20 * M))),
        is_("shown"),
        scope=is_("derivative"),
    )
    domains: dict[str, Domain] = {
        "mau": UNKNOWN_COUNT,
        "rev": UNKNOWN_COUNT,
        "shown": Booleans(frozenset({False})),
        "derivative": BOTH,
    }
    by_fact = fact_cells(rule, domains)
    facts = ["derivative", "mau", "rev"]
    everything = settlements(rule, by_fact, facts)
    singles = settlements(rule, by_fact, facts, max_tries=6)
    pairs = settlements(rule, by_fact, facts, max_tries=16)
    assert {len(s.when) for s in everything} == {1, 2}
    assert {len(s.when) for s in singles} == {1}
    assert set(singles) < set(everything)
    assert pairs == everything


def test_union_of_verdicts_is_the_verdict_of_the_union_of_outcomes() -> None:
    """Alternatives (candidate bases, dated texts) each judged exactly combine exactly: for every
    pair of non-empty outcome sets, `union` of their verdicts is the verdict of their union."""
    from itertools import chain, combinations

    from licheck.core.verdicts import Outcome, union, verdict_of

    kinds = list(Outcome)
    subsets = [set(c) for c in chain.from_iterable(combinations(kinds, n) for n in range(1, 5))]
    for a in subsets:
        for b in subsets:
            assert union([verdict_of(a), verdict_of(b)]) is verdict_of(a | b), (a, b)
