"""A component's lineage as the report draws it: the models it is built on or trained from,
how it relates to each, and the steps that made it — plain data, for the HTML picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from licheck.evaluation.findings import ComponentLineage, LineageModel
from licheck.evaluation.scoping import Relation
from licheck.inputs.manifest import Component, StepKind
from licheck.library.compiled import Library

# what a step's parent is to the component
_PARENT_ROLES = {StepKind.MERGE: "merged in", StepKind.DISTILLATION: "distilled from"}


def component_lineage(
    library: Library, component: Component, related: Sequence[Relation]
) -> ComponentLineage:
    """The lineage of one component, from the relations evaluation found."""
    models = []
    for relation in related:
        found = library.model(relation.ref.model)
        model = found.id if found else relation.ref.model
        name = found.name if found else relation.ref.model
        onto_weights = "trained_on_outputs_of" not in relation.path
        status = (relation.lineage if onto_weights else relation.outputs).status.value
        role, step = _role(component, relation)
        models.append(LineageModel(model, name, role, status, step))
    return ComponentLineage(
        component.id,
        component.name,
        tuple(d.value for d in component.delivery),
        tuple(step.kind.value for step in component.lineage.steps),
        tuple(models),
    )


def _role(component: Component, relation: Relation) -> tuple[str, int | None]:
    """How the component relates to the model, and the step it enters at (a parent's)."""
    if relation.via is not None:
        found = _own_role(component, replace(relation, via=None))
        return f"upstream of {relation.via} ({found[0]})", found[1]
    return _own_role(component, relation)


def _own_role(component: Component, relation: Relation) -> tuple[str, int | None]:
    path = relation.path
    if "trained_on_outputs_of" in path:
        return "trained on outputs", None
    candidate = relation.candidates_of is not None
    if "steps" in path:
        index = int(path[path.index("steps") + 1])
        role = _PARENT_ROLES.get(component.lineage.steps[index].kind, "parent")
        return (f"candidate: {role}" if candidate else role), index
    return ("candidate base" if candidate else "base"), None
