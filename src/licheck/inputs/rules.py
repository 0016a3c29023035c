"""The file formats as pydantic models: license rule files and the model catalog, and the types
they share with product manifests (`manifest`).

These models check the *shape* of a file (keys, types, enums) and are the source of the published
JSON Schemas.  What a value *means* (a quantity's unit, a fact name in the vocabulary, a license id
in the library) is checked when the files are compiled for the engine (`rules`, `facts`).
Models are frozen and reject unknown keys; booleans and strings are strict, so YAML's `no` is never
read as false.
"""

import datetime as dt
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PlainSerializer,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
    WithJsonSchema,
    model_validator,
)

_DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


class PartialDate(dt.date):
    """A month (`2025-03`) or a year (`2025`): a range of days, read as its last day (what is
    dated then existed by that day) with `first`, its first day, kept for the readers that must
    know whether a choice depends on where in the range the day falls."""

    first: dt.date
    precision: str  # "month" or "year"

    @classmethod
    def of(cls, last: dt.date, first: dt.date, precision: str) -> "PartialDate":
        made = cls(last.year, last.month, last.day)
        made.first, made.precision = first, precision
        return made

    def __reduce__(self) -> tuple[object, ...]:  # keep the range across processes
        return (
            PartialDate.of,
            (dt.date(self.year, self.month, self.day), self.first, self.precision),
        )

    def __str__(self) -> str:
        precision = getattr(self, "precision", None)  # date arithmetic makes bare instances
        if precision == "year":
            return f"{self.year:04d}"
        return f"{self.year:04d}-{self.month:02d}" if precision == "month" else self.isoformat()


def earliest(date: dt.date) -> dt.date:
    """The first day a date (or a month, or a year) may be."""
    return date.first if isinstance(date, PartialDate) else date


def _last_day(year: int, month: int) -> int:
    # calendar.monthrange, without importing calendar every run
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def parse_date(raw: object) -> dt.date:
    """An ISO date `YYYY-MM-DD`, or a month `YYYY-MM` or a year `YYYY` (a `PartialDate`: read as
    its last day, the range kept)."""
    if isinstance(raw, dt.date):
        return raw
    if isinstance(raw, int) and not isinstance(raw, bool) and 1000 <= raw <= 9999:
        raw = str(raw)  # an unquoted year
    if not isinstance(raw, str) or not (match := _DATE_RE.match(raw.strip())):
        raise ValueError(
            f"expected a date as YYYY-MM-DD (or a month as YYYY-MM, or a year), got {raw!r}"
        )
    year = int(match[1])
    month = int(match[2]) if match[2] else 12
    if not 1 <= month <= 12:
        raise ValueError(f"month {month} is out of range in {raw!r}")
    try:
        if match[3]:
            return dt.date(year, month, int(match[3]))
        last = dt.date(year, month, _last_day(year, month))
    except ValueError as exc:
        raise ValueError(f"not a real date: {raw!r} ({exc})") from None
    first = dt.date(year, month if match[2] else 1, 1)
    return PartialDate.of(last, first, "month" if match[2] else "year")


Date = Annotated[
    dt.date,
    BeforeValidator(parse_date),
    PlainSerializer(str, return_type=str),  # a month or a year as written: it round-trips
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^\d{4}(-\d{2}(-\d{2})?)?$",
            "description": "an ISO date YYYY-MM-DD (or a month YYYY-MM, or a year YYYY)",
        }
    ),
]
Identifier = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=120)]
Text = Annotated[StrictStr, Field(min_length=1)]
# A number or a string with units: 150M, 20M USD/month, 2B USD/year.
Amount = Annotated[
    StrictInt | StrictFloat | StrictStr,  # strict: YAML's `true` is never the number 1
    WithJsonSchema(
        {
            "type": ["number", "string"],
            "description": "a number, or a string with units: 150M, 20M USD/month, "
            "2B USD/year, 300M CNY/year",
        }
    ),
]
# A fact value as written: a quantity, a boolean, a string, a list of strings, or `unknown`.
RawValue = Annotated[
    StrictBool | int | float | StrictStr | list[StrictStr],
    WithJsonSchema(
        {
            "description": "a quantity (150M, 20M USD/month), true/false, a string, a "
            "list of strings, or the word unknown",
            "type": ["boolean", "number", "string", "array"],
            "items": {"type": "string"},
        }
    ),
]


