"""One notion of a separate agreement: the facts `agreement`, `agreement_waives` and
`license_granted` as a manifest's `agreements:` implies them (or its flat `agreement` fact).

The list is complete (`none`: there is none): a licensor with no agreement granted and waived
nothing of its licenses.  An agreement's terms, where known, bound what that licensor granted and
waived; where unknown (`terms: unknown`, or `grants` / `waives` omitted) its licenses stay open.
That an agreement grants or waives something counts only as far as its own evidence does (a press
report makes it likely, not established); the completeness of the list is the manifest's own
declaration.  A gate's grant is only ever a `grants` entry: another contract with the same
company is not the license the gate asks for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from licheck.engine.domains import Domain, StringSet
from licheck.facts.evidencepolicy import EvidencePolicy, Standing
from licheck.facts.resolution import STATED, FactState, Status
from licheck.inputs.manifest import Agreement, Evidence, EvidenceKind, FactSpec


class Licensors(Protocol):
    def licensors(self) -> Mapping[str, str | None]:
        """Each license's licensor (None: it names none)."""
        ...


class Parties(Protocol):
    """What an agreement is read against, passed in by the caller (a compiled library, a layer
    above, is one): each license's licensor, and the members of each set fact that some clause
    reads (its set operands)."""

    @property
    def licenses(self) -> Licensors: ...

    @property
    def operands(self) -> Mapping[str, frozenset[str]]: ...


D = TypeVar("D", bound=Domain | None)
NAMES = ("agreement", "agreement_waives", "license_granted")
_COMPLETE = Evidence(
    source="the manifest's agreements: (every agreement is listed)", kind=EvidenceKind.DECLARED
)


def of_licensor(library: Parties, licensor: str | None, fact: str) -> set[str]:
    """The members of `fact` that some clause reads and only `licensor` could grant or waive
    (license ids; license-id/clause-id or license-id/*).  Clauses read no other member, so
    ruling these out is as good as ruling out all of that licensor's, and legible."""
    mine = {i for i, named in library.licenses.licensors().items() if named == licensor}
    return {item for item in read_by_clauses(library, fact) if item.partition("/")[0] in mine}


def read_by_clauses(library: Parties, fact: str) -> frozenset[str]:
    """The members of `fact` that some clause reads (compiled once with the library)."""
    return library.operands.get(fact, frozenset())


def licensors_of(library: Parties) -> set[str]:
    """Every licensor of a license of the library: those an agreement can be with."""
    return {named for named in library.licenses.licensors().values() if named}


def _terms(agreement: Agreement, fact: str) -> list[str] | None:
    return agreement.grants if fact == "license_granted" else agreement.waives


def _known_bounds(agreements: Sequence[Agreement], library: Parties, fact: str) -> set[str]:
    """What the complete list rules out: everything of a licensor none of the agreements is
    with, and of a licensor whose agreements' terms are all known, whatever they do not list."""
    if fact == "agreement":
        return licensors_of(library) - {a.licensor for a in agreements}
    excluded: set[str] = set()
    for licensor in licensors_of(library):
        mine = [a for a in agreements if a.licensor == licensor]
        lists = [_terms(a, fact) for a in mine]
        if any(items is None for items in lists):
            continue  # terms unknown: that licensor's licenses stay open
        listed = {item for items in lists for item in items or ()}
        excluded |= of_licensor(library, licensor, fact) - listed
    return excluded


def _claims(agreement: Agreement, fact: str) -> tuple[str, ...]:
    """What an agreement's existence adds to `fact`."""
    if fact == "agreement":
        return (agreement.licensor,)
    return tuple(_terms(agreement, fact) or ())


