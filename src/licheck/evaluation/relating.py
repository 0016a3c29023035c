"""The relations a component's lineage has with one model of it, as the license's definitions
read them (`library.reach`): a pure function of the lineage and the delivery.

Built on the model's weights: with no step it is the model itself, served (an API or a hosted
service), redistributed (weights delivered) or used only in-house (no delivery); with steps, as
the steps say (fine-tuned for fine-tuning, continued pretraining and RL; quantized; merged).  A
model a step merges in is merged (and changed by every later step); one a distillation step
distils from is distilled.  Trained on its outputs (`trained_on_outputs_of`), by its role: a
teacher's answers (or any other outputs) distilled, synthetic data, a judge's scores.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from licheck.engine.domains import Booleans
from licheck.facts.resolution import FactState, Status
from licheck.inputs.manifest import Component, Delivery, OutputsRole, StepKind
from licheck.inputs.rules import License, Relation

Position = tuple[str | int, ...]  # a lineage entry's path within the lineage: ("base",), ...

_BY_STEP = {
    StepKind.FINE_TUNING: Relation.FINE_TUNED,
    StepKind.CONTINUED_PRETRAINING: Relation.FINE_TUNED,
    StepKind.RL: Relation.FINE_TUNED,
    StepKind.DISTILLATION: Relation.FINE_TUNED,  # the base a student is distilled into
    StepKind.QUANTIZATION: Relation.QUANTIZED,
    StepKind.MERGE: Relation.MERGED,
}
_BY_ROLE = {
    OutputsRole.TEACHER: Relation.DISTILLED,
    OutputsRole.OTHER: Relation.DISTILLED,
    OutputsRole.SYNTHETIC_DATA: Relation.SYNTHETIC_DATA,
    OutputsRole.JUDGE: Relation.JUDGE,
}


def lineage_relations(
    component: Component, weights: Iterable[Position], roles: Iterable[OutputsRole]
) -> frozenset[Relation]:
    """The relations `component` has with a model that sits at `weights` in its lineage (the
    base, a step's parent: none where only its outputs were used) and whose outputs it was
    trained on in `roles`."""
    found: set[Relation] = set()
    steps = component.lineage.steps
    for position in weights:
        if position == ("base",):
            if steps:
                found.update(_BY_STEP[step.kind] for step in steps)
            else:
                found.update(_unmodified(component.delivery))
        elif len(position) >= 2 and position[0] == "steps" and isinstance(position[1], int):
            index = position[1]
            kind = steps[index].kind
            if kind is StepKind.DISTILLATION:
                found.add(Relation.DISTILLED)
            else:
                found.add(Relation.MERGED if kind is StepKind.MERGE else _BY_STEP[kind])
                found.update(_BY_STEP[later.kind] for later in steps[index + 1 :])
    found.update(_BY_ROLE[role] for role in roles)
    return frozenset(found)


def _unmodified(delivery: Iterable[Delivery]) -> set[Relation]:
    given = set(delivery)
    found = set()
    if Delivery.WEIGHTS in given:
        found.add(Relation.REDISTRIBUTED)
    if given & {Delivery.API, Delivery.HOSTED_SERVICE}:
        found.add(Relation.SERVED)
    return found or {Relation.INTERNAL_USE}


def derivative_by_definition(
    license_: License, kinds: frozenset[Relation], stated: FactState
) -> FactState | None:
    """`derivative` as a license that defines its Derivatives reads it: where its definition
    includes a relation the lineage has, the definition decides (true), and a stated `false`
    that contradicts it is disputed, naming the conflict (a governance risk, never a silent
    override).  None where the license leaves the term to copyright law, or its definition
    covers none of the lineage's relations: the stated (or default) value stands."""
    definition = license_.definitions.derivative
    if definition is None or definition.copyright_law:
        return None
    covered = sorted(r.label for r in kinds if r in definition.includes and not r.unmodified)
    if not covered:
        return None
    what = ", ".join(covered)
    quote = definition.quote or ""
    said = f"{license_.name} defines {definition.term} to include a model {what}: “{quote}”"
    if stated.domain == Booleans(frozenset({False})):
        return replace(
            stated,
            status=Status.DISPUTED,
            domain=Booleans(frozenset({True, False})),
            shown="false (stated), against the license's definition",
            likely=None,
            note=f"conflict: the manifest states derivative: false, but {said}; the "
            "definition decides, so the statement is a governance risk to resolve (correct "
            "it, or record counsel's opinion)",
        )
    return replace(
        stated,
        status=Status.ESTABLISHED,
        domain=Booleans(frozenset({True})),
        shown="true",
        likely=None,
        evidence=(),
        note=f"by the license's own definition: {said}",
    )
