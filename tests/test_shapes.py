"""The fast shape check (`shapes`) against pydantic: whenever it accepts, pydantic accepts and
builds an equal object (same classes, values, value types and fields-set, all the way down);
whenever pydantic rejects, it declines.  Checked on every YAML file of the repository, the fuzz
corpus's mutations and generated documents; and keyword construction in the code."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from licheck import shapes, yamlsafe
from licheck.diagnostics import InputError
from licheck.model import (
    ALWAYS,
    Catalog,
    Evidence,
    EvidenceKind,
    FactSpec,
    FactTest,
    License,
    Manifest,
    StepKind,
)
from tests.conftest import ROOT
from tests.test_fuzz import CATALOG, MANIFESTS, RULE_FILES, SPECIALS, fuzz, mutate_data, mutated

MODELS: tuple[type[BaseModel], ...] = (Manifest, License, Catalog)
YAML_FILES = sorted(
    p for p in ROOT.glob("**/*.y*ml") if ".git" not in p.parts and "node_modules" not in p.parts
)


def same(fast: Any, ref: Any, where: str = "") -> None:
    """`fast` and `ref` are the same data: types, values, fields-set and field order."""
    assert type(fast) is type(ref), where
    if isinstance(ref, BaseModel):
        assert fast.model_fields_set == ref.model_fields_set, where
        assert list(fast.__dict__) == list(ref.__dict__), where
        for name, value in ref.__dict__.items():
            same(fast.__dict__[name], value, f"{where}.{name}")
        assert fast == ref and hash(fast) == hash(ref) if _hashable(ref) else fast == ref
    elif isinstance(ref, list):
        assert len(fast) == len(ref), where
        for index, (a, b) in enumerate(zip(fast, ref, strict=True)):
            same(a, b, f"{where}[{index}]")
    elif isinstance(ref, dict):
        assert list(fast) == list(ref), where
        for key, value in ref.items():
            same(fast[key], value, f"{where}.{key}")
    else:
        assert fast == ref, where


def _hashable(model: BaseModel) -> bool:
    try:
        hash(model)
    except TypeError:
        return False
    return True


def agree(model: type[BaseModel], data: Any) -> bool:
    """Check the fast path against pydantic on `data`; True when the fast path accepted."""
    fast = shapes.build(model, copy.deepcopy(data))
    try:
        ref = model.model_validate(copy.deepcopy(data))
    except ValidationError:
        assert fast is None, f"the fast path accepted what pydantic refuses: {data!r}"[:2000]
        return False
    if fast is not None:
        same(fast, ref)
    return fast is not None


def _data(path: Path) -> Any:
    return yamlsafe.load(path).data


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_yaml_file(path: Path) -> None:
    try:
        data = _data(path)
    except InputError:
        return  # unreadable YAML never reaches a model
    for model in MODELS:
        agree(model, data)


def test_the_shipped_files_take_the_fast_path() -> None:
    """Not vacuous: every rule file, the catalog and the products are accepted by the fast path
    (a run that falls back to pydantic builds validators and loses the fast start)."""
    for path in sorted((ROOT / "licenses").glob("*.yaml")):
        model = Catalog if path.name == "catalog.yaml" else License
        assert agree(model, _data(path)), path
    products = sorted((ROOT / "products").glob("*.yaml"))
    assert products
    for path in products:
        assert agree(Manifest, _data(path)), path


SEEDS = {Manifest: MANIFESTS, License: RULE_FILES, Catalog: [CATALOG]}


@pytest.mark.slow
@fuzz(400)
@given(st.sampled_from(MODELS), st.data())
def test_mutated_documents(model: type[BaseModel], draw: st.DataObject) -> None:
    """The fuzz corpus's mutations, in text (then read by yamlsafe) and in data."""
    text = draw.draw(mutated(SEEDS[model]))
    try:
        data = yamlsafe.parse(text, "fuzz").data
    except InputError:
        return
    agree(model, data)


