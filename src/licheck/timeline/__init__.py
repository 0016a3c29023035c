"""The verdicts as of every day the evidence changed (`licheck timeline`).

The product's and each finding's verdict as of every day its evidence changed: what licheck
would have said then.

The days come from the manifest (`events`): each source's date and retraction, and each license
text that came into force for a model whose copy has no date.  On each day the manifest is
evaluated with the evidence known then (`--as-of` that day: later sources not yet counted, later
retractions not yet applied); an entry keeps only what changed since the day before it.  Undated
evidence counts on every day, and the report lists it.

The work grows with the evidence, not its square (`daily`): the facts are kept up to date from
one day to the next, and a day on which no fact and no license text changed is not evaluated
again (its findings are the day before's).
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections import defaultdict

from licheck.evaluation.binding import uncovered_from
from licheck.evaluation.evaluate import (
    EvaluationContext,
    Finding,
    Options,
    ProductResult,
    evaluate_manifest,
)
from licheck.facts.evidencepolicy import EvidencePolicy
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import Library
from licheck.timeline.daily import DailyFacts, Work
from licheck.timeline.events import Event, change_days, collect
from licheck.timeline.report import (
    EntryOut,
    EventOut,
    FindingStateOut,
    TimelineReport,
    UndatedOut,
)

__all__ = ["TimelineReport", "build"]

Key = tuple[str, str, str, str]


def build(
    manifest: Manifest,
    document: Document,
    library: Library,
    policy: EvidencePolicy,
    work: Work | None = None,
) -> TimelineReport:
    """The timeline of one manifest under an evidence policy (`work`: counts what it took)."""
    events, undated = collect(manifest, library)
    days = change_days(events)
    # with all the evidence, as `evaluate` says it today: also checks the manifest (once: the
    # check does not depend on the day), and when nothing in it is dated
    today = evaluate_manifest(manifest, document, library, Options(policy), EvaluationContext())
    facts = DailyFacts(policy, work if work is not None else Work())
    texts = _text_days(library.models)
    on_day = _by_day(events)
    entries: list[EntryOut] = []
    before: ProductResult | None = None
    in_force = -1  # how many of `texts` days have come: the same number, the same texts
    for day in days:
        facts.advance(day)
        texts_changed = in_force != (in_force := bisect.bisect_right(texts, day))
        if before is None or facts.changed or texts_changed:
            facts.work.evaluations += 1
            # a fresh memo per day: what it keeps was resolved under that day's evidence
            options = Options(policy, as_of=day, resolver=facts)
            result = evaluate_manifest(
                manifest, document, library, options, EvaluationContext(), checked=True
            )
        else:  # the same facts and license texts: the same findings as the day before
            result = before
        entries.append(_entry(day, on_day.get(day, []), result, before))
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


def _text_days(models: tuple[CatalogModel, ...]) -> list[dt.date]:
    """Every day on which which license texts bind a copy obtained at an unknown date may
    change (`binding.licenses_for`): a text coming into force, the day after a gap opens."""
    days = {
        dt.date(d.from_.year, d.from_.month, d.from_.day)
        for model in models
        for d in model.license_history
        if d.from_ is not None
    }
    days |= {day for model in models for day in uncovered_from(model.license_history)}
    return sorted(days)


def _by_day(events: list[Event]) -> dict[dt.date, list[EventOut]]:
    """The events that change something on each day (a month written: its first and last
    day), in the order of `events`."""
    found: dict[dt.date, list[EventOut]] = defaultdict(list)
    for e in events:
        last = _plain(e.settled)
        for day in dict.fromkeys((e.day, last)):
            found[day].append(
                EventOut(
                    kind=e.kind,
                    what=e.what,
                    evidence_kind=e.evidence_kind,
                    date=e.written,
                    partly=e.day == day and last != day,
                )
            )
    return found


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
    return sorted({m.fact.name for m in finding.missing_facts}) if finding else []


def _changed(state: FindingStateOut) -> bool:
    return state.verdict != state.previous or state.open_facts != state.previous_open_facts
