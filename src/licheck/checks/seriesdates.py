"""The months of a series that cannot be as stated, refused at the month as a date that cannot be
true is (`consistency.check_manifest`):

- a month that has not begun: a typo or a forecast, as a future date is;
- a month whose evidence is dated before the month was over: it cannot report the month's figure
  (at most a forecast), yet `--as-of` and the timeline would count it as the month's figure from
  that date on — a Llama gate read as not crossed on a March figure dated in February.

A month to come is refused for that alone: any evidence for it is early too, and saying so
again at the same month would only repeat it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from licheck.core.diagnostics import Diagnostic
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import Evidence, FactSpec, Manifest, Source
from licheck.inputs.rules import parse_date


def month_problems(
    manifest: Manifest,
    document: Document,
    stated: Iterator[tuple[str, FactSpec, Path_]],
    today: dt.date,
) -> Iterator[Diagnostic]:
    """Each month of a series to come, or whose evidence (its own, or the fact's where it has
    none) is dated wholly before the month's last day."""
    this_month = f"{today.year:04d}-{today.month:02d}"
    for name, spec, path in stated:
        for month, part in sorted((spec.series or {}).items()):
            if month > this_month:
                yield document.error(
                    (*path, "series", month),
                    f"the month {month} of {name} is in the future (today is {today})",
                    "a figure for a month to come is a forecast, not evidence; to evaluate as "
                    "of another day, use --as-of",
                    at_key=True,
                )
            else:
                yield from _early_evidence(manifest, document, (name, spec, path), month, part)


def _early_evidence(
    manifest: Manifest,
    document: Document,
    stated: tuple[str, FactSpec, Path_],
    month: str,
    part: FactSpec,
) -> Iterator[Diagnostic]:
    name, spec, path = stated
    own = bool(part.evidence)
    pieces = part.evidence if own else spec.evidence
    last = parse_date(month)  # a month is read as its last day
    for piece in pieces:
        date = _date_of(piece, manifest.sources)
        # a month or a year written is read as its last day: the latest it may be
        if date is None or date >= last:
            continue
        where = "its evidence" if own else f"the evidence of {name}"
        yield document.error(
            (*path, "series", month),
            f"the month {month} of {name}: {where} {piece.source!r} is dated {date}, "
            f"before the month was over ({last.isoformat()}), so it cannot report it",
            "date the evidence when the month's figure was published, or give the "
            "month its own evidence",
            at_key=True,
        )


def _date_of(piece: Evidence, sources: dict[str, Source]) -> dt.date | None:
    cited = sources.get(piece.source)
    return piece.date or (cited.date if cited else None)