def require_unique(kind: str, ids: Iterable[str]) -> None:
    """Refuse a list whose items share an id ("clause id 'x' appears twice")."""
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise ValueError(f"{kind} id {item!r} appears twice")
        seen.add(item)


class Strict(BaseModel):
    """Base of every model: frozen, unknown keys refused."""

    # defer_build: a model's validator is built when it is first used, so a run builds only
    # the ones it needs (a manifest's, not a waiver file's).
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)


# -- conditions ------------------------------------------------------------------------------


class Measured(StrEnum):
    """When a fact is measured, where a clause says so."""

    NOW = "now"
    MONTH_BEFORE_RELEASE = "month_before_release"  # "the preceding calendar month" on release


class FactTest(Strict):
    """A test of one fact: exactly one operator, worded as licenses word them."""

    fact: Text
    more_than: Amount | None = Field(None, description="strictly greater than ('more than')")
    at_least: Amount | None = Field(None, description="greater than or equal")
    less_than: Amount | None = Field(None, description="strictly less than")
    at_most: Amount | None = Field(None, description="less than or equal")
    is_: StrictBool | None = Field(None, alias="is", description="a boolean fact's value")
    # no empty string or list: `in: []` never holds and `starts_with: ""` always does, so a
    # deny or allow list written so would pass every model in silence
    equals: Text | None = Field(None, description="a string fact equals this")
    in_: list[Text] | None = Field(
        None, alias="in", min_length=1, description="a string fact is one of"
    )
    starts_with: Text | None = Field(None, description="a string fact begins with this")
    contains: Text | None = Field(None, description="a set fact contains this string")
    contains_any: list[Text] | None = Field(
        None, min_length=1, description="a set fact contains at least one of these"
    )
    measured: Measured = Field(Measured.NOW, description="when the fact is measured")

    @model_validator(mode="after")
    def _one_operator(self) -> "FactTest":
        given = [name for name in OPERATORS if getattr(self, OPERATORS[name]) is not None]
        if len(given) != 1:
            shown = ", ".join(given) if given else "none"
            raise ValueError(
                f"a fact test needs exactly one operator of {', '.join(OPERATORS)}; got {shown}"
            )
        return self

    @property
    def operator(self) -> str:
        return next(name for name, attr in OPERATORS.items() if getattr(self, attr) is not None)

    @property
    def operand(self) -> Any:
        return getattr(self, OPERATORS[self.operator])


OPERATORS: dict[str, str] = {
    "more_than": "more_than",
    "at_least": "at_least",
    "less_than": "less_than",
    "at_most": "at_most",
    "is": "is_",
    "equals": "equals",
    "in": "in_",
    "starts_with": "starts_with",
    "contains": "contains",
    "contains_any": "contains_any",
}


class AllOf(Strict):
    all: list["Condition"] = Field(min_length=1)


class AnyOf(Strict):
    any: list["Condition"] = Field(min_length=1)


class NotOf(Strict):
    not_: "Condition" = Field(alias="not")


class Always(Strict):
    always: StrictBool


def _condition_tag(raw: Any) -> str | None:
    if isinstance(raw, BaseModel):
        raw = raw.model_dump(by_alias=True, exclude_none=True)
    if not isinstance(raw, dict):
        return None
    for key, tag in (
        ("all", "all-of"),
        ("any", "any-of"),
        ("not", "not-of"),
        ("always", "always-of"),
        ("fact", "fact-test"),
    ):
        if key in raw:
            return tag
    return None


