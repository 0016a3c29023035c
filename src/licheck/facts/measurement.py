"""Facts as a clause reads them: measured at a date, and bounded by the facts that count a part.

Llama, DBRX and Tencent Hunyuan measure monthly active users "on the version release date" for
"the preceding calendar month": such a test (`measured: month_before_release`) reads the month
before the catalog model's release date from the fact's `series`.  A month missing from the series
is unknown, and a plain `value` is today's figure: it does not settle a past month.

Who is counted differs too (the product, the licensee, the licensee and its affiliates); each
counts a part of the next (`vocabulary.AT_MOST`), so a known figure for one bounds the others.
Bounds from established figures are applied here, per fact; between facts a clause tests
together, the chain is one joint constraint on the engine's cells (`joint`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from licheck.core.context import EvaluationContext
from licheck.engine.domains import Domain, Interval, intersect
from licheck.facts.resolution import FactState, Status, full_domain, unstated
from licheck.inputs.rules import Measured, earliest
from licheck.vocabulary.names import AT_MOST


def month_before(date: dt.date) -> str:
    """The preceding calendar month of `date`, as YYYY-MM."""
    first = date.replace(day=1) - dt.timedelta(days=1)
    return f"{first.year:04d}-{first.month:02d}"


@dataclass(frozen=True, slots=True)
class Occasion:
    """What a measured test needs to know: the model and its release date."""

    model_name: str
    release_date: dt.date | None


def read(
    key: str,
    facts: Mapping[str, FactState],
    occasion: Occasion,
    memo: EvaluationContext | None = None,
) -> FactState:
    """The state of `key` (a fact, or `fact@measured`) for a clause of `occasion`'s model."""
    name, _, when = key.partition("@")
    measured = Measured(when) if when else Measured.NOW
    state = _measured(name, facts, measured, occasion, memo)
    if name not in _RELATED:
        return state
    if name == "annual_recurring_revenue":
        state = _arr_from_monthly(state, facts, measured, occasion)
    return _bounded(state, key, facts, measured, occasion)


_ARR_WRITTEN = re.compile(r"\bARR\b")


def _arr_from_monthly(
    state: FactState, facts: Mapping[str, FactState], measured: Measured, occasion: Occasion
) -> FactState:
    """An unstated `annual_recurring_revenue` where `monthly_revenue` is written as ARR ("36M
    USD ARR"): that figure is the ARR, so the ARR is at least its lowest figure (audit s3-B
    m-3: it was left unknown, a false governance risk)."""
    if state.status is not Status.UNKNOWN:
        return state
    monthly = _measured("monthly_revenue", facts, measured, occasion)
    written = monthly.written or ""
    domain = monthly.domain
    if monthly.status is Status.UNKNOWN or not _ARR_WRITTEN.search(written):
        return state
    if not isinstance(domain, Interval) or domain.lo <= 0:
        return state
    floor = Interval(domain.lo, domain.lo_closed, None, False, domain.dimension)
    likely = monthly.likely
    return dataclasses.replace(
        state,
        status=monthly.status,
        domain=floor,
        likely=None if likely is None or not isinstance(likely, Interval) else floor,
        evidence=monthly.evidence,
        reading=_join(
            state.reading,
            f"annual_recurring_revenue is at least the ARR monthly_revenue is written as "
            f"({written}).",
        ),
    )


def _measured(
    name: str,
    facts: Mapping[str, FactState],
    measured: Measured,
    occasion: Occasion,
    memo: EvaluationContext | None = None,
) -> FactState:
    state = facts.get(name) or unstated(name, memo=memo)
    if measured is Measured.NOW:
        return state
    label = f"{name}@{measured.value}"
    if occasion.release_date is None:
        return _unknown(
            state,
            label,
            f"{name} is measured in the month before "
            f"{occasion.model_name}'s release date, which the catalog does not give.",
        )
    if earliest(occasion.release_date).month != occasion.release_date.month:
        return _unknown(
            state,
            label,
            f"{name} is measured in the month before {occasion.model_name}'s release date, "
            f"which the catalog gives only as {occasion.release_date}: which month that is "
            "depends on the day.",
        )
    month = month_before(occasion.release_date)
    label = f"{name}@{month}"
    where = (
        f"{name} is measured for {month}, the calendar month before "
        f"{occasion.model_name}'s release date {occasion.release_date.isoformat()}"
    )
    for entry_month, entry in state.series:
        if entry_month == month:
            return dataclasses.replace(entry, name=label, reading=where + ".")
    if state.shown not in ("unknown", "not stated") and not state.series:
        why = (
            f"; the manifest gives {state.shown} as today's figure, which does not settle a "
            f"past month: give the figure by month (series: {{'{month}': ...}})"
        )
    elif state.series:
        why = f"; the manifest's series has no figure for {month}"
        if not state.shown.startswith("by month"):
            why += f" (its value, {state.shown}, is today's figure)"
    else:
        why = "; the manifest does not give it"
    return _unknown(state, label, where + why + ".")


