"""Facts as one clause reads them (issue 12): a review against a declared use, a set fact shown
for the members the clause reads, and what-if `--set` members checked against the library."""

from __future__ import annotations

import dataclasses
import json
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from licheck.core.verdicts import Verdict
from licheck.engine.conditions import Test
from licheck.engine.domains import Booleans, Domain, StringSet
from licheck.evaluation.clausefacts import as_read, contradiction
from licheck.facts.resolution import FactState, Status
from licheck.vocabulary.names import FACTS
from tests.clirun import run

KIMI = frozenset({"kimi-k2.5-modified-mit/*", "kimi-k2.5-modified-mit/ui-attribution"})
MINIMAX = frozenset({"minimax-m2-modified-mit/*"})
WAIVES = (Test("agreement_waives", "contains_any", KIMI),)
FORBIDDEN = frozenset({"military", "unlawful"})
POLICY_TESTS = {
    "restricted_uses": (Test("restricted_uses", "contains_any", FORBIDDEN),),
    "use_policy_followed": (Test("use_policy_followed", "is", True),),
}


def state(name: str, domain: Domain, status: Status = Status.ESTABLISHED) -> FactState:
    return FactState(name, FACTS[name], status, domain, "as stated", path=("facts", name))


def test_a_set_that_says_nothing_of_the_members_read_is_unknown_for_the_clause() -> None:
    shown = as_read(state("agreement_waives", StringSet(frozenset(), MINIMAX, False)), WAIVES)
    assert shown.status is Status.UNKNOWN
    assert shown.shown == (
        "unknown whether it includes 'kimi-k2.5-modified-mit/*' or "
        "'kimi-k2.5-modified-mit/ui-attribution'"
    )
    assert shown.domain == StringSet(frozenset(), frozenset(), False)


def test_a_set_that_settles_the_clause_is_established_for_it() -> None:
    excluded = StringSet(frozenset(), KIMI | MINIMAX, False)
    shown = as_read(state("agreement_waives", excluded), WAIVES)
    assert shown.status is Status.ESTABLISHED and shown.domain == StringSet(
        frozenset(), KIMI, False
    )
    one = StringSet(frozenset({"kimi-k2.5-modified-mit/*"}), frozenset(), False)
    shown = as_read(state("agreement_waives", one), WAIVES)
    assert shown.status is Status.ESTABLISHED  # contains_any holds whatever the other member
    assert shown.shown == (
        "includes 'kimi-k2.5-modified-mit/*'; unknown whether it includes "
        "'kimi-k2.5-modified-mit/ui-attribution'"
    )


def test_weak_evidence_that_settles_the_clause_is_likely() -> None:
    partial = state("agreement_waives", StringSet(frozenset(), MINIMAX, False), Status.LIKELY)
    likely = StringSet(frozenset({"kimi-k2.5-modified-mit/*"}), MINIMAX, False)
    shown = as_read(dataclasses.replace(partial, likely=likely), WAIVES)
    assert shown.status is Status.LIKELY
    assert shown.likely == StringSet(frozenset({"kimi-k2.5-modified-mit/*"}), frozenset(), False)


@pytest.mark.parametrize(
    "domain",
    [StringSet(frozenset(), frozenset(), False), StringSet(MINIMAX, frozenset(), True)],
    ids=["unstated", "exact"],
)
def test_unstated_and_exact_sets_are_shown_as_they_are(domain: StringSet) -> None:
    given = state("agreement_waives", domain)
    assert as_read(given, WAIVES) is given


def _states(used: StringSet, review: bool | None) -> dict[str, FactState]:
    values = frozenset({True, False}) if review is None else frozenset({review})
    return {
        "restricted_uses": state("restricted_uses", used),
        "use_policy_followed": state("use_policy_followed", Booleans(values)),
    }


def _rejudge_satisfied(replaced: object) -> Verdict:
    return Verdict.SATISFIED


def test_a_review_against_a_declared_use_is_reported() -> None:
    used = StringSet(frozenset({"military"}), frozenset(), True)
    why = contradiction(
        _states(used, True), POLICY_TESTS, Verdict.VIOLATION, _rejudge_satisfied, "THE POLICY"
    )
    assert why is not None
    assert "use_policy_followed: true" in why and "'military'" in why and "THE POLICY" in why
    assert "the declared use decides" in why and "a review is a summary" in why
    assert "believing the review, the verdict would be satisfied" in why


@pytest.mark.parametrize(
    ("used", "review", "rejudged"),
    [
        (StringSet(frozenset({"military"}), frozenset(), True), False, Verdict.SATISFIED),
        (StringSet(frozenset({"military"}), frozenset(), True), None, Verdict.SATISFIED),
        (StringSet(frozenset({"harassment"}), frozenset(), True), True, Verdict.SATISFIED),
        (StringSet(frozenset(), frozenset(), True), True, Verdict.SATISFIED),
        (StringSet(frozenset({"military"}), frozenset(), True), True, Verdict.VIOLATION),
    ],
    ids=["review-false", "review-unknown", "tag-not-read", "no-use", "verdict-does-not-turn"],
)
def test_no_contradiction_is_reported_where_there_is_none(
    used: StringSet, review: bool | None, rejudged: Verdict
) -> None:
    why = contradiction(
        _states(used, review), POLICY_TESTS, Verdict.VIOLATION, lambda _: rejudged, "P"
    )
    assert why is None