Condition = Annotated[
    Annotated[AllOf, Tag("all-of")]
    | Annotated[AnyOf, Tag("any-of")]
    | Annotated[NotOf, Tag("not-of")]
    | Annotated[Always, Tag("always-of")]
    | Annotated[FactTest, Tag("fact-test")],
    Discriminator(
        _condition_tag,
        custom_error_type="condition",
        custom_error_message="expected a condition: a mapping with one of all, any, not, "
        "always, or fact (with an operator)",
    ),
]
CONDITION_TAGS = frozenset({"all-of", "any-of", "not-of", "always-of", "fact-test"})


# -- license rule files ----------------------------------------------------------------------


class Provenance(StrEnum):
    VERBATIM = "verbatim"  # the licensor's own repository
    THIRD_PARTY_COPY = "third-party-copy"  # a verbatim copy found in someone else's repository
    SECONDARY_COPY = "secondary-copy"  # reproduced by a secondary document: unverified
    STAND_IN = "stand-in"  # the model's own file was not read: a standard text stands in for it

    @property
    def caveat(self) -> str | None:
        """What a reader must know about a quote from a text of this provenance (None: none)."""
        return _CAVEATS.get(self)


_CAVEATS = {
    Provenance.THIRD_PARTY_COPY: "quoted from a THIRD-PARTY COPY of the license (found in someone "
    "else's repository), not checked against the licensor's own file",
    Provenance.SECONDARY_COPY: "UNVERIFIED: quoted from a SECONDARY COPY (reproduced by a "
    "secondary document), not checked against the licensor's own file",
    Provenance.STAND_IN: "STAND-IN: the model's own license file was not read (its license is "
    "known from its model card or secondary sources); the standard text of that license stands in "
    "for it",
}


class TextSource(Strict):
    """Where the canonical text a rule file encodes comes from, and its hash."""

    file: Text = Field(description="the canonical text's file name in the texts folder")
    repo: Text | None = None
    path: Text | None = None
    commit: Text | None = None
    url: Text | None = None
    sha256: Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")] = Field(
        description="SHA-256 of the canonical text (without a reference copy's "
        "3-line provenance header and the blank line after it)"
    )
    provenance: Provenance = Provenance.VERBATIM


class ClauseKind(StrEnum):
    OBLIGATION = "obligation"  # adds a duty once triggered; the license stays valid
    GATE = "gate"  # a condition of the grant: crossing it withdraws rights until granted
    RESTRICTION = "restriction"  # something the licensee must not do
    NOTICE = "notice"  # what must accompany copies


ALWAYS = Always.model_construct(always=True)  # constructing builds no validator


class Reach(StrEnum):
    """The words a clause names the relations it binds with, read in the license's own defined
    terms (`definitions`; `library.reach` gives each relation's cell)."""

    # the model itself, and what the license's definition of its Derivatives includes (where it
    # leaves the term to copyright law, a modified model unless `derivative: false`)
    DERIVATIVES = "derivatives"
    # any use: every relation to the weights, derivative or not, and running the model to make
    # the outputs a component was trained on ("if you use the Materials to ...")
    USE = "use"
    OUTPUTS = "outputs"  # trained on its outputs (teacher, synthetic data, judge)


DEFAULT_REACH = (Reach.DERIVATIVES,)


class Standard(StrEnum):
    """What a clause's text requires the licensee's use to comply with (docs/licenses.md,
    "Review findings": each standard names the review facts the clause must read)."""

    LAW = "law"  # applicable laws and regulations (trade and export laws among them)
    POLICY = "policy"  # a use policy the license incorporates, names or is
    ETHICS = "ethics"  # ethical, moral or social standards


