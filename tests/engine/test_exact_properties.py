"""Properties of the engine, checked on random rules and facts.

The reference is a brute force written here from design.md alone, sharing nothing with the
engine's cell construction: every fact takes every value of a dense set (each threshold, values
just above and below it, midpoints, bounds of the known range, values beyond; for strings and sets
the constants the tests name and fresh values), the completions are all combinations that the
known domains allow, and the verdict is read off the design's table.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import TRUE, All, Any_, Const, Node, Not
from licheck.engine.conditions import Test as FactTest
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine.exact import judge
from licheck.text.nearmatch import normal
from tests.conftest import ROOT

PROPERTY = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

QUANTITIES = {"mau": Dimension.COUNT, "monthly_revenue": Dimension.MONEY}
BOOLEANS = ("commercial", "distributes_weights")
STRING_FACT, SET_FACT = "model_name", "ui_attribution"
ALL_FACTS = (*QUANTITIES, *BOOLEANS, STRING_FACT, SET_FACT)
THRESHOLDS = [Fraction(n) for n in (0, 10, 20, 50, 100)]
# 21 and 101: a count just above 20 or 100 has no whole value below them
BOUNDS = [Fraction(n) for n in (0, 5, 10, 15, 20, 21, 35, 50, 100, 101, 120)]
STRINGS = ("kimi", "kimi-k2", "glm")
PREFIXES = ("kimi", "gl")
MEMBERS = ("A", "B", "C")
# Near-matches (case, white space, typography) of the names the tests ask for (issue 12).
NEAR = ("KIMI", "Kimi-K2", "kimi\u2011k2", "GL-x", " glm")
NEAR_MEMBERS = ("a", "B\u00a0")
QUANTITY_OPS = ("more_than", "at_least", "less_than", "at_most")


# -- an independent reading of the semantics -------------------------------------------------


def holds(test: FactTest, value: object) -> bool:
    operand = test.operand
    if test.operator == "more_than":
        return value > operand  # type: ignore[operator]
    if test.operator == "at_least":
        return value >= operand  # type: ignore[operator]
    if test.operator == "less_than":
        return value < operand  # type: ignore[operator]
    if test.operator == "at_most":
        return value <= operand  # type: ignore[operator]
    if test.operator in ("is", "equals"):
        return value == operand
    if test.operator == "in":
        return value in operand  # type: ignore[operator]
    if test.operator == "starts_with":
        return str(value).startswith(str(operand))
    if test.operator == "contains":
        assert isinstance(value, frozenset)
        return operand in value
    if test.operator == "contains_any":
        assert isinstance(value, frozenset) and isinstance(operand, frozenset)
        return any(member in value for member in operand)
    raise AssertionError(test.operator)


def true_in(node: Node, values: Mapping[str, object]) -> bool:
    if isinstance(node, FactTest):
        return holds(node, values[node.fact])
    if isinstance(node, All):
        return all(true_in(item, values) for item in node.items)
    if isinstance(node, Any_):
        return any(true_in(item, values) for item in node.items)
    if isinstance(node, Not):
        return not true_in(node.item, values)
    assert isinstance(node, Const)
    return node.value


def leaf_tests(node: Node) -> Iterable[FactTest]:
    if isinstance(node, FactTest):
        yield node
    elif isinstance(node, All | Any_):
        for item in node.items:
            yield from leaf_tests(item)
    elif isinstance(node, Not):
        yield from leaf_tests(node.item)


def outcome(rule: Rule, values: Mapping[str, object]) -> str:
    if not (true_in(rule.scope, values) and true_in(rule.trigger, values)):
        return "not triggered"
    if any(true_in(e, values) for e in rule.exceptions):
        return "lifted"
    return "holds" if true_in(rule.requirement, values) else "fails"


def verdict_from(outcomes: set[str]) -> Verdict:
    """design.md's table, read literally."""
    if outcomes == {"not triggered"}:
        return Verdict.NOT_APPLICABLE
    if "fails" not in outcomes:
        return Verdict.SATISFIED  # never fails, and triggered in at least one completion
    if outcomes == {"fails"}:
        return Verdict.VIOLATION
    return Verdict.GOVERNANCE_RISK


