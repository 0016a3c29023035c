"""Evidence for a month of a series dated before that month was over: it cannot report the
month's figure (at most a forecast), yet `--as-of` and the timeline would count it as the month's
figure from that date on — a Llama gate read as not crossed on a March figure dated in February.
Refused at the month, as a date that cannot be true is (`consistency.check_manifest`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from licheck.diagnostics import Diagnostic
from licheck.manifest import Evidence, FactSpec, Manifest, Source
from licheck.model import parse_date
from licheck.yamlsafe import Document, Path_


def early_month_evidence(
    manifest: Manifest,
    document: Document,
    stated: Iterator[tuple[str, FactSpec, Path_]],
) -> Iterator[Diagnostic]:
    """Each month of a series whose evidence (its own, or the fact's where it has none) is dated
    wholly before the month's last day."""
    for name, spec, path in stated:
        for month, part in sorted((spec.series or {}).items()):
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