class Relation(StrEnum):
    """How one component is related to one model of its lineage, as licheck derives it from the
    lineage and the delivery (`evaluation.relating`): the columns of the reach matrix
    (`licheck licenses reach`).  A license's definitions say which of them its defined terms
    cover."""

    SERVED = "served"  # the unmodified model, served (API or hosted service)
    REDISTRIBUTED = "redistributed"  # copies of the unmodified weights distributed
    FINE_TUNED = "fine_tuned"  # fine-tuning, continued pretraining or RL on its weights
    QUANTIZED = "quantized"  # its weights quantized
    MERGED = "merged"  # its weights merged into another model
    DISTILLED = "distilled"  # distilled from it, or trained on its outputs (teacher, other)
    SYNTHETIC_DATA = "synthetic_data"  # trained on training data it generated
    JUDGE = "judge"  # trained with its judgements or rewards (judge, evaluator)
    INTERNAL_USE = "internal_use"  # the unmodified model, used only in-house (no delivery)

    @property
    def label(self) -> str:
        return _RELATION_LABELS[self]

    @property
    def by_outputs(self) -> bool:
        """The relation is through the model's outputs, not its weights."""
        return self in OUTPUTS_RELATIONS

    @property
    def unmodified(self) -> bool:
        """The component is the model itself, as released."""
        return self in UNMODIFIED_RELATIONS


_RELATION_LABELS = {
    Relation.SERVED: "unmodified copy served",
    Relation.REDISTRIBUTED: "redistributed",
    Relation.FINE_TUNED: "fine-tuned",
    Relation.QUANTIZED: "quantized",
    Relation.MERGED: "merged",
    Relation.DISTILLED: "distilled or trained on outputs",
    Relation.SYNTHETIC_DATA: "synthetic data",
    Relation.JUDGE: "judge/evaluator",
    Relation.INTERNAL_USE: "internal-only use",
}
OUTPUTS_RELATIONS = frozenset({Relation.DISTILLED, Relation.SYNTHETIC_DATA, Relation.JUDGE})
UNMODIFIED_RELATIONS = frozenset({Relation.SERVED, Relation.REDISTRIBUTED, Relation.INTERNAL_USE})


class Definition(Strict):
    """One of the license's own defined terms, with its verbatim quote, as the relations it
    covers; or (`copyright_law: true`) the statement that the license leaves the term to
    copyright law, where a manifest's `derivative` decides."""

    term: Text | None = Field(
        None, description="the license's own word for it, e.g. Model Derivatives"
    )
    quote: Text | None = Field(
        None,
        description="the definition, verbatim (white space may differ): checked to occur in "
        "the canonical text",
    )
    copyright_law: StrictBool = Field(
        False,
        description="the license does not define the term (or defines it as copyright law "
        "does): a stated `derivative` decides whether a modified model is one",
    )
    includes: list[Relation] = Field(
        default_factory=list, description="the relations the definition covers"
    )
    open: list[Relation] = Field(
        default_factory=list,
        description="relations the text leaves open (read cautiously: a governance risk)",
    )
    note: Text | None = None

    @model_validator(mode="after")
    def _consistent(self) -> "Definition":
        if self.copyright_law and (self.includes or self.open):
            raise ValueError("a term left to copyright law lists no relations (includes, open)")
        if not self.copyright_law and (self.term is None or self.quote is None):
            raise ValueError("a defined term needs its term and its verbatim quote")
        both = set(self.includes) & set(self.open)
        if both:
            raise ValueError(f"{sorted(both)[0]!r} is both included and open")
        return self


class Definitions(Strict):
    """What the license's own defined terms cover (`licenses reach`).  `derivative`: what its
    "Derivatives" / "Model Derivatives" / "Modifications" include; `use`: what its "use" covers
    beyond running the weights; `distribute`: what "Distribute" / "make available" covers.  A
    term the license does not define is absent (or, for `derivative`, `copyright_law: true`)."""

    derivative: Definition | None = None
    use: Definition | None = None
    distribute: Definition | None = None
    note: Text | None = None


NO_DEFINITIONS = Definitions.model_construct(derivative=None, use=None, distribute=None, note=None)


