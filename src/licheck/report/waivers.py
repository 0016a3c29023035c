"""Waivers: a responsible person accepts one finding for a while, on the record.

A waiver names one finding (product + license + clause, optionally the component), gives a reason
from a closed list, a comment, an owner and an expiry date, and may pin the fact values it was
granted on.  Applying waivers to a report is a pure function of the report, the waivers and
`today`: a waiver applies while `today <= expires` and every pinned fact still has its pinned
value; otherwise the finding counts again and the report says why.  A waiver that names no
finding, or only findings that no longer need it, is reported too (cargo-deny's unused
exceptions).  Waived findings stay in the report, marked, and do not count toward `--fail-on`.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictStr,
    WithJsonSchema,
    model_validator,
)

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.core.units import UnitError
from licheck.core.verdicts import Verdict
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_reading
from licheck.files import yamlsafe
from licheck.inputs.manifest import FactSpec
from licheck.inputs.rules import Amount, Date, Identifier, RawValue, Strict, Text, require_unique
from licheck.loading.documents import validate
from licheck.loading.factchecks import may_state, stateable
from licheck.report.view import (
    Counts,
    ErrorOut,
    FindingOut,
    ProductOut,
    Report,
    WaiverRef,
    WaiverStatus,
    summarize,
)
from licheck.vocabulary.factdefs import suggest
from licheck.vocabulary.names import FACTS

DEFAULT_FILE = ".licheck-waivers.yaml"
WAIVABLE = frozenset({Verdict.VIOLATION, Verdict.GOVERNANCE_RISK})


class Reason(StrEnum):
    """Why a finding is accepted: a closed list, so reports can be audited by reason."""

    LICENSE_ACQUIRED = "license_acquired"  # a separate agreement or license covers the clause
    LEGAL_OPINION = "legal_opinion"  # counsel concluded the clause does not bind, or is met
    FACTS_PENDING = "facts_pending"  # the facts that would settle it are being gathered
    RISK_ACCEPTED = "risk_accepted"  # the owner accepts the risk until the expiry date
    RULE_ERROR = "rule_error"  # licheck's rule misreads this case (report it upstream)


class PinSpec(Strict):
    """A pinned fact value, written as in a manifest (without evidence)."""

    value: RawValue | None = None
    at_least: Amount | None = None
    at_most: Amount | None = None
    includes: list[StrictStr] | None = None
    excludes: list[StrictStr] | None = None


def _whole_day(value: object) -> object:
    """A waiver's dates are days: `2026-06` could mean the month's first day or its last, and
    `2026` the year's (read as its last, a waiver would run to December in silence)."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d{4}-\d{2}\s*", value):
        raise ValueError(
            f"expected a day as YYYY-MM-DD, got the month {value.strip()!r}: the dates of "
            "waivers and attestations are days (is it the month's first day or its last?)"
        )
    year = isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999
    if year or (isinstance(value, str) and re.fullmatch(r"\s*\d{4}\s*", value)):
        raise ValueError(
            f"expected a day as YYYY-MM-DD, got the year {str(value).strip()!r}: the dates of "
            "waivers and attestations are days (is it the year's first day or its last?)"
        )
    return value


def _not_blank(value: str) -> str:
    """A waiver is on the record: an owner or a comment of spaces records nobody and nothing."""
    if not value.strip():
        raise ValueError("expected text, got only spaces")
    return value


Said = Annotated[Text, AfterValidator(_not_blank)]