@pytest.mark.slow
@fuzz(600)
@given(st.sampled_from(MODELS), st.data())
def test_mutated_data(model: type[BaseModel], draw: st.DataObject) -> None:
    data = copy.deepcopy(yamlsafe.parse(draw.draw(st.sampled_from(SEEDS[model])), "seed").data)
    for _ in range(draw.draw(st.integers(1, 4))):
        data = mutate_data(draw.draw, data)
    agree(model, data)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(
        [
            *SPECIALS,
            "2024-02",
            "2024-02-30",
            "2024-13",
            "2023-02-29",
            "abc\n",
            "kimi-k2.5",
            "fine_tuning",
            "merge",
            "observed",
            "now",
            "a" * 121,
            "0" * 64,
            "2024-03-31",
        ]
    ),
)
KEYS = st.sampled_from(
    [
        "product",
        "owner",
        "components",
        "facts",
        "id",
        "name",
        "lineage",
        "base",
        "steps",
        "kind",
        "parents",
        "model",
        "obtained",
        "evidence",
        "source",
        "date",
        "value",
        "at_least",
        "at_most",
        "includes",
        "series",
        "2024-01",
        "mau",
        "clauses",
        "fact",
        "all",
        "any",
        "not",
        "always",
        "is",
        "is_",
        "in",
        "in_",
        "from",
        "from_",
        "more_than",
        "models",
        "text",
        "sha256",
        "file",
        "quote",
        "title",
        "version",
        "license",
        "license_history",
        "until",
        "delivery",
        "sources",
        "currency_rates",
    ]
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=25,
)


@pytest.mark.slow
@fuzz(600)
@given(st.sampled_from([*MODELS, FactSpec, FactTest, Evidence]), DOCUMENTS)
def test_generated_documents(model: type[BaseModel], data: Any) -> None:
    agree(model, data)


@pytest.mark.parametrize(
    "data",
    [
        {"fact": "mau", "is": True},
        {"fact": "mau", "is_": True},  # the field's own name: pydantic takes it, the fast path asks
        {"fact": "mau", "more_than": True},  # bool is not a number
        {"fact": "mau", "equals": 3},  # a number is not a string
        {"fact": "mau", "at_least": "100M", "at_most": 5},  # two operators
        {"fact": "mau", "is": None, "at_least": 1},
        {"fact": "mau", "in": ["a", 1]},
        {"fact": "mau", "at_least": 1, "measured": "later"},
    ],
)
def test_fact_tests(data: dict[str, Any]) -> None:
    agree(FactTest, data)


def test_shorthands_and_defaults() -> None:
    manifest = {
        "product": "p",
        "owner": "o",
        "facts": {"mau": "150M", "open": None},
        "components": [
            {
                "id": "c",
                "name": "C",
                "lineage": {
                    "base": "kimi-k2.5",
                    "steps": ["fine_tuning", {"kind": "merge", "parents": ["x"]}],
                },
            }
        ],
    }
    assert agree(Manifest, manifest)
    built = shapes.build(Manifest, manifest)
    assert built is not None
    assert built.facts["mau"].value == "150M"
    assert built.facts["mau"].model_fields_set == {"value"}
    assert built.components[0].lineage.steps[0].kind is StepKind.FINE_TUNING
    assert built.components[0].delivery == []
    clause = {
        "id": "c",
        "kind": "notice",
        "title": "t",
        "quote": "q",
        "requirement": {"fact": "x", "is": True},
    }
    rule = {
        "id": "l",
        "name": "L",
        "version": "1",
        "clauses": [clause],
        "text": {"file": "f", "sha256": "0" * 64},
    }
    assert agree(License, rule)
    license_ = shapes.build(License, rule)
    assert license_ is not None and license_.clauses[0].trigger == ALWAYS


def test_model_rules_decline() -> None:
    step_merge = {
        "product": "p",
        "owner": "o",
        "components": [{"id": "c", "name": "C", "lineage": {"base": "x", "steps": ["merge"]}}],
    }
    assert shapes.build(Manifest, step_merge) is None
    twice = {
        "product": "p",
        "owner": "o",
        "components": [
            {"id": "c", "name": "C", "lineage": {"base": "x"}},
            {"id": "c", "name": "D", "lineage": {"base": "x"}},
        ],
    }
    assert shapes.build(Manifest, twice) is None
    backwards = {
        "models": [
            {
                "id": "m",
                "name": "M",
                "source": "s",
                "license_history": [{"license": "a", "from": "2024-05", "until": "2024-01"}],
            }
        ]
    }
    assert shapes.build(Catalog, backwards) is None
    with pytest.raises(ValidationError):
        Manifest.model_validate(step_merge)