@dataclass(frozen=True)
class Known:
    """What is known of one fact, as generated (the brute force reads this, not the Domain)."""

    fact: str
    lo: Fraction = Fraction(0)
    lo_closed: bool = True
    hi: Fraction | None = None
    hi_closed: bool = False
    booleans: frozenset[bool] = frozenset({True, False})
    string: str | None = None
    includes: frozenset[str] = frozenset()
    excludes: frozenset[str] = frozenset()
    exact: bool = False

    def domain(self) -> Domain:
        if self.fact in QUANTITIES:
            return Interval(self.lo, self.lo_closed, self.hi, self.hi_closed, QUANTITIES[self.fact])
        if self.fact in BOOLEANS:
            return Booleans(self.booleans)
        if self.fact == STRING_FACT:
            return Strings(self.string)
        return StringSet(self.includes, self.excludes, self.exact)

    def allows(self, value: object) -> bool:
        if self.fact in QUANTITIES:
            assert isinstance(value, Fraction)
            above = value > self.lo or (self.lo_closed and value == self.lo)
            below = self.hi is None or value < self.hi or (self.hi_closed and value == self.hi)
            return above and below
        if self.fact in BOOLEANS:
            return value in self.booleans
        if self.fact == STRING_FACT:
            return self.string is None or value == self.string
        assert isinstance(value, frozenset)
        if self.exact:
            return value == self.includes
        return self.includes <= value and not (value & self.excludes)


def candidates(known: Known, tests: list[FactTest]) -> list[object]:
    """A dense set of concrete values of one fact, filtered to what is known."""
    values: list[Any]
    if known.fact in QUANTITIES:
        points = {
            Fraction(0),
            known.lo,
            *(t.operand for t in tests if isinstance(t.operand, Fraction)),
        }
        if known.hi is not None:
            points.add(known.hi)
        ordered = sorted(points)
        epsilon = Fraction(1, 1000)
        dense = set(ordered)
        dense |= {p + epsilon for p in ordered} | {p - epsilon for p in ordered if p > 0}
        dense |= {(a + b) / 2 for a, b in itertools.pairwise(ordered)}
        dense |= {ordered[-1] + 1, ordered[-1] * 10 + 1000}
        if QUANTITIES[known.fact] is Dimension.COUNT:  # a count is a whole number
            dense |= {p + 1 for p in ordered} | {p - 1 for p in ordered}
            dense = {v for v in dense if v.denominator == 1 and v >= 0}
        values = sorted(dense)
    elif known.fact in BOOLEANS:
        values = [False, True]
    elif known.fact == STRING_FACT and known.string is not None:
        return near_readings(known.string, tests)
    elif known.fact == SET_FACT and known.exact:
        return near_set_readings(known.includes, tests)
    elif known.fact == STRING_FACT:
        constants = {
            str(c)
            for t in tests
            for c in (t.operand if isinstance(t.operand, frozenset) else {t.operand})
        }
        prefixes = {str(t.operand) for t in tests if t.operator == "starts_with"}
        values = sorted(
            constants
            | {p + "zz" for p in prefixes}
            | {"", "fresh"}
            | ({known.string} if known.string else set())
        )
    else:
        universe = sorted({*MEMBERS, "fresh", *known.includes, *known.excludes})
        values = [
            frozenset(c)
            for n in range(len(universe) + 1)
            for c in itertools.combinations(universe, n)
        ]
        return [v for v in values if any(k.allows(v) for k in near_set_knowns(known, tests))]
    return [v for v in values if known.allows(v)]


