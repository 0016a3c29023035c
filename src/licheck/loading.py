"""Files to models: read YAML safely, check it against a pydantic model, locate every problem.

Validation errors are translated into `Diagnostic`s at the file, line and column of the offending
key, with a "did you mean" for misspelt keys; all problems of a file are reported together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from licheck import yamlsafe
from licheck.diagnostics import Diagnostic, InputError
from licheck.model import CONDITION_TAGS, Catalog, License, Manifest
from licheck.vocabulary import suggest

M = TypeVar("M", bound=BaseModel)


def _known_keys(*models: type[BaseModel]) -> set[str]:
    keys: set[str] = set()
    seen: set[type[BaseModel]] = set()
    pending = list(models)
    while pending:
        model = pending.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, field in model.model_fields.items():
            keys.add(field.alias or name)
            pending.extend(_submodels(field.annotation))
    return keys


def _submodels(annotation: Any) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        item = stack.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            found.append(item)
        stack.extend(getattr(item, "__args__", ()) or ())
        stack.extend(getattr(item, "__metadata__", ()) or ())
        origin = getattr(item, "__origin__", None)
        if origin is not None and origin is not item:
            stack.append(origin)
    return found


_KEYS: dict[type[BaseModel], set[str]] = {}


def validate(document: yamlsafe.Document, model: type[M]) -> M:
    """`document` as a `model`, or `InputError` with every problem located."""
    if not isinstance(document.data, dict):
        raise InputError([document.error((), f"expected a mapping of keys at the top level, "
                                             f"got {_kind(document.data)}")])
    try:
        return model.model_validate(document.data)
    except ValidationError as exc:
        raise InputError(diagnostics_from(exc, document, model)) from None


def diagnostics_from(
    exc: ValidationError, document: yamlsafe.Document, model: type[BaseModel],
    prefix: tuple[str | int, ...] = (),
) -> list[Diagnostic]:
    keys = _KEYS.setdefault(model, _known_keys(model))
    found = []
    for error in exc.errors(include_url=False):
        path = prefix + tuple(p for p in error["loc"] if p not in CONDITION_TAGS)
        kind = error["type"]
        message = error["msg"].removeprefix("Value error, ")
        hint = ""
        if kind == "extra_forbidden":
            key = str(path[-1]) if path else "?"
            message = f"unknown key {key!r}{suggest(key, keys)}"
        elif kind == "missing":
            key = str(path[-1]) if path else "?"
            message = f"missing required key {key!r}"
            path = path[:-1]
        elif kind in ("string_type", "bool_type", "int_type", "float_type", "list_type",
                      "dict_type", "model_type", "model_attributes_type"):
            message = f"{message}, got {_kind(error.get('input'))}"
            if kind == "bool_type" and isinstance(error.get("input"), str):
                hint = "write true or false (YAML words such as yes/no/on/off stay strings)"
            if kind == "string_type" and isinstance(error.get("input"), int | float):
                hint = "quote the value to make it a string"
        where = " at " + ".".join(str(p) for p in path) if path else ""
        found.append(document.error(path, message + where, hint))
    return found


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({value!r})" if len(value) < 60 else "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def load_model(path: Path, model: type[M], display: str | None = None) -> tuple[M, yamlsafe.Document]:
    document = yamlsafe.load(path, display)
    return validate(document, model), document


def load_manifest(path: Path, display: str | None = None) -> tuple[Manifest, yamlsafe.Document]:
    return load_model(path, Manifest, display)


def load_license(path: Path, display: str | None = None) -> tuple[License, yamlsafe.Document]:
    return load_model(path, License, display)


def load_catalog(path: Path, display: str | None = None) -> tuple[Catalog, yamlsafe.Document]:
    return load_model(path, Catalog, display)