def evidence_for(
    agreement: Agreement, siblings: list[Agreement], fact: str, library: Parties
) -> list[Evidence]:
    """The agreement's evidence, each piece claiming what it shows of `fact`: that it exists
    adds what it grants or waives; that it does not (`value: false`) takes away everything of
    its licensor's, or, beside other agreements with that licensor, what only it gives."""
    gives = set(_claims(agreement, fact))
    if siblings:
        taken = gives - {item for s in siblings for item in _claims(s, fact)}
    elif fact == "agreement":
        taken = gives
    else:  # the licensor's only agreement: without it, nothing granted or waived
        taken = of_licensor(library, agreement.licensor, fact)
    pieces = []
    for piece in agreement.evidence or [STATED]:
        claim: dict[str, list[str] | None]
        if piece.value is False:
            claim = {"value": None, "excludes": sorted(taken) or None}
        else:
            claim = {"includes": sorted(gives)}
        pieces.append(piece.model_copy(update=claim))
    return pieces


def agreement_specs(
    agreements: Sequence[Agreement],
    library: Parties,
    note: str | None = None,
    none_shown_by: Sequence[Evidence] = (),
) -> dict[str, FactSpec]:
    """The three facts as the complete list of agreements states them (`none_shown_by`: the
    evidence that there is none, for an empty list; none: the manifest declares it)."""
    specs: dict[str, FactSpec] = {}
    for fact in NAMES:
        if not agreements:
            shown_by = list(none_shown_by) or [_COMPLETE]
            specs[fact] = FactSpec(value=[], evidence=shown_by, note=note)
            continue
        bounds = sorted(_known_bounds(agreements, library, fact))
        pieces = [_COMPLETE.model_copy(update={"excludes": bounds})]
        for agreement in agreements:
            siblings = [
                a for a in agreements if a is not agreement and a.licensor == agreement.licensor
            ]
            pieces += evidence_for(agreement, siblings, fact, library)
        specs[fact] = FactSpec(evidence=pieces, note=note)
    return specs


def exact_state(
    state: FactState,
    listed: Sequence[Agreement],
    each: Sequence[FactState],
    policy: EvidencePolicy,
    library: Parties,
) -> FactState:
    """`state` (the fact as `agreement_specs` states it, for its evidence) with the values the
    listed agreements allow over every completion (`exact_domain`): `each` is every agreement's
    own `agreement` fact.  The list's completeness is the manifest's declaration, as strong as
    the policy makes declared evidence."""
    fact = state.name
    exists = [existence(s, a.licensor) for s, a in zip(each, listed, strict=True)]
    tier = policy.tier(EvidenceKind.DECLARED)
    domain = settled(
        exact_domain(listed, [e for e, _ in exists], tier is Standing.ESTABLISHES, library, fact),
        library,
        fact,
    )
    likely = settled(
        exact_domain(listed, [e for _, e in exists], tier is not Standing.IGNORED, library, fact),
        library,
        fact,
    )
    if domain.exact or domain.includes or domain.excludes:
        status = Status.ESTABLISHED
    else:
        status = Status.LIKELY if likely != domain else Status.UNKNOWN
    disputed = [
        f"agreements[{i}] ({a.licensor}) is disputed: its evidence both shows and denies it, so "
        f"what it gives may or may not hold."
        for i, (a, s) in enumerate(zip(listed, each, strict=True))
        if s.status is Status.DISPUTED
    ]
    return dataclasses.replace(
        state,
        status=status,
        domain=domain,
        likely=None if likely == domain else likely,
        shown=shown(listed, fact),
        reading=" ".join(disputed) or None,
    )


def existence(state: FactState, licensor: str) -> tuple[frozenset[bool], frozenset[bool]]:
    """Whether one agreement exists, from its own `agreement` fact (its evidence, resolved
    alone): the values possible for the verdict, and with weak evidence admitted.  Evidence
    that both shows and denies it (disputed) leaves both open."""

    def values(domain: Domain) -> frozenset[bool]:
        assert isinstance(domain, StringSet)
        if licensor in domain.includes:
            return frozenset({True})
        if licensor in domain.excludes or (domain.exact and licensor not in domain.includes):
            return frozenset({False})
        return frozenset({True, False})

    likely = state.likely if state.likely is not None else state.domain
    return values(state.domain), values(likely)


