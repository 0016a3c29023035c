"""From a manifest's facts and their evidence to what the engine may rely on.

Each fact is resolved under an evidence policy and an optional `as_of` date: evidence that did not
yet exist, was retracted, or is a rumour does not count; evidence of an establishing kind fixes the
fact; weaker kinds only make a value *likely* (shown, but treated as unknown for the verdict);
established pieces that contradict each other leave the fact *disputed*.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final, NamedTuple, Protocol, assert_never

from licheck.core import territory
from licheck.core.context import EvaluationContext, Table
from licheck.core.units import Dimension
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet, intersect
from licheck.facts.evidencepolicy import EvidencePolicy, Standing
from licheck.facts.periods import PERIOD_TOTALS, FactError, QuantityReading, quantity_reading
from licheck.inputs.manifest import Evidence, EvidenceKind, FactSpec, Source
from licheck.inputs.rules import earliest
from licheck.vocabulary.factdefs import FactDef, FactType
from licheck.vocabulary.names import FACTS, TERRITORIAL

K = EvidenceKind
# The evidence of a value the manifest states without any (Evidence is immutable: one serves all).
STATED: Final = Evidence(source="stated in the manifest", kind=K.DECLARED)


class Status(StrEnum):
    ESTABLISHED = "established"
    LIKELY = "likely"  # only weak evidence: shown, treated as unknown
    DISPUTED = "disputed"  # counting evidence contradicts itself: treated as unknown
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class EvidenceView:
    """One piece of evidence as the report shows it: what it is and whether it counted."""

    source: str
    kind: EvidenceKind
    date: dt.date | None
    url: str | None
    retracted_on: dt.date | None
    note: str | None
    claim: str | None  # what this piece claims, where it differs from the fact's value
    counted: str  # establishes / suggests / ignored: <why> (`Counted.shown`)


@dataclass(frozen=True, slots=True)
class FactState:
    """A fact as the engine sees it: the values still possible and why."""

    name: str
    definition: FactDef
    status: Status
    domain: Domain  # the values possible for the verdict (everything when not established)
    shown: str  # the value as the report states it
    likely: Domain | None = None  # with weak evidence admitted, where it narrows the domain
    evidence: tuple[EvidenceView, ...] = ()
    note: str | None = None
    path: tuple[str | int, ...] = ()
    series: tuple[tuple[str, FactState], ...] = ()  # by month (YYYY-MM), ascending
    reading: str | None = None  # how a clause reads it, where not as stated (a date, a bound)
    written: str | None = None  # a quantity as written, where normalising changed it (ARR, EUR)
    averaged: bool = False  # `likely` is only a year's average month: it bounds no other fact
    # Kept by a run's memo table and used by many products: what is made of it may be kept too.
    lasting: bool = field(default=False, compare=False)


def _full_domain(kind: FactType, dimension: Dimension | None) -> Domain:
    match kind:
        case FactType.QUANTITY:
            return Interval.everything(dimension or Dimension.COUNT)
        case FactType.BOOLEAN:
            return Booleans(frozenset({True, False}))
        case FactType.STRING:
            return Strings(None)
        case FactType.SET:
            return StringSet(frozenset(), frozenset(), False)
    raise AssertionError(kind)  # pragma: no cover


# Every value of each type: one shared, immutable object per type (and dimension).
_FULL: Final[Mapping[tuple[FactType, Dimension | None], Domain]] = MappingProxyType(
    {
        (kind, dimension): _full_domain(kind, dimension)
        for kind in FactType
        for dimension in (Dimension if kind is FactType.QUANTITY else (None,))
    }
)


def full_domain(definition: FactDef) -> Domain:
    """Every value of the fact's type (one shared, immutable object per type)."""
    if definition.type is FactType.QUANTITY:
        return _FULL[definition.type, definition.dimension or Dimension.COUNT]
    return _FULL[definition.type, None]


