"""How a component is related to each model of its lineage, and the facts it states per model or
per license.

A component is built on a model's weights (its base, a step's parents: the `lineage` fact) or
trained on its outputs (`trained_on_outputs_of`: the `outputs_lineage` fact), or both.  Some facts
(`vocabulary.SCOPED`) each license may answer differently: a component states them for itself, for
one model of its lineage (`by_model`) or for one license (`by_license`).  The most specific
statement wins: license, then model, then component, then product.

Each function returns its result with the problems it found (`Derived`), as `derivation` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from licheck.core.diagnostics import Diagnostic
from licheck.evaluation.derivation import Derivation, Derived, Facts, Path, lineage_models
from licheck.evaluation.relating import lineage_relations
from licheck.facts.resolution import FactState
from licheck.inputs.manifest import (
    CandidateBases,
    Component,
    FactSpec,
    ModelRef,
    OutputsRole,
    entry_models,
)
from licheck.inputs.rules import CatalogModel, model_key
from licheck.inputs.rules import Relation as Kind
from licheck.library.compiled import incorporated
from licheck.loading.factchecks import may_state
from licheck.vocabulary.factdefs import suggest


@dataclass(frozen=True, slots=True)
class Relation:
    """One model of a component's lineage and how the component is related to it."""

    ref: ModelRef
    path: Path
    lineage: FactState  # built on its weights
    outputs: FactState  # trained on its outputs
    candidates_of: Path | None = None  # the lineage entry, where this is one of its candidates
    via: str | None = None  # the catalog model this one is upstream of (`CatalogModel.upstream`)
    # how: served, fine-tuned, distilled, ... (`relating.lineage_relations`)
    kinds: frozenset[Kind] = frozenset()


def relations(
    derive: Derivation, component: Component, path: Path
) -> Derived[tuple[Relation, ...]]:
    """Every model of the lineage once per entry: a model listed both as a base (or parent) and
    under `trained_on_outputs_of` is one relation with both facts.  A catalog model built on
    another licensed model (`upstream`) brings that model in too, related as it is (`upstream`)."""
    named = _named(derive, component, path)
    return Derived(tuple(with_upstream(derive, list(named.value))), named.problems)


def _named(derive: Derivation, component: Component, path: Path) -> Derived[tuple[Relation, ...]]:
    problems: list[Diagnostic] = []
    outputs: dict[str, tuple[ModelRef, Path, FactState]] = {}
    roles: dict[str, list[OutputsRole]] = {}
    for index, source in enumerate(component.lineage.trained_on_outputs_of):
        entry_path = (*path, "lineage", "trained_on_outputs_of", index)
        ref, state = derive.lineage(source, entry_path, "outputs_lineage").into(problems)
        key = _key(derive, ref, entry_path)
        outputs.setdefault(key, (ref, entry_path, state))
        roles.setdefault(key, []).append(source.role)
    found: list[Relation] = []
    within = len(path) + 1  # an entry's path within the lineage starts after this
    for entry, entry_path in lineage_models(component, path):
        group = entry_path if isinstance(entry, CandidateBases) else None
        for index, model in enumerate(entry_models(entry)):
            model_path = entry_path if group is None else (*entry_path, "candidates", index)
            ref, state = derive.lineage(model, model_path).into(problems)
            key = _key(derive, ref, model_path)
            both = outputs.pop(key, None)
            outputs_state = both[2] if both else _no_outputs(derive)
            kinds = lineage_relations(component, [entry_path[within:]], roles.get(key, []))
            found.append(Relation(ref, model_path, state, outputs_state, group, kinds=kinds))
    for key, (ref, entry_path, state) in outputs.items():
        kinds = lineage_relations(component, [], roles[key])
        found.append(Relation(ref, entry_path, _outputs_only(derive), state, None, kinds=kinds))
    return Derived(tuple(found), tuple(problems))


def with_upstream(derive: Derivation, found: list[Relation]) -> list[Relation]:
    """The relations with each named model's upstream models after it: a component built on
    (or trained on the outputs of) Llama-3.1-Nemotron-Nano-8B is so related to Llama 3.1 8B, with
    the same evidence, the same `obtained` date and in the same candidate group.  A model the
    lineage already names, or already brought in, is not added again."""
    named = {_key(derive, r.ref, r.path) for r in found}
    result: list[Relation] = []
    for relation in found:
        result.append(relation)
        model = derive.library.model(relation.ref.model)
        if model is None:
            continue
        todo = list(model.upstream)
        while todo:
            upstream = derive.library.model(todo.pop(0))
            if upstream is None or upstream.id in named:
                continue
            named.add(upstream.id)
            ref = relation.ref.model_copy(update={"model": upstream.id})
            result.append(replace(relation, ref=ref, via=model.id))
            todo += upstream.upstream
    return result


