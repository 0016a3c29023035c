"""The checked models of the shipped library written out, and read back without checking again.

`library.json` holds the catalog and every rule file as the `licheck.inputs.rules` models made
of them when `python -m licheck.library` checked them: each model with every field (those not set
named in `$unset`), each enum member, tuple, date and month tagged
with its type.  `thaw` rebuilds the very same objects with pydantic's `model_construct`, so a
run builds no validator and checks nothing twice for what depends only on the library; a test
(tests/library/test_compiled.py) proves the thawed library equal, field for field and with the
same fields set, to the one checked from the rule files.  Only the classes of
`licheck.inputs.rules` can be named: nothing in the file turns into code.
"""

from __future__ import annotations

import datetime as dt
from enum import Enum
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from licheck.inputs import rules
from licheck.inputs.rules import PartialDate

TYPE = "$"  # the key naming a value's type (no field of a rule file starts with "$")
UNSET = "$unset"  # the fields whose value was not set (their defaults)
VALUE = "v"

CLASSES: MappingProxyType[str, type[Any]] = MappingProxyType(
    {
        name: value
        for name, value in vars(rules).items()
        if isinstance(value, type)
        and value.__module__ == rules.__name__
        and issubclass(value, BaseModel | Enum)
    }
)


def freeze(value: Any) -> Any:
    """`value` (a checked model, or what one holds) as plain JSON data that `thaw` rebuilds."""
    if isinstance(value, BaseModel):
        return _freeze_model(value)
    if isinstance(value, Enum):
        return {TYPE: _named(type(value)), VALUE: value.value}
    if isinstance(value, PartialDate):
        last, first = dt.date.isoformat(value), value.first.isoformat()
        return {TYPE: "PartialDate", VALUE: [last, first, value.precision]}
    if isinstance(value, dt.date):
        return {TYPE: "date", VALUE: value.isoformat()}
    if isinstance(value, tuple):
        return {TYPE: "tuple", VALUE: [freeze(item) for item in value]}
    if isinstance(value, list):
        return [freeze(item) for item in value]
    if isinstance(value, dict):
        if not all(type(key) is str for key in value):
            raise TypeError(f"a mapping with keys that are not strings: {value!r}")
        return {TYPE: "dict", VALUE: {key: freeze(item) for key, item in value.items()}}
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise TypeError(f"cannot write a {type(value).__name__} into the shipped library")


def _named(cls: type[Any]) -> str:
    if CLASSES.get(cls.__name__) is not cls:
        raise TypeError(f"{cls.__qualname__} is not a class of licheck.inputs.rules")
    return cls.__name__


def _freeze_model(model: BaseModel) -> dict[str, Any]:
    out: dict[str, Any] = {TYPE: _named(type(model))}
    unset: list[str] = []
    # every field is written, the ones not set too: a default left to model_construct to fill
    # in costs an `inspect.signature` of its factory each time
    for name in type(model).model_fields:
        if name not in model.model_fields_set:
            unset.append(name)
        out[name] = freeze(getattr(model, name))
    if unset:
        out[UNSET] = unset
    return out


def thaw(data: Any) -> Any:
    """What `freeze` wrote, rebuilt (`KeyError`, `TypeError` or `ValueError` for data it did
    not write)."""
    if type(data) is list:
        return [thaw(item) for item in data]
    if type(data) is not dict:
        return data
    kind = data[TYPE]
    if kind == "tuple":
        return tuple(thaw(item) for item in data[VALUE])
    if kind == "dict":
        return {key: thaw(item) for key, item in data[VALUE].items()}
    if kind == "date":
        return dt.date.fromisoformat(data[VALUE])
    if kind == "PartialDate":
        last, first, precision = data[VALUE]
        if precision not in ("month", "year"):
            raise ValueError(f"not a month or a year: {precision!r}")
        return PartialDate.of(dt.date.fromisoformat(last), dt.date.fromisoformat(first), precision)
    cls = CLASSES[kind]
    if issubclass(cls, Enum):
        return cls(data[VALUE])
    values = {name: thaw(item) for name, item in data.items() if name[0] != "$"}
    unknown = values.keys() - cls.model_fields.keys()
    if unknown:
        raise ValueError(f"{kind} has no field {sorted(unknown)[0]!r}")
    fields_set = values.keys() - set(data.get(UNSET, ()))
    return cls.model_construct(fields_set, **values)
