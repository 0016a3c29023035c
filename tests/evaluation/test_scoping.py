"""Brute force for the constructs of issue 12 (K1): a clause's reach against the lineage relation,
and facts stated at several scopes (product, component, model, license).

The reach is read here independently of `binding`: a clause binds a component built on the
model's weights and still a derivative (`derivatives`), built on its weights at all (`use`), or
trained on its outputs (`outputs`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import TRUE
from licheck.engine.domains import Booleans, Domain, StringSet
from licheck.engine.exact import judge
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Lineage, Manifest
from licheck.inputs.rules import Reach
from licheck.inputs.rules import Relation as Kind
from licheck.library.compiled import load_library
from licheck.library.reach import bind
from tests.engine.test_exact_properties import (
    PROPERTY,
    Known,
    candidates,
    domains_of,
    knowledge,
    leaf_tests,
    rules,
    true_in,
    verdict_from,
)

RELATION = ("lineage", "derivative", "outputs_lineage", "outputs_generated_by_licensee")
BOOLEAN_STATES = st.sampled_from([frozenset({True}), frozenset({False}), frozenset({True, False})])
KINDS = st.frozensets(st.sampled_from(list(Kind)), max_size=3)


def binds(reach: frozenset[Reach], values: Mapping[str, object], kinds: frozenset[Kind]) -> bool:
    """The reach of a license that defines no terms (`docs/reach.md`), relation by relation:
    the unmodified model through derivatives or use; a modified one through use, or through
    derivatives where `derivative` holds; the outputs through outputs, or through use where the
    owner ran the model."""
    weights, derivative, outputs, ran = (bool(values[n]) for n in RELATION)
    for kind in kinds:
        if kind.by_outputs:
            if (weights or outputs) and (Reach.OUTPUTS in reach or (Reach.USE in reach and ran)):
                return True
        elif weights and (
            Reach.USE in reach or (Reach.DERIVATIVES in reach and (kind.unmodified or derivative))
        ):
            return True
    return False


def expected_verdict(
    rule: Rule,
    reach: frozenset[Reach],
    knowns: Mapping[str, Known],
    relation: Mapping[str, frozenset[bool]],
    kinds: frozenset[Kind],
) -> Verdict:
    tests: dict[str, list[Any]] = {}
    for node in (rule.trigger, rule.requirement, *rule.exceptions):
        for test in leaf_tests(node):
            tests.setdefault(test.fact, []).append(test)
    names = sorted(tests)
    pools = [candidates(knowns[n], tests[n]) for n in names]
    outcomes = set()
    for scoped in itertools.product(*(sorted(relation[n]) for n in RELATION)):
        for combo in itertools.product(*pools):
            values = {
                **dict(zip(RELATION, scoped, strict=True)),
                **dict(zip(names, combo, strict=True)),
            }
            if not (binds(reach, values, kinds) and true_in(rule.trigger, values)):
                outcomes.add("not triggered")
            elif any(true_in(e, values) for e in rule.exceptions):
                outcomes.add("lifted")
            else:
                outcomes.add("holds" if true_in(rule.requirement, values) else "fails")
    return verdict_from(outcomes)


@pytest.mark.slow
@PROPERTY
@given(
    rules(),
    knowledge(),
    st.frozensets(st.sampled_from(list(Reach)), min_size=1),
    st.fixed_dictionaries(dict.fromkeys(RELATION, BOOLEAN_STATES)),
    KINDS,
)
def test_reach_against_the_relation_equals_brute_force(
    rule: Rule,
    knowns: dict[str, Known],
    reach: frozenset[Reach],
    relation: dict[str, frozenset[bool]],
    kinds: frozenset[Kind],
) -> None:
    plain = Rule(rule.trigger, rule.requirement, rule.exceptions, TRUE)
    bound = bind(plain, tuple(sorted(reach))).rule
    domains: dict[str, Domain] = {
        **domains_of(knowns),
        **{n: Booleans(v) for n, v in relation.items()},
        "relations": StringSet(frozenset(k.value for k in kinds), frozenset(), True),
        "definition_covers": Booleans(frozenset({True, False})),
    }
    expected = expected_verdict(plain, reach, knowns, relation, kinds)
    assert judge(bound, domains).verdict is expected


# -- scoped facts, end to end ------------------------------------------------------------------

LIBRARY = load_library()
SCOPES = ("product", "component", "by_model", "by_license")
LICENSES = {"llama-3.1-8b": "llama-3.1-community", "mistral-7b": "apache-2.0"}
# A clause of each license that reads `derivative` through its default reach.
COPY_CLAUSE = {"llama-3.1-community": "notice-file", "apache-2.0": "attribution-notices"}
SETTING = st.one_of(st.none(), st.booleans())


def _manifest(stated: Mapping[str, Any]) -> Manifest:
    derivative: dict[str, Any] = {}
    if stated["component"] is not None:
        derivative["value"] = stated["component"]
    for key in ("by_model", "by_license"):
        given_ = {k: v for k, v in stated[key].items() if v is not None}
        if given_:
            derivative[key] = given_
    facts = {"notice_included": False}
    return Manifest.model_validate(
        {
            "product": "p",
            "owner": "o",
            "facts": {} if stated["product"] is None else {"derivative": stated["product"]},
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "delivery": ["weights"],
                    "lineage": {
                        "base": "llama-3.1-8b",
                        "steps": [{"kind": "merge", "parents": ["mistral-7b"]}],
                    },
                    "facts": {**facts, **({"derivative": derivative} if derivative else {})},
                }
            ],
        }
    )


@pytest.mark.slow
@PROPERTY
@given(
    st.fixed_dictionaries(
        {
            "product": SETTING,
            "component": SETTING,
            "by_model": st.fixed_dictionaries(dict.fromkeys(LICENSES, SETTING)),
            "by_license": st.fixed_dictionaries(dict.fromkeys(LICENSES.values(), SETTING)),
        }
    )
)
def test_a_fact_stated_at_several_scopes_resolves_to_the_most_specific(
    stated: dict[str, Any],
) -> None:
    result = evaluate_manifest(
        _manifest(stated), Document("m.yaml", {}, {}), LIBRARY, Options(POLICIES["default"])
    )
    for model, license_id in LICENSES.items():
        chain = (
            stated["by_license"][license_id],
            stated["by_model"][model],
            stated["component"],
            stated["product"],
            True,  # licheck's default
        )
        expected = next(v for v in chain if v is not None)
        finding = next(
            f
            for f in result.findings
            if f.model == model and f.license == license_id and f.clause == COPY_CLAUSE[license_id]
        )
        derivative = next(s for s in finding.facts if s.name == "derivative")
        assert str(derivative.domain) == str(expected).lower()
        assert finding.binds == ("yes" if expected else "no")
        assert (finding.verdict is Verdict.NOT_APPLICABLE) is (not expected)


# -- trained from scratch on another model's outputs (issue 24, deliverable 3) ------------------

SCRATCH = """format: 2
product: Scratch
owner: Acme
components:
  - id: scratch
    name: Scratch model
    delivery: [api]
    lineage:
      base: {base}
      trained_on_outputs_of:
        - {model: llama-3.1-405b, role: synthetic_data}