def _unknown(state: FactState, label: str, reading: str) -> FactState:
    return FactState(
        label,
        state.definition,
        Status.UNKNOWN,
        full_domain(state.definition),
        "not stated for that month",
        note=state.note,
        path=state.path,
        reading=reading,
    )


_RELATED = frozenset(AT_MOST) | frozenset(AT_MOST.values())  # the facts bounded by others


def _chain(name: str, step: dict[str, str]) -> list[str]:
    found = []
    while name in step:
        name = step[name]
        found.append(name)
    return found


def _bounded(
    state: FactState,
    key: str,
    facts: Mapping[str, FactState],
    measured: Measured,
    occasion: Occasion,
) -> FactState:
    """Narrow `state` by what the facts counting a part of it (or more) establish."""
    name = key.partition("@")[0]
    below = {outer: inner for inner, outer in AT_MOST.items()}
    smaller = _chain(name, below)  # facts that count fewer: lower bounds
    larger = _chain(name, AT_MOST)  # facts that count more: upper bounds
    domain, likely = state.domain, _likely(state)
    reasons, weaker = [], []
    for other_name, is_lower in [(n, True) for n in smaller] + [(n, False) for n in larger]:
        other = _measured(other_name, facts, measured, occasion)
        bound = _bound(other.domain, is_lower)
        if bound is not None and other.status is Status.ESTABLISHED:
            domain = intersect(domain, bound)
            reasons.append(f"{'at least' if is_lower else 'at most'} {other.name} ({other.domain})")
        likely_bound = _bound(_likely(other), is_lower)
        if likely_bound is not None:
            likely = intersect(likely, likely_bound)
            shown = _likely(other)
            weaker.append(f"{'at least' if is_lower else 'at most'} {other.name} ({shown})")
    if not reasons and likely == _likely(state):
        return state
    if domain.is_empty() or likely.is_empty():
        # Weaker evidence that contradicts the figures leaves the fact open, as for one fact's
        # own evidence (`facts`): a stricter policy, which demotes it, never settles a dispute.
        why = ", ".join(reasons) if domain.is_empty() else ", ".join(weaker)
        return dataclasses.replace(
            state,
            status=Status.DISPUTED,
            domain=full_domain(state.definition),
            likely=None,
            reading=_join(
                state.reading, f"{state.name} contradicts the figures it must lie between: {why}."
            ),
        )
    status = state.status
    if reasons and status is Status.UNKNOWN:
        status = Status.ESTABLISHED
    if state.averaged and state.likely is not None:  # the average month, where the bounds allow
        average = intersect(likely, state.likely)
        likely = likely if average.is_empty() else average
    shown_likely = None if likely == domain else likely
    text = f"{state.name} is {', '.join(reasons)}, since {_who(name)}." if reasons else None
    return dataclasses.replace(
        state, status=status, domain=domain, likely=shown_likely, reading=_join(state.reading, text)
    )


def _likely(state: FactState) -> Domain:
    """The values weak evidence admitted allows, as a bound of others: a year's average month
    (`averaged`) is no figure of any one month, so it bounds nothing."""
    if state.averaged or state.likely is None:
        return state.domain
    return state.likely


def _bound(domain: Domain, lower: bool) -> Interval | None:
    if not isinstance(domain, Interval):
        return None
    if lower:
        if domain.lo == 0 and domain.lo_closed:
            return None
        return Interval(domain.lo, domain.lo_closed, None, False, domain.dimension)
    if domain.hi is None:
        return None
    return Interval(domain.lo * 0, True, domain.hi, domain.hi_closed, domain.dimension)


def _who(name: str) -> str:
    return {
        "mau": "the product's users are among the licensee's",
        "licensee_own_mau": "the licensee's own users are among the group's and include the "
        "product's",
        "licensee_mau": "the licensee and its affiliates count the licensee's own users and more",
        "monthly_revenue": "a twelfth of ARR is the recurring part of a month's revenue",
        "annual_recurring_revenue": "a twelfth of ARR is the recurring part of a month's revenue",
    }.get(name, "one counts a part of the other")


def _join(first: str | None, second: str | None) -> str | None:
    parts = [p for p in (first, second) if p]
    return " ".join(parts) if parts else None
