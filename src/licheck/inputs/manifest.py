"""Product manifests as pydantic models: sources and evidence, facts, lineage, components.

Like the rule-file models (`model`), they check a file's shape and are the source of the
published manifest JSON Schema; what a fact's value means is checked in `facts`.
"""

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from licheck.inputs.rules import (
    Amount,
    Date,
    Identifier,
    RawValue,
    Strict,
    Text,
    model_key,
    require_unique,
)


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

    @property
    def claims(self) -> bool:
        """The piece claims a value of its own."""
        own = (self.value, self.at_least, self.at_most, self.includes, self.excludes)
        return any(claim is not None for claim in own)


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
    by_model: dict[StrictStr, "Fact"] | None = Field(
        None,
        description="under a component: the fact for one model of its lineage (catalog id or "
        "alias), overriding the component's value (derivative, notice_included, "
        "license_copy_included, modification_notices)",
    )
    by_license: dict[StrictStr, "Fact"] | None = Field(
        None,
        description="under a component: the fact as one license (by id) asks it, overriding "
        "by_model and the component's value (same facts as by_model)",
    )

    @property
    def scoped_only(self) -> bool:
        """Only per-model or per-license values: the fact is not stated for the whole."""
        return not (self.model_fields_set - {"by_model", "by_license", "note"})


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
    license: Identifier | None = Field(
        None,
        description="the license a model the catalog does not list is under, by id: judged "
        "under it where the library (or a --licenses layer) has it, else a 'license unknown' "
        "governance risk naming it; for a catalog model, the catalog decides",
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None


def _model_shorthand(raw: Any) -> Any:
    return {"model": raw} if isinstance(raw, str) else raw


ModelRefIn = Annotated[
    ModelRef, BeforeValidator(_model_shorthand, json_schema_input_type=ModelRef | StrictStr)
]


class CandidateBases(Strict):
    """A lineage entry that is one of several models, not known which: each candidate with its
    own evidence (`unknown` for "or another, undisclosed model")."""

    candidates: list[ModelRefIn] = Field(
        min_length=2, description="the models the entry may be (at least two)"
    )
    note: Text | None = None

    @model_validator(mode="after")
    def _distinct(self) -> "CandidateBases":
        require_unique("candidate model", (model_key(c.model) for c in self.candidates))
        return self


def _entry_kind(raw: Any) -> str:
    if isinstance(raw, CandidateBases) or (isinstance(raw, dict) and "candidates" in raw):
        return "candidates-entry"
    return "model-entry"


# A lineage entry: one model, or several candidates for it.
LineageEntry = Annotated[
    Annotated[ModelRefIn, Tag("model-entry")] | Annotated[CandidateBases, Tag("candidates-entry")],
    Discriminator(_entry_kind),
]


def entry_models(entry: "ModelRef | CandidateBases") -> list[ModelRef]:
    """The models a lineage entry may be: itself, or each candidate."""
    return list(entry.candidates) if isinstance(entry, CandidateBases) else [entry]


class StepKind(StrEnum):
    CONTINUED_PRETRAINING = "continued_pretraining"
    FINE_TUNING = "fine_tuning"
    RL = "rl"
    DISTILLATION = "distillation"
    QUANTIZATION = "quantization"
    MERGE = "merge"


class Step(Strict):
    kind: StepKind
    parents: list[LineageEntry] = Field(
        default_factory=list, description="other models merged in, or distilled from"
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None

    @model_validator(mode="after")
    def _merge_has_parents(self) -> "Step":
        if self.kind is StepKind.MERGE and not self.parents:
            raise ValueError("a merge step needs its parents (the other models merged in)")
        if any(piece.claims for piece in self.evidence):
            raise ValueError("evidence on a lineage step says that the step was taken: no value")
        return self


def _step_shorthand(raw: Any) -> Any:
    return {"kind": raw} if isinstance(raw, str) else raw


class OutputsRole(StrEnum):
    TEACHER = "teacher"  # distillation from its generated outputs
    SYNTHETIC_DATA = "synthetic_data"  # training data it generated
    JUDGE = "judge"  # its judgements or rewards (RLAIF, filtering)
    OTHER = "other"


class OutputsRef(ModelRef):
    """A model whose outputs the component was trained on (not its weights)."""

    role: OutputsRole = OutputsRole.OTHER


def _outputs_shorthand(raw: Any) -> Any:
    return {"model": raw} if isinstance(raw, str) else raw


NO_BASE = "none"  # `base: none`: trained from scratch, on no model's weights


class Lineage(Strict):
    base: LineageEntry = Field(
        description="the model the component is built on (its weights): a catalog id or "
        "alias, `unknown` when undisclosed, candidates, or `none` for a model trained from "
        "scratch (then name the models whose outputs it learnt from in trained_on_outputs_of)"
    )
    steps: list[
        Annotated[Step, BeforeValidator(_step_shorthand, json_schema_input_type=Step | StepKind)]
    ] = Field(default_factory=list)
    trained_on_outputs_of: list[
        Annotated[
            OutputsRef,
            BeforeValidator(_outputs_shorthand, json_schema_input_type=OutputsRef | StrictStr),
        ]
    ] = Field(
        default_factory=list,
        description="models whose outputs (generated data, a teacher's answers, a judge's "
        "scores) the component was trained on: clauses reaching outputs bind it, and those on "
        "Derivatives where the license's definition includes the role (licenses reach)",
    )

    @property
    def from_scratch(self) -> bool:
        """`base: none`: built on no model's weights."""
        return isinstance(self.base, ModelRef) and model_key(self.base.model) == NO_BASE

    @model_validator(mode="after")
    def _scratch_names_its_sources(self) -> "Lineage":
        if self.from_scratch and not self.trained_on_outputs_of and not self.entries():
            raise ValueError(
                "base: none (trained from scratch) names no model whose license could bind: "
                "list the models whose outputs it was trained on under trained_on_outputs_of "
                "(a model trained on no other model's weights or outputs needs no manifest "
                "component)"
            )
        named = [ref for ref, _ in self.models()] + list(self.trained_on_outputs_of)
        if any(model_key(ref.model) == NO_BASE for ref in named):
            raise ValueError("`none` is only a base (trained from scratch), not a model named")
        return self

    def entries(self) -> list[tuple[ModelRef | CandidateBases, tuple[str | int, ...]]]:
        """Every entry (the base, each step's parents), with its path within the lineage; a
        base of `none` (trained from scratch) is no entry."""
        found: list[tuple[ModelRef | CandidateBases, tuple[str | int, ...]]] = (
            [] if self.from_scratch else [(self.base, ("base",))]
        )
        for s, step in enumerate(self.steps):
            found += [(parent, ("steps", s, "parents", p)) for p, parent in enumerate(step.parents)]
        return found

    def models(self) -> list[tuple[ModelRef, tuple[str | int, ...]]]:
        """Every model the lineage names, each candidate of an entry too, located."""
        return [
            (ref, (*path, "candidates", i) if isinstance(entry, CandidateBases) else path)
            for entry, path in self.entries()
            for i, ref in enumerate(entry_models(entry))
        ]


class Delivery(StrEnum):
    HOSTED_SERVICE = "hosted_service"
    API = "api"
    WEIGHTS = "weights"  # distributed weights


_DELIVERIES: dict[str, Any] = {"type": "array", "items": {"enum": [d.value for d in Delivery]}}
_DELIVERY_SCHEMA: dict[str, Any] = {
    "description": "how the component is delivered: a list of hosted_service, api, weights; "
    "or {value: [...], evidence: [...]} to say what establishes it",
    "anyOf": [
        _DELIVERIES,
        {
            "type": "object",
            "properties": {
                "value": _DELIVERIES,
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
            data["delivery_evidence"] = given.get("evidence", [])  # null: refused, as a fact's
        return data


class Organisation(Strict):
    """An organisation by its id (as the catalog names licensors: meta, deepseek, ...), with
    the evidence that it is the owner, or the owner's affiliate."""

    id: Identifier
    name: Text | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None


class Owner(Strict):
    """Who owns the product: a name, and optionally the organisation id and its affiliates, so
    that a licensor is not judged as its own licensee."""

    name: Text
    id: Identifier | None = Field(
        None, description="the owner's organisation id, as the catalog names licensors"
    )
    evidence: list[Evidence] = Field(
        default_factory=list, description="that the owner is the organisation `id`"
    )
    affiliates: list[Organisation] = Field(
        default_factory=list,
        description="organisations the owner controls, is controlled by or is under common "
        "control with, each with the evidence of the affiliation",
    )
    note: Text | None = None

    @model_validator(mode="after")
    def _unique_ids(self) -> "Owner":
        if self.evidence and self.id is None:
            raise ValueError("the owner's evidence is that it is the organisation `id`: none given")
        require_unique(
            "organisation", ([self.id] if self.id else []) + [a.id for a in self.affiliates]
        )
        return self


def _owner_shorthand(raw: Any) -> Any:
    """`owner: Acme` is short for `owner: {name: Acme}`."""
    return {"name": raw} if isinstance(raw, str) else raw


OwnerIn = Annotated[Owner, BeforeValidator(_owner_shorthand, json_schema_input_type=Owner | Text)]


class Agreement(Strict):
    """A separate agreement: who grants it (through whom), what it grants and waives.

    Omitted `grants` / `waives` are unknown, never empty: a contract with unpublished terms
    settles nothing.  An evidence piece with `value: false` denies that the agreement exists."""

    licensor: Identifier = Field(description="the licensor party to it, e.g. moonshot-ai")
    via: Identifier | None = Field(
        None, description="an intermediary through which access is licensed, e.g. fireworks-ai"
    )
    terms: Literal["unknown"] | None = Field(
        None, description="`unknown`: it exists, but what it grants and waives is not known"
    )
    grants: list[StrictStr] | None = Field(
        None, description="the licenses (by id) it grants, e.g. for a gate; [] for none"
    )
    waives: list[StrictStr] | None = Field(
        None, description="the clauses it waives, as license-id/clause-id or license-id/*"
    )
    evidence: list[Evidence] = Field(default_factory=list)
    note: Text | None = None

    @model_validator(mode="after")
    def _terms_or_lists(self) -> "Agreement":
        if self.terms == "unknown" and (self.grants is not None or self.waives is not None):
            raise ValueError(
                "terms: unknown leaves grants and waives unknown: drop one or the other"
            )
        for piece in self.evidence:
            others = (piece.at_least, piece.at_most, piece.includes, piece.excludes)
            if piece.value not in (None, False) or any(o is not None for o in others):
                raise ValueError(
                    "evidence on an agreement may only deny it (value: false); "
                    "state what it grants and waives in grants: and waives:"
                )
        return self


class NoAgreements(Strict):
    """`agreements: {none: true, evidence: [...]}`: the owner has no separate agreement with any
    licensor, and what shows it (a licensor's or the owner's statement): the facts it implies are
    then as certain as that evidence, not merely the manifest's declaration."""

    none: Literal[True] = Field(description="true: there is no separate agreement")
    evidence: list[Evidence] = Field(
        default_factory=list, description="what shows there is none (each piece claims nothing)"
    )
    note: Text | None = None

    @model_validator(mode="after")
    def _claims_nothing(self) -> "NoAgreements":
        if any(piece.claims for piece in self.evidence):
            raise ValueError(
                "evidence under agreements: {none: true} shows that there is no agreement: "
                "it claims no value (an agreement that exists is listed instead)"
            )
        return self


def _agreements_kind(raw: Any) -> str:
    if isinstance(raw, list):
        return "agreements-list"
    return "none-evidenced" if isinstance(raw, dict | NoAgreements) else "none-word"


# `none`, `{none: true, evidence: [...]}`, or the complete list of agreements.
AgreementsIn = Annotated[
    Annotated[Literal["none"], Tag("none-word")]
    | Annotated[NoAgreements, Tag("none-evidenced")]
    | Annotated[list[Agreement], Tag("agreements-list")],
    Discriminator(_agreements_kind),
]


def listed_agreements(
    agreements: Literal["none"] | NoAgreements | list[Agreement] | None,
) -> list[Agreement] | None:
    """The agreements the manifest lists: [] for `none` in either form, None where unstated."""
    if agreements is None:
        return None
    return agreements if isinstance(agreements, list) else []


# The union members' tags pydantic puts in an error's location: never keys of the file.
MANIFEST_TAGS = frozenset(
    {"model-entry", "candidates-entry", "none-word", "none-evidenced", "agreements-list"}
)

FORMAT = 2  # the manifest format this licheck reads
FORMAT_SECTION = "Manifest format 2: what changed"
FORMAT_DOC = "docs/manifests.md"  # no command prints what changed: the page says it


def _format(raw: Any) -> int:
    """`format: 2`, or a located refusal: a format-1 manifest may mean something else now."""
    if isinstance(raw, int) and not isinstance(raw, bool) and raw == FORMAT:
        return FORMAT
    stated = repr(raw) if isinstance(raw, str) else str(raw).lower()
    raise ValueError(
        f"expected manifest format {FORMAT} (the only format licheck reads: format-1 readings "
        f"changed meaning, and a manifest is never read with a silently changed meaning), "
        f"got format {stated}"
        f'\nhint: the section "{FORMAT_SECTION}" of {FORMAT_DOC} lists what to change, '
        f"then write format: {FORMAT} (or leave the key out)"
    )


class Manifest(Strict):
    """A licheck product manifest, format 2: the product, its owner, its components and their
    lineage, and the facts licheck judges them by, each with its evidence."""

    model_config = ConfigDict(title="licheck product manifest (format 2)")

    format: Annotated[
        int,
        BeforeValidator(_format),
        WithJsonSchema(
            {
                "const": FORMAT,
                "description": "the manifest format: 2 (the default when absent); any other "
                "value is refused, since format-1 readings changed meaning "
                f'({FORMAT_DOC}: "{FORMAT_SECTION}")',
            }
        ),
    ] = FORMAT
    product: Text
    owner: OwnerIn
    release_date: Date | None = None
    description: Text | None = None
    currency_rates: dict[StrictStr, StrictInt | StrictFloat | StrictStr] = Field(
        default_factory=dict, description="US dollars per unit of each other currency"
    )
    sources: dict[StrictStr, Source] = Field(default_factory=dict)
    facts: dict[StrictStr, Fact] = Field(default_factory=dict)
    agreements: AgreementsIn | None = Field(
        None,
        description="every separate agreement of the product's owner (`none`, or "
        "{none: true, evidence: [...]}: there is none); they imply agreement, "
        "agreement_waives and license_granted",
    )
    components: list[Component] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_component_ids(self) -> "Manifest":
        require_unique("component", (c.id for c in self.components))
        return self


def build_validators() -> None:
    """Build the manifest models' validators and serializers now (see `model.build_validators`)."""
    for model in (
        Source,
        Evidence,
        FactSpec,
        ModelRef,
        CandidateBases,
        OutputsRef,
        Step,
        Lineage,
        Component,
        Organisation,
        Owner,
        Agreement,
        NoAgreements,
        Manifest,
    ):
        model.model_rebuild()
