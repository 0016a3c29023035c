"""What `licheck facts` says about the fact vocabulary: each fact's type, unit, where a manifest
may state it, what licheck assumes when it is not stated, and which clauses read it.

Everything is drawn from `vocabulary` (the one list of facts) and, for the clauses, from the rule
library; only the words for licheck's defaults live here, and `tests/cli/test_facts.py`
checks them against what an evaluation actually supplies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from licheck.core.units import Dimension
from licheck.vocabulary.factdefs import FactDef, FactType
from licheck.vocabulary.names import AT_MOST, CONDUCT, FACTS, SCOPED, TERRITORIAL

if TYPE_CHECKING:
    from licheck.library.compiled import Library

# What licheck assumes for a fact the manifest does not state: (short, in full).  Any fact not
# listed here is unknown until stated: licheck never assumes a fact in a product's favour.
DEFAULTS: dict[str, tuple[str, str]] = {
    "derivative": (
        "true",
        "true: a model trained from the base is a derivative work unless the manifest says "
        "otherwise",
    ),
    "received_in_integrated_product": (
        "false",
        "false: the product's owner obtained the model itself, not inside another licensee's "
        "end user product",
    ),
    "declared_license": (
        "[]",
        "[]: the manifest names no license of the licensee's own for the model, so it is "
        "offered under the licenses it came with",
    ),
    "license_declared": (
        "declared_license",
        "from declared_license: true where it names any license, false for [], unknown where "
        "it is unknown",
    ),
    "distributes_weights": (
        "delivery",
        "from the component's delivery: weights means true, any other delivery false, none unknown",
    ),
    "distributes_code": (
        "delivery",
        "from the component's delivery: a hosted service or API alone ships no code (false); "
        "weights delivered, or no delivery stated, leave it unknown",
    ),
    "made_available": (
        "delivery",
        "from the component's delivery: any delivery means true, none unknown",
    ),
    "model_offered": (
        "delivery",
        "from the component's delivery: weights or api means true; a hosted service alone "
        "leaves it unknown",
    ),
    "model_made_available": (
        "lineage",
        "from the lineage and the delivery: no step means false; a training step with weights "
        "or api delivery means true; otherwise unknown",
    ),
    "modified": (
        "lineage",
        "from the lineage: any step (training, merge, quantization) or training on outputs "
        "means true, no step false",
    ),
    "agreement": ("agreements", "from the manifest's `agreements:` when it lists them"),
    "agreement_waives": ("agreements", "from the manifest's `agreements:` when it lists them"),
    "license_granted": ("agreements", "from the manifest's `agreements:` when it lists them"),
    "lineage": ("lineage", "from the manifest's lineage and its evidence"),
    "outputs_lineage": (
        "lineage",
        "from the lineage's trained_on_outputs_of and its evidence (false where not listed)",
    ),
    "relations": (
        "lineage",
        "from the lineage and the delivery: served, redistributed or internal_use (no step), "
        "fine_tuned, quantized, merged (its steps), distilled, synthetic_data, judge (the roles "
        "of trained_on_outputs_of)",
    ),
    "definition_covers": (
        "unknown",
        "unknown: where the license's definition leaves a relation open, a governance risk",
    ),
    "multimodal": ("catalog", "from the model catalog (unknown where it does not say)"),
    "owner_is_licensor": (
        "owner",
        "from the manifest's owner id and affiliates, matched exactly against the licensor id",
    ),
}
UNKNOWN = ("unknown", "unknown until the manifest states it")
EVIDENCE = '[{source: "Your source", kind: official_statement, date: 2026-01-15}]'
# Example values where the type alone would give a meaningless one.
EXAMPLE_VALUES: dict[str, str] = {
    "ui_attribution": "[Kimi K2.5]",
    "attribution_elsewhere": "[Built with Llama]",
    "territories": "[US, EU]",
    "licensee_domicile": "[US]",
    "agreement": "[moonshot-ai]",
    "agreement_waives": "[kimi-k2.5-modified-mit/ui-attribution]",
    "license_granted": "[llama-3.1-community]",
    "registered_with": "[yi-community-license-v2.1]",
    "model_name": "Llama-3.1-Acme-Coder",
    "declared_license": "[llama3.1]",
    "use_purpose": "[commercial_product]",
}


@dataclass(frozen=True, slots=True)
class FactInfo:
    """One fact as `licheck facts` shows it."""

    definition: FactDef
    read_by: dict[str, tuple[str, ...]] = field(default_factory=dict)  # license -> clause ids
    binds: tuple[str, ...] = ()  # the licenses whose binding (applies_to) it decides

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def kind(self) -> str:
        """The type in a word: count, money/month, money/year, boolean, string, set, tags."""
        definition = self.definition
        if definition.dimension is Dimension.COUNT:
            return "count"
        if definition.dimension is Dimension.MONEY:
            return "money/year" if definition.period_months == 12 else "money/month"
        if definition.members is not None:
            return "tags"
        return definition.type.value

    @property
    def scope(self) -> str:
        """Where it is stated: the manifest (product or component facts, per model or license
        for some), or licheck."""
        if self.definition.implicit:
            return "licheck"
        return "by model" if self.name in SCOPED else "manifest"

    @property
    def scope_text(self) -> str:
        if self.definition.implicit:
            return "supplied by licheck: a manifest cannot state it"
        text = "under `facts:` of the product, or of a component (which overrides the product's)"
        if self.name in SCOPED:
            text += "; under a component also per model (`by_model`) or per license (`by_license`)"
        if self.name in CONDUCT:
            text += "; or, a conduct fact, once for many products in an attestation file"
        return text

    @property
    def default(self) -> tuple[str, str]:
        return DEFAULTS.get(self.name, UNKNOWN)

    @property
    def values(self) -> list[str]:
        """A closed vocabulary's members, then its open families (`policy:LICENSE-ID`)."""
        definition = self.definition
        members = sorted(definition.members or ())
        return members + [f"{prefix}..." for prefix in definition.prefixes]

    @property
    def bounds(self) -> list[str]:
        """What the joint constraints between counts and revenues say about it."""
        per_month = " (both as USD a month)" if self.definition.dimension is Dimension.MONEY else ""
        found = [
            f"never more than {up}{per_month}" for low, up in AT_MOST.items() if low == self.name
        ]
        found += [
            f"never less than {low}{per_month}" for low, up in AT_MOST.items() if up == self.name
        ]
        return found

    @property
    def written(self) -> str:
        """How a value is written in a manifest or a what-if `--set`."""
        definition = self.definition
        if definition.dimension is Dimension.COUNT:
            return "a whole count with K/M/B suffixes (150M, 1.2B); a range: {at_least: 100M}"
        if definition.dimension is Dimension.MONEY:
            return (
                "an amount, a currency and a period (25M USD/month, 300M USD/year, 2B USD ARR, "
                "150M CNY/month with currency_rates); without a period, per "
                + ("year" if definition.period_months == 12 else "month")
                + "; a range: {at_least: 20M USD/month}"
            )
        if definition.type is FactType.BOOLEAN:
            return "true or false"
        if definition.type is FactType.STRING:
            return "a string"
        text = "a list ([] for none), or {includes: [...]} / {excludes: [...]} for what is known"
        if self.name in TERRITORIAL:
            text += "; ISO 3166 alpha-2 codes, EU for the union"
        return text

    @property
    def example(self) -> str:
        """A manifest fragment that states the fact (or says where licheck takes it from)."""
        if self.definition.implicit:
            return f"# {self.name}: supplied by licheck, {self.default[1]}"
        if self.name in ("agreement", "agreement_waives", "license_granted"):
            listed = "agreements:\n  - {licensor: moonshot-ai, waives: [kimi-k2.5-modified-mit/*]}"
            flat = "\n".join(f"# {line}" for line in self._stated().splitlines())
            return f"{listed}\n# or, instead of agreements:, the flat fact:\n{flat}"
        return self._stated()

    def _stated(self) -> str:
        return f"facts:\n  {self.name}:\n    value: {self._value()}\n    evidence: {EVIDENCE}"

    def _value(self) -> str:
        definition = self.definition
        if self.name in EXAMPLE_VALUES:
            return EXAMPLE_VALUES[self.name]
        if definition.dimension is Dimension.COUNT:
            return "150M"
        if definition.dimension is Dimension.MONEY:
            return "300M USD/year" if definition.period_months == 12 else "25M USD/month"
        if definition.type is FactType.BOOLEAN:
            return "true"
        if definition.type is FactType.STRING:
            return "Acme Coder"
        members = sorted(definition.members or ())
        return f"[{members[0]}]" if members else "[]"

    def summary(self) -> dict[str, object]:
        """The fact as `--format json` lists it."""
        return {
            "name": self.name,
            "type": self.definition.type.value,
            "unit": self.definition.unit,
            "scope": self.scope,
            "default": self.default[0],
            "meaning": self.definition.meaning,
            "supplied_by_licheck": self.definition.implicit,
            "values": self.values or None,
        }

    def detail(self) -> dict[str, object]:
        """The fact in full, as `licheck facts NAME --format json` shows it."""
        return {
            **self.summary(),
            "scope_text": self.scope_text,
            "default_text": self.default[1],
            "written": self.written,
            "bounds": self.bounds,
            "read_by": {lid: list(clauses) for lid, clauses in self.read_by.items()},
            "decides_binding_of": list(self.binds),
            "example": self.example,
        }