def _full_key(domain: Domain) -> tuple[FactType, Dimension | None]:
    """The key of `_FULL` for the facts whose values `domain` is made of."""
    match domain:
        case Interval():
            return FactType.QUANTITY, domain.dimension
        case Booleans():
            return FactType.BOOLEAN, None
        case Strings():
            return FactType.STRING, None
        case StringSet():
            return FactType.SET, None
    raise AssertionError(domain)  # pragma: no cover


def claim_domain(
    definition: FactDef,
    spec: FactSpec | Evidence,
    rates: dict[str, Fraction],
    memo: EvaluationContext | None = None,
) -> Domain | None:
    """The values a fact (or one piece of evidence) claims; None when it claims nothing."""
    return claim_reading(definition, spec, rates, memo)[0]


def claim_reading(
    definition: FactDef,
    spec: FactSpec | Evidence,
    rates: dict[str, Fraction],
    memo: EvaluationContext | None = None,
) -> tuple[Domain | None, QuantityReading | None]:
    """`claim_domain`, with how a quantity's figures were read (for the report)."""
    value, at_least, at_most = spec.value, spec.at_least, spec.at_most
    includes, excludes = spec.includes, spec.excludes
    if value == "unknown":
        if any(x is not None for x in (at_least, at_most, includes, excludes)):
            raise FactError("a value of unknown cannot be combined with other bounds", ("value",))
        return None, None
    kind = definition.type
    if kind is not FactType.QUANTITY and (at_least is not None or at_most is not None):
        key = "at_least" if at_least is not None else "at_most"
        raise FactError(
            f"{definition.name} is a {kind.value}, not a quantity: it has no {key}", (key,)
        )
    if kind is not FactType.SET and (includes is not None or excludes is not None):
        key = "includes" if includes is not None else "excludes"
        raise FactError(f"{definition.name} is a {kind.value}, not a set: it has no {key}", (key,))
    if kind is FactType.QUANTITY:
        read = quantity_reading(definition, value, at_least, at_most, rates, memo)
        return (read.domain if read is not None else None), read
    return _plain_claim(definition, value, includes, excludes), None


def _plain_claim(
    definition: FactDef, value: Any, includes: list[str] | None, excludes: list[str] | None
) -> Domain | None:
    match definition.type:
        case FactType.BOOLEAN:
            if value is None:
                return None
            if not isinstance(value, bool):
                raise FactError(
                    f"{definition.name} is true or false (or unknown), got {value!r}", ("value",)
                )
            return Booleans(frozenset({value}))
        case FactType.STRING:
            if value is None:
                return None
            if not isinstance(value, str):
                raise FactError(f"{definition.name} is a string, got {value!r}", ("value",))
            return Strings(value)
        case FactType.SET:
            return _set_claim(definition, value, includes, excludes)
    raise AssertionError(definition.type)  # pragma: no cover


def _set_claim(
    definition: FactDef, value: Any, includes: list[str] | None, excludes: list[str] | None
) -> Domain | None:
    if value is not None:
        if includes is not None or excludes is not None:
            raise FactError(
                "give either the whole set as value, or includes / excludes", ("value",)
            )
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise FactError(f"{definition.name} is a list of strings, got {value!r}", ("value",))
        if definition.name in TERRITORIAL:
            return StringSet(_territories(items, territory.including, "value"), frozenset(), True)
        return StringSet(frozenset(items), frozenset(), True)
    if includes is None and excludes is None:
        return None
    if definition.name in TERRITORIAL:
        domain = StringSet(
            _territories(includes or [], territory.including, "includes"),
            _territories(excludes or [], territory.excluding, "excludes"),
            False,
        )
    else:
        domain = StringSet(frozenset(includes or ()), frozenset(excludes or ()), False)
    if domain.is_empty():
        both = sorted(domain.includes & domain.excludes)
        raise FactError(
            f"{', '.join(map(repr, both))} is both included and excluded", ("includes",)
        )
    return domain