# A waiver's date: a day, never a month (the manifest's `Date` also takes a month).
Day = Annotated[
    Date,
    BeforeValidator(_whole_day),
    WithJsonSchema({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$", "format": "date"}),
]


# A pin is a PinSpec, or its value alone (`mau: 150M`): the union keeps both in the schema.
Pin = PinSpec | RawValue


# A license id, or `policy/ORG` for an organisation policy's rules (`licheck.library.orgpolicy`).
PolicyId = Annotated[StrictStr, Field(pattern=r"^policy/[a-z0-9][a-z0-9._-]*$", max_length=127)]
RuleSource = Identifier | PolicyId


class Waiver(Strict):
    id: Identifier = Field(description="a stable name for the waiver, unique in the file")
    product: Said = Field(
        description="the product's name (its manifest's `product:`), or the "
        "manifest's path as licheck reports it"
    )
    license: RuleSource = Field(
        description="the license id (or `unknown` for a finding about an unknown license, or "
        "policy/ORG for a rule of an organisation's policy)"
    )
    clause: Identifier = Field(description="the clause id")
    component: Identifier | None = Field(
        None, description="the component id; without it, the clause in every component"
    )
    reason: Reason
    comment: Said = Field(description="why, in the owner's words")
    owner: Said = Field(description="who is responsible for the waiver")
    expires: Day = Field(description="the last day the waiver applies (YYYY-MM-DD)")
    granted: Day | None = Field(None, description="the day the waiver was granted (YYYY-MM-DD)")
    pins: dict[str, Pin] = Field(
        default_factory=dict,
        description="fact values the waiver was granted on (as in a manifest: a value, a range, "
        "includes/excludes, or unknown); if any changes, the waiver stops applying",
    )


class WaiverFile(Strict):
    waivers: list[Waiver]

    @model_validator(mode="after")
    def _unique_ids(self) -> WaiverFile:
        require_unique("waiver", (w.id for w in self.waivers))
        return self


@dataclass(frozen=True, slots=True)
class LoadedWaiver:
    waiver: Waiver
    file: str
    line: int
    column: int
    pins: dict[str, str]  # fact -> the pinned value, normalised as the report states facts


@dataclass(frozen=True, slots=True)
class Waivers:
    file: str
    entries: tuple[LoadedWaiver, ...]


def load(path: Path, display: str | None = None) -> Waivers:
    """Read and check a waiver file; `InputError` with every problem located."""
    document = yamlsafe.load(path, display)
    parsed = validate(document, WaiverFile)
    problems: list[Diagnostic] = []
    entries = []
    for index, waiver in enumerate(parsed.waivers):
        base = ("waivers", index)
        pins: dict[str, str] = {}
        for name, spec in waiver.pins.items():
            where = (*base, "pins", name)
            if not may_state(name):
                problems.append(
                    document.error(
                        where,
                        f"cannot pin {name!r}: not a fact a manifest states"
                        f"{suggest(name, stateable())}",
                    )
                )
                continue
            fields = spec.model_dump() if isinstance(spec, PinSpec) else {"value": spec}
            try:
                domain, read = claim_reading(FACTS[name], FactSpec(**fields), {})
            except (FactError, UnitError) as exc:
                currency = _foreign_currency(name, fields)
                message = f"pin {name}: {exc}" if currency is None else _in_usd(name, currency)
                problems.append(document.error(where, message))
                continue
            # as the report states the fact (a year's total for a monthly fact: its average)
            pins[name] = "unknown" if domain is None else read.shown() if read else str(domain)
        if waiver.granted is not None and waiver.granted > waiver.expires:
            problems.append(
                document.error(
                    (*base, "granted"),
                    f"waiver {waiver.id} was granted on {waiver.granted.isoformat()}, after it "
                    f"expires ({waiver.expires.isoformat()}): a date cannot be both",
                )
            )
        line, column = document.locate(base)
        entries.append(LoadedWaiver(waiver, document.file, line, column, pins))
    if problems:
        raise InputError(problems)
    return Waivers(document.file, tuple(entries))


def _foreign_currency(name: str, fields: dict[str, Any]) -> str | None:
    """The currency other than US dollars a pin is written in, where that alone keeps it from
    being read (there is no rate for it in a waiver file); None otherwise."""
    words: set[str] = {
        str(w).upper() for v in fields.values() if isinstance(v, str) for w in _WORD.findall(v)
    }
    for currency in sorted(words - {"USD"}):
        try:
            claim_reading(FACTS[name], FactSpec(**fields), {currency: Fraction(1)})
        except (FactError, UnitError):
            continue
        return currency
    return None


_WORD = re.compile(r"\b[A-Za-z]{3}\b")


def _in_usd(name: str, currency: str) -> str:
    return (
        f"pin {name}: written in {currency}. A pin is compared with the fact as the report "
        f"states it, in US dollars (what the clauses read), and the rate of {currency} is the "
        "manifest's, which a waiver file does not know: write the pinned value in USD, in the "
        "period the manifest states it (for `200M EUR/year` at a rate of 1.08: `216M USD/year`); "
        "it is then compared exactly, after the same normalisation, with the fact"
    )


def _key(product: ProductOut, finding: FindingOut) -> str:
    return f"{product.file}#{finding.component}/{finding.license}/{finding.clause}"


def _same_path(named: str, file: str) -> bool:
    """Whether a waiver's `product` names the manifest `file` by its path (`./a.yaml` is
    `a.yaml`)."""
    return named == file or os.path.normpath(named) == os.path.normpath(file)


def _names(waiver: Waiver, product: ProductOut, finding: FindingOut) -> bool:
    return (
        (waiver.product == product.product or _same_path(waiver.product, product.file))
        and waiver.license == finding.license
        and waiver.clause == finding.clause
        and (waiver.component is None or waiver.component == finding.component)
    )


def _pin_changes(entry: LoadedWaiver, finding: FindingOut) -> list[str]:
    facts = {f.name: f for f in finding.facts}
    changes = []
    for name, pinned in sorted(entry.pins.items()):
        fact = facts.get(name)
        if fact is None:
            changes.append(f"{name} is pinned but this finding does not use it")
            continue
        now = "unknown" if fact.stated == "not stated" else fact.stated
        if now != pinned:
            changes.append(f"{name} was {pinned}, is now {now}")
    return changes


@dataclass(frozen=True, slots=True)
class Hit:
    """What one waiver names in one product: all a waiver's status needs of the product, so a
    portfolio's workers can send this instead of the product."""

    waiver: int  # its index in `Waivers.entries`
    file: str  # the product's manifest, as reported
    by_name: bool  # the waiver names the product by its `product:` name (not by its path)
    keys: tuple[str, ...]  # the findings it names, as file#component/license/clause
    open: tuple[int, ...]  # the indexes of those findings that are violations or risks
    verdicts: frozenset[str]  # the verdict labels of the findings it names
    changes: frozenset[str]  # how the facts it pins changed, over its open findings


def hits(waivers: Waivers, product: ProductOut) -> list[Hit]:
    """The waivers that name `product` (by name or path), in file order, with the findings of
    it they name (perhaps none: a waiver naming a product name two manifests share is
    ambiguous whether or not it matches a finding in each)."""
    found = []
    for index, entry in enumerate(waivers.entries):
        waiver = entry.waiver
        by_path = _same_path(waiver.product, product.file)
        by_name = waiver.product == product.product and not by_path
        if not by_name and not by_path:
            continue
        # kept even when it matches nothing: a name that is one manifest's path and another
        # product's name is ambiguous (`Ledger` refuses it), whichever findings it matches today
        matched = [
            f for f, finding in enumerate(product.findings) if _names(waiver, product, finding)
        ]
        open_ = tuple(f for f in matched if product.findings[f].verdict in WAIVABLE)
        found.append(
            Hit(
                index,
                product.file,
                by_name,
                tuple(_key(product, product.findings[f]) for f in matched),
                open_,
                frozenset(product.findings[f].verdict.label for f in matched),
                frozenset(c for f in open_ for c in _pin_changes(entry, product.findings[f])),
            )
        )
    return found


def needs_marking(found: Sequence[Hit]) -> bool:
    """Whether waivers may change the product: only its violations and risks are ever marked."""
    return any(hit.open for hit in found)


class Ledger:
    """What every waiver named across the products, gathered product by product in order; then
    each waiver's status.  Memory: the keys of the findings the waivers name, nothing else."""

    def __init__(self, waivers: Waivers) -> None:
        self.waivers = waivers
        count = len(waivers.entries)
        self._keys: list[list[str]] = [[] for _ in range(count)]
        self._open = [False] * count
        self._verdicts: list[set[str]] = [set() for _ in range(count)]
        self._changes: list[set[str]] = [set() for _ in range(count)]
        self._by_name: list[set[str]] = [set() for _ in range(count)]  # manifests named by name
        self._by_path: list[set[str]] = [set() for _ in range(count)]  # ... and by path

    def add(self, found: Sequence[Hit]) -> None:
        for hit in found:
            (self._by_name if hit.by_name else self._by_path)[hit.waiver].add(hit.file)
            self._keys[hit.waiver].extend(hit.keys)
            self._open[hit.waiver] |= bool(hit.open)
            self._verdicts[hit.waiver] |= hit.verdicts
            self._changes[hit.waiver] |= hit.changes

    def statuses(self, today: dt.date) -> list[WaiverStatus]:
        """Each waiver's status, in file order (after every product was added).  `InputError`
        for a waiver granted after `today`, and for one that names, by its `product:` name, a
        product that two or more manifests of the run share (it could silence them all, now or
        when their findings change), whether or not it matches a finding in each."""
        self._refuse(today)
        return [
            WaiverStatus(
                id=entry.waiver.id,
                file=entry.file,
                line=entry.line,
                column=entry.column,
                status=status,
                message=message,
                findings=list(self._keys[index]),
            )
            for index, entry in enumerate(self.waivers.entries)
            for status, message in [
                _status(
                    entry,
                    bool(self._keys[index]),
                    self._open[index],
                    self._verdicts[index],
                    self._changes[index],
                    today,
                )
            ]
        ]

    def _refuse(self, today: dt.date) -> None:
        problems = []
        for index, entry in enumerate(self.waivers.entries):
            waiver = entry.waiver
            if waiver.granted is not None and waiver.granted > today:
                problems.append(
                    Diagnostic(
                        entry.file,
                        entry.line,
                        entry.column,
                        f"waiver {waiver.id} was granted on {waiver.granted.isoformat()}, after "
                        f"the date it is judged on ({today.isoformat()}): a grant cannot be in "
                        "the future",
                        "correct `granted`, or judge on a later date with --today",
                    )
                )
            named, pathed = sorted(self._by_name[index]), sorted(self._by_path[index])
            if named and pathed:
                problems.append(
                    Diagnostic(
                        entry.file,
                        entry.line,
                        entry.column,
                        f"waiver {waiver.id} names product {waiver.product!r}, which is the path "
                        f"of {pathed[0]} and the product name of {', '.join(named)}: it could "
                        "silence them all",
                        "name one manifest by its path as licheck reports it (e.g. product: "
                        f"{os.path.join('.', pathed[0])}), or rename the product",
                    )
                )
                continue
            files = named
            if len(files) > 1:
                problems.append(
                    Diagnostic(
                        entry.file,
                        entry.line,
                        entry.column,
                        f"waiver {waiver.id} names product {waiver.product!r}, which "
                        f"{len(files)} manifests of this run share ({', '.join(files)}): it "
                        "could silence them all",
                        "name one manifest by its path as licheck reports it "
                        f"(product: {files[0]}), or give the products distinct names",
                    )
                )
        if problems:
            raise InputError(problems)


def mark(product: ProductOut, waivers: Waivers, statuses: Sequence[WaiverStatus]) -> ProductOut:
    """`product` with the findings of the waivers that apply marked waived, and those that
    no longer apply named; `statuses`: every waiver's status over the whole run."""
    refs: dict[int, WaiverRef] = {}  # finding -> the first waiver that applies, else names it
    for hit in hits(waivers, product):
        status = statuses[hit.waiver]
        if status.status not in ("applied", "expired", "pins_changed"):
            continue
        waiver = waivers.entries[hit.waiver].waiver
        ref = WaiverRef(
            id=waiver.id,
            status=status.status,
            reason=waiver.reason.value,
            owner=waiver.owner,
            expires=waiver.expires.isoformat(),
            comment=waiver.comment,
            file=status.file,
            line=status.line,
            message=status.message,
        )
        for position in hit.open:
            current = refs.get(position)
            if current is None or (current.status != "applied" and ref.status == "applied"):
                refs[position] = ref
    return _mark(product, refs)


def apply(report: Report, waivers: Waivers, today: dt.date) -> Report:
    """The report with every applying waiver's findings marked waived, and each waiver's
    status; pure: the same report, waivers and date give the same result."""
    ledger = Ledger(waivers)
    for product in report.products:
        ledger.add(hits(waivers, product))
    statuses = ledger.statuses(today)
    products = [mark(product, waivers, statuses) for product in report.products]
    return report.model_copy(
        update={"products": products, "summary": summarize(products), "waivers": statuses}
    )


def _status(
    entry: LoadedWaiver,
    matched: bool,
    open_: bool,
    verdicts: set[str],
    changes: set[str],
    today: dt.date,
) -> tuple[Literal["applied", "expired", "pins_changed", "unmatched", "not_needed"], str]:
    waiver = entry.waiver
    what = f"{waiver.product}: {waiver.license}/{waiver.clause}" + (
        f" in {waiver.component}" if waiver.component else ""
    )
    if not matched:
        return "unmatched", (
            f"waiver {waiver.id} matches no finding ({what}); remove it or "
            "correct its product, license, clause or component"
        )
    if not open_:
        return "not_needed", (
            f"waiver {waiver.id} is no longer needed: {what} is "
            f"{' / '.join(sorted(verdicts))}; remove it"
        )
    if today > waiver.expires:
        return "expired", (
            f"waiver {waiver.id} expired on {waiver.expires.isoformat()} "
            f"(owner {waiver.owner}): {what} counts again"
        )
    if changes:
        return "pins_changed", (
            f"waiver {waiver.id} no longer applies: the facts it was "
            f"granted on changed ({'; '.join(sorted(changes))}); {what} "
            "counts again"
        )
    return "applied", (
        f"waived by {waiver.id} until {waiver.expires.isoformat()} "
        f"({waiver.reason.value}, owner {waiver.owner}): {waiver.comment}"
    )


def _mark(product: ProductOut, refs: dict[int, WaiverRef]) -> ProductOut:
    if not refs:
        return product
    findings = []
    waived = 0
    for f, finding in enumerate(product.findings):
        ref = refs.get(f)
        if ref is None:
            findings.append(finding)
            continue
        applies = ref.status == "applied"
        waived += applies
        findings.append(finding.model_copy(update={"waived": applies, "waiver": ref}))
    counts = product.counts.model_copy(update={"waived": waived})
    return product.model_copy(
        update={"findings": findings, "counts": Counts(**counts.model_dump())}
    )


def noting_unread(statuses: list[WaiverStatus], errors: Sequence[ErrorOut]) -> list[WaiverStatus]:
    """The statuses; when manifests could not be read, an unmatched waiver's message says that
    it may name one of their products (removing the waiver would be the wrong fix)."""
    if not errors:
        return statuses
    note = "; or it names a product of a manifest that could not be read: fix that first"
    return [
        s.model_copy(update={"message": s.message + note}) if s.status == "unmatched" else s
        for s in statuses
    ]
