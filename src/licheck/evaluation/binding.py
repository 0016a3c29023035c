"""Which licenses bind a component: the scope every clause is judged within, the texts a copy
may be under where a model's license changed over time, and the findings where the license cannot
be known (an undisclosed base, a license not in the library, an unconfirmed lineage).

A clause binds a component through the relations its `applies_to` names (its reach), in its
license's own defined terms (`library.reach`): the model and its Derivatives (`derivatives`, the
default), any use of it (`use`), its outputs (`outputs`), each as the relations the lineage has
(`relations`: served, fine-tuned, distilled, ...).  The implicit `lineage` and `outputs_lineage`
facts carry the manifest's evidence for the lineage entry.  The scope is
conjoined to the clause's trigger, so a weakly evidenced relation or an unknown derivative status
makes a finding a governance risk, never a violation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import NamedTuple

from licheck.core.diagnostics import Location
from licheck.core.verdicts import Answer, Requirement, Settlement, Verdict, union
from licheck.engine.domains import Booleans, Strings
from licheck.engine.exact import Branch
from licheck.evaluation.alternatives import merged_guidance
from licheck.evaluation.findings import Finding, MissingFact
from licheck.facts.resolution import FactState, Status
from licheck.inputs.manifest import Component, ModelRef
from licheck.inputs.rules import CatalogModel, ClaimSource, DatedLicense, License, earliest
from licheck.vocabulary.factdefs import FactDef, FactType

# Not a fact of the vocabulary: a lineage entry's `obtained` date, shown as a missing fact where
# the license changed over time and the verdict depends on which text applies.
_OBTAINED = FactDef("obtained", FactType.STRING, "when the weights were obtained")


def licenses_for(
    model: CatalogModel, ref: ModelRef, as_of: dt.date | None = None
) -> list[Candidate]:
    """The licenses the copy the manifest used may be under.

    Where the license changed over time (`license_history`), the date the weights were obtained
    picks one; without that date every license of the history is a candidate (under `--as-of`,
    only those already in force then: a copy cannot have been obtained later), and the findings
    say where the verdict depends on it.  Otherwise the model's current license."""
    history = [
        dated
        for dated in model.license_history
        if ref.obtained is not None or as_of is None or dated.from_ is None or dated.from_ <= as_of
    ]
    if ref.obtained is not None:
        # A month or a year obtained (`2025-03`): every text in force on one of its days.
        first, last = earliest(ref.obtained), ref.obtained
        in_force = [
            Candidate(dated.license, dated)
            for dated in history
            if (dated.from_ is None or last >= dated.from_)
            and (dated.until is None or first <= dated.until)
        ]
        if in_force:
            return in_force
        # The history does not cover that date: which text applied then is not known.
        return [Candidate(model.license if not history else None)]
    distinct = {dated.license for dated in history}
    if len(distinct) > 1:
        found = [Candidate(dated.license, dated) for dated in history]
    elif len(distinct) == 1:
        found = [Candidate(history[0].license, history[0])]
    else:
        # No text of a history was in force yet as of that date: which one applied is not known.
        return [Candidate(None if model.license_history else model.license)]
    # A date the history leaves uncovered (before its first text, between two, after its last)
    # is a date the copy may have been obtained on, under a text nobody knows: never judged as
    # if one of the known texts applied.
    return [*found, Candidate(None)] if _uncovered(model, history, as_of) else found


def _uncovered(model: CatalogModel, history: list[DatedLicense], as_of: dt.date | None) -> bool:
    """Whether some day a copy may have been obtained on (from the model's release, up to
    `as_of`) is covered by no text of the (dated, ordered) history."""
    first = history[0].from_
    released = model.release_date
    if first is not None and (released is None or earliest(released) < first):
        return True
    # (`history` holds only the texts begun by `as_of`: a gap before one of them is earlier)
    return any(as_of is None or day <= as_of for day in uncovered_from(history))


def uncovered_from(history: list[DatedLicense]) -> list[dt.date]:
    """The day after each text of the (ordered) history ended, where no next text begins that
    day: from then a copy may be under a text nobody knows (the timeline shows these days)."""
    days = []
    for index, before in enumerate(history):
        after = history[index + 1] if index + 1 < len(history) else None
        if before.until is None:
            continue
        day = dt.date(before.until.year, before.until.month, before.until.day) + dt.timedelta(1)
        if after is None or after.from_ is None or after.from_ > day:
            days.append(day)
    return days