def exact_domain(
    agreements: Sequence[Agreement],
    exists: Sequence[frozenset[bool]],
    complete: bool,
    library: Parties,
    fact: str,
) -> StringSet:
    """`fact` over every completion of the agreements' existence, licensor by licensor: each
    agreement may exist or not as its own evidence allows, and one whose terms are unknown may
    grant or waive anything of its licensor's.  A member is in every completion when an agreement
    that surely exists surely gives it; in none (the list being `complete`) when no agreement
    that may exist may give it.  Clauses read one member test of these facts each (`contains` /
    `contains_any`), so the members' bounds decide them exactly; one agreement's doubt touches
    only its own licensor's members."""
    includes: set[str] = set()
    for agreement, values in zip(agreements, exists, strict=True):
        known = fact == "agreement" or _terms(agreement, fact) is not None
        if values == {True} and known:
            includes |= set(_claims(agreement, fact))
    excludes: set[str] = set()
    if complete:
        for licensor in licensors_of(library):
            mine = [
                (a, values)
                for a, values in zip(agreements, exists, strict=True)
                if a.licensor == licensor
            ]
            members = {licensor} if fact == "agreement" else of_licensor(library, licensor, fact)
            for member in members:
                if not any(True in values and _may_give(a, fact, member) for a, values in mine):
                    excludes.add(member)
    return StringSet(frozenset(includes), frozenset(excludes - includes), False)


def _may_give(agreement: Agreement, fact: str, member: str) -> bool:
    """Whether the agreement, if it exists, may give `member` of `fact`."""
    if fact == "agreement":
        return member == agreement.licensor
    terms = _terms(agreement, fact)
    return terms is None or member in terms


def settled(domain: D, library: Parties, fact: str) -> D | StringSet:
    """A set whose every member any clause reads is decided, as the exact set it is (`[]`
    rather than a list of exclusions): members no clause reads cannot change a verdict."""
    if not isinstance(domain, StringSet) or domain.exact:
        return domain
    readable = licensors_of(library) if fact == "agreement" else read_by_clauses(library, fact)
    if readable - domain.includes <= domain.excludes:
        return StringSet(domain.includes, frozenset(), True)
    return domain


def shown(agreements: Sequence[Agreement], fact: str) -> str:
    """The fact as the report states it (its domain lists every excluded id: too long)."""
    if not agreements:
        return "none (no separate agreement)"
    parts = []
    for a in agreements:
        via = f" via {a.via}" if a.via else ""
        if fact == "agreement":
            parts.append(f"{a.licensor}{via}")
            continue
        items = _terms(a, fact)
        listed = "unknown" if items is None else ", ".join(items) or "nothing"
        parts.append(f"{a.licensor}{via}: {listed}")
    return "; ".join(parts)


def implied_by_flat(agreement: FactSpec, library: Parties, fact: str) -> FactSpec:
    """`agreement_waives` or `license_granted` as a flat `agreement` fact implies them: a
    licensor it rules out granted and waived nothing (its licenses' ids are excluded), with the
    same evidence; a licensor it includes leaves that licensor's terms open."""

    def ruled_out(claim: FactSpec | Evidence) -> list[str] | None:
        if isinstance(claim.value, list):
            licensors = licensors_of(library) - set(claim.value)
        elif claim.excludes is not None:
            licensors = set(claim.excludes)
        else:
            return None
        return sorted(set().union(*(of_licensor(library, x, fact) for x in licensors)))

    exact = isinstance(agreement.value, list) and not agreement.value  # none: nothing at all
    own = ruled_out(agreement)
    pieces = []
    for piece in agreement.evidence:
        claims = any(x is not None for x in (piece.value, piece.includes, piece.excludes))
        if not claims and (exact or own is None):
            pieces.append(piece)  # claims the fact's own value (none), or nothing
            continue
        excluded = ruled_out(piece) if claims else own
        update = {"value": None, "includes": None, "excludes": excluded or []}
        pieces.append(piece.model_copy(update=update))
    if exact:
        return FactSpec(value=[], evidence=pieces, note=agreement.note)
    if not agreement.evidence and own:
        pieces = [STATED.model_copy(update={"excludes": own})]
    return FactSpec(evidence=pieces, note=agreement.note)
