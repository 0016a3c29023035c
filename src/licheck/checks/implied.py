"""Facts a component's lineage already implies about the other models its licensee improves, and
the stated facts that contradict them (issue 23, deliverable 5).

A component built on one model's weights and trained on another's outputs (`trained_on_outputs_of`,
or the parent of a distillation step: its teacher) is itself an "other model" improved with the
teacher's outputs, unless it is the teacher's own work (the same model, or one under the same
license: a derivative the bans exclude).  What kind of model it is follows from its base's kind in
the catalog: a language model is an `llm`, an image, video or audio generator a `foundation_model`;
and a model of the teacher's own kind competes with it (`competes_with_licensed_model`).  Where the
base is undisclosed, not in the catalog, of no known kind, or one of candidates of different kinds,
nothing is implied.

The lineage gives a lower bound, not the whole: the licensee may improve other models too, so
`improves_other_models` is derived as "includes" that kind, never as the exact set.  A stated value
that leaves the kind out (`[]`, say) contradicts the lineage: a located error, unless the statement
carries evidence (a review saying why the lineage misleads), which then decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from licheck.core.diagnostics import Diagnostic
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import (
    Evidence,
    FactSpec,
    Lineage,
    Manifest,
    ModelRef,
    StepKind,
    entry_models,
)
from licheck.inputs.rules import CatalogModel, ModelKind
from licheck.library.compiled import Library
from licheck.loading.factchecks import written_at

IMPROVES, COMPETES = "improves_other_models", "competes_with_licensed_model"
# The member of improves_other_models a model of each kind is.
IMPROVED_AS = {
    ModelKind.LANGUAGE: "llm",
    ModelKind.IMAGE: "foundation_model",
    ModelKind.VIDEO: "foundation_model",
    ModelKind.AUDIO: "foundation_model",
}


class Teacher(NamedTuple):
    """A model whose outputs the component was trained on, where the lineage names it."""

    ref: ModelRef
    path: Path_  # within the lineage: ("trained_on_outputs_of", 0), ("steps", 1, "parents", 0)


class Implied(NamedTuple):
    """What the lineage implies of the models improved with one teacher's outputs."""

    improves: str  # the member of improves_other_models the component itself is
    competes: bool | None  # True: the component is of the teacher's own kind; None: not implied
    evidence: tuple[Evidence, ...]  # the lineage entry's, naming the teacher
    why: str


def teachers(lineage: Lineage) -> list[Teacher]:
    """Every model the component was trained on the outputs of: `trained_on_outputs_of` and the
    parents of a distillation step (each candidate of an entry too)."""
    found = [
        Teacher(ref, ("trained_on_outputs_of", i))
        for i, ref in enumerate(lineage.trained_on_outputs_of)
    ]
    for s, step in enumerate(lineage.steps):
        if step.kind is StepKind.DISTILLATION:
            for p, parent in enumerate(step.parents):
                found += [Teacher(ref, ("steps", s, "parents", p)) for ref in entry_models(parent)]
    return found


def implied_by(lineage: Lineage, teacher: CatalogModel, library: Library) -> Implied | None:
    """What the lineage implies for the clauses of `teacher`'s license (None: nothing)."""
    taught = [t for t in teachers(lineage) if library.model(t.ref.model) is teacher]
    if not taught:
        return None
    students = [library.model(ref.model) for ref in entry_models(lineage.base)]
    kinds = {None if s is None else s.kind for s in students}
    if len(kinds) != 1 or None in kinds:
        return None  # undisclosed, not in the catalog, of no known kind, or of several kinds
    if any(_same_work(s, teacher) for s in students if s is not None):
        return None  # the teacher's own work: a derivative, not another model
    (kind,) = kinds
    assert kind is not None
    names = " or ".join(s.name for s in students if s is not None)
    evidence = tuple(piece for t in taught for piece in t.ref.evidence)
    competes = True if kind is teacher.kind else None
    why = (
        f"derived from the lineage: built on {names} (a {kind.value} model in the catalog) and "
        f"trained on the outputs of {teacher.name}, so it is another {kind.value} model "
        f"improved with them"
    )
    return Implied(IMPROVED_AS[kind], competes, evidence, why)


def _same_work(student: CatalogModel, teacher: CatalogModel) -> bool:
    """The student is the teacher, or under one of its licenses (its own derivative)."""
    return student is teacher or bool(_licenses(student) & _licenses(teacher))


def _licenses(model: CatalogModel) -> set[str]:
    named = {dated.license for dated in model.license_history}
    return named | ({model.license} if model.license else set())


def contradictions(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """Each `improves_other_models` or `competes_with_licensed_model` stated, without evidence,
    against what a component's lineage implies: located at the stated value."""
    for c, component in enumerate(manifest.components):
        lineage = component.lineage
        for teacher in teachers(lineage):
            model = library.model(teacher.ref.model)
            implied = None if model is None else implied_by(lineage, model, library)
            if model is None or implied is None:
                continue
            where = ("components", c, "lineage", *teacher.path)
            line, _ = document.locate(where)
            for name, spec, path in _stated(manifest, c):
                problem = _against(name, spec, implied, model, line)
                if problem is not None:
                    message, hint = problem
                    yield document.error(written_at(document, (*path, "value")), message, hint)


def _stated(manifest: Manifest, c: int) -> Iterator[tuple[str, FactSpec, Path_]]:
    """The two facts as the component states them, else as the product does."""
    component = manifest.components[c]
    for name in (IMPROVES, COMPETES):
        spec = component.facts.get(name)
        path: Path_ = ("components", c, "facts", name)
        if spec is None:
            spec, path = manifest.facts.get(name), ("facts", name)
        if spec is not None and not spec.evidence:
            yield name, spec, path


def _against(
    name: str, spec: FactSpec, implied: Implied, teacher: CatalogModel, line: int
) -> tuple[str, str] | None:
    """Why a stated value contradicts the lineage, and a hint; None where it does not."""
    whose = f"the lineage (line {line}) trains the component on {teacher.name}'s outputs"
    if name == IMPROVES:
        stated = spec.value if isinstance(spec.value, list) else None
        left_out = (stated is not None and implied.improves not in stated) or (
            implied.improves in (spec.excludes or ())
        )
        if not left_out:
            return None
        return (
            f"{name} leaves out {implied.improves!r}, but {whose}: {implied.why}",
            f"list {implied.improves} among the kinds, or give the statement evidence (a "
            "review) saying why the component is not such a model",
        )
    if implied.competes and spec.value is False:
        return (
            f"{name} is false, but {whose} and is built on a model of the same kind",
            "state true, or give the statement evidence (a review) saying why it does not compete",
        )
    return None
