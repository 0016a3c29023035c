"""Deriving a product's facts is values in, values out: a `Derivation` changes nothing, and each
step returns what it derived with the problems it found, which the pipeline combines."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import InputError
from licheck.evaluation.derivation import Derivation, Derived
from licheck.evaluation.evaluate import Options, ProductFacts, derive_facts, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import load_library
from licheck.loading.documents import load_manifest

BAD = """\
product: P
owner: O
currency_rates: {EUR: lots}
facts:
  derivative: {by_license: {apache-2.0: false}}
components:
  - id: c
    name: C
    delivery: [weights]
    lineage: {base: llama-3.1-8b, steps: [fine_tuning]}
    facts:
      derivative: {by_license: {mit: false}, by_model: {qwen3: true}}
      mau: {by_license: {llama-3.1-community: 5}}
"""


def _derive(tmp_path: Path, text: str) -> tuple[Derived[ProductFacts], str]:
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    manifest, document = load_manifest(path)
    options = Options(POLICIES["default"])
    derived = derive_facts(manifest, document, load_library(), options, EvaluationContext())
    return derived, str(path)


def test_each_problem_is_returned_with_what_was_derived(tmp_path: Path) -> None:
    derived, file = _derive(tmp_path, BAD)
    assert isinstance(derived.problems, tuple)
    where = sorted((p.line, p.message.split(":")[0]) for p in derived.problems)
    assert where == [
        (3, "expected an exchange rate such as 0.14, got 'lots'"),
        (5, "fact 'derivative'"),
        (12, "license 'mit' is not in this component's lineage"),
        (12, "model 'qwen3' is not in this component's lineage"),
        (13, "fact 'mau'"),
    ]
    assert all(p.file == file for p in derived.problems)
    (component,) = derived.value.components  # derived all the same: every problem is found
    assert component.facts["modified"].domain is not None


def test_deriving_twice_gives_the_same_and_leaves_the_derivation_as_it_was(
    tmp_path: Path,
) -> None:
    first, _ = _derive(tmp_path, BAD)
    derivation = first.value.derivation
    assert isinstance(derivation, Derivation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        derivation.supposed = {}  # type: ignore[misc]
    component = first.value.components[0]
    again = derivation.component_facts(component.component, component.path, {})
    once_more = derivation.component_facts(component.component, component.path, {})
    assert again.problems == once_more.problems  # nothing accumulates between calls
    # the component's own facts: the one problem in them (its scopes' are `scopes`')
    assert again.problems == tuple(p for p in first.problems if p.line == 13)
    assert again.value == once_more.value


def test_the_evaluation_raises_every_problem_of_every_step(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(BAD, encoding="utf-8")
    manifest, document = load_manifest(path)
    with pytest.raises(InputError) as raised:
        evaluate_manifest(manifest, document, load_library(), Options(POLICIES["default"]))
    derived, _ = _derive(tmp_path, BAD)
    assert set(raised.value.diagnostics) >= set(derived.problems)