def near_set_knowns(known: Known, tests: list[FactTest]) -> list[Known]:
    """A set known in part as written, and with any excluded name a test asks for read as
    present where an included member matches it only up to case, white space or typography:
    the exclusion is of the string as written (issue 21: `KIMI K2.5` beside excludes
    `Kimi K2.5` is a person's call, not a violation)."""
    names = {
        str(n)
        for t in tests
        for n in (t.operand if isinstance(t.operand, frozenset) else {t.operand})
    }
    near = sorted(
        n
        for n in names & known.excludes
        if any(m != n and normal(m) == normal(n) for m in known.includes)
    )
    return [
        Known(
            known.fact,
            includes=known.includes | frozenset(chosen),
            excludes=known.excludes - frozenset(chosen),
        )
        for size in range(len(near) + 1)
        for chosen in itertools.combinations(near, size)
    ]


def near_readings(value: str, tests: list[FactTest]) -> list[object]:
    """A known string as written, and as each name a test asks for that it matches only up to
    case, white space or typography (a person must judge: both are completions)."""
    readings: list[object] = [value]
    for test in tests:
        names = test.operand if isinstance(test.operand, frozenset) else {test.operand}
        for name in sorted(str(n) for n in names):
            if test.operator == "starts_with":
                if not value.startswith(name) and normal(value).startswith(normal(name)):
                    readings.append(name + value)
            elif value != name and normal(value) == normal(name):
                readings.append(name)
    return readings


def near_set_readings(includes: frozenset[str], tests: list[FactTest]) -> list[object]:
    """A known set as written, and with any of the names the tests ask for that a member
    matches only up to case, white space or typography."""
    names = {
        str(n)
        for t in tests
        for n in (t.operand if isinstance(t.operand, frozenset) else {t.operand})
    }
    near = sorted(
        n for n in names - includes if any(m != n and normal(m) == normal(n) for m in includes)
    )
    return [
        includes | frozenset(chosen)
        for size in range(len(near) + 1)
        for chosen in itertools.combinations(near, size)
    ]


def brute_force(rule: Rule, knowns: Mapping[str, Known]) -> tuple[Verdict, set[str]]:
    """The verdict over every completion, and the facts the outcome depends on."""
    by_fact: dict[str, list[FactTest]] = {}
    for node in (rule.scope, rule.trigger, rule.requirement, *rule.exceptions):
        for test in leaf_tests(node):
            by_fact.setdefault(test.fact, []).append(test)
    names = sorted(by_fact)
    pools = [candidates(knowns[n], by_fact[n]) for n in names]
    table = {
        combo: outcome(rule, dict(zip(names, combo, strict=True)))
        for combo in itertools.product(*pools)
    }
    depends = set()
    for position, name in enumerate(names):
        groups: dict[tuple[object, ...], set[str]] = {}
        for combo, result in table.items():
            groups.setdefault(combo[:position] + combo[position + 1 :], set()).add(result)
        if any(len(group) > 1 for group in groups.values()):
            depends.add(name)
    return verdict_from(set(table.values())), depends


# -- strategies ------------------------------------------------------------------------------


def quantity_test(fact: str) -> st.SearchStrategy[FactTest]:
    return st.builds(
        FactTest, st.just(fact), st.sampled_from(QUANTITY_OPS), st.sampled_from(THRESHOLDS)
    )


def fact_test(facts: tuple[str, ...]) -> st.SearchStrategy[FactTest]:
    options = []
    for fact in facts:
        if fact in QUANTITIES:
            options.append(quantity_test(fact))
        elif fact in BOOLEANS:
            options.append(st.builds(FactTest, st.just(fact), st.just("is"), st.booleans()))
        elif fact == STRING_FACT:
            options += [
                st.builds(FactTest, st.just(fact), st.just("equals"), st.sampled_from(STRINGS)),
                st.builds(
                    FactTest,
                    st.just(fact),
                    st.just("in"),
                    st.frozensets(st.sampled_from(STRINGS), min_size=1),
                ),
                st.builds(
                    FactTest, st.just(fact), st.just("starts_with"), st.sampled_from(PREFIXES)
                ),
            ]
        else:
            options += [
                st.builds(FactTest, st.just(fact), st.just("contains"), st.sampled_from(MEMBERS)),
                st.builds(
                    FactTest,
                    st.just(fact),
                    st.just("contains_any"),
                    st.frozensets(st.sampled_from(MEMBERS), min_size=1),
                ),
            ]
    return st.one_of(options)


