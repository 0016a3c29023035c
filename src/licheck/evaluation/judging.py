"""One clause judged over a component's facts: its verdict, what it hangs on, and what would
settle it, as a finding.

Judging a clause depends only on its rule and on the domains of its facts, and products repeat
the same few domains (unknown facts, the usual thresholds): over a run each combination is judged
once, in the run's memo tables.  A key is the whole of what the judgement depends on (`_key`):
the compiled rule itself (the library's, compared by identity) and each fact's domain, except that
a settled fact making a single cell enters as the results of the rule's tests on its value (mau
5,000 and 6,000 judge alike).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from licheck.core.context import EvaluationContext, Table
from licheck.core.diagnostics import Location
from licheck.core.verdicts import Answer, Outcome, Requirement, Settlement, Verdict
from licheck.engine.cells import Cell, Rule
from licheck.engine.conditions import Value, tests_in
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine.exact import (
    Branch,
    Judgement,
    branches,
    cells,
    judge_cells,
    settlements,
)
from licheck.engine.tables import Compiled, tabulate
from licheck.evaluation.clausefacts import REVIEW, as_read, contradiction
from licheck.evaluation.findings import Finding, MissingFact
from licheck.facts.measurement import Occasion, read
from licheck.facts.resolution import FactState
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Component
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import CompiledClause


class Judged(NamedTuple):
    judgement: Judgement
    branches: tuple[tuple[str, tuple[Branch, ...]], ...]  # for each open fact
    settlements: tuple[Settlement, ...]  # for a governance risk: what would make it firm


# The run's memo tables of judgements (`judge`).  A judgement's key is the compiled rule (the
# library's, compared by identity: one rule, one object) and the domains as the judgement reads
# them (`_key`); a fact's cells are keyed by the rule, the fact's position in it and its domain.
JudgedKey = tuple[Compiled, tuple[object, ...]]
JUDGED: Table[JudgedKey, Judged] = Table("judged")
LIKELY: Table[JudgedKey, Verdict] = Table("likely")  # the verdict alone, with weak evidence
# Before either: `judge`'s whole answer keyed by the whole of its arguments, the compiled rule
# (by identity) and the exact domains and likely domains of every fact the clause reads, so a
# clause is judged once per distinct value of its facts across a run's products, and a repeat
# costs one lookup instead of working out the coarser key above (`_key` cuts set facts into
# cells, matching names near-exactly).  Finer than that key, it can only answer what the
# judgement made afresh answers (tests/evaluation/test_isolation.py).
ExactKey = tuple[Compiled, tuple[Domain, ...], tuple[Domain, ...]]
EXACT: Table[ExactKey, tuple[Judged, Verdict]] = Table("judged exactly")
CELLS: Table[tuple[Compiled, int, Domain], tuple[Cell, ...]] = Table("cells")


class Readings:
    """Each fact as a license's clauses read it, read once for all of them: the same state in
    each finding (a bounded user count is a new state per reading)."""

    __slots__ = ("facts", "memo", "occasion", "read")

    def __init__(
        self, facts: Mapping[str, FactState], occasion: Occasion, memo: EvaluationContext
    ) -> None:
        self.facts = facts
        self.occasion = occasion
        self.memo = memo
        self.read: dict[str, FactState] = {}

    def __getitem__(self, name: str) -> FactState:
        state = self.read.get(name)
        if state is None:
            state = self.read[name] = read(name, self.facts, self.occasion, self.memo)
        return state


class Place(NamedTuple):
    """Where a clause's findings are: the component, the model it is built on, and the lineage
    entry's position in the manifest (a finding moves to its decisive fact where it has one)."""

    component: Component
    model: CatalogModel
    document: Document
    line: int
    column: int