class Candidate(NamedTuple):
    """A license the copy may be under, and the dates it applied to copies obtained then."""

    license: str | None
    dated: DatedLicense | None = None

    def claim(self, model: CatalogModel) -> ClaimSource:
        """How the claim that the copy is under this license is known."""
        return self.dated.claim if self.dated is not None else model.license_claim


# Not a fact of the vocabulary: whether a license the catalog names on secondary sources only is
# the model's license.  No manifest states it: reading the licensor's own file settles it.
_CONFIRMED = FactDef(
    "license_confirmed",
    FactType.BOOLEAN,
    "the licensor's own file confirms the license the catalog names on secondary sources",
)


def claim_state(model: CatalogModel, license_id: str, ref_path: tuple[str | int, ...]) -> FactState:
    """The claim that `model` is under `license_id`, where it rests on secondary sources only:
    likely, as weak evidence makes any fact likely, and so unknown for the verdict."""
    both = Booleans(frozenset({True, False}))
    return FactState(
        "license_confirmed",
        _CONFIRMED,
        Status.LIKELY,
        both,
        f"likely: {license_id} (secondary sources only)",
        likely=Booleans(frozenset({True})),
        note=f"that {model.name} is under {license_id} rests on secondary sources only (the "
        "catalog's source); its own license file was not read",
        path=ref_path,
    )


def as_claimed(findings: list[Finding], claim: FactState) -> list[Finding]:
    """Findings under a license the model is likely, not known, to be under.  If it is not that
    license, none of its clauses binds (not applicable): so a finding that is not applicable or
    satisfied stays so (the `license-unconfirmed` finding carries the doubt); a violation is a
    governance risk, likely the violation, with the claim as the missing fact, and so is what
    would have made a governance risk a violation."""
    result = []
    for finding in findings:
        if finding.verdict in (_NA, Verdict.SATISFIED):
            result.append(replace(finding, facts=(claim, *finding.facts)))
            continue
        # what would settle it under the claimed license holds only as far as it also does
        # where the license is another (not applicable): a violation so promised is not firm
        branches = (Branch("true", finding.verdict), Branch("false", _NA))
        missing, settlements = merged_guidance(finding, [_NA])
        result.append(
            replace(
                finding,
                verdict=Verdict.GOVERNANCE_RISK,
                binds=Answer.DEPENDS,
                facts=(claim, *finding.facts),
                missing_facts=(MissingFact(claim, branches), *missing),
                settled_by=settlements,
            )
        )
    return result


def _obtained_label(candidate: Candidate) -> str:
    dated = candidate.dated or DatedLicense(license=candidate.license or "unknown")
    if dated.from_ and dated.until:
        span = f"obtained from {dated.from_} to {dated.until}"
    elif dated.from_:
        span = f"obtained on or after {dated.from_}"
    elif dated.until:
        span = f"obtained on or before {dated.until}"
    else:
        span = "obtained at any date"
    return f"{span} ({dated.license})"


def across_versions(
    candidates: list[Candidate],
    by_license: dict[str, list[Finding]],
    model: CatalogModel,
    ref_path: tuple[str | int, ...],
) -> list[Finding]:
    """Findings under every license the copy may be under, when the manifest does not say when
    the weights were obtained.  A clause whose verdict is the same under every candidate (a
    clause a license lacks counts as not applicable) keeps it; where they differ the finding is a
    governance risk, with `obtained` as the missing fact and each candidate's verdict."""
    keyed = {lid: {_same(f): f for f in found} for lid, found in by_license.items()}
    obtained = _obtained(model, ref_path)
    result: list[Finding] = []
    policy_rules: set[str] = set()
    for lid, found in by_license.items():
        own = next(c for c in candidates if c.license == lid)
        for finding in found:
            key = _same(finding)
            if key in policy_rules:  # a policy rule: judged under each text, reported once
                continue
            # each candidate's finding for the clause, or not applicable where its text lacks it
            each = [keyed[c.license or ""].get(key, _NA) for c in candidates]
            under = [_verdict(other) for other in each]
            firm = union(under)
            if firm is not Verdict.GOVERNANCE_RISK and finding.verdict is not firm:
                continue  # another text's finding carries it
            if key != finding.clause:
                policy_rules.add(key)
            if firm is not Verdict.GOVERNANCE_RISK:
                result.append(finding)
                continue
            result.append(_depends_on_date(finding, obtained, candidates, each, own))
    return result


