"""Which licenses bind a component: the scope every clause is judged within, the texts a copy
may be under where a model's license changed over time, and the findings where the license cannot
be known (an undisclosed base, a license not in the library, an unconfirmed lineage).

A license binds a component when a model in its lineage carries it (the implicit `lineage` fact,
whose evidence is the manifest's evidence for that lineage entry) and the component is still a
derivative of it (`derivative`).  Both are conjoined to every clause's trigger, so a weakly
evidenced lineage or an unknown derivative status makes a finding a governance risk, never a
violation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from licheck.conditions import All, Test
from licheck.domains import Strings
from licheck.engine import Branch, Rule
from licheck.facts import FactState, Status
from licheck.findings import Finding, MissingFact
from licheck.manifest import Component, ModelRef
from licheck.model import CatalogModel, DatedLicense, earliest
from licheck.tables import Compiled, compile_rule
from licheck.verdicts import Settlement, Verdict
from licheck.vocabulary import FactDef, FactType

# A license binds a component built on its model that is still a derivative of it.
SCOPE = All((Test("lineage", "is", True), Test("derivative", "is", True)))
# Not a fact of the vocabulary: a lineage entry's `obtained` date, shown as a missing fact where
# the license changed over time and the verdict depends on which text applies.
_OBTAINED = FactDef("obtained", FactType.STRING, "when the weights were obtained")


def bind(rule: Rule) -> Compiled:
    """A clause's rule within the license's scope, compiled: the library does it once a clause."""
    return compile_rule(Rule(rule.trigger, rule.requirement, rule.exceptions, scope=SCOPE))


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
        return [Candidate(dated.license, dated) for dated in history]
    if len(distinct) == 1:
        return [Candidate(history[0].license, history[0])]
    # No text of a history was in force yet as of that date: which one applied is not known.
    return [Candidate(None if model.license_history else model.license)]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A license the copy may be under, and the dates it applied to copies obtained then."""

    license: str | None
    dated: DatedLicense | None = None


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
    verdicts = {lid: {f.clause: f.verdict for f in found} for lid, found in by_license.items()}
    likely = {lid: {f.clause: f.likely_verdict for f in found} for lid, found in by_license.items()}
    obtained = FactState(
        "obtained",
        _OBTAINED,
        Status.UNKNOWN,
        Strings(None),
        "not stated",
        note=f"{model.name}'s license changed over time; the date the weights were obtained "
        "(lineage: obtained) decides which text applies",
        path=ref_path,
    )
    result: list[Finding] = []
    for found in by_license.values():
        for finding in found:
            under = [
                verdicts[c.license or ""].get(finding.clause, Verdict.NOT_APPLICABLE)
                for c in candidates
            ]
            if len(set(under)) == 1:
                result.append(finding)
                continue
            branches = tuple(
                Branch(_obtained_label(c), v) for c, v in zip(candidates, under, strict=True)
            )
            likely_under = {
                likely[c.license or ""].get(finding.clause, Verdict.NOT_APPLICABLE)
                for c in candidates
            }
            result.append(
                replace(
                    finding,
                    verdict=Verdict.GOVERNANCE_RISK,
                    scope="depends",
                    likely_verdict=(
                        next(iter(likely_under))
                        if len(likely_under) == 1
                        else Verdict.GOVERNANCE_RISK
                    ),
                    missing=(MissingFact(obtained, branches), *finding.missing),
                )
            )
    return result


@dataclass(frozen=True, slots=True)
class UnknownLicense:
    component: Component
    ref: ModelRef
    lineage: FactState
    line: int
    column: int

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
            }[clause],
            kind="unknown",
            quote=None,
            verdict=Verdict.GOVERNANCE_RISK,
            likely_verdict=(
                Verdict.NOT_APPLICABLE
                if clause == "lineage-unconfirmed" and self.lineage.likely is not None
                else Verdict.GOVERNANCE_RISK
            ),
            scope="depends",
            trigger="depends",
            requirement="depends",
            exception="no",
            facts=(self.lineage,),
            missing=self._missing(clause),
            line=self.line,
            column=self.column,
            summary=summary,
            settlements=(
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
