"""The vocabulary checks a manifest's stated facts pass, each problem located: a name that is not
a fact a manifest states, and a member outside a set fact's closed vocabulary.

A manifest reaches them by two paths: validated (`derivation` checks the names as it resolves the
facts, `consistency` the members, with the library at hand for `policy:LICENSE-ID`), or, when its
shape check failed, fact by fact from the YAML (`loading.fact_problems`).  Both call these, on a
`FactSpec` each, so that a problem reads the same, at the same line and column, either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from licheck.core.diagnostics import Diagnostic
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import Evidence, FactSpec
from licheck.vocabulary.factdefs import suggest
from licheck.vocabulary.names import FACTS


def may_state(name: str) -> bool:
    """A manifest (or a what-if) may state the fact `name`: it is in the vocabulary, and not
    one licheck supplies."""
    definition = FACTS.get(name)
    return definition is not None and not definition.implicit


def stateable() -> list[str]:
    """The facts a manifest (or a what-if) may state."""
    return [name for name in FACTS if may_state(name)]


def unknown_fact(document: Document, name: str, path: Path_) -> Diagnostic | None:
    """The problem of a fact stated as `name` at `path` that no manifest may state (not in the
    vocabulary, or supplied by licheck); None for a fact it may."""
    if may_state(name):
        return None
    definition = FACTS.get(name)
    reason = (
        "is supplied by licheck from the lineage" if definition else "is not in the fact vocabulary"
    )
    return document.error(
        path,
        f"fact {name!r} {reason}{suggest(name, stateable())}",
        "run `licheck facts` for the fact names, `licheck facts NAME` for one",
    )


def unknown_members(
    document: Document,
    name: str,
    spec: FactSpec,
    path: Path_,
    also: Callable[[str], str] | None = None,
) -> Iterator[Diagnostic]:
    """Each member of the set fact `name` (stated as `spec` at `path`: its value, includes or
    excludes, or its evidence's) outside the fact's closed vocabulary, located at the member;
    `also(item)`, if given, is what else is wrong with a member the vocabulary admits ('' for
    nothing)."""
    definition = FACTS.get(name)
    if definition is None or definition.members is None:
        return
    for item, at in strings_claimed(spec, path):
        message = definition.unknown_member(item) or (also(item) if also else "")
        if message:
            yield document.error(
                written_at(document, at),
                message,
                f"run `licheck facts {name}` for its allowed values",
            )


def strings_claimed(spec: FactSpec, path: Path_) -> Iterator[tuple[str, Path_]]:
    """Each string a set fact (or its evidence, or its statement per model or per license)
    claims, with where it is written."""
    claims: list[tuple[FactSpec | Evidence, Path_]] = [(spec, path)]
    claims += [(piece, (*path, "evidence", i)) for i, piece in enumerate(spec.evidence)]
    for claim, at in claims:
        if isinstance(claim.value, str) and claim.value != "unknown":
            yield claim.value, (*at, "value")
        for key in ("value", "includes", "excludes"):
            items = getattr(claim, key)
            if isinstance(items, list):
                for i, item in enumerate(items):
                    if isinstance(item, str):
                        yield item, (*at, key, i)
    for scope in ("by_model", "by_license"):
        for key, part in sorted((getattr(spec, scope) or {}).items()):
            yield from strings_claimed(part, (*path, scope, key))


def written_at(document: Document, path: Path_) -> Path_:
    """`path` as written: `mau: 150M` is short for `mau: {value: 150M}`, so drop that `value`."""
    if path in document.positions or "value" not in path:
        return path
    index = len(path) - 1 - path[::-1].index("value")
    return path[:index] + path[index + 1 :]