def judge_clause(compiled: CompiledClause, place: Place, readings: Readings) -> Finding:
    """The finding for one clause of the license that binds `place`."""
    bound, memo = compiled.bound, readings.memo
    states = {name: readings[name] for name in bound.names}
    domains = tuple(states[n].domain for n in bound.names)
    likely = tuple(s.likely if s.likely is not None else s.domain for s in states.values())
    judged, likely_verdict = judge(bound, domains, likely, memo)
    judgement, outcomes = judged.judgement, judged.judgement.outcomes
    where = f"the {compiled.license.name} forbids in its clause “{compiled.clause.title}”"
    states = _as_read(bound, states, domains, judgement.verdict, memo, where)
    missing = tuple(MissingFact(states[n], b) for n, b in judged.branches)
    line, column = place.line, place.column
    decisive = _decisive_fact(judgement.verdict, bound.rule, states, missing)
    if decisive is not None and decisive.path:
        line, column = place.document.locate(decisive.path)
    clause, license_ = compiled.clause, compiled.license
    return Finding(
        component=place.component.id,
        component_name=place.component.name,
        model=place.model.id,
        model_name=place.model.name,
        license=license_.id,
        license_name=license_.name,
        clause=clause.id,
        title=clause.title,
        kind=clause.kind.value,
        quote=clause.quote,
        verdict=judgement.verdict,
        likely_verdict=likely_verdict,
        binds=_three(judgement.in_scope),
        triggered=_three(judgement.triggered),
        requirement=_requirement(outcomes),
        exception=_exception(outcomes),
        facts=tuple(states.values()),
        missing_facts=missing,
        location=Location(place.document.file, line, column),
        summary=clause.summary,
        provenance=(place.model.text_provenance or license_.text.provenance).value,
        settled_by=_named(judged.settlements, states),
    )


def _as_read(
    bound: Compiled,
    states: dict[str, FactState],
    domains: tuple[Domain, ...],
    verdict: Verdict,
    memo: EvaluationContext,
    where: str,
) -> dict[str, FactState]:
    """The facts as the finding shows them (`clausefacts`): set facts narrowed to the members
    the clause reads, and a review the verdict sets aside saying why."""
    tests = dict(zip(bound.names, bound.tests, strict=True))

    def rejudge(replaced: Mapping[str, Domain]) -> Verdict:
        changed = tuple(replaced.get(n, d) for n, d in zip(bound.names, domains, strict=True))
        return judge(bound, changed, changed, memo)[0].judgement.verdict

    why = contradiction(states, tests, verdict, rejudge, where)
    shown = {n: as_read(s, tests[n]) for n, s in states.items()}
    if why is not None:
        review = shown[REVIEW]
        reading = f"{review.reading} {why}" if review.reading else why
        shown[REVIEW] = dataclasses.replace(review, reading=reading, lasting=False)
    return shown


def judge(
    bound: Compiled,
    domains: tuple[Domain, ...],
    likely: tuple[Domain, ...],
    memo: EvaluationContext,
) -> tuple[Judged, Verdict]:
    """The judgement of the domains, and the verdict with weak evidence admitted (`likely`)."""
    exact_key = (bound, domains, likely)
    exact = memo.table(EXACT)
    found = exact.get(exact_key)
    if found is None:
        found = exact.keep(exact_key, _judge(bound, domains, likely, memo))
    return found


def _judge(
    bound: Compiled,
    domains: tuple[Domain, ...],
    likely: tuple[Domain, ...],
    memo: EvaluationContext,
) -> tuple[Judged, Verdict]:
    key = (bound, _key(bound, domains))
    judged_table = memo.table(JUDGED)
    judged = judged_table.get(key)
    if judged is None:
        judged = judged_table.keep(key, _judged(bound, _fact_cells(bound, domains, memo)))
    if likely == domains:
        return judged, judged.judgement.verdict
    # Only the verdict is needed with weak evidence: judged apart, so that each manifest's
    # combination of likely values does not make a judgement of its own.
    likely_key = (bound, _key(bound, likely))
    if likely_key == key:
        return judged, judged.judgement.verdict
    other = judged_table.get(likely_key)
    if other is not None:
        return judged, other.judgement.verdict
    likely_table = memo.table(LIKELY)
    verdict = likely_table.get(likely_key)
    if verdict is None:
        by_fact = _fact_cells(bound, likely, memo)
        verdict = likely_table.keep(likely_key, judge_cells(bound, by_fact).verdict)
    return judged, verdict


def _judged(bound: Compiled, by_fact: Mapping[str, Sequence[Cell]]) -> Judged:
    table = tabulate(bound, by_fact)
    judgement = judge_cells(bound, by_fact, table)
    open_facts = judgement.open_facts
    branches_ = tuple((n, tuple(branches(bound, by_fact, n, table))) for n in open_facts)
    settled = (
        tuple(settlements(bound, by_fact, open_facts, table=table))
        if judgement.verdict is Verdict.GOVERNANCE_RISK
        else ()
    )
    return Judged(judgement, branches_, settled)


