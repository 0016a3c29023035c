"""The format models: pydantic is the one validator, and the published JSON Schemas agree with it.

(Formerly in `test_shapes.py`: the assertions that hold against pydantic itself, now that the
hand-written fast path is gone.)"""

from __future__ import annotations

import calendar
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, ValidationError

from licheck.core.diagnostics import InputError
from licheck.files import yamlsafe
from licheck.inputs.manifest import Evidence, EvidenceKind, FactSpec, Manifest, StepKind
from licheck.inputs.rules import ALWAYS, Catalog, FactTest, License, parse_date
from licheck.library.compiled import load_license_file
from licheck.loading.documents import load_manifest, validate
from licheck.report.waivers import WaiverFile
from licheck.report.waivers import load as load_waivers
from licheck.schemas import shipped
from tests.conftest import ROOT

# -- behaviour of the models (moved from test_shapes.py) --------------------------------------


@pytest.mark.parametrize(
    ("data", "accepted"),
    [
        ({"fact": "mau", "is": True}, True),
        ({"fact": "mau", "is_": True}, True),  # the field's own name (populate_by_name)
        ({"fact": "mau", "equals": 3}, False),  # a number is not a string
        ({"fact": "mau", "at_least": "100M", "at_most": 5}, False),  # two operators
        ({"fact": "mau", "is": None, "at_least": 1}, True),
        ({"fact": "mau", "in": ["a", 1]}, False),
        ({"fact": "mau", "at_least": 1, "measured": "later"}, False),
    ],
)
def test_fact_tests(data: dict[str, Any], accepted: bool) -> None:
    if accepted:
        FactTest.model_validate(data)
    else:
        with pytest.raises(ValidationError):
            FactTest.model_validate(data)


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
    built = Manifest.model_validate(manifest)
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
    license_ = License.model_validate(rule)
    assert license_.clauses[0].trigger == ALWAYS


def test_model_rules_refuse() -> None:
    step_merge = {
        "product": "p",
        "owner": "o",
        "components": [{"id": "c", "name": "C", "lineage": {"base": "x", "steps": ["merge"]}}],
    }
    twice = {
        "product": "p",
        "owner": "o",
        "components": [
            {"id": "c", "name": "C", "lineage": {"base": "x"}},
            {"id": "c", "name": "D", "lineage": {"base": "x"}},
        ],
    }
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
    for model, data in ((Manifest, step_merge), (Manifest, twice), (Catalog, backwards)):
        with pytest.raises(ValidationError):
            model.model_validate(data)


def test_keyword_construction() -> None:
    """`FactSpec(value=..., evidence=[Evidence(...)])` in the code gives what validating the
    same data gives; pydantic refuses what is not well formed."""
    evidence = Evidence(source="s", kind=EvidenceKind.DECLARED)
    spec = FactSpec(value=True, evidence=[evidence])
    ref = FactSpec.model_validate(
        {"value": True, "evidence": [Evidence.model_validate({"source": "s", "kind": "declared"})]}
    )
    assert spec == ref and spec.model_fields_set == ref.model_fields_set
    assert spec.evidence[0] is evidence  # an instance is taken as it is
    with pytest.raises(ValidationError):
        FactSpec(value=object())
    with pytest.raises(ValidationError):
        Evidence(source="")
    with pytest.raises(ValidationError):
        FactSpec(value=1, unknown=2)  # type: ignore[call-arg]


def test_validated_objects_behave() -> None:
    data = yamlsafe.load(ROOT / "products" / "composer2.yaml").data
    built = Manifest.model_validate(data)
    with pytest.raises(ValidationError):
        built.product = "x"  # type: ignore[misc]  # frozen
    copied = built.model_copy(update={"product": "other"})
    assert copied.product == "other" and copied.owner == built.owner
    assert copied.model_fields_set == built.model_fields_set
    assert built.model_dump(mode="json", exclude_unset=True)["product"] == built.product


def test_a_month_is_read_as_its_last_day() -> None:
    """`parse_date` finds a month's last day without the calendar module: the same days."""
    for year in (1, 4, 100, 400, 1900, 2000, 2023, 2024, 9999):
        for month in range(1, 13):
            last = calendar.monthrange(year, month)[1]
            assert parse_date(f"{year:04d}-{month:02d}").day == last
    for bad in ("0000-02", "2024-13", "2024-00", "2023-02-29"):
        with pytest.raises(ValueError):
            parse_date(bad)