def _territories(
    codes: list[str], expand: Callable[[list[str]], frozenset[str]], key: str
) -> frozenset[str]:
    try:
        return expand(codes)
    except territory.TerritoryError as exc:
        raise FactError(str(exc), (key,)) from None


class Resolver(Protocol):
    """Resolves stated facts in place of `resolve` (the timeline: one manifest on many days,
    each fact kept up to date as its evidence changes instead of read afresh)."""

    def resolve(
        self, name: str, spec: FactSpec, context: Resolution, path: tuple[str | int, ...]
    ) -> FactState: ...


@dataclass(frozen=True, slots=True)
class Resolution:
    """Everything `resolve` needs besides the fact itself."""

    policy: EvidencePolicy
    as_of: dt.date | None
    rates: dict[str, Fraction] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    memo: EvaluationContext = field(default_factory=EvaluationContext, compare=False)
    resolver: Resolver | None = field(default=None, compare=False)


# A fact no manifest states, at no path, by its name (the name is the whole of it).
UNSTATED: Table[str, FactState] = Table("unstated")


def unstated(
    name: str, path: tuple[str | int, ...] = (), memo: EvaluationContext | None = None
) -> FactState:
    """A fact the manifest does not state: every value is possible."""
    table = memo.table(UNSTATED) if not path and memo is not None else None
    if table is not None:  # shared: clauses read many facts no manifest states
        found = table.get(name)
        if found is not None:
            return found
    definition = FACTS[name]
    state = FactState(
        name, definition, Status.UNKNOWN, full_domain(definition), "not stated", path=path
    )
    if table is not None:
        table.keep(name, share(state))
    return state


def share(state: FactState) -> FactState:
    """The state marked as one that many products use (kept in a memo table), so that what is
    made of it (the report's part) may be kept across products too."""
    return dataclasses.replace(state, lasting=True)


def shared(state: FactState) -> bool:
    return state.lasting


def resolve(
    name: str,
    spec: FactSpec | None,
    context: Resolution,
    *,
    path: tuple[str | int, ...] = (),
) -> FactState:
    """Resolve one fact (None: not stated) under the policy and date of `context`."""
    definition = FACTS[name]
    if spec is None:
        return unstated(name, path, context.memo)
    if context.resolver is not None:
        return context.resolver.resolve(name, spec, context, path)
    rates, memo = context.rates, context.memo
    own = claim_reading(definition, spec, rates, memo)
    weighed = _Weighed()
    for index, piece in enumerate(spec.evidence or ([STATED] if own[0] is not None else [])):
        cited = _cited(piece, context.sources, index)
        claims = piece.claims  # a piece that claims nothing of its own stands for the fact's value
        claim, read = claim_reading(definition, piece, rates, memo) if claims else own
        counted = _counted(cited.kind, cited.date, cited.retracted, context)
        weighed.add(name, counted.standing, claim, read)
        claimed = (read.shown() if read else str(claim)) if claims and claim else None
        weighed.views.append(
            EvidenceView(
                cited.title,
                cited.kind,
                cited.date,
                cited.url,
                cited.retracted,
                cited.note,
                claimed,
                counted.shown(),
            )
        )
    weighed.agree_parts(definition)
    status, domain, likely, averaged = settle(
        definition, weighed.established, weighed.suggested, weighed.averages
    )
    series = resolve_series(name, spec, context, path)
    return FactState(
        name,
        definition,
        status,
        domain,
        _shown(own, series),
        likely,
        tuple(weighed.views),
        spec.note,
        path,
        series,
        reading=" ".join(weighed.readings) or None,
        written="; ".join(weighed.written) or None,
        averaged=averaged,
    )


class Counted(NamedTuple):
    """How one piece of evidence counted, and for an ignored piece why."""

    standing: Standing
    why: str | None = None

    def shown(self) -> str:
        """As reports show it: establishes, suggests, or ignored: <why>."""
        return f"{self.standing}: {self.why}" if self.why else str(self.standing)