def _depends_on_date(
    finding: Finding,
    obtained: FactState,
    candidates: list[Candidate],
    each: list[Finding | Verdict],
    own: Candidate,
) -> Finding:
    """A finding whose verdict differs between the texts the copy may be under (`each`: every
    candidate's finding, or verdict, for its clause): a governance risk, with `obtained` as the
    missing fact and each candidate's verdict."""
    branches = tuple(
        Branch(_obtained_label(c), _verdict(other))
        for c, other in zip(candidates, each, strict=True)
    )
    likely_under = {_verdict(other, likely=True) for other in each}
    likely = next(iter(likely_under)) if len(likely_under) == 1 else Verdict.GOVERNANCE_RISK
    others = [other for c, other in zip(candidates, each, strict=True) if c is not own]
    pin = ("obtained", _obtained_label(own).removeprefix("obtained "))
    return _depending(finding, MissingFact(obtained, branches), likely, others, pin)


def _verdict(other: Finding | Verdict, *, likely: bool = False) -> Verdict:
    """An alternative's verdict (or likely verdict) for a clause: its finding's, or the firm
    verdict that stands for a clause its text lacks."""
    if isinstance(other, Verdict):
        return other
    return other.likely_verdict if likely else other.verdict


def _depending(
    finding: Finding,
    which: MissingFact,
    likely: Verdict,
    others: list[Finding | Verdict],
    pin: tuple[str, str],
) -> Finding:
    """A finding whose verdict differs between alternatives (the texts a copy may be under,
    candidate bases, an owner who may be the licensor): a governance risk, with `which` (the
    fact that picks the alternative, and each one's verdict) as the first missing fact, and only
    the guidance that holds over every alternative (`alternatives.merged_guidance`; `pin`
    picks `finding`'s own alternative)."""
    missing, settlements = merged_guidance(finding, others, pin)
    return replace(
        finding,
        verdict=Verdict.GOVERNANCE_RISK,
        likely_verdict=likely,
        binds=Answer.DEPENDS,
        missing_facts=(which, *missing),
        settled_by=settlements,
    )


def _same(finding: Finding) -> str:
    """What a finding is compared with under the other texts: the clause id (a license's texts
    share their clause ids); for an organisation policy's rule (`policy/ORG`: the only ids with
    a "/") the policy too, so that a rule named as a license's clause never stands for it."""
    return f"{finding.license}/{finding.clause}" if "/" in finding.license else finding.clause


def _obtained(model: CatalogModel, ref_path: tuple[str | int, ...]) -> FactState:
    """The missing fact where the license a copy is under depends on when it was obtained."""
    return FactState(
        "obtained",
        _OBTAINED,
        Status.UNKNOWN,
        Strings(None),
        "not stated",
        note=f"{model.name}'s license changed over time; the date the weights were obtained "
        "(lineage: obtained) decides which text applies",
        path=ref_path,
    )