def test_no_second_validator() -> None:
    """The models are the only validator: no hand-written shape check is left to drift."""
    src = ROOT / "src" / "licheck"
    assert not (src / "shapes.py").exists()
    assert not (src / "libcache.py").exists()
    for path in src.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "__pydantic_complete__" not in text, path
        assert "__pydantic_base_init__" not in text, path
        assert "yaml._yaml" not in text, path


# -- identifiers: the loaders and the published JSON Schemas agree ----------------------------

SHA = "0" * 64


def _license() -> dict[str, Any]:
    return {
        "id": "l",
        "name": "L",
        "version": "1",
        "licensor": "someone",
        "incorporates": [],
        "text": {"file": "f.txt", "sha256": SHA},
        "clauses": [
            {
                "id": "c",
                "kind": "notice",
                "title": "t",
                "quote": "q",
                "requirement": {"fact": "ui_attribution", "contains": "x"},
            }
        ],
        "not_encoded": [{"id": "n", "quote": "q2", "reason": "r"}],
    }


def _catalog() -> dict[str, Any]:
    return {
        "models": [
            {
                "id": "m",
                "name": "M",
                "source": "s",
                "family": "fam",
                "licensor": "someone",
                "license": "l",
                "license_history": [{"license": "l", "from": "2024-01"}],
                "upstream": [],
            }
        ]
    }


def _manifest() -> dict[str, Any]:
    return {
        "product": "p",
        "owner": {"name": "o", "id": "o", "affiliates": [{"id": "zz"}]},
        "components": [
            {
                "id": "c",
                "name": "C",
                "lineage": {
                    "base": {"model": "m", "license": "l"},
                    "trained_on_outputs_of": [{"model": "t", "role": "teacher", "license": "l"}],
                },
            }
        ],
        "agreements": [{"licensor": "l", "via": "v", "terms": "unknown"}],
    }


def _waivers() -> dict[str, Any]:
    return {
        "waivers": [
            {
                "id": "w",
                "product": "p",
                "license": "l",
                "clause": "c",
                "component": "c",
                "reason": "risk_accepted",
                "comment": "why",
                "owner": "me",
                "expires": "2030-01-01",
            }
        ]
    }


# Every field that holds an identifier, by format: (path to set, builder of a valid document).
FORMATS: dict[str, tuple[type[BaseModel], Callable[[], dict[str, Any]]]] = {
    "license": (License, _license),
    "catalog": (Catalog, _catalog),
    "manifest": (Manifest, _manifest),
    "waivers": (WaiverFile, _waivers),
}
IDENTIFIERS: list[tuple[str, tuple[str | int, ...]]] = [
    ("license", ("id",)),
    ("license", ("licensor",)),
    ("license", ("incorporates", 0)),
    ("license", ("clauses", 0, "id")),
    ("license", ("not_encoded", 0, "id")),
    ("catalog", ("models", 0, "id")),
    ("catalog", ("models", 0, "family")),
    ("catalog", ("models", 0, "licensor")),
    ("catalog", ("models", 0, "license")),
    ("catalog", ("models", 0, "license_history", 0, "license")),
    ("catalog", ("models", 0, "upstream", 0)),
    ("manifest", ("components", 0, "id")),
    ("manifest", ("components", 0, "lineage", "base", "license")),
    ("manifest", ("components", 0, "lineage", "trained_on_outputs_of", 0, "license")),
    ("manifest", ("owner", "id")),
    ("manifest", ("owner", "affiliates", 0, "id")),
    ("manifest", ("agreements", 0, "licensor")),
    ("manifest", ("agreements", 0, "via")),
    ("waivers", ("waivers", 0, "id")),
    ("waivers", ("waivers", 0, "license")),
    ("waivers", ("waivers", 0, "clause")),
    ("waivers", ("waivers", 0, "component")),
]


def _with(data: dict[str, Any], path: tuple[str | int, ...], value: str) -> dict[str, Any]:
    data = copy.deepcopy(data)
    node: Any = data
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    if isinstance(node, list) and isinstance(last, int) and last == len(node):
        node.append(value)
    else:
        node[last] = value
    return data


