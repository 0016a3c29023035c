"""What would settle a finding judged under several alternatives (candidate bases, the texts a
copy may be under, an owner who may be the licensor): each alternative is judged exactly on its
own, and the finding's verdict is the union over them (`verdicts.union`).

The guidance one alternative's judgement gives ("if license_copy_included is false: violation",
"SATISFIED if licensor_marks_used does not contain 'flux-1-dev-non-commercial-original'") holds
for the merged finding only where every other alternative gives a verdict that keeps it firm
under the same values.  Where that is not known (another text reads another member, another
model's month is another month) the guidance is not claimed: a value that settles one
alternative alone is not said to settle the finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import product

from licheck.core.verdicts import Settlement, Verdict, union
from licheck.evaluation.findings import Finding, MissingFact

# Another alternative: its finding for the same clause, or its firm verdict where it has none
# (a text without the clause: not applicable; the owner as licensor: not applicable).
Other = Finding | Verdict
Conditions = frozenset[tuple[str, str]]


def merged_guidance(
    carrier: Finding, others: Sequence[Other], pin: tuple[str, str] | None = None
) -> tuple[tuple[MissingFact, ...], tuple[Settlement, ...]]:
    """The carrier's missing facts and settlements, kept only as far as they hold over every
    alternative.  A branch that no longer settles the finding says governance risk; a settlement
    that no longer does is dropped, or, with `pin` (the value of the alternatives' own fact that
    selects the carrier's alternative), restated with it."""
    missing = tuple(
        replace(
            m,
            outcomes=tuple(
                replace(b, verdict=_combined(b.verdict, {(m.fact.name, b.when)}, others))
                for b in m.outcomes
            ),
        )
        for m in carrier.missing_facts
    )
    settlements = []
    for s in carrier.settled_by:
        verdict = _combined(s.verdict, set(s.when), others)
        if verdict is not Verdict.GOVERNANCE_RISK:
            settlements.append(replace(s, verdict=verdict))
        elif pin is not None:
            settlements.append(replace(s, when=(pin, *s.when)))
    return missing, tuple(settlements)


def _combined(
    verdict: Verdict, conditions: set[tuple[str, str]], others: Sequence[Other]
) -> Verdict:
    """The union over the alternatives when the facts take the values `conditions` name (the
    carrier's verdict then is `verdict`); governance risk where it is not firm or not known."""
    possible: list[set[Verdict]] = [{verdict}]
    for other in others:
        under = _under(other, frozenset(conditions))
        if under is None:
            return Verdict.GOVERNANCE_RISK
        possible.append(under)
    unions = {union(combo) for combo in product(*possible)}
    return unions.pop() if len(unions) == 1 else Verdict.GOVERNANCE_RISK


def _under(other: Other, conditions: Conditions) -> set[Verdict] | None:
    """What an alternative's verdict may be with the facts as `conditions` name; None where its
    judgement does not say."""
    verdict = other if isinstance(other, Verdict) else other.verdict
    if verdict is not Verdict.GOVERNANCE_RISK:
        # narrowing keeps a firm verdict, except that a clause satisfied somewhere may then be
        # triggered nowhere
        return {verdict, Verdict.NOT_APPLICABLE} if verdict is Verdict.SATISFIED else {verdict}
    assert isinstance(other, Finding)  # a bare verdict is firm
    for s in other.settled_by:
        if frozenset(s.when) == conditions:
            return {s.verdict}
    if len(conditions) == 1:
        ((fact, label),) = conditions
        for m in other.missing_facts:
            if m.fact.name == fact:
                found = [b.verdict for b in m.outcomes if b.when == label]
                return set(found) if found else None
        # the fact is not open for this alternative: it stays a governance risk
        return {Verdict.GOVERNANCE_RISK}
    return None
