"""Plain-words explanations of findings, shared by every output format."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from licheck.core.units import Dimension, format_amount, format_number
from licheck.core.verdicts import Answer, Requirement, Verdict
from licheck.engine.domains import Booleans, Interval
from licheck.engine.exact import Branch
from licheck.evaluation.findings import Finding
from licheck.facts.resolution import FactState, Status


def fact_scope(state: FactState) -> str:
    """Where a fact was found: the product's facts, a component's, one model of its lineage or
    one license of it (`by_model` / `by_license`), a lineage entry, or licheck (a default, a
    derivation or a what-if)."""
    path = state.path
    if len(path) >= 2 and path[-2] in ("by_model", "by_license"):
        return f"{'model' if path[-2] == 'by_model' else 'license'}:{path[-1]}"
    if "lineage" in path:
        return "lineage"
    if path[:1] == ("facts",):
        return "product"
    if path[:1] == ("components",):
        return "component"
    return "licheck"


def outputs_only(facts: Sequence[FactState]) -> bool:
    """Whether the finding's model is one the component was only trained on the outputs of
    (`trained_on_outputs_of`): its `lineage` fact, not built on the weights, is established."""
    return any(
        s.name == "lineage"
        and s.status is Status.ESTABLISHED
        and s.domain == Booleans(frozenset({False}))
        for s in facts
    )


def fact_phrase(state: FactState) -> str:
    """'monthly_revenue is likely ≈166.67M USD/month (press report)'."""
    kinds = sorted(
        {
            e.kind.value.replace("_", " ")
            for e in state.evidence
            if not e.counted.startswith("ignored")
        }
    )
    scope = fact_scope(state)
    if scope.startswith(("model:", "license:")):  # the narrower statements say so
        kinds.append(f"stated for {scope.replace(':', ' ')}")
    basis = f" ({', '.join(kinds)})" if kinds else ""
    written = f" (as written: {state.written})" if state.written else ""
    match state.status:
        case Status.ESTABLISHED:
            return f"{state.name} is {value_words(state, state.domain)}{written}{basis}"
        case Status.LIKELY:
            likely = value_words(state, state.likely)
            return f"{state.name} is likely {likely}{written}{basis}, not established"
        case Status.DISPUTED:
            if state.note and state.note.startswith("conflict: "):  # against a definition
                return f"{state.name} is disputed ({state.note})"
            return f"{state.name} is disputed: the counting evidence contradicts itself"
        case Status.UNKNOWN:
            return f"{state.name} is unknown"
    raise AssertionError(state.status)  # pragma: no cover


def value_words(state: FactState, domain: object) -> str:
    """A value of `state`'s fact in words: a quantity's range as 'between 15M and 30M
    USD/month', money in the fact's own period (ARR per year)."""
    if isinstance(domain, Interval):
        return range_words(domain, state.definition.period_months)
    return str(domain)


def value_text(state: FactState, domain: object) -> str:
    """A value as the facts table shows it: the domain, money in the fact's own period."""
    if isinstance(domain, Interval):
        return domain.shown(state.definition.period_months)
    return str(domain)


def explain(finding: Finding) -> str:
    """Why the finding has its verdict, in a few sentences."""
    readings = [s.reading for s in finding.facts if s.reading]
    text = _explain(finding)
    return " ".join([text, *readings]) if readings else text


def _explain(finding: Finding) -> str:
    if finding.kind == "unknown":
        return (finding.summary or "") + " This is a governance risk until the license is known."
    verdict = finding.verdict
    owner = _owner_licensor(finding)
    if verdict is Verdict.NOT_APPLICABLE and owner is not None:
        return (
            f"The owner is the licensor: {owner.note}. A licensor is not its own licensee, so "
            "this clause does not bind the product."
        )
    if verdict is Verdict.NOT_APPLICABLE:
        if finding.binds is Answer.NO and outputs_only(finding.facts):
            return (
                f"The component was only trained on {finding.model_name}'s outputs, not built on "
                "its weights, and this clause does not reach a model so trained."
            )
        if finding.binds is Answer.NO:
            return (
                "The license does not bind this component (not built on the model, or no "
                "longer a derivative of it)."
            )
        return (
            "The clause is not triggered in any completion of the facts: "
            + _trigger_facts(finding)
            + "."
        )
    if verdict is Verdict.SATISFIED:
        how = (
            "an exception lifts it"
            if finding.exception is Answer.YES
            else "its requirement holds"
            if finding.exception is Answer.NO
            else "its requirement holds or an exception lifts it"
        )
        return f"Wherever the clause is triggered, {how}."
    if verdict is Verdict.VIOLATION and finding.kind == "gate":
        return (
            "The gate is crossed and the licensor has not granted the license it asks for: "
            "until it does, none of the license's rights may be exercised — " + _used(finding) + "."
        )
    if verdict is Verdict.VIOLATION:
        return (
            "In every completion of the facts the clause binds and is triggered, its "
            "requirement fails, and no exception lifts it: " + _used(finding) + "."
        )
    return _risk(finding)