def conditions(facts: tuple[str, ...]) -> st.SearchStrategy[Node]:
    leaves = st.one_of(fact_test(facts), st.builds(Const, st.booleans()))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.builds(All, st.lists(inner, min_size=1, max_size=3).map(tuple)),
            st.builds(Any_, st.lists(inner, min_size=1, max_size=3).map(tuple)),
            st.builds(Not, inner),
        ),
        max_leaves=6,
    )


@st.composite
def rules(draw: st.DrawFn) -> Rule:
    facts = tuple(draw(st.lists(st.sampled_from(ALL_FACTS), min_size=1, max_size=3, unique=True)))
    tree = conditions(facts)
    scope = draw(st.one_of(st.just(TRUE), tree))
    return Rule(draw(tree), draw(tree), tuple(draw(st.lists(tree, max_size=2))), scope)


@st.composite
def known_fact(draw: st.DrawFn, fact: str) -> Known:
    shape = draw(st.sampled_from(("unknown", "point", "range")))
    if shape == "unknown":
        return Known(fact)
    if fact in QUANTITIES:
        if shape == "point":
            halves = [b + Fraction(1, 2) for b in BOUNDS]
            whole = QUANTITIES[fact] is Dimension.COUNT  # a count's known value is whole
            value = draw(st.sampled_from(BOUNDS if whole else BOUNDS + halves))
            return Known(fact, value, True, value, True)
        lo = draw(st.sampled_from(BOUNDS))
        hi = draw(st.one_of(st.none(), st.sampled_from([b for b in BOUNDS if b > lo] or [lo])))
        lo_closed, hi_closed = draw(st.booleans()), draw(st.booleans())
        if hi == lo:
            lo_closed = hi_closed = True
        if lo == 0:
            lo_closed = True  # quantities are never negative: 0 is the floor
        if hi == lo + 1 and QUANTITIES[fact] is Dimension.COUNT:
            lo_closed = True  # a count's known range holds a whole number (a manifest's does)
        return Known(fact, lo, lo_closed, hi, hi_closed and hi is not None)
    if fact in BOOLEANS:
        return Known(fact, booleans=frozenset({draw(st.booleans())}))
    if fact == STRING_FACT:
        return Known(fact, string=draw(st.sampled_from((*STRINGS, "kimi-x", "other", *NEAR))))
    if shape == "point":
        return Known(
            fact, includes=draw(st.frozensets(st.sampled_from(MEMBERS + NEAR_MEMBERS))), exact=True
        )
    includes = draw(st.frozensets(st.sampled_from(MEMBERS + NEAR_MEMBERS)))
    excludes = draw(st.frozensets(st.sampled_from(MEMBERS))) - includes
    return Known(fact, includes=includes, excludes=excludes)


@st.composite
def knowledge(draw: st.DrawFn) -> dict[str, Known]:
    return {fact: draw(known_fact(fact)) for fact in ALL_FACTS}


def domains_of(knowns: Mapping[str, Known]) -> dict[str, Domain]:
    return {fact: known.domain() for fact, known in knowns.items()}


# -- the properties --------------------------------------------------------------------------


@pytest.mark.slow
@PROPERTY
@given(rules(), knowledge())
def test_verdict_equals_brute_force_over_completions(rule: Rule, knowns: dict[str, Known]) -> None:
    judgement = judge(rule, domains_of(knowns))
    expected, depends = brute_force(rule, knowns)
    assert judgement.verdict is expected
    assert set(judgement.open_facts) == depends


