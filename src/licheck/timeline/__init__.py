"""`licheck timeline`: the product's and each finding's verdict as of every day its evidence
changed — what licheck would have said then.

The days come from the manifest (`events`): each source's date and retraction, and each license
text that came into force for a model whose copy has no date.  On each day the manifest is
evaluated with the evidence known then (`--as-of` that day: later sources not yet counted, later
retractions not yet applied); an entry keeps only what changed since the day before it.  Undated
evidence counts on every day, and the report lists it.
"""

from __future__ import annotations

import datetime as dt

from licheck.evaluation import (
    EvaluationContext,
    Finding,
    Options,
    ProductResult,
    evaluate_manifest,
)
from licheck.facts import EvidencePolicy
from licheck.library import Library
from licheck.manifest import Manifest
from licheck.timeline.events import Event, change_days, collect
from licheck.timeline.report import (
    EntryOut,
    EventOut,
    FindingStateOut,
    TimelineReport,
    UndatedOut,
)
from licheck.yamlsafe import Document

__all__ = ["TimelineReport", "build"]

Key = tuple[str, str, str, str]


def build(
    manifest: Manifest, document: Document, library: Library, policy: EvidencePolicy
) -> TimelineReport:
    """The timeline of one manifest under an evidence policy."""
    events, undated = collect(manifest, library)
    days = change_days(events)
    # with all the evidence, as `evaluate` says it today: also checks the manifest when nothing
    # in it is dated
    today = evaluate_manifest(manifest, document, library, Options(policy), EvaluationContext())
    entries: list[EntryOut] = []
    before: ProductResult | None = None
    for day in days:
        # a fresh memo per day: what it keeps was resolved under that day's evidence
        result = evaluate_manifest(
            manifest, document, library, Options(policy, as_of=day), EvaluationContext()
        )
        entries.append(_entry(day, _on(day, events), result, before))
        before = result
    return TimelineReport(
        product=manifest.product,
        owner=manifest.owner.name,
        file=document.file,
        evidence_policy=policy.name,
        verdict=today.verdict,
        undated=[UndatedOut(what=u.what, where=u.where) for u in undated],
        entries=entries,
    )


def _on(day: dt.date, events: list[Event]) -> list[EventOut]:
    """The events that change something on `day` (a month written: its first and last day)."""
    return [
        EventOut(
            kind=e.kind,
            what=e.what,
            evidence_kind=e.evidence_kind,
            date=e.written,
            partly=e.day == day and _plain(e.settled) != day,
        )
        for e in events
        if e.day == day or _plain(e.settled) == day
    ]


def _plain(date: dt.date) -> dt.date:
    return dt.date(date.year, date.month, date.day)


def _entry(
    day: dt.date, events: list[EventOut], now: ProductResult, before: ProductResult | None
) -> EntryOut:
    current = {f.key: f for f in now.findings}
    previous = {f.key: f for f in before.findings} if before else {}
    changes = []
    for key in sorted(current.keys() | previous.keys()):
        state = _state(key, current.get(key), previous.get(key))
        if before is None or _changed(state):
            changes.append(state)
    return EntryOut(
        date=day.isoformat(),
        events=events,
        verdict=now.verdict,
        previous=before.verdict if before else None,
        changes=changes,
    )


def _state(key: Key, now: Finding | None, before: Finding | None) -> FindingStateOut:
    either = now or before
    assert either is not None  # the key is in one of them
    return FindingStateOut(
        finding="/".join(key),
        title=either.title,
        verdict=now.verdict if now else None,
        previous=before.verdict if before else None,
        open_facts=_open(now),
        previous_open_facts=_open(before),
    )


def _open(finding: Finding | None) -> list[str]:
    return sorted({m.fact.name for m in finding.missing}) if finding else []


def _changed(state: FindingStateOut) -> bool:
    return state.verdict != state.previous or state.open_facts != state.previous_open_facts