class UnknownLicense(NamedTuple):
    component: Component
    ref: ModelRef
    lineage: FactState
    location: Location
    ref_path: tuple[str | int, ...] = ()

    def undisclosed(self) -> Finding:
        return self.finding(
            "base-undisclosed",
            f"The model in {self.component.name}'s lineage is "
            "undisclosed, so the license that binds it cannot be known.",
        )

    def unconfirmed(self, model: CatalogModel) -> list[Finding]:
        """A finding where the lineage entry is not established: another model's license may
        bind the component instead."""
        if self.lineage.status is Status.ESTABLISHED:
            return []
        summary = (
            f"That {self.component.name} is built on {model.name} is "
            f"{self.lineage.status.value} only: if it is built on another model, that model's "
            "license binds it instead, and it is not known."
        )
        return [self.finding("lineage-unconfirmed", summary, model)]

    def claimed(self, model: CatalogModel, license_id: str) -> Finding:
        """A finding where the license a copy may be under is known from secondary sources only:
        a governance risk, likely not applicable (the claim's findings then say it all)."""
        claim = claim_state(model, license_id, self.ref_path)
        summary = (
            f"{model.name} is likely under {license_id}, but only secondary sources say so "
            f"(catalog source: {model.source}); its own license file was not read. Its findings "
            f"under {license_id} are given, none as a violation on that claim alone; if its "
            "license is another, that license's terms are not known."
        )
        finding = self.finding("license-unconfirmed", summary, model)
        branches = (Branch("true", _NA), Branch("false", Verdict.GOVERNANCE_RISK))
        return replace(
            finding,
            facts=(claim, *finding.facts),
            missing_facts=(MissingFact(claim, branches),),
        )

    def finding(self, clause: str, summary: str, model: CatalogModel | None = None) -> Finding:
        name = model.name if model else self.ref.model
        return Finding(
            component=self.component.id,
            component_name=self.component.name,
            model=model.id if model else self.ref.model,
            model_name=name,
            license="unknown",
            license_name="unknown license",
            clause=clause,
            title={
                "base-undisclosed": "Base model undisclosed",
                "license-unknown": f"License of {name} unknown",
                "lineage-unconfirmed": "Base model not established",
                "license-unconfirmed": f"License of {name} known from secondary sources only",
            }[clause],
            kind="unknown",
            quote=None,
            verdict=Verdict.GOVERNANCE_RISK,
            likely_verdict=(
                Verdict.NOT_APPLICABLE
                if (clause == "lineage-unconfirmed" and self.lineage.likely is not None)
                or clause == "license-unconfirmed"
                else Verdict.GOVERNANCE_RISK
            ),
            binds=Answer.DEPENDS,
            triggered=Answer.DEPENDS,
            requirement=Requirement.DEPENDS,
            exception=Answer.NO,
            facts=(self.lineage,),
            missing_facts=self._missing(clause),
            location=self.location,
            summary=summary,
            settled_by=(
                (Settlement(Verdict.NOT_APPLICABLE, (("lineage", "true"),)),)
                if clause == "lineage-unconfirmed"
                else ()
            ),
        )

    def _missing(self, clause: str) -> tuple[MissingFact, ...]:
        """An unconfirmed base is settled by the lineage itself: established, this finding goes
        (the model's own findings cover the component); refuted, the license is unknown."""
        if clause != "lineage-unconfirmed":
            return ()
        return (
            MissingFact(
                self.lineage,
                (Branch("true", Verdict.NOT_APPLICABLE), Branch("false", Verdict.GOVERNANCE_RISK)),
            ),
        )


# -- alternatives: the owner as licensor, candidate bases -------------------------------------


def licensor_of(model: CatalogModel, license_: License) -> str | None:
    """Who grants `license_` for `model`: the rule file's licensor where it names one (so a
    model that inherits its base's license, like DeepSeek's Llama distills, is the base's
    licensor's), else the catalog's licensor of the model (generic texts: MIT, Apache-2.0)."""
    return license_.licensor or model.licensor


def as_licensor(findings: list[Finding], owner: FactState) -> list[Finding]:
    """A license's findings where the product's owner (or an affiliate) may be its licensor.

    A licensor is not its own licensee: established, every clause is not applicable and says
    so; only weakly evidenced (or disputed), a clause that would otherwise apply is a governance
    risk with `owner_is_licensor` as the missing fact and the verdict either way."""
    result = []
    for finding in findings:
        if owner.status is Status.ESTABLISHED:
            result.append(_not_own_licensee(finding, owner))
        elif finding.verdict in (Verdict.NOT_APPLICABLE, Verdict.SATISFIED):
            # not applicable or satisfied either way: the owner question changes nothing
            result.append(replace(finding, facts=(owner, *finding.facts)))
        else:
            branches = (
                Branch("true", Verdict.NOT_APPLICABLE),
                Branch("false", finding.verdict),
            )
            likely = owner.likely
            likely_verdict = (
                Verdict.NOT_APPLICABLE
                if likely == Booleans(frozenset({True}))
                else union([Verdict.NOT_APPLICABLE, finding.likely_verdict])
            )
            pin = ("owner_is_licensor", "false")
            owed = _depending(finding, MissingFact(owner, branches), likely_verdict, [_NA], pin)
            licensor = Settlement(Verdict.NOT_APPLICABLE, (("owner_is_licensor", "true"),))
            result.append(
                replace(
                    owed,
                    facts=(owner, *finding.facts),
                    settled_by=(licensor, *owed.settled_by),
                )
            )
    return result