# facts every clause reads that say nothing of why a clause is not triggered
_BINDING = ("lineage", "derivative", "outputs_lineage", "owner_is_licensor", "multimodal")


def not_applicable_reason(finding: Finding) -> str | None:
    """A not-applicable finding's reason in one line, for the lists that show no details
    ("the owner is the licensor", "not triggered: commercial is false"); None for any other
    verdict."""
    if finding.verdict is not Verdict.NOT_APPLICABLE:
        return None
    if _owner_licensor(finding) is not None:
        return "the owner is the licensor"
    if finding.binds is Answer.NO:
        if outputs_only(finding.facts):
            return (
                f"only trained on {finding.model_name}'s outputs, which this clause does not reach"
            )
        derivative = next((s for s in finding.facts if s.name == "derivative"), None)
        if derivative is not None and derivative.domain == Booleans(frozenset({False})):
            return f"not a derivative of {finding.model_name}"
        return "the license does not bind this component"
    if finding.exception is Answer.YES:
        return "an exception lifts it"
    said = [
        f"{s.name} is {value_words(s, s.domain)}"
        for s in finding.facts
        if s.name not in _BINDING and s.status is Status.ESTABLISHED
    ]
    return "not triggered" + (f": {'; '.join(said)}" if said else "")


def _owner_licensor(finding: Finding) -> FactState | None:
    """The established fact that the product's owner is the license's licensor, if any."""
    for state in finding.facts:
        if state.name == "owner_is_licensor" and state.status is Status.ESTABLISHED:
            return state
    return None


def _risk(finding: Finding) -> str:
    reasons = []
    which = [m for m in finding.missing_facts if m.fact.name == "base"]
    if which:
        each = "; ".join(f"{b.when}: {b.verdict.label}" for b in which[0].outcomes)
        reasons.append(f"which of the candidate bases it is built on is not known ({each})")
    if finding.binds is Answer.DEPENDS and not which:
        reasons.append(
            "whether the license binds this component at all is not settled "
            f"({_open(finding, ('lineage', 'derivative', 'owner_is_licensor'))})"
        )
    if finding.triggered is Answer.DEPENDS:
        reasons.append(f"whether the clause is triggered is not settled ({_trigger_open(finding)})")
    if finding.exception is Answer.DEPENDS:
        reasons.append(f"an exception may lift it ({_exception_open(finding)})")
    if finding.requirement is Requirement.DEPENDS and finding.kind == "gate":
        reasons.append(
            "whether the licensor has granted the license the gate asks for is not "
            f"settled ({_open(finding, ('license_granted',))})"
        )
    elif finding.requirement is Requirement.DEPENDS:
        reasons.append("whether its requirement holds is not settled")
    sentences = [
        "Governance risk, not a violation: the verdict depends on facts that are missing or "
        "only weakly evidenced — " + "; ".join(reasons) + "."
    ]
    sentences += near_matches(finding)
    if finding.requirement is Requirement.FAILS:
        sentences.append("Where the clause is triggered and not lifted, its requirement fails.")
    likely = [s for s in finding.facts if s.status is Status.LIKELY]
    if likely:
        sentences.append(
            "Weaker evidence suggests: "
            + "; ".join(fact_phrase(s) for s in likely)
            + f". Counting it, the verdict would be {finding.likely_verdict.label}"
            + (f" ({_still(finding)})" if finding.likely_verdict is finding.verdict else "")
            + "."
        )
    return " ".join(sentences)


def near_readings(finding: Finding) -> list[tuple[str, str]]:
    """(fact, reading) for each stated value that near-matches a name the clause asks for (up
    to case, white space or typography) and so keeps the verdict open: "'KIMI K2.5' read as
    'Kimi K2.5' (differs only in case: …)"."""
    return [
        (missing.fact.name, branch.near)
        for missing in finding.missing_facts
        for branch in missing.outcomes
        if branch.near
    ]


def near_matches(finding: Finding) -> list[str]:
    """One sentence per fact whose stated value near-matches a name the clause asks for: the
    reading, what each reading makes the verdict, and that a person must judge
    ("ui_attribution holds a near-match …: 'KIMI K2.5' read as 'Kimi K2.5' (differs only in
    case: …) → satisfied; as written → violation. …")."""
    sentences = []
    for missing in finding.missing_facts:
        near = [b for b in missing.outcomes if b.near]
        if not near:
            continue
        written = sorted({b.verdict.label for b in missing.outcomes if not b.near})
        readings = "; ".join(f"{b.near} → {b.verdict.label}" for b in near)
        as_written = f"; as written → {' or '.join(written)}" if written else ""
        sentences.append(
            f"{missing.fact.name} holds a near-match of a name the clause asks for: {readings}"
            f"{as_written}. Whether it counts as that name is for a person to judge."
        )
    return sentences