class _Weighed:
    """A fact's evidence as `resolve` adds it up, piece by piece.  (A plain class: a private
    accumulator needs none of a dataclass's methods, which cost 0.2 ms to make at each start.)"""

    __slots__ = ("averages", "established", "parts", "readings", "suggested", "views", "written")

    def __init__(self) -> None:
        self.established: list[Domain] = []
        self.suggested: list[Domain] = []
        self.averages: list[Domain] = []  # a year's total of a monthly fact
        self.readings: dict[str, None] = {}  # how clauses read the figures
        self.written: dict[str, None] = {}  # the figures as written
        self.views: list[EvidenceView] = []
        # each counted claim beside the figures it was read from, for `agree_parts`
        self.parts: list[tuple[list[Domain], int, QuantityReading]] = []

    def agree_parts(self, definition: FactDef) -> None:
        """A figure for part of a total's period beside a figure for the whole (a month's revenue
        beside the year's filing, for a yearly total such as `licensee_annual_revenue`) is a
        part of it, not a rival reading: the total holds that part, so the part bounds it from
        below (a month of 35M USD beside a year of 360M USD agrees), never a dispute.  Alone, a
        part keeps its conventional reading (a month times twelve)."""
        if definition.name not in PERIOD_TOTALS:
            return
        whole = [r for _, _, r in self.parts if _covers(r, definition.period_months)]
        if not whole:
            return
        for claims, index, read in self.parts:
            if read in whole or any(s.recurring for s in read.stated):
                continue
            claims[index] = _part_floor(read, definition.period_months)

    def add(
        self, name: str, standing: Standing, claim: Domain | None, read: QuantityReading | None
    ) -> None:
        """One piece's claim, as it counts: an ignored piece adds nothing, not even its figures."""
        match standing:
            case Standing.IGNORED:
                return
            case Standing.ESTABLISHES:
                claims = self.established
            case Standing.SUGGESTS:
                claims = self.suggested
            case _:  # pragma: no cover
                assert_never(standing)
        if claim is not None:
            if read is not None and read.stated:
                self.parts.append((claims, len(claims), read))
            claims.append(claim)
            if read is not None and read.average is not None:
                self.averages.append(read.average)  # likely, never decisive
        if read is not None:
            self.readings.update(dict.fromkeys(filter(None, [read.reading(name)])))
            self.written.update(dict.fromkeys(filter(None, [read.written()])))


def _covers(read: QuantityReading, period_months: int) -> bool:
    """Every figure of the claim is for the fact's whole period (a year), or longer."""
    return all(s.months >= period_months for s in read.stated)


def _part_floor(read: QuantityReading, period_months: int) -> Domain:
    """What a figure for part of the period says of the whole: at least that part (amounts are
    normalised per month, so a month of `a` is a total of at least `a / 12` a month)."""
    assert isinstance(read.domain, Interval)
    months = min(s.months for s in read.stated)
    return Interval(
        read.domain.lo * months / period_months, True, None, False, read.domain.dimension
    )


def _shown(
    own: tuple[Domain | None, QuantityReading | None],
    series: tuple[tuple[str, FactState], ...],
) -> str:
    """The fact's value as the report states it: as stated, by month, or unknown."""
    claim, read = own
    if claim is not None:
        return read.shown() if read else str(claim)
    if series:
        return "by month: " + ", ".join(f"{month} {state.shown}" for month, state in series)
    return "unknown"


def settle(
    definition: FactDef,
    established: list[Domain],
    suggested: list[Domain],
    averages: list[Domain],
) -> tuple[Status, Domain, Domain | None, bool]:
    """A fact's status, values and likely value from the claims that establish it, those that
    only suggest a value, and the years' totals counted as average months (`averages`); the
    last value says whether the likely value is that average (`_with_averages`)."""
    status, domain, likely = _combine(definition, established, suggested)
    status, likely, averaged = _with_averages(definition, status, domain, likely, averages)
    return status, domain, likely, averaged


