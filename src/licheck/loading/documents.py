"""Files to models: read YAML safely, check it against a pydantic model, locate every problem.

Validation errors are translated into `Diagnostic`s at the file, line and column of the offending
key, with a "did you mean" for misspelt keys; all problems of a file are reported together.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeVar, get_args, get_origin

from pydantic import BaseModel, ValidationError

from licheck.core.diagnostics import Diagnostic, InputError, path_text
from licheck.core.units import exchange_rates
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_domain
from licheck.files import yamlsafe
from licheck.inputs.manifest import MANIFEST_TAGS, Fact, FactSpec, Manifest
from licheck.inputs.rules import CONDITION_TAGS
from licheck.loading.factchecks import unknown_fact, unknown_members
from licheck.vocabulary.factdefs import suggest
from licheck.vocabulary.names import FACTS

if TYPE_CHECKING:
    from pydantic import TypeAdapter

M = TypeVar("M", bound=BaseModel)


class _Keys(NamedTuple):
    """Every key of a format (all its models'), and each model's own keys."""

    every: frozenset[str]
    shapes: tuple[frozenset[str], ...]

    def near(self, siblings: set[str]) -> set[str]:
        """The keys that may stand beside `siblings` (the known keys of one mapping): those of
        every model that has them all; every key where no model has."""
        fitting = [shape for shape in self.shapes if siblings <= shape]
        return set().union(*fitting) if fitting and siblings else set(self.every)


def _known_keys(*models: type[BaseModel]) -> _Keys:
    shapes: list[frozenset[str]] = []
    seen: set[type[BaseModel]] = set()
    pending = list(models)
    while pending:
        model = pending.pop()
        if model in seen:
            continue
        seen.add(model)
        shapes.append(frozenset(field.alias or name for name, field in model.model_fields.items()))
        for field in model.model_fields.values():
            pending.extend(_submodels(field.annotation))
    return _Keys(frozenset().union(*shapes), tuple(shapes))


def _submodels(annotation: Any) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        item = stack.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            found.append(item)
        # Annotated[T, ...] gives (T, *metadata); a union or a generic, its members
        stack.extend(get_args(item))
        origin = get_origin(item)
        if origin is not None and origin is not item and origin is not Annotated:
            stack.append(origin)
    return found


def validate(document: yamlsafe.Document, model: type[M]) -> M:
    """`document` as a `model`, or `InputError` with every problem located."""
    if not isinstance(document.data, dict):
        raise InputError(
            [
                document.error(
                    (), f"expected a mapping of keys at the top level, got {_kind(document.data)}"
                )
            ]
        )
    try:
        return model.model_validate(document.data)
    except ValidationError as exc:
        raise InputError(diagnostics_from(exc, document, model)) from None


def diagnostics_from(
    exc: ValidationError,
    document: yamlsafe.Document,
    model: type[BaseModel],
    prefix: tuple[str | int, ...] = (),
) -> list[Diagnostic]:
    """Pydantic's errors as located diagnostics: one per problem, in the user's words.

    Pydantic reports a value that fits no member of a union (a fact's value may be a number, a
    boolean, a string or a list) once per member, with the member's type name in the location;
    those are folded into one "expected A, B or C" at the value itself."""
    keys = _known_keys(model)
    found: list[Diagnostic] = []
    unions: dict[tuple[str | int, ...], list[str]] = {}
    for error in exc.errors(include_url=False):
        loc = tuple(w for p in error["loc"] if p not in _TAGS for w in _WRITTEN.get(p, (p,)))
        kind = error["type"]
        path, member, root = _data_path(prefix + loc, document.data, keep_last=kind in _KEY_ERRORS)
        if member is not None:
            unions.setdefault(root, []).append(member)
            if path == root:
                continue  # the value fits no member: said once, below
        found.append(_diagnostic(error, kind, path, document, keys))
    for path, members in unions.items():
        words = sorted(
            {_MEMBER_WORDS.get(m, m) for m in members},
            key=_WORD_ORDER.index
            if all(w in _WORD_ORDER for w in map(_MEMBER_WORDS.get, members))
            else str,
        )
        expected = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
        found.append(
            document.error(
                path,
                f"expected {expected}, got {_kind(_value_at(document.data, path))}{_where(path)}",
            )
        )
    return found


_KEY_ERRORS = frozenset({"missing", "extra_forbidden"})
_TAGS = CONDITION_TAGS | MANIFEST_TAGS
_TYPE_ERRORS = frozenset(
    {
        "string_type",
        "bool_type",
        "int_type",
        "float_type",
        "list_type",
        "dict_type",
        "model_type",
        "model_attributes_type",
    }
)
# The member names pydantic puts in a union error's location, in words.
_MEMBER_WORDS = {
    "bool": "true or false",
    "int": "a number",
    "float": "a number",
    "str": "a string",
    "list[str]": "a list of strings",
}
_WORD_ORDER = ["a number", "true or false", "a string", "a list of strings"]


def _diagnostic(
    error: Any,
    kind: str,
    path: tuple[str | int, ...],
    document: yamlsafe.Document,
    keys: _Keys,
) -> Diagnostic:
    message = str(error["msg"]).removeprefix("Value error, ")
    given = error.get("input")
    hint = ""
    if kind == "extra_forbidden":
        key = str(path[-1]) if path else "?"
        near = keys.near(_sibling_keys(document.data, path, keys))
        message = f"unknown key {key!r}{suggest(key, near)}"
        if key in keys.every:  # a key of another part of the format, misplaced
            message = f"key {key!r} does not belong here"
            hint = "it is a key of another part of the format (`licheck schema` prints each format)"
    elif kind == "missing":
        key = str(path[-1]) if path else "?"
        message = f"missing required key {key!r}"
        path = path[:-1]
    elif kind in ("enum", "literal_error"):
        choices = re.findall(r"'([^']*)'", str((error.get("ctx") or {}).get("expected", "")))
        message = (
            f"expected one of {', '.join(choices)}, got {_kind(given)}"
            f"{suggest(str(given), choices)}"
        )
    elif kind == "string_pattern_mismatch":
        pattern = str((error.get("ctx") or {}).get("pattern", ""))
        wanted = _PATTERNS.get(pattern, f"text matching {pattern}")
        message = f"expected {wanted}, got {_kind(given)}"
    elif kind in ("model_type", "dict_type"):
        name = str((error.get("ctx") or {}).get("class_name", ""))
        message = f"expected {_SHAPES.get(name, 'a mapping of keys')}, got {_kind(given)}"
    elif kind in _TYPE_ERRORS:
        message = f"{_expected(message)}, got {_kind(given)}"
        if kind == "bool_type" and isinstance(given, str):
            hint = "write true or false (YAML words such as yes/no/on/off stay strings)"
        elif kind == "string_type" and isinstance(given, int | float):
            hint = "quote the value to make it a string"
        elif kind == "list_type" and isinstance(given, str):
            hint = f"write a list: [{given}]"
    else:
        message = _expected(message)
    # A validator's message may carry its own hint after a line "hint: ...".
    message, _, given_hint = message.partition("\nhint: ")
    hint = hint or given_hint
    return document.error(path, message + _where(path), hint, at_key=kind == "extra_forbidden")


def _sibling_keys(data: Any, path: tuple[str | int, ...], keys: _Keys) -> set[str]:
    """The known keys written beside the key at `path` (in the same mapping)."""
    try:
        mapping = _value_at(data, path[:-1])
    except (KeyError, IndexError, TypeError, ValueError):
        return set()
    if not isinstance(mapping, dict):
        return set()
    return {str(k) for k in mapping if k != path[-1] and str(k) in keys.every}


def _expected(message: str) -> str:
    return message.replace("Input should be a valid", "expected a").replace(
        "Input should be", "expected"
    )


_PATTERNS = {
    r"^[0-9a-f]{64}$": "a SHA-256 digest: 64 lowercase hexadecimal digits",
    r"^[a-z0-9][a-z0-9._-]*$": "an id of lowercase letters, digits, '.', '_' and '-'",
}
# What a model accepts, where a shorthand lets a plain value stand for the mapping.
_SHAPES = {
    "ModelRef": "a model name, or a mapping with model: (and evidence:)",
    "Step": "a step kind such as fine_tuning, or a mapping with kind:",
    "FactSpec": "a value, or a mapping with value:, at_least:, at_most:, includes: or excludes:",
}


# Fields a model keeps apart from where the file writes them: `delivery: {value, evidence}`.
_WRITTEN: dict[str | int, tuple[str, ...]] = {"delivery_evidence": ("delivery", "evidence")}


def _data_path(
    loc: tuple[str | int, ...], data: Any, *, keep_last: bool
) -> tuple[tuple[str | int, ...], str | None, tuple[str | int, ...]]:
    """The part of `loc` that exists in the document; the union member named in it, if any,
    and the path of the value that union is about.

    A location part that is neither a key nor an index of the data is a union member's name
    (or, for a shorthand such as `base: kimi-k2.5`, a key the shorthand stands for)."""
    path: list[str | int] = []
    node: Any = data
    member: str | None = None
    root: tuple[str | int, ...] = ()
    for position, part in enumerate(loc):
        last = position == len(loc) - 1
        if isinstance(node, dict) and part in node:
            node = node[part]
            path.append(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[int(part)]
            path.append(part)
        elif last and keep_last:
            path.append(part)
        elif isinstance(part, str) and part in _MEMBER_WORDS and member is None:
            member, root = part, tuple(path)
        # any other part names a key a shorthand stands for: the value itself is located
    return tuple(path), member, root


def _value_at(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        data = data[part] if isinstance(data, dict) else data[int(part)]
    return data


def _where(path: tuple[str | int, ...]) -> str:
    return " at " + ".".join(str(p) for p in path) if path else ""


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


def load_model(
    path: Path, model: type[M], display: str | None = None
) -> tuple[M, yamlsafe.Document]:
    document = yamlsafe.load(path, display)
    return validate(document, model), document


def load_manifest(path: Path, display: str | None = None) -> tuple[Manifest, yamlsafe.Document]:
    """A manifest; on shape errors, also the problems of every fact that is itself well formed,
    so that one run reports what it can (the meaning checks need a well-formed manifest)."""
    return _manifest_of(yamlsafe.load(path, display))


def parse_manifest(text: str, display: str) -> tuple[Manifest, yamlsafe.Document]:
    """`load_manifest` of a file holding `text` (UTF-8) and named `display`: the same manifest,
    document and problems, without the file (audit-cards loads what it has just imported)."""
    shown = path_text(display)  # as `yamlsafe.load` shows a file's name
    return _manifest_of(yamlsafe.parse(yamlsafe.decode(text.encode(), shown), shown))


def _manifest_of(document: yamlsafe.Document) -> tuple[Manifest, yamlsafe.Document]:
    try:
        return validate(document, Manifest), document
    except InputError as exc:
        raise InputError([*exc.diagnostics, *fact_problems(document)]) from None


def fact_problems(document: yamlsafe.Document) -> list[Diagnostic]:
    """Unknown fact names, unreadable values (units, ranges) and members outside a closed
    vocabulary in a manifest that failed its shape check: the same checks (`factchecks`,
    `facts.claim_domain`) and messages as on a valid manifest, for the facts that can be read."""
    data = document.data if isinstance(document.data, dict) else {}
    blocks: list[tuple[tuple[str | int, ...], Any]] = [(("facts",), data.get("facts"))]
    components = data.get("components")
    if isinstance(components, list):
        blocks += [
            (("components", i, "facts"), c.get("facts"))
            for i, c in enumerate(components)
            if isinstance(c, dict)
        ]
    raw_rates = data.get("currency_rates")
    rates = exchange_rates(raw_rates)[0] if isinstance(raw_rates, dict) else {}
    problems: list[Diagnostic] = []
    adapter: TypeAdapter[FactSpec] | None = None
    for base, facts in blocks:
        if not isinstance(facts, dict):
            continue
        for name, raw in facts.items():
            path = (*base, name)
            problem = unknown_fact(document, name, path)  # as `derivation` on a valid manifest
            if problem is not None:
                problems.append(problem)
                continue
            try:
                adapter = adapter or _fact_adapter()
                spec = adapter.validate_python(raw)
            except ValidationError:
                continue  # its shape is reported already
            try:
                claim_domain(FACTS[name], spec, rates)
            except FactError as exc:
                problems.append(document.error((*path, *exc.path), str(exc)))
            # as `consistency` on a valid manifest (the library's ids are checked there only)
            problems += unknown_members(document, name, spec, path)
    return problems


def _fact_adapter() -> TypeAdapter[FactSpec]:
    """A validator of one fact (built per call: only a manifest with problems needs it)."""
    from pydantic import TypeAdapter  # its module is not needed on a well-formed run's path

    return TypeAdapter(Fact)