def _still(finding: Finding) -> str:
    """Why weak evidence leaves the verdict as it is: where each likely figure lies against the
    clause's thresholds (inside a range: unsettled), and the facts still open without it."""
    parts = []
    for missing in finding.missing_facts:
        state = missing.fact
        if state.status is Status.LIKELY and isinstance(state.likely, Interval):
            parts.append(_against(state, state.likely, missing.outcomes, likely=True))
    others = [m.fact.name for m in finding.missing_facts if m.fact.status is not Status.LIKELY]
    if others:
        names = ", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1 else others[0]
        parts.append(f"{names} would still be open")
    return "; ".join(p for p in parts if p) or "the weaker evidence settles nothing more"


def thresholds(domain: Interval, branches: Sequence[Branch]) -> list[Fraction]:
    """The clause's thresholds inside `domain`: the bounds between the cells (`branches`, in
    order) that `domain` reaches into.  None: the clause reads the whole range alike."""
    reached = [
        b.region
        for b in branches
        if isinstance(b.region, Interval) and not b.region.intersect(domain).is_empty()
    ]
    found: dict[Fraction, None] = {}
    for left in reached[:-1]:
        if left.hi is not None:
            found[left.hi] = None
    return list(found)


def _against(state: FactState, domain: Interval, branches: Sequence[Branch], likely: bool) -> str:
    """'monthly_revenue is likely between 15M and 30M USD/month: the threshold 20M USD/month
    lies inside, so it is unsettled', or where the figure lies ('> 20M USD/month')."""
    inside = thresholds(domain, branches)
    verb = "is likely" if likely else "is"
    written = f" (as written: {state.written})" if state.written else ""
    months = state.definition.period_months
    shown = range_words(domain, months)
    if inside:
        named = " and ".join(format_amount(t, domain.dimension, months) for t in inside)
        which = f"thresholds {named} lie" if len(inside) > 1 else f"threshold {named} lies"
        return f"{state.name} {verb} {shown}{written}: the {which} inside, so it is unsettled"
    for branch in branches:
        region = branch.region
        if isinstance(region, Interval) and not region.intersect(domain).is_empty():
            where = "which is" if branch.when[:1] in "<≤>≥" else "within"
            return f"{state.name} {verb} {shown}{written}, {where} {branch.when}"
    return ""


def range_words(domain: Interval, months: int = 1) -> str:
    """'between 15M and 30M USD/month'; a point or an open range as the domain shows it; money
    per `months` (a fact's own period: 30M USD/year)."""
    closed = domain.lo_closed and domain.hi_closed  # "between" would hide an open end
    if domain.hi is None or domain.lo == domain.hi or domain.lo == 0 or not closed:
        return domain.shown(months)
    low = format_number(domain.lo * months if domain.dimension is Dimension.MONEY else domain.lo)
    return f"between {low} and {format_amount(domain.hi, domain.dimension, months)}"


def _open(finding: Finding, names: tuple[str, ...]) -> str:
    states = [s for s in finding.facts if s.name in names and s.status is not Status.ESTABLISHED]
    return "; ".join(fact_phrase(s) for s in states) or "see the missing facts"


def _trigger_open(finding: Finding) -> str:
    """Each fact that leaves the trigger open, and how: a known range that a threshold lies
    inside says so (it is not 'established' in any useful sense)."""
    skip = {"lineage", "derivative", "agreement_waives"}
    open_ = {m.fact.name: m for m in finding.missing_facts if m.fact.name not in skip}
    parts = []
    for state in finding.facts:
        missing = open_.get(state.name)
        if missing is None:
            continue
        domain = state.domain
        if state.status is Status.ESTABLISHED and isinstance(domain, Interval):
            parts.append(_against(state, domain, missing.outcomes, likely=False))
        else:
            parts.append(f"{state.name} {state.status.value}")
    return ", ".join(p for p in parts if p) or "see the missing facts"


def _exception_open(finding: Finding) -> str:
    return _open(finding, ("agreement_waives", "agreement", "license_granted"))


def _trigger_facts(finding: Finding) -> str:
    return (
        "; ".join(fact_phrase(s) for s in finding.facts if s.name not in ("lineage", "derivative"))
        or "no facts"
    )


def _used(finding: Finding) -> str:
    return "; ".join(fact_phrase(s) for s in finding.facts)