class Clause(Strict):
    id: Identifier
    kind: ClauseKind
    title: Text
    quote: Text = Field(
        description="the sentence this clause encodes, verbatim (white space "
        "may differ): checked to occur in the canonical text"
    )
    summary: Text | None = Field(None, description="what the clause means, in plain words")
    trigger: Condition = Field(ALWAYS, description="when the clause binds")
    requirement: Condition | None = Field(
        None,
        description="what must then hold; a gate's defaults to the licensor's grant "
        "({fact: license_granted, contains: <license id>})",
    )
    exceptions: list[Condition] = Field(
        default_factory=list, description="facts that lift the clause"
    )
    applies_to: tuple[Reach, ...] = Field(
        DEFAULT_REACH,
        min_length=1,
        description="the relations to the licensed model that the clause binds, in the "
        "license's defined terms (definitions): derivatives (the model and its Derivatives as "
        "the license defines them: the default), use (any use of the model, derivative or not, "
        "running it to make training data included), outputs (trained on its outputs)",
    )
    complies_with: tuple[Standard, ...] = Field(
        (),
        description="what the clause's text requires the use to comply with: law (applicable "
        "laws and regulations), policy (a use policy), ethics (ethical or moral standards); "
        "each reads the review facts docs/licenses.md lists for it",
    )
    note: Text | None = None


class NotEncoded(Strict):
    """A sentence of the text that imposes a duty, a condition, a prohibition or an exception and
    that no clause encodes: quoted, with the reason (`licenses coverage` counts it as accounted
    for; a reason starting "to encode: " marks a product duty still to be encoded)."""

    quote: Text = Field(
        description="the sentence, verbatim (white space may differ): checked to occur in "
        "the canonical text"
    )
    reason: Text = Field(
        description='why no clause encodes it, e.g. "governing law: no product fact decides '
        'it"; "to encode: <audit reference>" for a product duty not yet encoded'
    )
    id: Identifier | None = None
    section: Text | None = Field(None, description="where the text puts it, e.g. 5.c")


class License(Strict):
    id: Identifier
    name: Text
    version: Text
    licensor: Identifier | None = None
    text: TextSource
    summary: Text | None = None
    unverified: StrictBool = Field(
        False, description="the text is a secondary copy, not checked against the licensor's own"
    )
    clauses: list[Clause] = Field(default_factory=list)

    incorporates: list[Identifier] = Field(
        default_factory=list,
        description="rule files incorporated by reference (e.g. an "
        "acceptable use policy): their clauses bind wherever this license does",
    )
    definitions: Definitions = Field(
        NO_DEFINITIONS,
        description="the license's own defined terms (Derivatives, use, Distribute) as the "
        "relations to the model they cover: the reach of its clauses",
    )
    not_encoded: list[NotEncoded] = Field(
        default_factory=list,
        description="every other sentence of the text that imposes a duty, a condition, a "
        "prohibition or an exception, quoted, with why no clause encodes it",
    )

    @model_validator(mode="after")
    def _unique_clause_ids(self) -> "License":
        require_unique("clause", (c.id for c in self.clauses))
        return self


# -- the model catalog -----------------------------------------------------------------------


class ModelKind(StrEnum):
    """What a catalog model generates: the kind a model built on it is, where a lineage says what
    other model the licensee improved with another model's outputs (`checks.implied`)."""

    LANGUAGE = "language"  # a large language model (vision-language and speech ones too)
    IMAGE = "image"  # image generation
    VIDEO = "video"  # video generation or world models
    AUDIO = "audio"  # audio or music generation


class ClaimSource(StrEnum):
    """How a catalog claim (copies of this model are under this license) is known."""

    LICENSOR = "licensor"  # the licensor's own license file, repository page or model card
    SECONDARY = "secondary"  # secondary sources only: the license is likely, not established

    @property
    def established(self) -> bool:
        return self is ClaimSource.LICENSOR


class DatedLicense(Strict):
    """A license that applied to copies obtained in a date range (both ends included)."""

    license: Identifier
    from_: Date | None = Field(None, alias="from")
    until: Date | None = None
    source: Text | None = Field(
        None,
        description="where the claim that copies obtained in the range are under this "
        "license comes from (the licensor's file and commit, a model card, a secondary source)",
    )
    claim: ClaimSource = Field(
        ClaimSource.LICENSOR,
        description="licensor: the licensor's own license file, repository page or model card "
        "says so; "
        "secondary: secondary sources only, so the license is likely, not established (a "
        "governance risk names it, and no finding under it is a violation on that claim alone)",
    )