def _key(derive: Derivation, ref: ModelRef, path: Path) -> str:
    model = derive.library.model(ref.model)
    return model.id if model is not None else f"{model_key(ref.model)}@{path}"


def _no_outputs(derive: Derivation) -> FactState:
    source = "licheck's default: the lineage lists no training on this model's outputs"
    return derive.default("outputs_lineage", False, source)


def _outputs_only(derive: Derivation) -> FactState:
    source = (
        "derived from the lineage: listed only under trained_on_outputs_of, so the component is "
        "not built on this model's weights"
    )
    return derive.default("lineage", False, source)


@dataclass(frozen=True, slots=True)
class Scopes:
    """The facts a component states for one model of its lineage, or for one license."""

    by_model: Mapping[str, Facts] = field(default_factory=dict)
    by_license: Mapping[str, Facts] = field(default_factory=dict)

    def for_license(self, license_id: str, incorporating: str) -> Facts:
        """A license's own statements; a file incorporated by reference (an acceptable use
        policy) answers as the license that incorporates it unless stated for itself."""
        return self.by_license.get(license_id) or self.by_license.get(incorporating) or {}


def scopes(
    derive: Derivation, component: Component, path: Path, found: Iterable[Relation]
) -> Derived[Scopes]:
    """The per-model and per-license statements of a component's facts, resolved; a model or
    license id that is not in the lineage is a located error."""
    models = {m.id: m for r in found if (m := derive.library.model(r.ref.model)) is not None}
    licenses = _licenses_of(derive, models.values())
    problems: list[Diagnostic] = []
    by_model: dict[str, dict[str, FactState]] = {}
    by_license: dict[str, dict[str, FactState]] = {}
    for name, spec in component.facts.items():
        if not may_state(name):
            continue  # `Derivation.stated` has reported it
        fact_path = (*path, "facts", name)
        for key, within, table in (
            ("by_model", sorted(models), by_model),
            ("by_license", sorted(licenses), by_license),
        ):
            given: dict[str, FactSpec] | None = getattr(spec, key)
            named: dict[str, str] = {}  # scope id -> the key that named it first
            for raw, sub in (given or {}).items():
                sub_path = (*fact_path, key, raw)
                scope_id, problem = _scope_id(derive, key, raw, within, sub_path)
                if problem is None:
                    problem = _nested(derive, sub, sub_path)
                if problem is not None:
                    problems.append(problem)
                    continue
                if scope_id in named:  # an id and its alias, or two spellings: which one holds?
                    problems.append(
                        derive.document.error(
                            sub_path,
                            f"fact {name!r} is stated twice for {scope_id} (as "
                            f"{named[scope_id]!r} and {raw!r})",
                            at_key=True,
                        )
                    )
                    continue
                named[scope_id] = raw
                state = derive.resolve_one(name, sub, sub_path).into(problems)
                table.setdefault(scope_id, {})[name] = state
    return Derived(Scopes(by_model, by_license), tuple(problems))


def _licenses_of(derive: Derivation, models: Iterable[CatalogModel]) -> set[str]:
    """Every license a lineage model may be under (each text of its history) and the files they
    incorporate."""
    library = derive.library
    named: set[str] = set()
    for model in models:
        named.update(d.license for d in model.license_history)
        if model.license:
            named.add(model.license)
    known = {n for n in named if n in library.licenses}
    return {bound for lid in known for bound in incorporated(library.licenses, lid)}


def _scope_id(
    derive: Derivation, key: str, raw: str, within: list[str], path: Path
) -> tuple[str, Diagnostic | None]:
    """The catalog id or license id a `by_model` / `by_license` key names, and the located
    problem where it is not in the lineage."""
    if key == "by_model":
        model = derive.library.model(raw)
        scope_id = model.id if model is not None else raw
        what = "model"
    else:
        scope_id, what = raw.strip().lower(), "license"
    if scope_id in within:
        return scope_id, None
    if key == "by_model":  # a model offered with its license, never passed off as the one meant
        lineage = [m for m in derive.library.models if m.id in within]
        from licheck.library.modelnames import hint  # a misspelt name only: not on a run's path

        near = hint(raw, lineage)
    else:
        near = suggest(raw, within)
    return scope_id, derive.document.error(
        path,
        f"{what} {raw!r} is not in this component's lineage{near}",
        f"the {what}s of its lineage: {', '.join(within) or 'none known'}",
    )


def _nested(derive: Derivation, spec: FactSpec, path: Path) -> Diagnostic | None:
    """A per-model or per-license value states the fact itself: it has no scopes of its own
    (the located problem where it has)."""
    for key in ("by_model", "by_license"):
        if getattr(spec, key) is not None:
            return derive.document.error((*path, key), f"{key} cannot be nested in a scoped value")
    return None