def _schema_accepts(name: str, data: dict[str, Any]) -> bool:
    validator = jsonschema.Draft202012Validator(json.loads(shipped(name)))
    return validator.is_valid(data)


def _loader_accepts(name: str, data: dict[str, Any], tmp_path: Path) -> bool:
    """Whether licheck's own loader for the format (YAML read, checked, compiled) accepts
    `data`; a refusal must be a located diagnostic, never a traceback."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    try:
        if name == "license":
            load_license_file(path)
        elif name == "catalog":  # its shape (the license ids it names are made up here)
            validate(yamlsafe.load(path), Catalog)
        elif name == "manifest":
            load_manifest(path)
        else:
            load_waivers(path)
    except InputError as exc:
        assert exc.diagnostics
        for diagnostic in exc.diagnostics:
            assert diagnostic.file == str(path) and diagnostic.line >= 1 and diagnostic.column >= 1
        return False
    return True


@pytest.mark.parametrize(("name", "where"), IDENTIFIERS, ids=lambda x: str(x))
@pytest.mark.parametrize("length", [1, 119, 120, 121, 200])
def test_identifier_length_agrees_with_the_schema(
    name: str, where: tuple[str | int, ...], length: int, tmp_path: Path
) -> None:
    """At the boundary (120 accepted, 121 refused) the loader and the published schema agree,
    for every identifier-bearing field."""
    model, build = FORMATS[name]
    value = ("a" + "0123456789-._" * 20)[:length]
    data = _with(build(), where, value)
    expected = length <= 120
    assert _schema_accepts(name, data) is expected
    assert _loader_accepts(name, data, tmp_path) is expected
    if expected:
        model.model_validate(data)
    else:
        with pytest.raises(ValidationError):
            model.model_validate(data)


@pytest.mark.parametrize(("name", "where"), IDENTIFIERS, ids=lambda x: str(x))
@pytest.mark.parametrize("value", ["A", "-a", "a b", "", "ä", "a/b", "a\n"])
def test_identifier_pattern_agrees_with_the_schema(
    name: str, where: tuple[str | int, ...], value: str, tmp_path: Path
) -> None:
    data = _with(FORMATS[name][1](), where, value)
    assert _loader_accepts(name, data, tmp_path) is False
    # (The `jsonschema` package matches patterns with Python's `re.search`, whose `$` also
    # matches before a final newline; JSON Schema's ECMA-262 `$` does not, and refuses "a\n"
    # as the loader does.)
    if not value.endswith("\n"):
        assert _schema_accepts(name, data) is False


def test_the_base_documents_are_valid(tmp_path: Path) -> None:
    """Not vacuous: each document the identifier tests vary is accepted by both as it is."""
    for name, (_, build) in FORMATS.items():
        assert _schema_accepts(name, build()), name
        assert _loader_accepts(name, build(), tmp_path), name


def test_a_too_long_identifier_is_located(tmp_path: Path) -> None:
    path = tmp_path / "rule.yaml"
    data = _with(_license(), ("clauses", 0, "id"), "a" * 121)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_license_file(path)
    [problem] = caught.value.diagnostics
    assert "at most 120 characters" in problem.message and "clauses.0.id" in problem.message
    assert (problem.line, problem.column) == yamlsafe.load(path).locate(("clauses", 0, "id"))


def _identifier_fields(schema: Any, found: list[str], name: str = "") -> list[str]:
    """The properties of a JSON Schema whose value (or items, or a member) is an identifier."""
    if isinstance(schema, dict):
        if schema.get("pattern") == r"^[a-z0-9][a-z0-9._-]*$" and schema.get("maxLength") == 120:
            found.append(name)
        for key, value in schema.items():
            if key == "properties":
                for prop, sub in value.items():
                    _identifier_fields(sub, found, prop)
            else:
                _identifier_fields(value, found, name)
    elif isinstance(schema, list):
        for item in schema:
            _identifier_fields(item, found, name)
    return found


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_identifier_field_is_tested(name: str) -> None:
    """The identifier tests above cover every identifier-bearing field of the published
    schemas (a new one must be added to IDENTIFIERS)."""
    published = sorted(_identifier_fields(json.loads(shipped(name)), []))
    tested = sorted(
        str(path[-1] if isinstance(path[-1], str) else path[-2])
        for fmt, path in IDENTIFIERS
        if fmt == name
    )
    assert published == tested
