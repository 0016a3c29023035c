"""Attestations: an organisation states its conduct once, for every product or a named set.

An attestation says who attests, on which day, until when, for which products (by `product:`
name or by a glob of the manifest's path), on what evidence (an internal review: a source with
its kind), and the conduct facts it attests (`vocabulary.CONDUCT`: a use policy followed, marks
used, claims brought, trade laws complied with).  Only conduct facts may be attested: a
product's users, revenue, UI or lineage are its own record.

Applying attestations to a manifest is a pure function of the manifest, its file, the
attestations and the day judged on: each attested fact the manifest does not state becomes a
stated fact whose evidence is the attestation, so the engine decides as for any stated fact
and the evidence policy weighs its kind.  A fact the manifest states wins, and its note says
that an attestation was set aside; an attestation expired (or not yet made) on the day judged
on attests nothing, and the fact's note says so: the fact is open again.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, JsonValue, StrictStr, model_validator

from licheck.checks.consistency import library_member_problem
from licheck.core.diagnostics import Diagnostic, InputError
from licheck.core.units import UnitError
from licheck.evaluation.findings import Completing
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_reading
from licheck.files import yamlsafe
from licheck.inputs.manifest import Evidence, EvidenceKind, FactSpec, Manifest
from licheck.inputs.rules import Identifier, RawValue, Strict, Text, require_unique
from licheck.library.compiled import Library
from licheck.loading.documents import validate
from licheck.loading.factchecks import strings_claimed, unknown_members, written_at
from licheck.report.waivers import Day, Said
from licheck.vocabulary.factdefs import suggest
from licheck.vocabulary.names import CONDUCT, FACTS


class Scope(Strict):
    """The products an attestation covers: by `product:` name, or by a glob of the manifest's
    path as licheck reports it (`products/*.yaml`)."""

    products: list[Said] = Field(default_factory=list, description="products by name")
    files: list[Said] = Field(
        default_factory=list, description="manifests by a glob of their path (fnmatch)"
    )


class AttestedEvidence(Strict):
    """What the attestation rests on: a source (an internal review) and its kind."""

    source: Said = Field(description="the document, e.g. 'Conduct review 2026-Q1'")
    kind: EvidenceKind = Field(
        description="its kind, weighed by the evidence policy (an internal review is the "
        "owner's official_statement)"
    )
    url: Text | None = None
    note: Text | None = None


class AttestedFact(Strict):
    """A conduct fact, as a manifest writes it (without evidence: the attestation's)."""

    value: RawValue | None = None
    includes: list[StrictStr] | None = None
    excludes: list[StrictStr] | None = None


_ATTESTABLE: list[JsonValue] = [*sorted(CONDUCT)]  # the schema's names of facts


class Attestation(Strict):
    id: Identifier = Field(description="a stable name for the attestation, unique in the file")
    attested_by: Said = Field(description="who attests (a person and role)")
    date: Day = Field(description="the day it was attested (YYYY-MM-DD)")
    expires: Day = Field(description="the last day it holds (YYYY-MM-DD)")
    scope: Literal["all"] | Scope = Field(
        description="`all` for every product, or the products by name or file glob"
    )
    evidence: AttestedEvidence
    facts: dict[StrictStr, AttestedFact | RawValue] = Field(
        min_length=1,
        json_schema_extra={"propertyNames": {"enum": _ATTESTABLE}},
        description="the conduct facts attested, as in a manifest (`use_policy_followed: "
        "true`, `licensor_marks_used: []`)",
    )


class AttestationFile(Strict):
    attestations: list[Attestation]

    @model_validator(mode="after")
    def _consistent(self) -> AttestationFile:
        require_unique("attestation", (a.id for a in self.attestations))
        for a in self.attestations:
            if a.date > a.expires:
                raise ValueError(
                    f"attestation {a.id} was made on {a.date.isoformat()}, after it expires "
                    f"({a.expires.isoformat()})"
                )
            if not isinstance(a.scope, str) and not (a.scope.products or a.scope.files):
                raise ValueError(
                    f"attestation {a.id} names no product: give `products`, `files`, or scope: all"
                )
        return self


@dataclass(frozen=True, slots=True)
class Entry:
    """One attestation as read: where it is written, and its facts as manifest facts."""

    attestation: Attestation
    file: str
    line: int
    column: int
    facts: tuple[tuple[str, FactSpec], ...]
    # each member of a fact that names the library's licenses, with where it is written
    library_ids: tuple[tuple[str, str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Attestations:
    file: str
    entries: tuple[Entry, ...]


def load(path: Path, display: str | None = None) -> Attestations:
    """Read and check an attestation file; `InputError` with every problem located."""
    document = yamlsafe.load(path, display)
    parsed = validate(document, AttestationFile)
    problems: list[Diagnostic] = []
    entries = []
    for index, attestation in enumerate(parsed.attestations):
        base = ("attestations", index)
        facts = []
        named: list[tuple[str, str, int, int]] = []
        for name, given in attestation.facts.items():
            where = (*base, "facts", name)
            refused = _refused(name)
            if refused:
                problems.append(document.error(where, refused, at_key=True))
                continue
            fields = given.model_dump() if isinstance(given, AttestedFact) else {"value": given}
            spec = FactSpec(**{k: v for k, v in fields.items() if v is not None})
            try:
                claim_reading(FACTS[name], spec, {})
            except (FactError, UnitError) as exc:
                problems.append(document.error(where, f"{name}: {exc}"))
                continue
            unknown = list(unknown_members(document, name, spec, where))
            if unknown:
                problems.extend(unknown)
                continue
            facts.append((name, spec))
            if FACTS[name].library_ids is not None:
                for item, at in strings_claimed(spec, where):
                    named.append((name, item, *document.locate(written_at(document, at))))
        line, column = document.locate(base)
        entries.append(Entry(attestation, document.file, line, column, tuple(facts), tuple(named)))
    if problems:
        raise InputError(problems)
    return Attestations(document.file, tuple(entries))


def _refused(name: str) -> str:
    """Why `name` cannot be attested ('' when it can)."""
    if name in CONDUCT:
        return ""
    if name in FACTS:
        return (
            f"cannot attest {name!r}: not a conduct fact but the product's own record; state it "
            f"in the product's manifest (conduct facts: {', '.join(sorted(CONDUCT))})"
        )
    return f"cannot attest {name!r}: not a conduct fact{suggest(name, CONDUCT)}"


def attesting(attestations: Attestations, on: dt.date, library: Library) -> Attesting:
    """The attestations of a run, judged on `on`; `InputError` for a license id the run's
    library does not know (`licensor_marks_used: [llama-3-community]`), located."""
    problems = [
        Diagnostic(entry.file, line, column, f"{name}: {message}", "see `licheck licenses list`")
        for entry in attestations.entries
        for name, item, line, column in entry.library_ids
        if (message := library_member_problem(name, item, library))
    ]
    if problems:
        raise InputError(problems)
    return Attesting(attestations, on)


def covers(attestation: Attestation, product: str, file: str) -> bool:
    """Whether the attestation's scope names this product (by name or by its file's path)."""
    scope = attestation.scope
    if isinstance(scope, str):
        return True
    normal = os.path.normpath(file)
    return product in scope.products or any(
        fnmatch.fnmatchcase(file, glob) or fnmatch.fnmatchcase(normal, os.path.normpath(glob))
        for glob in scope.files
    )


@dataclass(frozen=True, slots=True)
class Attesting:
    """The attestations of a run and the day they are judged on (`--as-of`, else `--today`)."""

    attestations: Attestations
    on: dt.date

    def complete(self, manifest: Manifest, file: str) -> Manifest:
        """The manifest as the run's attestations complete it (`Options.attesting`)."""
        return attest(manifest, file, self.attestations, self.on)


def attested(manifest: Manifest, file: str, attesting: Completing | None) -> Manifest:
    """The manifest as the run's attestations complete it (itself without any)."""
    if attesting is None:
        return manifest
    return attesting.complete(manifest, file)


def attest(
    manifest: Manifest, file: str, attestations: Attestations | None, on: dt.date
) -> Manifest:
    """The manifest with the attested conduct facts it does not state, as of the day `on`
    (pure).  The first attestation in the file that covers the product and holds on `on`
    gives a fact; a stated fact wins and says so in its note; an attestation that does not
    hold on `on` leaves its facts open and says why."""
    if attestations is None:
        return manifest
    facts = dict(manifest.facts)
    stated = set(manifest.facts)  # a component's own statement wins there, unnoted
    for entry in attestations.entries:
        attestation = entry.attestation
        if not covers(attestation, manifest.product, file):
            continue
        where = f"{entry.file}:{entry.line}:{entry.column}"
        holds = attestation.date <= on <= attestation.expires
        for name, spec in entry.facts:
            if name in stated:
                own = facts[name]
                said = f"the product's own statement wins over attestation {attestation.id}"
                note = f"{own.note}; {said} ({where})" if own.note else f"{said} ({where})"
                facts[name] = own.model_copy(update={"note": note})
                continue
            if name in facts and facts[name].evidence:
                continue  # an earlier attestation gave it
            if not holds:
                if name not in facts:
                    facts[name] = FactSpec(value="unknown", note=_lapsed(attestation, on, where))
                continue
            facts[name] = spec.model_copy(
                update={"evidence": [_evidence(attestation, where)], "note": _holds(attestation)}
            )
    if facts == manifest.facts:
        return manifest
    return manifest.model_copy(update={"facts": facts})


def lapsed(attestations: Attestations, on: dt.date) -> list[str]:
    """A line for each attestation that does not hold on `on`, located: what a run says on
    standard error, whichever format it writes (its facts are open again)."""
    return [
        f"{entry.file}:{entry.line}:{entry.column}: note: " + _lapsed(entry.attestation, on)
        for entry in attestations.entries
        if not entry.attestation.date <= on <= entry.attestation.expires
    ]


def _evidence(attestation: Attestation, where: str) -> Evidence:
    given = attestation.evidence
    note = f"attestation {attestation.id} by {attestation.attested_by} ({where})"
    return Evidence(
        source=given.source,
        kind=given.kind,
        date=attestation.date,
        url=given.url,
        note=f"{note}: {given.note}" if given.note else note,
    )


def _holds(attestation: Attestation) -> str:
    return (
        f"attested by {attestation.attested_by} on {attestation.date.isoformat()} "
        f"(attestation {attestation.id}, until {attestation.expires.isoformat()})"
    )


def _lapsed(attestation: Attestation, on: dt.date, where: str = "") -> str:
    if on > attestation.expires:
        why = f"expired on {attestation.expires.isoformat()}"
    else:
        why = f"is dated {attestation.date.isoformat()}, after {on.isoformat()}"
    at = f" ({where})" if where else ""
    return f"attestation {attestation.id}{at} {why}: the facts it attests are open again"
