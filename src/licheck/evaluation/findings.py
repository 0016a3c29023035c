"""What an evaluation produces and is given: plain data, for evaluation, reports and what-if."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from licheck.core.diagnostics import Location
from licheck.core.verdicts import Answer, Requirement, Settlement, Verdict
from licheck.engine.exact import Branch
from licheck.facts.evidencepolicy import EvidencePolicy
from licheck.facts.resolution import FactState, Resolver
from licheck.inputs.manifest import EvidenceKind, Manifest

UNKNOWN_MODEL = "unknown"
# What-if facts and swapped bases are hypotheses: they count as established whatever the evidence
# policy or date of the run.
HYPOTHETICAL = EvidencePolicy(
    "what-if", frozenset(EvidenceKind) - {EvidenceKind.RUMOUR}, frozenset()
)


@dataclass(frozen=True, slots=True)
class MissingFact:
    """A fact the verdict still hangs on, and what the verdict would be for each value."""

    fact: FactState
    outcomes: tuple[Branch, ...]  # the verdict for each value


# The fields of `Finding` that the report does not carry as they are: what its explanation
# (`report.explain`) and the notices are written from.
NOT_REPORTED = ("component_name", "summary")


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One clause of one license for one model of one component: the finding every report and
    output shows.  The report's finding (`report.view.FindingOut`, the JSON report's) has these
    fields under the same names, in the same order, the facts and guidance as the report writes
    them, plus what only a report adds (the explanation, the risk kind, waiver and baseline);
    only `NOT_REPORTED` stays here.  tests/report/test_finding_model.py holds the two alike."""

    component: str
    component_name: str
    model: str  # catalog id, or the name as the manifest gives it
    model_name: str
    license: str  # license id, or "unknown"
    license_name: str
    clause: str
    title: str
    kind: str
    quote: str | None
    provenance: str = "verbatim"
    verdict: Verdict
    likely_verdict: Verdict  # with weak evidence (press reports, community inference) admitted
    binds: Answer  # the license binds the component
    triggered: Answer  # the clause's own trigger, where the license binds
    requirement: Requirement  # where triggered and not lifted
    exception: Answer  # an exception lifts it where triggered
    location: Location  # the manifest's entry a reader should look at
    facts: tuple[FactState, ...]
    missing_facts: tuple[MissingFact, ...]  # the open facts the verdict hangs on
    settled_by: tuple[Settlement, ...] = ()  # for a governance risk: what would make it firm
    summary: str | None = None  # the clause's summary: the explanation's first sentence

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.component, self.model, self.license, self.clause)


@dataclass(frozen=True, slots=True)
class LineageModel:
    model: str  # catalog id, or the name as the manifest gives it (as findings name it)
    name: str
    role: str  # base, candidate base, merged in, distilled from, parent, trained on outputs
    status: str  # how well the relation is evidenced: established, likely, disputed, unknown
    step: int | None = None  # a step's parent: the index of that step


@dataclass(frozen=True, slots=True)
class ComponentLineage:
    id: str
    name: str
    delivery: tuple[str, ...]
    steps: tuple[str, ...]  # the step kinds, in order
    models: tuple[LineageModel, ...]


@dataclass(frozen=True, slots=True)
class ProductResult:
    product: str
    owner: str
    file: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    release_date: dt.date | None = None
    components: tuple[ComponentLineage, ...] = ()  # each component's lineage, for the picture


@dataclass(frozen=True, slots=True)
class Hypotheses:
    """A what-if scenario as derivation applies it (`whatif.scenario` builds it): facts that
    replace the manifest's, product- and component-level alike, and catalog models evaluated in
    place of others in every lineage (`unknown`: an undisclosed base).  Both are hypotheses,
    established whatever the evidence policy or date of the run."""

    facts: Mapping[str, FactState] = field(default_factory=dict)
    swaps: Mapping[str, str] = field(default_factory=dict)  # catalog id -> catalog id


class Completing(Protocol):
    """What completes each manifest as it is loaded, before it is evaluated: the run's
    attestations (`report.attestations.Attesting`, a layer above, passed in as this)."""

    def complete(self, manifest: Manifest, file: str) -> Manifest:
        """The manifest as completed (itself when nothing applies to it)."""
        ...


@dataclass(frozen=True, slots=True)
class Options:
    policy: EvidencePolicy
    as_of: dt.date | None = None
    hypotheses: Hypotheses = Hypotheses()  # what-if: none for a plain evaluation
    today: dt.date = field(default_factory=dt.date.today)  # evidence after it is an error
    # Resolves the stated facts as of `as_of` (the timeline's, kept up to date day by day);
    # None: each fact is read afresh.
    resolver: Resolver | None = field(default=None, compare=False)
    # --attestations: the conduct facts attested, applied to each manifest as it is loaded
    attesting: Completing | None = None