"""


def _scratch_findings(base: str) -> dict[tuple[str, str], str]:
    manifest = Manifest.model_validate(yaml.safe_load(SCRATCH.replace("{base}", base)))
    result = evaluate_manifest(
        manifest, Document("scratch.yaml", {}, {}), LIBRARY, Options(POLICIES["default"])
    )
    return {(f.license, f.clause): f.verdict.value for f in result.findings}


def test_base_none_adds_no_undisclosed_base_and_the_outputs_licensor_still_binds() -> None:
    found = _scratch_findings("none")
    assert not [key for key in found if key[1] == "base-undisclosed"]
    # Llama 3.1's clauses reaching outputs bind through trained_on_outputs_of
    assert found[("llama-3.1-community", "model-name-prefix")] == "governance_risk"
    # where the base is written `unknown`, the undisclosed base is a risk of its own
    assert [key for key in _scratch_findings("unknown") if key[1] == "base-undisclosed"]


def test_base_none_is_no_lineage_entry() -> None:
    data = yaml.safe_load(SCRATCH.replace("{base}", "none"))
    lineage = Manifest.model_validate(data).components[0].lineage
    assert lineage.from_scratch and lineage.entries() == []
    assert [ref.model for ref in lineage.trained_on_outputs_of] == ["llama-3.1-405b"]


@pytest.mark.parametrize(
    ("lineage", "message"),
    [
        ({"base": "none"}, "names no model whose license could bind"),
        ({"base": "none", "steps": ["fine_tuning"]}, "names no model whose license could bind"),
        (
            {"base": "mistral-7b", "trained_on_outputs_of": ["none"]},
            "`none` is only a base",
        ),
        (
            {"base": {"candidates": ["none", "mistral-7b"]}, "trained_on_outputs_of": ["qwen3"]},
            "`none` is only a base",
        ),
    ],
)
def test_base_none_in_a_wrong_place_is_refused(lineage: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Lineage.model_validate(lineage)