class CatalogModel(Strict):
    id: Identifier
    name: Text
    aliases: list[StrictStr] = Field(default_factory=list)
    family: Identifier | None = None
    licensor: Identifier | None = None
    license: Identifier | None = Field(
        None, description="the license id; absent when the license is not in the library"
    )
    license_claim: ClaimSource = Field(
        ClaimSource.LICENSOR,
        description="how the claim that the model is under `license` is known (its `source`): "
        "licensor, or secondary (secondary sources only: likely, not established)",
    )
    license_history: list[DatedLicense] = Field(default_factory=list)
    license_note: Text | None = None
    upstream: list[Identifier] = Field(
        default_factory=list,
        description="catalog models this model is itself built on whose licenses bind it too "
        "(a model published under its own license that remains a derivative of another "
        "licensed model, e.g. a Llama 3.1 fine-tune under NVIDIA's license): a lineage naming "
        "it is judged under its own license and under each upstream model's, with the same "
        "relation and evidence",
    )
    text_provenance: Provenance | None = Field(
        None,
        description="where this model's own license file is not the rule file's text: "
        "stand-in when that file was not read and the rule's standard text stands in for it "
        "(findings for the model carry the caveat)",
    )
    release_date: Date | None = Field(
        None,
        description="the version release date, on which "
        "clauses measured month_before_release are measured",
    )
    multimodal: StrictBool | None = Field(
        None,
        description="the model takes more than text "
        "(images, audio, video); supplies the multimodal fact",
    )
    kind: ModelKind | None = Field(
        None,
        description="what the model generates: language, image, video or audio (unset: its "
        "family's kind in family_kinds, else unknown); a model built on it and trained on "
        "another model's outputs is that kind of model",
    )
    source: Text

    @model_validator(mode="after")
    def _history_in_order(self) -> "CatalogModel":
        """Date ranges in order, each non-empty, none overlapping: one text per date."""
        previous: DatedLicense | None = None
        for dated in self.license_history:
            if dated.from_ and dated.until and dated.from_ > dated.until:
                raise ValueError(
                    f"license_history: {dated.license} runs from {dated.from_} "
                    f"to {dated.until}, which is backwards"
                )
            if previous is not None and (
                previous.until is None or dated.from_ is None or dated.from_ <= previous.until
            ):
                raise ValueError(
                    f"license_history: {dated.license} overlaps "
                    f"{previous.license}: list the ranges in order, each ending "
                    "before the next begins"
                )
            previous = dated
        return self


class Catalog(Strict):
    family_kinds: dict[Identifier, ModelKind] = Field(
        default_factory=dict,
        description="the kind of model (language, image, video, audio) each family's models "
        "are, unless an entry states its own kind",
    )
    models: list[CatalogModel]

    def with_kinds(self) -> "Catalog":
        """The catalog with each model's kind filled in from its family (`family_kinds`)."""
        models = [
            model.model_copy(update={"kind": self.family_kinds[model.family]})
            if model.kind is None and model.family in self.family_kinds
            else model
            for model in self.models
        ]
        return Catalog(models=models)


def model_key(name: str) -> str:
    """How the catalog looks a model name up: case and surrounding space do not count."""
    return name.strip().lower()


# (No model_rebuild() here: it would build every validator now. The forward references resolve
# when a validator is first needed.)


def build_validators() -> None:
    """Build every model's validator and serializer now.

    A run builds them lazily, as each is first used; the JSON Schema generator needs them all
    built, as it serialises model defaults such as `ALWAYS`."""
    for model in (
        Always,
        FactTest,
        AllOf,
        AnyOf,
        NotOf,
        TextSource,
        Clause,
        Definition,
        Definitions,
        NotEncoded,
        License,
        DatedLicense,
        CatalogModel,
        Catalog,
    ):
        model.model_rebuild()