def test_keyword_construction() -> None:
    """`FactSpec(value=..., evidence=[Evidence(...)])` in the code takes the fast path and gives
    what pydantic gives; what it declines, pydantic still refuses with its own error."""
    evidence = Evidence(source="s", kind=EvidenceKind.DECLARED)
    spec = FactSpec(value=True, evidence=[evidence])
    ref = FactSpec.model_validate(
        {"value": True, "evidence": [Evidence.model_validate({"source": "s", "kind": "declared"})]}
    )
    same(spec, ref)
    assert spec.evidence[0] is evidence  # an instance is taken as it is, as pydantic does
    with pytest.raises(ValidationError):
        FactSpec(value=object())
    with pytest.raises(ValidationError):
        Evidence(source="")
    with pytest.raises(ValidationError):
        FactSpec(value=1, unknown=2)  # type: ignore[call-arg]


def test_constructed_objects_behave() -> None:
    built = shapes.build(Manifest, _data(ROOT / "products" / "composer2.yaml"))
    assert built is not None
    with pytest.raises(ValidationError):
        built.product = "x"  # type: ignore[misc]  # frozen
    copied = built.model_copy(update={"product": "other"})
    assert copied.product == "other" and copied.owner == built.owner
    assert copied.model_fields_set == built.model_fields_set
    assert built == Manifest.model_validate(_data(ROOT / "products" / "composer2.yaml"))
    assert built.model_dump(mode="json", exclude_unset=True)["product"] == built.product


PROBE = """
import io, contextlib, sys
from pydantic import BaseModel
from licheck.cli import cli
from licheck.cli.common import run_guarded
with contextlib.redirect_stdout(io.StringIO()):
    code = run_guarded(cli, ["evaluate", "products/composer2.yaml", "--format", "json"])
import licheck.model as m
built = [n for n, c in vars(m).items()
         if isinstance(c, type) and issubclass(c, BaseModel) and c.__pydantic_complete__]
print(code, built)
"""


def test_a_run_builds_no_format_validator() -> None:
    """The point of it all: evaluating a well-formed manifest builds no validator of the file
    formats (the library comes from the cache or the fast path)."""
    base = {"PYTHONPATH": str(ROOT / "src"), "PATH": ""}
    without = {**base, "LICHECK_NO_CACHE": "1"}
    cached = {**base, "LICHECK_CACHE_DIR": os.environ["LICHECK_CACHE_DIR"]}  # (conftest's)
    for env in (without, cached, cached):  # no cache; then a miss or a hit; then a hit
        done = subprocess.run(
            [sys.executable, "-c", PROBE],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        assert done.stdout.split(" ", 1)[1].strip() == "[]", done.stdout + done.stderr


def test_a_month_is_read_as_its_last_day() -> None:
    """`parse_date` finds a month's last day without the calendar module: the same days."""
    import calendar

    from licheck.model import parse_date

    for year in (1, 4, 100, 400, 1900, 2000, 2023, 2024, 9999):
        for month in range(1, 13):
            last = calendar.monthrange(year, month)[1]
            assert parse_date(f"{year:04d}-{month:02d}").day == last
    for bad in ("0000-02", "2024-13", "2024-00", "2023-02-29"):
        with pytest.raises(ValueError):
            parse_date(bad)


def test_the_checkers_fit_the_models() -> None:
    """Every field of every model has its check (a new field without one would silently send
    every document to pydantic: correct, but slow)."""
    table = shapes._checkers()
    from licheck import model

    strict = {
        c
        for c in vars(model).values()
        if isinstance(c, type) and issubclass(c, model.Strict) and c is not model.Strict
    }
    assert set(table) == strict
