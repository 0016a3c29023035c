"""A fast, conservative shape check that builds the format models without pydantic validators.

Building a pydantic validator costs more than a whole run of `licheck evaluate` (pydantic has no
persistent schema cache), so the models defer building them (`defer_build`), and this module
checks the plain data of a YAML file by hand.  It accepts a document only when it is sure the
pydantic model accepts it, and then builds the very instances pydantic would build (same classes,
values, defaults and fields-set) without a validator.  On any doubt -- an unknown key, a type that
pydantic might coerce, a failed model rule -- it declines (`build` returns None) and the caller
validates with pydantic as before, so every diagnostic stays pydantic's.

Conservative by design: only plain `dict`/`list`/`str`/`int`/`float`/`bool`/`None` data (what
`yamlsafe` and `json` produce); bool is never a number; an aliased field only under its alias
(`is`, `in`, `from`, `not`); patterns matched as whole strings.  `tests/test_shapes.py` holds this
module to pydantic's verdicts and objects on every YAML file of the repository, the fuzz corpus
and generated documents.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

from licheck import model as m

T = TypeVar("T", bound=BaseModel)
Check = Callable[[Any], Any]


class Decline(Exception):
    """The fast path is not sure: validate with pydantic."""


_DECLINE = Decline()
_set = object.__setattr__
_IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9._-]*")  # fullmatch: no trailing newline slips by
_SHA256 = re.compile(r"[0-9a-f]{64}")
# Within any 64-bit integer: pydantic takes bigger ones too, but nothing here needs them.
_INT_LIMIT = 2**63


def build(model: type[T], data: Any) -> T | None:
    """`data` as a `model` instance, exactly as `model.model_validate(data)` would give it, or
    None when the fast path is unsure (pydantic then decides)."""
    check = _table().get(model)
    if check is None:
        return None
    try:
        result: T = check(data)
    except (Decline, ValueError, RecursionError):
        return None
    return result


def init(instance: BaseModel, data: dict[str, Any]) -> bool:
    """Fill `instance` from keyword arguments (`FactSpec(value=True, evidence=[...])`) as
    pydantic's `__init__` would; False when unsure (pydantic's `__init__` then decides)."""
    check = _table().get(type(instance))
    if check is None:
        return False
    try:
        check(data, instance)
    except (Decline, ValueError, RecursionError):
        return False
    return True


# -- scalars -----------------------------------------------------------------------------------


def _str(value: Any) -> str:
    if type(value) is str:
        return value
    raise _DECLINE


def _text(value: Any) -> str:
    if type(value) is str and value:
        return value
    raise _DECLINE


def _identifier(value: Any) -> str:
    if type(value) is str and len(value) <= 120 and _IDENTIFIER.fullmatch(value):
        return value
    raise _DECLINE


def _sha256(value: Any) -> str:
    if type(value) is str and _SHA256.fullmatch(value):
        return value
    raise _DECLINE


def _bool(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise _DECLINE


def _number(value: Any) -> int | float:
    kind = type(value)
    if (kind is int and -_INT_LIMIT < value < _INT_LIMIT) or (
        kind is float and math.isfinite(value)
    ):
        return value  # type: ignore[no-any-return]
    raise _DECLINE


def _amount(value: Any) -> int | float | str:
    """`int | float | StrictStr`: each kind kept as it is (pydantic's smart union)."""
    return value if type(value) is str else _number(value)


def _raw_value(value: Any) -> Any:
    """`StrictBool | int | float | StrictStr | list[StrictStr]`."""
    kind = type(value)
    if kind is bool or kind is str:
        return value
    if kind is list:
        return _strings(value)
    return _number(value)


def _strings(value: Any) -> list[str]:
    if type(value) is not list:
        raise _DECLINE
    for item in value:
        if type(item) is not str:
            raise _DECLINE
    return list(value)


def _date(value: Any) -> Any:
    if type(value) is not str:
        raise _DECLINE
    return m.parse_date(value)  # its ValueError declines: pydantic words the error


def _month(value: Any) -> str:
    if type(value) is not str:
        raise _DECLINE
    return m._month(value)


def _enum(enum: Any) -> Check:
    members = dict(enum._value2member_map_)

    def check(value: Any) -> Any:
        if type(value) is str and value in members:
            return members[value]
        if type(value) is enum:
            return value  # a member, as the code passes it
        raise _DECLINE

    return check


def _optional(check: Check) -> Check:
    def optional(value: Any) -> Any:
        return None if value is None else check(value)

    optional.inner = check  # type: ignore[attr-defined]  # `_model` checks None inline
    return optional


def _unknown() -> tuple[str, Check, bool]:
    raise _DECLINE


def _list(check: Check, min_length: int = 0) -> Check:
    def checked(value: Any) -> list[Any]:
        if type(value) is not list or len(value) < min_length:
            raise _DECLINE
        return [check(item) for item in value]

    return checked


def _dict(key: Check, check: Check) -> Check:
    def checked(value: Any) -> dict[Any, Any]:
        if type(value) is not dict:
            raise _DECLINE
        return {key(k): check(v) for k, v in value.items()}

    return checked


# -- models ------------------------------------------------------------------------------------


def _model(
    cls: type[T],
    checks: dict[str, Check],
    after: Callable[[T], object] | None = None,
) -> Callable[..., T]:
    """A checker of `cls`: its fields by their input key (the alias where there is one), in the
    model's order, with the model's own defaults; `after` is the model's own after-validator.
    An instance of `cls` itself is taken as it is (pydantic does not revalidate instances).
    Given `instance`, the checker fills it rather than a new one (keyword construction)."""
    fields = cls.__pydantic_fields__
    if set(checks) != set(fields):
        raise AssertionError(
            f"shapes: the fields of {cls.__name__} changed: {sorted(set(checks) ^ set(fields))}"
        )
    # Every field in the model's order (a copy of `template` keeps it), with its default;
    # required ones and those with a default_factory are filled in below.
    template: dict[str, Any] = {}
    by_key: dict[str, tuple[str, Check, bool]] = {}  # input key -> name, check, None allowed
    required: set[str] = set()
    factories: list[tuple[str, Callable[[], Any]]] = []
    for name, info in fields.items():
        key = info.alias or name
        check = checks[name]
        inner = getattr(check, "inner", None)  # an `_optional`: None is checked here, inline
        by_key[key] = (name, inner or check, inner is not None)
        template[name] = None if info.is_required() or info.default_factory else info.default
        if info.is_required():
            required.add(key)
        elif info.default_factory is not None:
            factories.append((name, info.default_factory))  # type: ignore[arg-type]
    needed = frozenset(required)

    def checked(value: Any, instance: T | None = None) -> T:
        if type(value) is not dict:
            if type(value) is cls and instance is None:
                return value
            raise _DECLINE
        if not needed <= value.keys():
            raise _DECLINE
        values = template.copy()
        given: set[str] = set()
        for key, raw in value.items():
            # an unknown key, a field's own name instead of its alias, a key that is not a str
            name, check, nullable = by_key.get(key) or _unknown()
            values[name] = None if raw is None and nullable else check(raw)
            given.add(name)
        for name, factory in factories:
            if name not in given:
                values[name] = factory()
        if instance is None:
            instance = cls.__new__(cls)
        _set(instance, "__dict__", values)
        _set(instance, "__pydantic_fields_set__", given)
        _set(instance, "__pydantic_extra__", None)
        _set(instance, "__pydantic_private__", None)
        if after is not None:
            after(instance)  # a ValueError declines
        return instance

    return checked


def _rule(name: str) -> Callable[[Any], object]:
    """A model's own after-validator (a method): its ValueError declines."""

    def run(instance: Any) -> object:
        return getattr(instance, name)()

    return run


_OPERATOR_FIELDS = tuple(m.OPERATORS.values())


def _one_operator(test: Any) -> None:
    """`FactTest._one_operator`, without its message (pydantic words the error)."""
    values = test.__dict__
    if sum(values[name] is not None for name in _OPERATOR_FIELDS) != 1:
        raise _DECLINE


@cache
def _table() -> dict[type[BaseModel], Callable[..., Any]]:
    """The checkers; none (pydantic decides everything) if they no longer fit the models, which
    `tests/test_shapes.py` turns into a failure."""
    try:
        return _checkers()
    except AssertionError:
        return {}


def _checkers() -> dict[type[BaseModel], Callable[..., Any]]:
    """The checkers, built on first use (they read the models' defaults)."""
    text, opt_text, opt_date = _text, _optional(_text), _optional(_date)
    opt_amount, opt_strings = _optional(_amount), _optional(_strings)

    conditions: dict[str, Check] = {}

    def condition(value: Any) -> Any:
        if type(value) is not dict:
            raise _DECLINE
        tag = m._condition_tag(value)
        if tag is None:
            raise _DECLINE
        return conditions[tag](value)

    conditions["fact-test"] = _model(
        m.FactTest,
        {
            "fact": text,
            "more_than": opt_amount,
            "at_least": opt_amount,
            "less_than": opt_amount,
            "at_most": opt_amount,
            "is_": _optional(_bool),
            "equals": _optional(_str),
            "in_": opt_strings,
            "starts_with": _optional(_str),
            "contains": _optional(_str),
            "contains_any": opt_strings,
            "measured": _enum(m.Measured),
        },
        _one_operator,
    )
    conditions["all-of"] = _model(m.AllOf, {"all": _list(condition, 1)})
    conditions["any-of"] = _model(m.AnyOf, {"any": _list(condition, 1)})
    conditions["not-of"] = _model(m.NotOf, {"not_": condition})
    conditions["always-of"] = _model(m.Always, {"always": _bool})

    text_source = _model(
        m.TextSource,
        {
            "file": text,
            "repo": opt_text,
            "path": opt_text,
            "commit": opt_text,
            "url": opt_text,
            "sha256": _sha256,
            "provenance": _enum(m.Provenance),
        },
    )
    clause = _model(
        m.Clause,
        {
            "id": _identifier,
            "kind": _enum(m.ClauseKind),
            "title": text,
            "quote": text,
            "summary": opt_text,
            "trigger": condition,
            "requirement": _optional(condition),
            "exceptions": _list(condition),
            "note": opt_text,
        },
    )
    not_encoded = _model(
        m.NotEncoded,
        {"quote": text, "reason": text, "id": _optional(_identifier), "section": opt_text},
    )
    license_ = _model(
        m.License,
        {
            "id": _identifier,
            "name": text,
            "version": text,
            "licensor": _optional(_identifier),
            "text": text_source,
            "summary": opt_text,
            "unverified": _bool,
            "clauses": _list(clause),
            "incorporates": _list(_identifier),
            "not_encoded": _list(not_encoded),
        },
        _rule("_unique_clause_ids"),
    )

    dated = _model(m.DatedLicense, {"license": _identifier, "from_": opt_date, "until": opt_date})
    catalog_model = _model(
        m.CatalogModel,
        {
            "id": _identifier,
            "name": text,
            "aliases": _strings,
            "family": _optional(_identifier),
            "licensor": _optional(_identifier),
            "license": _optional(_identifier),
            "license_history": _list(dated),
            "license_note": opt_text,
            "release_date": opt_date,
            "multimodal": _optional(_bool),
            "source": text,
        },
        _rule("_history_in_order"),
    )
    catalog = _model(m.Catalog, {"models": _list(catalog_model)})

    kind = _enum(m.EvidenceKind)
    source = _model(
        m.Source,
        {
            "title": text,
            "kind": kind,
            "date": _date,
            "url": opt_text,
            "retracted_on": opt_date,
            "note": opt_text,
        },
    )
    one_evidence = _model(
        m.Evidence,
        {
            "source": text,
            "kind": _optional(kind),
            "date": opt_date,
            "url": opt_text,
            "retracted_on": opt_date,
            "note": opt_text,
            "value": _optional(_raw_value),
            "at_least": opt_amount,
            "at_most": opt_amount,
            "includes": opt_strings,
            "excludes": opt_strings,
        },
    )
    evidence = _list(one_evidence)

    def fact(value: Any) -> Any:
        # `mau: 150M` is short for `mau: {value: 150M}` (model._fact_shorthand)
        return fact_spec(value if type(value) is dict else {"value": value})

    fact_spec = _model(
        m.FactSpec,
        {
            "value": _optional(_raw_value),
            "at_least": opt_amount,
            "at_most": opt_amount,
            "includes": opt_strings,
            "excludes": opt_strings,
            "series": _optional(_dict(_month, fact)),
            "evidence": evidence,
            "note": opt_text,
        },
    )
    facts = _dict(_str, fact)

    model_ref = _model(
        m.ModelRef, {"model": text, "obtained": opt_date, "evidence": evidence, "note": opt_text}
    )

    def model_ref_in(value: Any) -> Any:  # model._model_shorthand
        return model_ref({"model": value} if type(value) is str else value)

    step = _model(
        m.Step,
        {
            "kind": _enum(m.StepKind),
            "parents": _list(model_ref_in),
            "evidence": evidence,
            "note": opt_text,
        },
        _rule("_merge_has_parents"),
    )

    def step_in(value: Any) -> Any:  # model._step_shorthand
        return step({"kind": value} if type(value) is str else value)

    lineage = _model(m.Lineage, {"base": model_ref_in, "steps": _list(step_in)})
    component = _model(
        m.Component,
        {
            "id": _identifier,
            "name": text,
            "lineage": lineage,
            "delivery": _list(_enum(m.Delivery)),
            "facts": facts,
            "note": opt_text,
        },
    )
    manifest = _model(
        m.Manifest,
        {
            "product": text,
            "owner": text,
            "release_date": opt_date,
            "description": opt_text,
            "currency_rates": _dict(_str, _amount),
            "sources": _dict(_str, source),
            "facts": facts,
            "components": _list(component, 1),
        },
        _rule("_unique_component_ids"),
    )

    return {
        m.FactTest: conditions["fact-test"],
        m.AllOf: conditions["all-of"],
        m.AnyOf: conditions["any-of"],
        m.NotOf: conditions["not-of"],
        m.Always: conditions["always-of"],
        m.TextSource: text_source,
        m.Clause: clause,
        m.NotEncoded: not_encoded,
        m.License: license_,
        m.DatedLicense: dated,
        m.CatalogModel: catalog_model,
        m.Catalog: catalog,
        m.Source: source,
        m.Evidence: one_evidence,
        m.FactSpec: fact_spec,
        m.ModelRef: model_ref,
        m.Step: step,
        m.Lineage: lineage,
        m.Component: component,
        m.Manifest: manifest,
    }