def every_fact() -> list[FactInfo]:
    """Every fact of the vocabulary, in its order."""
    return [FactInfo(definition) for definition in FACTS.values()]


def one_fact(name: str, clauses: Iterable[ClauseReads]) -> FactInfo | None:
    """The fact `name` with the clauses that read it; None for a name not in the vocabulary."""
    definition = FACTS.get(name)
    if definition is None:
        return None
    read_by: dict[str, list[str]] = {}
    binds: set[str] = set()
    for clause in clauses:
        if name in clause.reads:
            read_by.setdefault(clause.license, []).append(clause.clause)
        if name in clause.binds:
            binds.add(clause.license)
    ordered = {lid: tuple(sorted(ids)) for lid, ids in sorted(read_by.items())}
    return FactInfo(definition, ordered, tuple(sorted(binds)))


@dataclass(frozen=True, slots=True)
class ClauseReads:
    """What one clause of the library reads: the facts of its own conditions (trigger,
    requirement, exceptions), and those that decide whether its license binds at all."""

    license: str
    clause: str
    reads: frozenset[str]
    binds: frozenset[str]


def clauses_of(library: Library) -> Iterator[ClauseReads]:
    """Each clause of the library, with the facts it reads."""
    from licheck.engine.conditions import tests_in

    for license_id, entry in library.licenses.items():
        for compiled in entry.clauses:
            reads = frozenset(test.fact for test in compiled.rule.tests())
            binds = frozenset(test.fact for test in tests_in(compiled.bound.rule.scope))
            yield ClauseReads(license_id, compiled.clause.id, reads, binds)


def markdown_table() -> str:
    """The table of docs/facts.md (between its facts:begin and facts:end markers)."""
    rows = ["| fact | type | unit | meaning |", "|---|---|---|---|"]
    for d in FACTS.values():
        supplied = " (supplied by licheck)" if d.implicit else ""
        rows.append(f"| `{d.name}` | {d.type.value} | {d.unit} | {d.meaning}{supplied} |")
    return "\n".join(rows) + "\n"