MILITARY = """\
product: Targeting Assistant
owner: Example Corp
facts:
  commercial: {value: true}
  restricted_uses: {value: [military]}
  use_policy_followed: {value: true}
components:
  - id: assistant
    name: Assistant
    delivery: [hosted_service]
    lineage:
      base: {model: llama-3.1-8b}
      steps: [{kind: fine_tuning}]
"""
AUP = ("llama-3.1-acceptable-use-policy", "prohibited-uses")


@pytest.fixture
def military(tmp_path: Path) -> str:
    path = tmp_path / "military.yaml"
    path.write_text(MILITARY, encoding="utf-8")
    return str(path)


def test_the_contradiction_reaches_the_json_report(
    capsys: pytest.CaptureFixture[str], military: str
) -> None:
    code, out, err = run(capsys, "evaluate", military, "--format", "json", "--fail-on", "never")
    assert code == 0, err
    findings = json.loads(out)["products"][0]["findings"]
    aup = next(f for f in findings if (f["license"], f["clause"]) == AUP)
    assert aup["verdict"] == "violation"  # the declared use decides, as before
    why = aup["explanation"]
    assert "contradicts itself" in why and "'military'" in why
    assert "Llama 3.1 Acceptable Use Policy" in why and "the declared use decides" in why
    assert aup["location"]["line"] == 5  # at the declared use
    # The community license's clauses do not read the two facts: no word of it there.
    assert all("contradicts" not in f["explanation"] for f in findings if f is not aup)


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif"])
def test_the_contradiction_reaches_the_other_formats(
    capsys: pytest.CaptureFixture[str], military: str, fmt: str
) -> None:
    code, out, err = run(capsys, "evaluate", military, "--format", fmt, "--fail-on", "never")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "The manifest contradicts itself" in flat
    assert "a declared use is specific and a review is a summary" in flat


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("restricted_uses=[policy:no-such-license]", "license 'no-such-license' is not in"),
        (
            "restricted_uses=[policy:llama-3.1-acceptable-use-polcy]",
            "did you mean 'llama-3.1-acceptable-use-policy'?",
        ),
        ("agreement_waives=[kimi-k2.5-modified-mit/no-such-clause]", "has no clause"),
        ("license_granted=[kimi-k2.5-modifed-mit]", "did you mean 'kimi-k2.5-modified-mit'?"),
    ],
)
def test_whatif_set_members_are_checked_against_the_library(
    capsys: pytest.CaptureFixture[str], value: str, expected: str
) -> None:
    code, out, err = run(capsys, "whatif", "products/composer2.yaml", "--set", value)
    assert code == 2 and out == ""
    assert f"--set {value}" in err and expected in err and "Traceback" not in err


def test_whatif_set_of_a_known_policy_runs(capsys: pytest.CaptureFixture[str]) -> None:
    value = "restricted_uses=[policy:kimi-k2.5-modified-mit]"
    code, _, err = run(capsys, "whatif", "products/composer2.yaml", "--set", value)
    assert code == 0, err


_POOL = ["a", "b", "c", "d"]
_members = st.frozensets(st.sampled_from(_POOL))


@st.composite
def _partial_sets(draw: st.DrawFn) -> StringSet:
    includes = draw(_members)
    return StringSet(includes, draw(_members) - includes, False)


@st.composite
def _set_tests(draw: st.DrawFn) -> tuple[Test, ...]:
    tests = [Test("agreement_waives", "contains", m) for m in draw(_members)]
    groups = draw(st.lists(_members.filter(bool), max_size=2))
    tests += [Test("agreement_waives", "contains_any", g) for g in groups]
    return tuple(dict.fromkeys(tests)) or (Test("agreement_waives", "contains", "a"),)


@given(_partial_sets(), _set_tests())
def test_the_narrowed_set_cuts_the_clause_into_the_same_cells(
    domain: StringSet, tests: tuple[Test, ...]
) -> None:
    """What the finding shows never differs from what the verdict was judged on: the tests give
    the same results over the narrowed set as over the stated one (brute force over subsets)."""
    shown = as_read(state("agreement_waives", domain), tests).domain
    assert isinstance(shown, StringSet)

    def results(d: StringSet) -> set[tuple[bool, ...]]:
        universe = [m for m in {*_POOL, *d.includes} if m not in d.excludes]
        subsets = (
            frozenset(c) for r in range(len(universe) + 1) for c in combinations(universe, r)
        )
        return {tuple(t.holds(s) for t in tests) for s in subsets if d.includes <= s}

    assert results(shown) == results(domain)
