"""Organisation policies stay exact: a policy rule that reads the facts licheck derives about a
model and its license (`ungranted_gate`, `license_thresholds`, `model_license`, `model_family`)
next to the component's own facts never gives a firmer verdict than its completions allow.

The reference is licheck itself, run on each completion of the manifest: every fact the
manifest leaves unknown is given each of a few values, and each completed manifest is
evaluated anew, so that the derived facts (a gate crossed or not) are derived from the
completion.  A rule judged `satisfied` on the manifest must be satisfied or not applicable in
every completion, `not_applicable` must stay not applicable, and a violation must stay one:
anything else would be comfort the unknown facts do not give.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import parse
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library
from licheck.library.layers import load
from licheck.library.source import LibrarySource
from licheck.loading.documents import validate

PROPERTY = settings(
    max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

# Kimi K2.5: thresholds on revenue and users, no gate; Qwen 1.8B: a gate on commercial use;
# GLM-4.6: MIT, neither; Qwen2.5-72B: a license not in the library; MiniMax-M2: one of two
# dated texts (the manifest does not say when it was obtained); unknown: an undisclosed base.
MODELS = ("kimi-k2.5", "qwen-1.8b", "glm-4.6", "qwen2.5-72b", "minimax-m2", "unknown")
# A rule may bear the id of a license's clause: it must never stand for it.
RULE_IDS = ("rule-0", "copyright-notice", "ui-attribution")
# Each fact a manifest may state, with the values a completion gives it.
VALUES = {
    "customer_facing": ("true", "false"),
    "commercial": ("true", "false"),
    "license_granted": ("[]", "[tongyi-qianwen-research]"),
    "mau": ("50M", "150M"),
    "monthly_revenue": ("10M USD/month", "30M USD/month"),
}
TESTS = (
    "{fact: customer_facing, is: true}",
    "{fact: commercial, is: true}",
    "{fact: ungranted_gate, is: true}",
    "{fact: ungranted_gate, is: false}",
    "{fact: license_thresholds, contains: revenue}",
    "{fact: license_thresholds, contains: users}",
    "{fact: model_family, equals: qwen}",
    "{fact: model_license, in: [mit, kimi-k2.5-modified-mit]}",
)


def conditions() -> st.SearchStrategy[str]:
    leaf = st.sampled_from(TESTS)
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            inner.map(lambda c: f"{{not: {c}}}"),
            st.lists(inner, min_size=2, max_size=2).map(lambda cs: f"{{all: [{', '.join(cs)}]}}"),
            st.lists(inner, min_size=2, max_size=2).map(lambda cs: f"{{any: [{', '.join(cs)}]}}"),
        ),
        max_leaves=3,
    )


@st.composite
def policies(draw: st.DrawFn) -> str:
    lines = ["policy: acme", "name: Acme", "clauses:"]
    for rule in draw(st.lists(st.sampled_from(RULE_IDS), min_size=1, max_size=3, unique=True)):
        lines += [
            f"  - id: {rule}",
            f"    kind: {draw(st.sampled_from(['obligation', 'restriction']))}",
            "    title: A rule",
            "    text: A rule.",
            f"    trigger: {draw(conditions())}",
            f"    requirement: {draw(conditions())}",
        ]
    return "\n".join(lines) + "\n"


@st.composite
def knowns(draw: st.DrawFn) -> dict[str, str]:
    """The facts the manifest states (the others it leaves unknown)."""
    return {
        fact: draw(st.sampled_from(values))
        for fact, values in VALUES.items()
        if draw(st.booleans())
    }


def manifest(model: str, facts: dict[str, str]) -> str:
    stated = "".join(f"  {fact}: {{value: {value}}}\n" for fact, value in facts.items())
    return (
        "product: P\nowner: O\n"
        + (f"facts:\n{stated}" if stated else "")
        + "components:\n  - id: c\n    name: C\n    delivery: [hosted_service]\n"
        + f"    lineage: {{base: {model}}}\n"
    )


def policy_verdicts(library: Library, text: str, evidence: str) -> dict[str, Verdict]:
    document = parse(text, "m.yaml")
    result = evaluate_manifest(
        validate(document, Manifest), document, library, Options(POLICIES[evidence])
    )
    return {f.clause: f.verdict for f in result.findings if f.license == "policy/acme"}


def _possible(facts: dict[str, str]) -> bool:
    """Whether a manifest can state these facts: revenue above zero makes the product
    commercial, so `commercial: false` beside a revenue is refused (every revenue here is)."""
    return not (facts.get("commercial") == "false" and "monthly_revenue" in facts)


ALLOWED = {  # what a completion may give, for each verdict on the manifest
    Verdict.NOT_APPLICABLE: {Verdict.NOT_APPLICABLE},
    Verdict.SATISFIED: {Verdict.SATISFIED, Verdict.NOT_APPLICABLE},
    Verdict.VIOLATION: {Verdict.VIOLATION},
    Verdict.GOVERNANCE_RISK: set(Verdict),
}


@PROPERTY
@given(policies(), st.sampled_from(MODELS), knowns(), st.sampled_from(sorted(POLICIES)))
def test_a_policy_verdict_is_never_firmer_than_its_completions(
    policy: str, model: str, facts: dict[str, str], evidence: str
) -> None:
    assume(_possible(facts))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "policy.yaml"
        path.write_text(policy, encoding="utf-8")
        library = load(LibrarySource(policies=(path,)))
    judged = policy_verdicts(library, manifest(model, facts), evidence)
    assert judged  # every rule is judged for the model
    unknown = [fact for fact in VALUES if fact not in facts]
    for values in itertools.product(*(VALUES[fact] for fact in unknown)):
        completion = {**facts, **dict(zip(unknown, values, strict=True))}
        if not _possible(completion):
            continue
        for rule, verdict in policy_verdicts(
            library, manifest(model, completion), evidence
        ).items():
            assert verdict in ALLOWED[judged[rule]], (rule, judged[rule], completion, verdict)