@st.composite
def near_set_knowledge(draw: st.DrawFn) -> dict[str, Known]:
    """Every fact as `knowledge` draws it, but the set known in part with members near the names
    the tests ask for, and some of those names excluded (the class of issue 21's "KIMI K2.5"
    beside excludes "Kimi K2.5")."""
    knowns = draw(knowledge())
    includes = draw(st.frozensets(st.sampled_from(MEMBERS + NEAR_MEMBERS), min_size=1))
    excludes = draw(st.frozensets(st.sampled_from(MEMBERS), min_size=1)) - includes
    knowns[SET_FACT] = Known(SET_FACT, includes=includes, excludes=excludes)
    return knowns


@st.composite
def set_rules(draw: st.DrawFn) -> Rule:
    """Rules that read the set fact (and maybe a boolean)."""
    other = draw(st.sampled_from(BOOLEANS))
    facts = (SET_FACT, *draw(st.lists(st.just(other), max_size=1)))
    tree = conditions(facts)
    requirement = fact_test((SET_FACT,))
    return Rule(draw(tree), draw(requirement), tuple(draw(st.lists(tree, max_size=1))))


@pytest.mark.slow
@settings(PROPERTY, max_examples=120)
@given(set_rules(), near_set_knowledge())
def test_a_near_match_beside_an_excluded_name_is_read_both_ways(
    rule: Rule, knowns: dict[str, Known]
) -> None:
    judgement = judge(rule, domains_of(knowns))
    expected, depends = brute_force(rule, knowns)
    assert judgement.verdict is expected
    assert set(judgement.open_facts) == depends


def test_brute_force_sees_the_exactness_example() -> None:
    """`mau > 100M or mau <= 100M` holds with MAU unknown: the reference must agree, too."""
    rule = Rule(
        TRUE,
        Any_(
            (FactTest("mau", "more_than", Fraction(100)), FactTest("mau", "at_most", Fraction(100)))
        ),
    )
    knowns = {f: Known(f) for f in ALL_FACTS}
    assert brute_force(rule, knowns)[0] is Verdict.SATISFIED
    assert judge(rule, domains_of(knowns)).verdict is Verdict.SATISFIED


def no_firmer(less: Verdict, more: Verdict) -> bool:
    """Knowing less never gives a firmer verdict: the completions with less knowledge include
    those with more, so less is a governance risk, or says the same, or is satisfied where more
    knowledge rules the clause out altogether."""
    return (
        less is Verdict.GOVERNANCE_RISK
        or less is more
        or (less is Verdict.SATISFIED and more is Verdict.NOT_APPLICABLE)
    )


@pytest.mark.slow
@PROPERTY
@given(rules(), knowledge(), st.sampled_from(ALL_FACTS))
def test_more_unknowns_never_give_a_firmer_verdict(
    rule: Rule, knowns: dict[str, Known], forgotten: str
) -> None:
    fewer = dict(knowns)
    fewer[forgotten] = Known(forgotten)
    more_known = judge(rule, domains_of(knowns)).verdict
    less_known = judge(rule, domains_of(fewer)).verdict
    assert no_firmer(less_known, more_known), (less_known, more_known)


def monotone(facts: tuple[str, ...]) -> st.SearchStrategy[Node]:
    """Conditions built only from "more than" / "at least" tests, all and any."""
    leaf = st.builds(
        FactTest,
        st.sampled_from(facts),
        st.sampled_from(("more_than", "at_least")),
        st.sampled_from(THRESHOLDS),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.builds(All, st.lists(inner, min_size=1, max_size=3).map(tuple)),
            st.builds(Any_, st.lists(inner, min_size=1, max_size=3).map(tuple)),
        ),
        max_leaves=6,
    )


