"""When a manifest's evidence changed: every source dated, every retraction, every license text
that came into force for a model whose copy has no date of its own — and what is undated.

The manifest is walked as a whole (every `Evidence`, `FactSpec` and `ModelRef` wherever it sits:
product and component facts, lineage, agreements, months of a series), so evidence added in a new
place of the format is not silently left off the timeline.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from licheck.evaluation.binding import uncovered_from
from licheck.inputs.manifest import Evidence, FactSpec, Manifest, ModelRef, Owner, Source
from licheck.inputs.rules import DatedLicense, PartialDate, earliest
from licheck.library.compiled import Library

EventKind = Literal["dated", "retracted", "license"]
Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that changes what the evidence says from `day` on."""

    day: dt.date  # the first day the change may count (a month or year: its first day)
    kind: EventKind
    what: str  # the source's title, or the license and model
    evidence_kind: str | None  # observed, licensor_statement, ... (None for a license text)
    written: str  # the date as the manifest or catalog writes it (`2026-03`, `2026-03-19`)
    settled: dt.date  # the last day it may be (a month or a year: its last day)


@dataclass(frozen=True, slots=True)
class Undated:
    """Evidence without a date: it counts on every date of the timeline."""

    what: str
    where: str  # the manifest path, dotted


def walk(node: object, path: Path = ()) -> Iterator[tuple[Path, object]]:
    """Every model, list item and mapping value under `node`, with its path."""
    yield path, node
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from walk(getattr(node, name), (*path, name))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from walk(item, (*path, index))
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from walk(item, (*path, str(key)))


def dotted(path: Path) -> str:
    return ".".join(str(part) for part in path)


def _event(day: dt.date, kind: EventKind, what: str, evidence_kind: str | None) -> Event:
    return Event(earliest(day), kind, what, evidence_kind, str(day), day)


def _evidence_events(piece: Evidence, sources: dict[str, Source]) -> list[Event]:
    cited = sources.get(piece.source)
    title = cited.title if cited else piece.source
    kind = piece.kind or (cited.kind if cited else None)
    date = piece.date or (cited.date if cited else None)
    retracted = piece.retracted_on or (cited.retracted_on if cited else None)
    label = kind.value if kind else None
    events = [_event(date, "dated", title, label)] if date is not None else []
    if retracted is not None:
        retraction = _event(retracted, "retracted", title, label)
        if date is not None and retraction.day < earliest(date):
            # retracted in a month the source appeared in: not before it exists
            retraction = dataclasses.replace(retraction, day=earliest(date))
        events.append(retraction)
    return events


def _evidence_of(node: object) -> list[Evidence]:
    """The evidence a part of the manifest carries (none for parts that carry none)."""
    found = getattr(node, "evidence", None) if isinstance(node, BaseModel) else None
    return found if isinstance(found, list) else []


def _unsourced_claim(node: object) -> bool:
    """A part that can carry evidence, claims something, and has none: the manifest's author
    asserts it, undated."""
    if not isinstance(node, BaseModel) or "evidence" not in type(node).model_fields:
        return False
    if isinstance(node, Evidence) or _evidence_of(node):
        return False
    if isinstance(node, FactSpec):
        claims = (node.value, node.at_least, node.at_most, node.includes, node.excludes)
        return any(c is not None and c != "unknown" for c in claims)
    if isinstance(node, ModelRef):
        return node.model.strip().lower() != "unknown"
    if isinstance(node, Owner):
        return node.id is not None  # its evidence is for the organisation id
    return True


def _license_events(ref: ModelRef, library: Library) -> list[Event]:
    """Texts of a license history that come into force on a date: they bind a copy obtained at
    an unknown date only from then on."""
    model = library.model(ref.model)
    if ref.obtained is not None or model is None:
        return []
    # `binding.licenses_for` compares the date as written (a month: its last day)
    events = [
        _license_event(_day(dated.from_), dated.license, model.name, str(dated.from_))
        for dated in model.license_history
        if dated.from_ is not None
    ]
    return events + _uncovered_events(model.license_history, model.name)


def _uncovered_events(history: list[DatedLicense], name: str) -> list[Event]:
    """The day after a text ended when no next text begins that day: from then a copy may be
    under a text nobody knows (`binding.licenses_for` adds license-unknown)."""
    return [
        _license_event(day, "unknown", name, day.isoformat()) for day in uncovered_from(history)
    ]


def _license_event(day: dt.date, license_id: str, name: str, written: str) -> Event:
    return Event(day, "license", f"{license_id} for {name}", None, written, day)


def _day(date: dt.date) -> dt.date:
    """A plain date (a month or a year written: its last day)."""
    return dt.date(date.year, date.month, date.day)


def collect(manifest: Manifest, library: Library) -> tuple[list[Event], list[Undated]]:
    """The events of a manifest (deduplicated, by day) and its undated evidence."""
    events: dict[Event, None] = {}
    undated: dict[Undated, None] = {}
    evidenced: set[Path] = set()  # facts with evidence: their months without any take it
    for path, node in walk(manifest):
        if path[:1] == ("sources",):
            continue  # a source counts where evidence cites it
        if isinstance(node, Evidence):
            found = _evidence_events(node, manifest.sources)
            events.update(dict.fromkeys(found))
            if not any(e.kind == "dated" for e in found):
                undated[Undated(node.source, dotted(path))] = None
        elif _evidence_of(node):
            evidenced.add(path)
        elif _unsourced_claim(node):
            inherits = path[-2:-1] == ("series",) and path[:-2] in evidenced
            if not inherits:
                undated[Undated("stated in the manifest", dotted(path))] = None
        if isinstance(node, ModelRef):
            events.update(dict.fromkeys(_license_events(node, library)))
    if manifest.agreements is not None:  # the list is declared complete, undated
        undated[Undated("every agreement is listed", "agreements")] = None
    ordered = sorted(events, key=lambda e: (e.day, e.kind, e.what))
    return ordered, list(undated)


def change_days(events: list[Event]) -> list[dt.date]:
    """The days on which what counts may change: each event's first day and, for a month or a
    year, its last (in between, the evidence only makes its value likely)."""
    days = {e.day for e in events} | {
        _day(e.settled) for e in events if isinstance(e.settled, PartialDate)
    }
    return sorted(days)
