"""Product manifests as pydantic models: sources and evidence, facts, lineage, components.

Like the rule-file models (`model`), they check a file's shape and are the source of the
published manifest JSON Schema; what a fact's value means is checked in `facts`.
"""

import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictStr,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from licheck.model import Amount, Date, Identifier, RawValue, Strict, Text, require_unique


class EvidenceKind(StrEnum):
    OBSERVED = "observed"
    OFFICIAL_STATEMENT = "official_statement"  # the product owner's own statement
    LICENSOR_STATEMENT = "licensor_statement"
    PRESS_REPORT = "press_report"
    COMMUNITY_INFERENCE = "community_inference"
    RUMOUR = "rumour"
    DECLARED = "declared"  # stated in the manifest without a source: the author's own assertion


class Source(Strict):
    """A document that evidence can cite by its key."""

    title: Text
    kind: EvidenceKind
    date: Date
    url: Text | None = None
    retracted_on: Date | None = None
    note: Text | None = None


class Evidence(Strict):
    """One piece of evidence: a source (inline, or a key of the manifest's `sources`)."""

    source: Text
    kind: EvidenceKind | None = None
    date: Date | None = None
    url: Text | None = None
    retracted_on: Date | None = None
    note: Text | None = None
    # What this piece claims, where it differs from the fact's value (same keys as a fact).
    value: RawValue | None = None
    at_least: Amount | None = None
    at_most: Amount | None = None
    includes: list[StrictStr] | None = None
    excludes: list[StrictStr] | None = None


_MONTH_RE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _month(raw: str) -> str:
    if not _MONTH_RE.match(raw):
        raise ValueError(f"expected a month as YYYY-MM (e.g. 2024-03), got {raw!r}")
    return raw


Month = Annotated[
    StrictStr,
    AfterValidator(_month),
    WithJsonSchema({"type": "string", "pattern": _MONTH_RE.pattern}),
]


class FactSpec(Strict):
    """A fact: a value, a range (at_least / at_most), a partly known set, or unknown; a quantity
    may also be given by month (`series`), for clauses that measure it at a date."""

    value: RawValue | None = None
    at_least: Amount | None = None
    at_most: Amount | None = None
    includes: list[StrictStr] | None = None
    excludes: list[StrictStr] | None = None
    series: dict[Month, "Fact"] | None = Field(
        None,
        description="the quantity month by month (YYYY-MM: a value, or a mapping with a "
        "range and its own evidence); months without their own evidence take "
        "the fact's. `value` stays today's figure.",
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None


def _fact_shorthand(raw: Any) -> Any:
    """`mau: 150M` is short for `mau: {value: 150M}`."""
    if isinstance(raw, dict):
        return raw
    return {"value": raw}


Fact = Annotated[
    FactSpec, BeforeValidator(_fact_shorthand, json_schema_input_type=FactSpec | RawValue)
]


class ModelRef(Strict):
    """A model in a lineage: a catalog id (or alias), or `unknown` when undisclosed."""

    model: Text
    obtained: Date | None = Field(
        None,
        description="when the weights were obtained (selects the license version where it changed)",
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None


def _model_shorthand(raw: Any) -> Any:
    return {"model": raw} if isinstance(raw, str) else raw


ModelRefIn = Annotated[
    ModelRef, BeforeValidator(_model_shorthand, json_schema_input_type=ModelRef | StrictStr)
]


class StepKind(StrEnum):
    CONTINUED_PRETRAINING = "continued_pretraining"
    FINE_TUNING = "fine_tuning"
    RL = "rl"
    DISTILLATION = "distillation"
    QUANTIZATION = "quantization"
    MERGE = "merge"


class Step(Strict):
    kind: StepKind
    parents: list[ModelRefIn] = Field(
        default_factory=list, description="other models merged in, or distilled from"
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None

    @model_validator(mode="after")
    def _merge_has_parents(self) -> "Step":
        if self.kind is StepKind.MERGE and not self.parents:
            raise ValueError("a merge step needs its parents (the other models merged in)")
        return self


def _step_shorthand(raw: Any) -> Any:
    return {"kind": raw} if isinstance(raw, str) else raw


class Lineage(Strict):
    base: ModelRefIn
    steps: list[
        Annotated[Step, BeforeValidator(_step_shorthand, json_schema_input_type=Step | StepKind)]
    ] = Field(default_factory=list)


class Delivery(StrEnum):
    HOSTED_SERVICE = "hosted_service"
    API = "api"
    WEIGHTS = "weights"  # distributed weights


_DELIVERY_SCHEMA: dict[str, Any] = {
    "description": "how the component is delivered: a list of hosted_service, api, weights; "
    "or {value: [...], evidence: [...]} to say what establishes it",
    "anyOf": [
        {"type": "array", "items": {"enum": ["hosted_service", "api", "weights"]}},
        {
            "type": "object",
            "properties": {
                "value": {"type": "array", "items": {"enum": ["hosted_service", "api", "weights"]}},
                "evidence": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": "pieces of evidence, as under a fact's evidence",
                },
                "note": {"type": "string"},
            },
            "required": ["value"],
            "additionalProperties": False,
        },
    ],
}


class Component(Strict):
    id: Identifier
    name: Text
    lineage: Lineage
    delivery: Annotated[list[Delivery], WithJsonSchema(_DELIVERY_SCHEMA)] = Field(
        default_factory=list
    )
    # The evidence a `delivery: {value, evidence}` gives (none: the manifest declares it).
    delivery_evidence: Annotated[list[Evidence], SkipJsonSchema()] = Field(default_factory=list)
    facts: dict[StrictStr, Fact] = Field(default_factory=dict)
    note: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _delivery_with_evidence(cls, data: Any) -> Any:
        """`delivery: {value: [api], evidence: [...]}`: the list, and its evidence apart."""
        if isinstance(data, dict) and isinstance(data.get("delivery"), dict):
            given = dict(data["delivery"])
            unknown = set(given) - {"value", "evidence", "note"}
            if unknown or "value" not in given:
                raise ValueError(
                    "delivery is a list (hosted_service, api, weights) or {value: [...], "
                    "evidence: [...]}"
                    + (f"; unknown key {sorted(unknown)[0]!r}" if unknown else "")
                )
            data = {**data, "delivery": given["value"]}
            data["delivery_evidence"] = given.get("evidence") or []
        return data


class Manifest(Strict):
    product: Text
    owner: Text
    release_date: Date | None = None
    description: Text | None = None
    currency_rates: dict[StrictStr, int | float | StrictStr] = Field(
        default_factory=dict, description="US dollars per unit of each other currency"
    )
    sources: dict[StrictStr, Source] = Field(default_factory=dict)
    facts: dict[StrictStr, Fact] = Field(default_factory=dict)
    components: list[Component] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_component_ids(self) -> "Manifest":
        require_unique("component", (c.id for c in self.components))
        return self


def build_validators() -> None:
    """Build the manifest models' validators and serializers now (see `model.build_validators`)."""
    for model in (Source, Evidence, FactSpec, ModelRef, Step, Lineage, Component, Manifest):
        model.model_rebuild()