@pytest.mark.slow
@PROPERTY
@given(
    monotone(tuple(QUANTITIES)),
    st.dictionaries(st.sampled_from(tuple(QUANTITIES)), st.sampled_from(BOUNDS), min_size=2),
    st.sampled_from(tuple(QUANTITIES)),
    st.sampled_from([Fraction(1, 1000), Fraction(1), 30]),
)
def test_raising_a_fact_never_untriggers_a_more_than_clause(
    trigger: Node, values: dict[str, Fraction], raised: str, step: Fraction
) -> None:
    rule = Rule(trigger, Const(False))

    def triggered(point: Mapping[str, Fraction]) -> frozenset[bool]:
        domains: dict[str, Domain] = {
            f: Interval.point(Fraction(v), QUANTITIES[f]) for f, v in point.items()
        }
        return judge(rule, domains).triggered

    if QUANTITIES[raised] is Dimension.COUNT:
        step = Fraction(math.ceil(step))  # a count is a whole number: it rises by whole steps
    before = triggered(values)
    after = triggered({**values, raised: values[raised] + step})
    assert before in ({True}, {False}) and after in ({True}, {False})
    assert not (before == {True} and after == {False})


def test_raising_mau_or_revenue_never_untriggers_kimi_attribution() -> None:
    """The same on the real Kimi K2.5 clause, across every threshold and the values beside it."""
    from licheck.library.compiled import load_library

    entry = load_library().licenses["kimi-k2.5-modified-mit"]
    (clause,) = [c for c in entry.clauses if c.clause.id == "ui-attribution"]
    grid = sorted(
        {Fraction(n) * 10**6 for n in (0, 19, 20, 21, 99, 100, 101, 500)}
        | {Fraction(20 * 10**6) + Fraction(1, 100), Fraction(100 * 10**6 + 1)}
    )
    everything_else: dict[str, Domain] = {
        "commercial": Booleans(frozenset({True})),
        "ui_attribution": StringSet(frozenset(), frozenset(), False),
        "agreement_waives": StringSet(frozenset(), frozenset(), True),
    }

    def triggered(mau: Fraction, revenue: Fraction) -> bool:
        domains = {
            **everything_else,
            "mau": Interval.point(mau, Dimension.COUNT),
            "monthly_revenue": Interval.point(revenue, Dimension.MONEY),
        }
        result = judge(clause.rule, domains).triggered
        assert len(result) == 1
        return True in result

    counts = [v for v in grid if v.denominator == 1]  # a count is a whole number
    for mau, revenue in itertools.product(counts, grid):
        if triggered(mau, revenue):
            for higher in (v for v in counts if v > mau):
                assert triggered(higher, revenue), (mau, higher, revenue)
            for higher in (v for v in grid if v > revenue):
                assert triggered(mau, higher), (mau, revenue, higher)
    assert not triggered(Fraction(100 * 10**6), Fraction(20 * 10**6))  # "more than", exactly
    assert triggered(Fraction(100 * 10**6 + 1), Fraction(0))


# -- evidence policies and determinism, through the manifest ---------------------------------

KINDS = (
    "observed",
    "official_statement",
    "licensor_statement",
    "press_report",
    "community_inference",
    "rumour",
    "declared",
)


