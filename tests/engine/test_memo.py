"""The caches of the evaluation give what judging afresh gives: a settled fact that makes one cell
(and bounds no other fact) is keyed by its tests' results only, and the facts licheck supplies
are shared only where no manifest source changes them (tests/evaluation/test_isolation.py:
every table, over generated portfolios)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from licheck.core.context import EvaluationContext
from licheck.core.units import Dimension
from licheck.engine.cells import Rule
from licheck.engine.domains import Domain, Interval
from licheck.engine.exact import judge as judge_afresh
from licheck.evaluation.derivation import Derivation
from licheck.evaluation.evaluate import Hypotheses, Options
from licheck.evaluation.judging import judge
from licheck.facts.evidencepolicy import POLICIES
from licheck.facts.resolution import Resolution, full_domain
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import EvidenceKind, Source
from licheck.library.compiled import load_library
from licheck.library.reach import bind
from licheck.vocabulary.names import FACTS


def _a_clause_on(fact: str) -> Rule:
    for license_ in load_library().licenses.values():
        for compiled in license_.clauses:
            if fact in compiled.rule.facts():
                return compiled.rule
    raise AssertionError(f"no clause tests {fact}")


def _derivation(context: Resolution) -> Derivation:
    return Derivation(Document("", "", {}), load_library(), context, Hypotheses())


def _domains(names: tuple[str, ...], **given: Domain) -> tuple[Domain, ...]:
    return tuple(given.get(n) or full_domain(FACTS[n.partition("@")[0]]) for n in names)


def test_values_in_one_cell_share_a_judgement_and_others_do_not() -> None:
    bound = bind(_a_clause_on("mau"))
    names, context = bound.names, EvaluationContext()

    def users(n: int) -> Interval:
        return Interval.point(Fraction(n), Dimension.COUNT)

    few, fewer, many = (_domains(names, mau=users(n)) for n in (5_000, 6_000, 10**12))
    first, _ = judge(bound, few, few, context)
    second, _ = judge(bound, fewer, fewer, context)
    third, _ = judge(bound, many, many, context)
    assert second is first  # the same cell of every threshold the clause tests
    assert third is not first
    for domains, judged in ((few, first), (fewer, second), (many, third)):
        assert judged.judgement == judge_afresh(bound.rule, dict(zip(names, domains, strict=True)))


def test_the_likely_verdict_is_the_verdict_of_the_likely_values() -> None:
    bound = bind(_a_clause_on("mau"))
    names = bound.names
    unknown = _domains(names)
    likely = _domains(names, mau=Interval.point(Fraction(10**12), Dimension.COUNT))
    judged, likely_verdict = judge(bound, unknown, likely, EvaluationContext())
    assert judged.judgement == judge_afresh(bound.rule, dict(zip(names, unknown, strict=True)))
    assert likely_verdict is judge_afresh(bound.rule, dict(zip(names, likely, strict=True))).verdict


def test_a_supplied_fact_is_shared_unless_a_manifest_source_cites_its_text() -> None:
    policy = Options(POLICIES["default"]).policy
    text = (
        "licheck's default: the product's owner obtained the model itself, not inside "
        "another licensee's end user product"
    )
    context = EvaluationContext()
    plain = Resolution(policy, None, memo=context)
    first = _derivation(plain).default("received_in_integrated_product", False, text)
    again = _derivation(plain).default("received_in_integrated_product", False, text)
    assert again is first
    cited = Resolution(
        policy,
        None,
        sources={
            text: Source(
                title="A source named like licheck's default",
                kind=EvidenceKind.OBSERVED,
                date=dt.date(2025, 1, 1),
            )
        },
        memo=context,
    )
    own = _derivation(cited).default("received_in_integrated_product", False, text)
    assert own is not first
    assert own.evidence[0].source == "A source named like licheck's default"
    assert first.evidence[0].source == text