@dataclass(frozen=True, slots=True)
class PieceClaim:
    """One piece of a fact's evidence as its standing on a day needs it (`standing`)."""

    kind: EvidenceKind
    date: dt.date | None
    retracted: dt.date | None
    claim: Domain | None  # what it claims (the fact's own value, when it claims nothing itself)
    average: Domain | None  # a year's total, as the average month, for a monthly fact


def piece_claims(name: str, spec: FactSpec, context: Resolution) -> list[PieceClaim]:
    """The pieces of a stated fact's evidence, read as `resolve` reads them."""
    definition = FACTS[name]
    own = claim_reading(definition, spec, context.rates, context.memo)
    claims = []
    for index, piece in enumerate(spec.evidence or ([STATED] if own[0] is not None else [])):
        cited = _cited(piece, context.sources, index)
        claim, read = (
            claim_reading(definition, piece, context.rates, context.memo) if piece.claims else own
        )
        average = read.average if read is not None and claim is not None else None
        claims.append(PieceClaim(cited.kind, cited.date, cited.retracted, claim, average))
    return claims


def standing(piece: PieceClaim, context: Resolution) -> Standing:
    """How a piece counts as of `context.as_of`: it changes only on the days `standing_days`
    names."""
    return _counted(piece.kind, piece.date, piece.retracted, context).standing


def standing_days(piece: PieceClaim) -> set[dt.date]:
    """The days from which a piece's standing may differ from the day before: for its date and
    its retraction, the first day (of a month or a year written) and the last."""
    return {
        day
        for date in (piece.date, piece.retracted)
        if date is not None
        for day in (earliest(date), dt.date(date.year, date.month, date.day))
    }


def resolve_series(
    name: str, spec: FactSpec, context: Resolution, path: tuple[str | int, ...]
) -> tuple[tuple[str, FactState], ...]:
    """Each month of a series resolved as a fact of its own; a month without evidence of its own
    takes the fact's evidence (the figures come from the same source)."""
    if spec.series is None:
        return ()
    definition = FACTS[name]
    if definition.type is not FactType.QUANTITY:
        raise FactError(
            f"{name} is a {definition.type.value}: only quantities can be given by month",
            ("series",),
        )
    months = []
    for month, entry in sorted(spec.series.items()):
        for key in ("series", "by_model", "by_license"):
            if getattr(entry, key) is not None:  # never read: refused, not skipped
                raise FactError(
                    f"a month of a series is one figure for the whole: {key} cannot be "
                    "stated inside it",
                    ("series", month, key),
                )
        if not entry.evidence and spec.evidence:
            entry = entry.model_copy(update={"evidence": spec.evidence})
        try:
            state = resolve(name, entry, context, path=(*path, "series", month))
        except FactError as exc:
            raise FactError(str(exc), ("series", month, *exc.path)) from None
        months.append((month, state))
    return tuple(months)


class _Cited(NamedTuple):
    """A piece of evidence with what it leaves unsaid taken from the source it cites (a key of
    the manifest's `sources:`), as a report shows it and `_counted` weighs it."""

    title: str
    kind: EvidenceKind
    date: dt.date | None
    retracted: dt.date | None
    url: str | None
    note: str | None


