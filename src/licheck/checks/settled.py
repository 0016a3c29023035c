"""Stated facts that contradict what a component's delivery and lineage settle: a manifest that
says an API product is not made available, or that a fine-tuned model is not modified, states two
things that cannot both be true, and licheck believes neither (a located error).

Only the direction the structure decides is checked: any delivery makes a component available,
weights or an API offer the model, any step modifies it, a trained model delivered as weights or
an API is a model made available.  Saying more than the structure does (`modified: true` with no
step) is the author's to say.
"""

from __future__ import annotations

from collections.abc import Iterator

from licheck.core.diagnostics import Diagnostic
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import Component, Delivery, FactSpec, Lineage, Manifest, StepKind
from licheck.loading.factchecks import written_at

# The steps that train a model (quantization alone may or may not count as creating one).
TRAINING_STEPS = frozenset(
    {
        StepKind.CONTINUED_PRETRAINING,
        StepKind.FINE_TUNING,
        StepKind.RL,
        StepKind.DISTILLATION,
        StepKind.MERGE,
    }
)


def contradictions(manifest: Manifest, document: Document) -> Iterator[Diagnostic]:
    """Each derived fact stated (by the component, else by the product) against the value its
    component's delivery or lineage settles, located at the stated value."""
    for c, component in enumerate(manifest.components):
        for name, (settled, why, hint) in settled_facts(component).items():
            spec = component.facts.get(name)
            path: Path_ = ("components", c, "facts", name)
            if spec is None:
                spec, path = manifest.facts.get(name), ("facts", name)
            if _states(spec) not in (None, settled):
                yield document.error(
                    written_at(document, (*path, "value")),
                    f"{name} is {str(not settled).lower()}, but component {component.id!r} {why}",
                    hint,
                )


def settled_facts(component: Component) -> dict[str, tuple[bool, str, str]]:
    """The facts the component's delivery and lineage settle: value, why, and a hint."""
    delivery = set(component.delivery)
    lineage = component.lineage
    shown = ", ".join(d.value for d in component.delivery)
    steps = steps_taken(lineage)
    trained = trains(lineage)
    offered = bool(delivery & {Delivery.WEIGHTS, Delivery.API})
    found: dict[str, tuple[bool, str, str]] = {}
    if delivery:
        found["distributes_weights"] = (
            Delivery.WEIGHTS in delivery,
            f"is delivered as {shown}",
            "list `weights` under delivery exactly when copies of the weights are distributed",
        )
        found["made_available"] = (
            True,
            f"is delivered as {shown}",
            "any delivery makes the component available to others; correct the delivery",
        )
    if offered:
        found["model_offered"] = (
            True,
            f"is delivered as {shown}",
            "weights or an API offer the model itself; correct the delivery",
        )
    if steps:
        found["modified"] = (
            True,
            f"has lineage steps ({', '.join(steps)})",
            "any step changes the model; drop the steps that were not taken",
        )
    if trained and offered:
        found["model_made_available"] = (
            True,
            f"is delivered as {shown}, and trained ({', '.join(steps)})",
            "a model the licensee trained and offers by weights or API is made available",
        )
    return found


def steps_taken(lineage: Lineage) -> list[str]:
    """What was done to the lineage's model: its kinds of step, and training on outputs (none
    when it is as released)."""
    taken = sorted({step.kind.value for step in lineage.steps})
    if lineage.trained_on_outputs_of:
        taken.append("training on outputs")
    return taken


def trains(lineage: Lineage) -> bool:
    """The lineage trains a model of the licensee's (training on outputs is training)."""
    return bool(lineage.trained_on_outputs_of) or any(
        step.kind in TRAINING_STEPS for step in lineage.steps
    )


def _states(spec: FactSpec | None) -> bool | None:
    """The boolean a fact states, if any."""
    return spec.value if spec is not None and isinstance(spec.value, bool) else None