def _settled_value(domain: Domain) -> Value | None:
    """The one value a settled domain holds; None when more remain."""
    match domain:
        case Interval():
            return domain.lo if domain.is_point() else None
        case Booleans():
            return next(iter(domain.values)) if len(domain.values) == 1 else None
        case Strings():
            return domain.value
        case StringSet():
            return domain.includes if domain.exact else None
    return None  # pragma: no cover


def _key(bound: Compiled, domains: tuple[Domain, ...]) -> tuple[object, ...]:
    """The domains as the judgement depends on them: each fact's domain, or for a settled fact
    that makes a single cell and that no `joint` chain relates to another fact of the rule, the
    results of the rule's tests on its value.

    The judgement reads a fact only through its cells: the tests' results on each, and, where
    the fact has cells with different results (it may be open), their labels and regions (its
    branches and settlements), and where a chain bounds it by another fact, their regions.  A
    single cell is never open and, outside a chain, only its tests' results are read.  A settled
    value can make several cells: a near-match of a name a test asks for ("KIMI K2.5" for "Kimi
    K2.5", a "LLaMA" for a "Llama" prefix) is read both as written and as that name.  Keyed by
    its tests' results alone, it shared the judgement of an exact value with the same results
    (`[]`): a product's verdict was whichever of the two the run had judged first."""
    key: list[object] = []
    for position, (domain, on_fact) in enumerate(zip(domains, bound.tests, strict=True)):
        if _settled_value(domain) is None or position in bound.chained:
            key.append(domain)
            continue
        made = cells(domain, on_fact)  # one value: quickly made
        if len(made) != 1:
            key.append(domain)
            continue
        key.append(tuple([t.holds(made[0].value) for t in on_fact]))
    return tuple(key)


def _fact_cells(
    bound: Compiled, domains: tuple[Domain, ...], memo: EvaluationContext
) -> dict[str, Sequence[Cell]]:
    """The cells of each fact's domain cut by the rule's tests on it: unknown facts and the
    usual values recur across clauses and products, so each is cut once a run."""
    by_fact: dict[str, Sequence[Cell]] = {}
    table = memo.table(CELLS)
    for position, (name, on_fact, domain) in enumerate(
        zip(bound.names, bound.tests, domains, strict=True)
    ):
        if _settled_value(domain) is not None:  # one cell, quickly made: not worth keeping
            by_fact[name] = tuple(cells(domain, on_fact))
            continue
        key = (bound, position, domain)
        found = table.get(key)
        if found is None:
            found = table.keep(key, tuple(cells(domain, on_fact)))
        by_fact[name] = found
    return by_fact


def _named(
    settled: tuple[Settlement, ...], states: Mapping[str, FactState]
) -> tuple[Settlement, ...]:
    """A measured key (licensee_mau@month_before_release) shown as its state names it; where no
    name changes, the judgement's own settlements (shared, so the report's parts are too)."""
    if all(states[f].name == f for s in settled for f, _ in s.when):
        return settled
    return tuple(
        dataclasses.replace(s, when=tuple((states[f].name, v) for f, v in s.when)) for s in settled
    )


def _three(values: frozenset[bool]) -> Answer:
    if values == {True}:
        return Answer.YES
    if values == {False} or not values:
        return Answer.NO
    return Answer.DEPENDS


def _exception(outcomes: frozenset[Outcome]) -> Answer:
    if Outcome.LIFTED not in outcomes:
        return Answer.NO
    triggered = outcomes - {Outcome.NOT_TRIGGERED}
    return Answer.YES if triggered == {Outcome.LIFTED} else Answer.DEPENDS


def _requirement(outcomes: frozenset[Outcome]) -> Requirement:
    holds, fails = Outcome.HOLDS in outcomes, Outcome.FAILS in outcomes
    if holds and fails:
        return Requirement.DEPENDS
    if fails:
        return Requirement.FAILS
    return Requirement.HOLDS if holds else Requirement.NOT_REACHED


def _decisive_fact(
    verdict: Verdict, rule: Rule, states: dict[str, FactState], missing: tuple[MissingFact, ...]
) -> FactState | None:
    """The fact a reader should look at: the first open one, else the requirement's."""
    if verdict is Verdict.GOVERNANCE_RISK and missing:
        stated = [m.fact for m in missing if m.fact.path]
        return stated[0] if stated else None
    for test in tests_in(rule.requirement):
        state = states.get(test.key)
        if state is not None and state.path:
            return state
    return None
