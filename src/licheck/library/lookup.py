"""Which licenses a name stands for (`licheck licenses show NAME`): a license id, or the id or
alias of a catalog model, whose licenses are shown whole or not at all; and the other way, the
models under a license (`licheck licenses list`).

Pure: it reads a loaded library and returns what to show, or why nothing can be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from licheck.library.layers import replacement_notes

if TYPE_CHECKING:
    from licheck.inputs.rules import CatalogModel
    from licheck.library.compiled import Library, LicenseEntry


@dataclass(frozen=True, slots=True)
class Lookup:
    """The licenses `name` stands for, and what to say about them."""

    name: str
    licenses: tuple[LicenseEntry, ...]  # empty when there is a `problem`
    model: CatalogModel | None  # the catalog model `name` names, if any
    by_model: bool  # the licenses are the model's: `name` is not a license id
    notes: tuple[str, ...]  # a layer replaced the model or a license looked up
    problem: str | None = None  # why nothing can be shown: unknown, or a license not in the library

    @property
    def model_differs(self) -> bool:
        """Whether `name` is a license id and also a catalog model under other licenses."""
        return (
            self.model is not None and not self.by_model and [self.name] != license_ids(self.model)
        )


def lookup(library: Library, name: str) -> Lookup:
    """The license `name` is, or else the licenses of the catalog model it names."""
    entry = library.licenses.get(name)
    model = library.model(name)
    shown = [name] if entry is not None else _with_upstream(library, model) if model else []
    notes = replacement_notes(library, "model", [model.id] if model and not entry else [])
    notes += replacement_notes(library, "license", shown)
    if entry is not None:
        return Lookup(name, (entry,), model, False, tuple(notes))
    if model is None:
        return Lookup(name, (), None, False, tuple(notes), not_found(name, library))
    if not all(n in library.licenses for n in shown):  # a model's license is never shown in part
        note = f": {model.license_note}" if model.license_note else ""
        problem = f"model {model.id!r} is in the catalog, but its license is not in the library"
        return Lookup(name, (), model, True, tuple(notes), problem + note)
    return Lookup(name, tuple(library.licenses[n] for n in shown), model, True, tuple(notes))


def _with_upstream(library: Library, model: CatalogModel) -> list[str]:
    """A model's licenses, then those of the models it is built on (`upstream`), each once."""
    shown = license_ids(model)
    todo, seen = list(model.upstream), {model.id}
    while todo:
        upstream = library.model(todo.pop(0))
        if upstream is None or upstream.id in seen:
            continue
        seen.add(upstream.id)
        shown += [lid for lid in license_ids(upstream) if lid not in shown]
        todo += upstream.upstream
    return shown


def license_ids(model: CatalogModel) -> list[str]:
    """Every license a catalog model is under ('' when its license is not in the catalog)."""
    return [d.license for d in model.license_history] or [model.license or ""]


def models_under(library: Library, license_id: str) -> list[str]:
    """The ids of the catalog models under a license, for copies obtained at any date, sorted."""
    return sorted(
        m.id
        for m in library.models
        if m.license == license_id or any(d.license == license_id for d in m.license_history)
    )


def not_found(name: str, library: Library) -> str:
    """Neither a license id nor a catalog model: suggestions of both kinds, labelled, each model
    with its license."""
    import difflib

    from licheck.library.modelnames import LIMIT, candidates, describe
    from licheck.vocabulary.factdefs import SPELT_ALIKE

    lines = [f"no license or model {name!r} in the library"]
    near = difflib.get_close_matches(name, sorted(library.licenses), n=LIMIT, cutoff=SPELT_ALIKE)
    if near:
        listed = " or ".join(filter(None, [", ".join(map(repr, near[:-1])), repr(near[-1])]))
        lines.append(f"licenses: did you mean {listed}?")
    models = describe(candidates(name, library.models)).removeprefix(" (").removesuffix(")")
    if models:
        lines.append(f"models: {models}")
    lines.append("see `licheck licenses list` and `licheck licenses models`")
    return "; ".join(lines)