@st.composite
def manifests(draw: st.DrawFn) -> str:
    """A manifest on Kimi K2.5 with one piece of evidence (of a random kind) per fact."""

    def evidence() -> str:
        kind = draw(st.sampled_from(KINDS))
        return f"evidence: [{{source: s, kind: {kind}, date: 2026-03-01}}]"

    facts = []
    commercial = None
    if draw(st.booleans()):
        commercial = draw(st.sampled_from(["true", "false"]))
        facts.append(f"commercial: {{value: {commercial}, {evidence()}}}")
    if draw(st.booleans()):
        facts.append(
            f"mau: {{value: {draw(st.sampled_from(['50M', '100M', '150M']))}, {evidence()}}}"
        )
    # revenue above zero makes the product commercial: beside commercial: false it is refused
    if draw(st.booleans()) and commercial != "false":
        low = draw(st.sampled_from(["10M", "20M", "25M"]))
        facts.append(f"monthly_revenue: {{at_least: {low} USD/month, {evidence()}}}")
    if draw(st.booleans()):
        word = draw(st.sampled_from(["includes", "excludes"]))
        facts.append(f"ui_attribution: {{{word}: [Kimi K2.5], {evidence()}}}")
    if draw(st.booleans()):
        facts.append(f"agreement_waives: {{value: [], {evidence()}}}")
    if draw(st.booleans()):
        facts.append(
            f"notice_included: {{value: {draw(st.sampled_from(['true', 'false']))}, {evidence()}}}"
        )
    delivery = draw(st.sampled_from(["[hosted_service]", "[weights]", "[api, weights]"]))
    lines = [
        "product: P",
        "owner: O",
        "components:",
        "  - id: c",
        "    name: C",
        f"    delivery: {delivery}",
        "    lineage:",
        f"      base: {{model: kimi-k2.5, {evidence()}}}",
        "facts:",
    ]
    lines += [f"  {fact}" for fact in facts] or ["  commercial: true"]
    return "\n".join(lines) + "\n"


def verdicts(text: str, policy: str) -> dict[tuple[str, ...], Verdict]:
    from licheck.evaluation.evaluate import Options, evaluate_manifest
    from licheck.facts.evidencepolicy import POLICIES
    from licheck.files.yamlsafe import parse
    from licheck.inputs.manifest import Manifest
    from licheck.library.compiled import load_library
    from licheck.loading.documents import validate

    document = parse(text, "m.yaml")
    result = evaluate_manifest(
        validate(document, Manifest), document, load_library(), Options(POLICIES[policy])
    )
    return {f.key: f.verdict for f in result.findings}


@pytest.mark.slow
@settings(max_examples=150, deadline=None, database=None)
@given(manifests())
def test_a_stricter_evidence_policy_never_gives_a_firmer_verdict(text: str) -> None:
    strict, default, estimates = (verdicts(text, p) for p in ("strict", "default", "estimates"))
    for key in default:
        if key not in strict or key not in estimates:
            continue  # a finding about the lineage itself exists under some policies only
        assert no_firmer(strict[key], default[key]), (key, strict[key], default[key])
        assert no_firmer(default[key], estimates[key]), (key, default[key], estimates[key])


@pytest.mark.slow
@settings(max_examples=40, deadline=None, database=None)
@given(manifests())
def test_identical_inputs_give_identical_output(text: str) -> None:
    from licheck.evaluation.evaluate import Options
    from licheck.facts.evidencepolicy import POLICIES
    from licheck.library.compiled import load_library
    from licheck.outputs.text import render
    from licheck.portfolio.runs import evaluate_paths
    from licheck.report.building import build
    from licheck.report.view import to_json

    def once() -> tuple[str, str]:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "m.yaml"
            path.write_text(text, encoding="utf-8")
            results = evaluate_paths([path], Options(POLICIES["default"]), load_library())
        report = build(results, "default", None)
        # the digest covers each product's file, whose temporary folder differs by run
        data = to_json(report).replace(folder, "<tmp>")
        return (
            re.sub(r'"digest": "sha256:[0-9a-f]+"', '"digest": "<digest>"', data),
            render(report, color=False, verbose=True).replace(folder, "<tmp>"),
        )

    first, second = once(), once()
    assert first == second


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_output_is_byte_identical_across_processes_and_hash_seeds(fmt: str) -> None:
    """Set and dict orders differ between interpreter runs with different hash seeds."""
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "PYTHONHASHSEED": seed,
            "NO_COLOR": "1",
            "COLUMNS": "100",
        }
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "licheck",
                "evaluate",
                "products/composer2.yaml",
                "--format",
                fmt,
                "--verbose",
            ]
            if fmt == "text"
            else [
                sys.executable,
                "-m",
                "licheck",
                "evaluate",
                "products/composer2.yaml",
                "--format",
                fmt,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
        )
        assert done.returncode in (0, 1), done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1