def _not_own_licensee(finding: Finding, owner: FactState) -> Finding:
    return replace(
        finding,
        verdict=Verdict.NOT_APPLICABLE,
        likely_verdict=Verdict.NOT_APPLICABLE,
        binds=Answer.NO,
        triggered=Answer.NO,
        requirement=Requirement.NOT_REACHED,
        exception=Answer.NO,
        facts=(owner, *finding.facts),
        missing_facts=(),
        settled_by=(),
    )


# Not a fact of the vocabulary: which of a lineage entry's candidates the component is built on.
_WHICH_BASE = FactDef("base", FactType.STRING, "which of the candidate models it is built on")


def across_candidates(
    by_candidate: list[tuple[str, list[Finding]]], ref_path: tuple[str | int, ...]
) -> list[Finding]:
    """Findings for a lineage entry that is one of several candidate models, each judged as if
    it were the one (`by_candidate`: each candidate's label and findings).  A clause keeps its
    verdict where every candidate gives it (a clause a candidate lacks counts as not
    applicable); otherwise it is a governance risk with `base` as the missing fact and what each
    candidate would give."""
    names = ", ".join(label for label, _ in by_candidate)
    which = FactState(
        "base",
        _WHICH_BASE,
        Status.UNKNOWN,
        Strings(None),
        "not known",
        note=f"the lineage names candidates ({names}); which one it is is not known",
        path=ref_path,
    )
    verdicts = [{clause_key(f): f for f in found} for _, found in by_candidate]
    keys = sorted({k for by_key in verdicts for k in by_key})
    result: list[Finding] = []
    for key in keys:
        present = [by_key[key] for by_key in verdicts if key in by_key]
        under = [by_key[key].verdict if key in by_key else _NA for by_key in verdicts]
        likely = [by_key[key].likely_verdict if key in by_key else _NA for by_key in verdicts]
        shown = dict.fromkeys(f.model_name for f in present)
        firm = union(under)
        # where the alternatives settle it, the finding of a candidate that gives that verdict
        carrier = next((f for f in present if f.verdict is firm), present[0])
        finding = replace(carrier, model_name=" or ".join(shown))
        if firm is not Verdict.GOVERNANCE_RISK:
            result.append(replace(finding, likely_verdict=union(likely)))
            continue
        branches = tuple(
            Branch(label, v) for (label, _), v in zip(by_candidate, under, strict=True)
        )
        own = next(i for i, by_key in enumerate(verdicts) if by_key.get(key) is carrier)
        others: list[Finding | Verdict] = [
            by_key.get(key, _NA) for i, by_key in enumerate(verdicts) if i != own
        ]
        pin = ("base", by_candidate[own][0])
        if len(present) == len(by_candidate) and all(v is Verdict.GOVERNANCE_RISK for v in under):
            # every candidate under this license (the clause is one key), and a governance risk
            # under each: which one it is changes nothing, so `base` is no missing fact
            result.append(_shared(finding, union(likely), others, pin))
            continue
        result.append(_depending(finding, MissingFact(which, branches), union(likely), others, pin))
    return result


def _shared(
    finding: Finding, likely: Verdict, others: list[Finding | Verdict], pin: tuple[str, str]
) -> Finding:
    """A clause that is a governance risk under every candidate base, all under its license:
    the guidance that holds over every candidate, without a `base` to settle."""
    missing, settlements = merged_guidance(finding, others, pin)
    return replace(finding, likely_verdict=likely, missing_facts=missing, settled_by=settlements)


_NA = Verdict.NOT_APPLICABLE


def clause_key(finding: Finding) -> tuple[str, ...]:
    """The same clause under two candidates is one duty (two sizes of Llama 3.1, say); what is
    not known about one model (an unknown license, an unconfirmed lineage) is about that model."""
    if finding.license == "unknown":
        return (finding.component, finding.model, finding.license, finding.clause)
    return (finding.component, finding.license, finding.clause)
