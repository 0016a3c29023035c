"""The what-if report as CSV: a sweep's intervals (or a map's rectangles) with both bounds, whether
each is included, the product's verdict and each finding's; without a sweep, each finding's
verdict in the baseline and the scenario."""

from __future__ import annotations

import csv
import io

from licheck.whatif.report import FindingVerdictOut, RangeOut, WhatIfReport


def render(report: WhatIfReport) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    sweep = report.sweep
    if sweep is None:
        before = {f.finding: f.verdict.value for f in report.baseline.findings}
        after = {f.finding: f.verdict.value for f in report.result.findings}
        kinds = {c.finding: c.kind.value for c in report.changes}
        writer.writerow(["finding", "baseline", "scenario", "change"])
        for key in sorted(before.keys() | after.keys()):
            writer.writerow([key, before.get(key, ""), after.get(key, ""), kinds.get(key, "")])
        return buffer.getvalue()
    facts = [axis.fact for axis in sweep.axes]
    rows: list[tuple[list[RangeOut], str, list[FindingVerdictOut]]]
    if sweep.intervals is not None:
        rows = [([i], i.verdict.value, i.findings) for i in sweep.intervals]
    else:
        assert sweep.regions is not None
        rows = [([r.x, r.y], r.verdict.value, r.findings) for r in sweep.regions]
    findings = [f.finding for f in rows[0][2]]
    header = [
        f"{fact}_{part}"
        for fact in facts
        for part in ("lower", "lower_included", "upper", "upper_included")
    ]
    writer.writerow([*header, "verdict", *findings])
    for ranges, verdict, verdicts in rows:
        writer.writerow(
            [
                *(cell for r in ranges for cell in _bounds(r)),
                verdict,
                *(v.verdict.value for v in verdicts),
            ]
        )
    return buffer.getvalue()


def _bounds(item: RangeOut) -> list[object]:
    return [
        item.lower.value,
        str(item.lower.included).lower(),
        item.upper.value,
        str(item.upper.included).lower(),
    ]