def _cited(piece: Evidence, sources: dict[str, Source], index: int) -> _Cited:
    """`piece` completed from the source it cites; `FactError` where it still lacks a kind or
    a date, or is retracted before its own date."""
    source = sources.get(piece.source)
    kind = piece.kind or (source.kind if source else None)
    date = piece.date or (source.date if source else None)
    if kind is None:
        raise FactError(
            f"evidence {piece.source!r} needs a kind (or cite a key of sources:)",
            ("evidence", index, "kind"),
        )
    if date is None and kind is not K.DECLARED:
        raise FactError(
            f"evidence {piece.source!r} needs a date (or cite a key of sources:)",
            ("evidence", index, "date"),
        )
    retracted = piece.retracted_on or (source.retracted_on if source else None)
    # both dates the cited source's: `consistency` refuses it once, at the source
    own = piece.date is not None or piece.retracted_on is not None
    if retracted is not None and date is not None and retracted < date and own:
        raise FactError(
            f"evidence {piece.source!r} is retracted ({retracted}) before its date ({date})",
            ("evidence", index, "retracted_on"),
        )
    if source is None:
        return _Cited(piece.source, kind, date, retracted, piece.url or None, piece.note or None)
    url, note = piece.url or source.url, piece.note or source.note
    return _Cited(source.title, kind, date, retracted, url, note)


def _counted(
    kind: EvidenceKind, date: dt.date | None, retracted: dt.date | None, context: Resolution
) -> Counted:
    """How a piece of evidence counts under the policy and as of the date of `context`."""
    if kind is K.RUMOUR:
        return Counted(Standing.IGNORED, "rumours never count")
    as_of = context.as_of
    if as_of is not None and date is not None and earliest(date) > as_of:
        return Counted(Standing.IGNORED, f"dated after --as-of {as_of.isoformat()}")
    if retracted is not None and (as_of is None or retracted <= as_of):
        return Counted(Standing.IGNORED, f"retracted on {retracted.isoformat()}")
    tier = context.policy.tier(kind)
    if tier is Standing.IGNORED:
        policy = context.policy.name
        return Counted(tier, f"the {policy} evidence policy does not count {kind.value}")
    # A month or a year that --as-of falls in: whether the piece existed (or was already
    # retracted) then depends on the day, so it only makes its value likely.
    if as_of is not None and any(
        d is not None and earliest(d) <= as_of < d for d in (date, retracted)
    ):
        return Counted(Standing.SUGGESTS)
    return Counted(tier)


def _combine(
    definition: FactDef, established: list[Domain], suggested: list[Domain]
) -> tuple[Status, Domain, Domain | None]:
    everything = full_domain(definition)
    if established:
        known = _meet(everything, established)
        if known is None:
            return Status.DISPUTED, everything, None
        likely = _meet(known, suggested) if suggested else None
        if suggested and likely is None:
            # Weaker evidence that contradicts the established value leaves the fact open: so a
            # stricter policy, which demotes some established pieces, never settles a dispute.
            return Status.DISPUTED, everything, None
        return Status.ESTABLISHED, known, likely if likely != known else None
    if suggested:
        likely = _meet(everything, suggested)
        if likely is None:
            return Status.DISPUTED, everything, None
        return Status.LIKELY, everything, likely
    return Status.UNKNOWN, everything, None


def _with_averages(
    definition: FactDef,
    status: Status,
    domain: Domain,
    likely: Domain | None,
    averages: list[Domain],
) -> tuple[Status, Domain | None, bool]:
    """A year's total for a monthly fact gives the average month: likely where nothing firmer
    says otherwise, never a contradiction of a month's own figure (a year of 240M USD holds a
    month of 30M), and never established.  The last value: whether the likely value is that
    average."""
    if not averages or status is Status.DISPUTED:
        return status, likely, False
    average = _meet(likely if likely is not None else domain, averages)
    averaged = average is not None and average != domain
    if averaged:
        likely = average
    if status is Status.ESTABLISHED and domain == full_domain(definition):
        status = Status.LIKELY  # only the average month is known: not established
    return status, likely, averaged


def _meet(start: Domain, claims: list[Domain]) -> Domain | None:
    domain = start
    for claim in claims:
        # A fact's whole domain meets a claim (of the same fact, never empty) in an equal
        # domain: skip the intersection, which compares fractions.
        domain = claim if domain is _FULL[_full_key(claim)] else intersect(domain, claim)
        if domain.is_empty():
            return None
    return domain
