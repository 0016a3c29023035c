"""The sweep as an SVG picture: verdict bands over one fact, or the region map over two, with each
threshold drawn and labelled by the clause test that puts it there.

Hand-written SVG: no dependencies, and byte-identical for the same report (coordinates are
rounded to one decimal).  Exact thresholds are lines; an interval that is a single point (the
verdict exactly at a threshold differs from both sides) is drawn as a thin bar.
"""

from __future__ import annotations

from collections.abc import Sequence

from licheck.core.units import format_number
from licheck.core.verdicts import Verdict
from licheck.outputs.whatif.scale import Scale, exact, grid
from licheck.outputs.whatif.text import scenario_words
from licheck.text.escape import xml_text as escape
from licheck.whatif.report import AxisOut, RangeOut, SweepOut, WhatIfReport

FILLS = {
    Verdict.NOT_APPLICABLE: "#d9d9d9",
    Verdict.SATISFIED: "#8fd18f",
    Verdict.GOVERNANCE_RISK: "#f6c945",
    Verdict.VIOLATION: "#e05a4f",
}
WIDTH = 760
LEFT, RIGHT = 170, 40
PLOT = WIDTH - LEFT - RIGHT
POINT_WIDTH = 3.0  # a single-value interval, drawn visibly


def render(report: WhatIfReport) -> str:
    """The SVG document for the report's sweep (`report.sweep` must be set)."""
    sweep = report.sweep
    if sweep is None:
        raise ValueError("the report has no sweep to draw")
    if sweep.intervals is not None:
        height, body = _bands(sweep)
    else:
        height, body = _map(sweep)
    title = f"{report.product}: what-if {' × '.join(a.fact for a in sweep.axes)}"
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" '
        'font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(20, 26, title, size=16, weight="bold"),
        _text(20, 46, "Scenario: " + scenario_words(report), fill="#444444"),
        _text(
            20,
            62,
            f"Baseline {report.baseline.verdict.label}, scenario "
            f"{report.result.verdict.label}; evidence policy {report.evidence_policy}",
            fill="#444444",
        ),
    ]
    swept = {a.fact for a in sweep.axes}
    open_facts = [n.fact for n in report.next_facts if n.fact not in swept]
    if open_facts:  # why a region is a governance risk rather than a firmer verdict
        head.append(
            _text(
                WIDTH - 20,
                26,
                "Still open: " + ", ".join(open_facts),
                size=11,
                anchor="end",
                fill="#8a6d00",
            )
        )
    return "\n".join([*head, *body, _legend(height - 24), "</svg>"]) + "\n"


def _n(value: float) -> str:
    return f"{value:.1f}"


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 12,
    weight: str = "normal",
    anchor: str = "start",
    fill: str = "#222222",
    rotate: bool = False,
) -> str:
    transform = f' transform="rotate(-90 {_n(x)} {_n(y)})"' if rotate else ""
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}"{bold} text-anchor="{anchor}" '
        f'fill="{fill}"{transform}>{escape(text)}</text>'
    )


def _rect(x: float, y: float, w: float, h: float, verdict: Verdict, label: str) -> str:
    """A region in its verdict's colour, named inside where it fits (and in a tooltip)."""
    rect = (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
        f'fill="{FILLS[verdict]}" stroke="#ffffff" stroke-width="0.5">'
        f"<title>{escape(label)}: {verdict.label}</title></rect>"
    )
    if w < 7 * len(verdict.label) + 12 or h < 18:
        return rect
    return (
        rect
        + "\n"
        + _text(x + w / 2, y + h / 2 + 4, verdict.label, anchor="middle", fill="#333333")
    )


def _span(scale: Scale, item: RangeOut, length: float) -> tuple[float, float]:
    """Start and length of a range along an axis of `length` pixels."""
    start = scale.position(exact(item.lower.exact)) * length
    end = scale.position(exact(item.upper.exact)) * length
    if end - start < POINT_WIDTH:
        middle = (start + end) / 2
        return middle - POINT_WIDTH / 2, POINT_WIDTH
    return start, end - start


def _unit(axis: AxisOut) -> str:
    return f"{axis.fact} (USD/month)" if axis.unit == "USD/month" else f"{axis.fact} (count)"


LANE = 30.0  # vertical room for one row of threshold labels under an axis


def _width(text: str, size: int) -> float:
    """A generous estimate of the text's width (no font metrics at hand)."""
    return len(text) * size * 0.6


def _ticks_x(axis: AxisOut, scale: Scale, top: float, bottom: float) -> tuple[list[str], float]:
    """Range ends and thresholds along a horizontal axis at `bottom`; threshold lines span up.

    Labels that would overlap go to further rows (lanes) below, each with its line drawn down to
    it.  Returns the elements and the height used under the axis."""
    out = [
        f'<line x1="{_n(LEFT)}" y1="{_n(bottom)}" x2="{_n(LEFT + PLOT)}" y2="{_n(bottom)}" '
        'stroke="#222222"/>'
    ]
    # (x, label, test, anchor), the range's ends first so that they keep the first lane.
    items: list[tuple[float, str, str, str]] = [
        (LEFT, format_number(scale.lower), "", "start"),
        (LEFT + PLOT, format_number(scale.upper), "", "end"),
    ]
    items += [
        (LEFT + scale.position(exact(t.exact)) * PLOT, t.label, "; ".join(t.tests), "middle")
        for t in axis.thresholds
    ]
    lanes: list[list[tuple[float, float]]] = []
    for x, label, test, anchor in items:
        extent = max(_width(label, 12), _width(test, 10))
        left = {"start": x, "end": x - extent, "middle": x - extent / 2}[anchor]
        right = left + extent
        lane = next(
            (
                k
                for k, taken in enumerate(lanes)
                if all(right + 8 < a or left - 8 > b for a, b in taken)
            ),
            len(lanes),
        )
        if lane == len(lanes):
            lanes.append([])
        lanes[lane].append((left, right))
        y = bottom + 16 + lane * LANE
        if test:
            out.append(
                f'<line x1="{_n(x)}" y1="{_n(top)}" x2="{_n(x)}" y2="{_n(y - 12)}" '
                'stroke="#222222" stroke-dasharray="4 3"/>'
            )
        out.append(_text(x, y, label, anchor=anchor, weight="bold" if test else "normal"))
        if test:
            out.append(_text(x, y + 13, test, anchor="middle", size=10, fill="#555555"))
    under = 16 + len(lanes) * LANE
    out.append(
        _text(LEFT + PLOT / 2, bottom + under + 4, f"{_unit(axis)}, {scale.name}", anchor="middle")
    )
    return out, under + 10


def _bands(sweep: SweepOut) -> tuple[int, list[str]]:
    assert sweep.intervals is not None
    (axis,) = sweep.axes
    intervals = sweep.intervals
    scale = Scale.over(intervals)
    rows: list[tuple[str, list[Verdict]]] = [("product", [i.verdict for i in intervals])]
    for k, finding in enumerate(intervals[0].findings):
        verdicts = [i.findings[k].verdict for i in intervals]
        if len(set(verdicts)) > 1:
            rows.append(("/".join(finding.finding.split("/")[-2:]), verdicts))
    top, band, gap = 90.0, 34.0, 8.0
    bottom = top + len(rows) * (band + gap)
    out: list[str] = []
    for r, (name, verdicts) in enumerate(rows):
        y = top + r * (band + gap)
        if r == 0:
            out.append(_text(LEFT - 10, y + band / 2 + 4, name, anchor="end", weight="bold"))
        else:  # license/clause: the clause, and its license in small type under it
            license_id, clause = name.split("/")
            out.append(_text(LEFT - 10, y + band / 2, clause, anchor="end"))
            out.append(
                _text(
                    LEFT - 10, y + band / 2 + 12, license_id, anchor="end", size=9, fill="#555555"
                )
            )
        for interval, verdict in zip(intervals, verdicts, strict=True):
            start, length = _span(scale, interval, PLOT)
            out.append(_rect(LEFT + start, y, length, band, verdict, interval.label))
    ticks, under = _ticks_x(axis, scale, top - 6, bottom)
    return int(bottom + under + 50), [*out, *ticks]


def _map(sweep: SweepOut) -> tuple[int, list[str]]:
    assert sweep.regions is not None
    x_axis, y_axis = sweep.axes
    xs, ys, rows = grid(sweep.regions)
    sx, sy = Scale.over(xs), Scale.over(ys)
    top, side = 90.0, 360.0
    bottom = top + side
    out: list[str] = []
    for j, y_range in enumerate(ys):
        y_start, y_length = _span(sy, y_range, side)
        for i, x_range in enumerate(xs):
            x_start, x_length = _span(sx, x_range, PLOT)
            region = rows[j][i]
            out.append(
                _rect(
                    LEFT + x_start,
                    bottom - y_start - y_length,
                    x_length,
                    y_length,
                    region.verdict,
                    f"{x_range.label} × {y_range.label}",
                )
            )
    out.append(
        f'<line x1="{_n(LEFT)}" y1="{_n(top)}" x2="{_n(LEFT)}" y2="{_n(bottom)}" stroke="#222222"/>'
    )
    for value in (sy.lower, sy.upper):
        y = bottom - sy.position(value) * side
        out.append(_text(LEFT - 8, y + 4, format_number(value), anchor="end"))
    label_y = bottom + 14.0  # labels go up the axis, at least 14 px apart
    for t in y_axis.thresholds:
        y = bottom - sy.position(exact(t.exact)) * side
        out.append(
            f'<line x1="{_n(LEFT - 4)}" y1="{_n(y)}" x2="{_n(LEFT + PLOT)}" y2="{_n(y)}" '
            'stroke="#222222" stroke-dasharray="4 3"/>'
        )
        label_y = min(y + 4, label_y - 14)
        out.append(_text(LEFT - 8, label_y, t.label, anchor="end", weight="bold"))
        out.append(
            _text(LEFT + PLOT - 4, y - 5, "; ".join(t.tests), anchor="end", size=10, fill="#555555")
        )
    out.append(
        _text(40, top + side / 2, f"{_unit(y_axis)}, {sy.name}", anchor="middle", rotate=True)
    )
    ticks, under = _ticks_x(x_axis, sx, top, bottom)
    return int(bottom + under + 50), [*out, *ticks]


def _legend(y: float) -> str:
    items: Sequence[Verdict] = (
        Verdict.NOT_APPLICABLE,
        Verdict.SATISFIED,
        Verdict.GOVERNANCE_RISK,
        Verdict.VIOLATION,
    )
    parts = []
    x = float(LEFT)
    for verdict in items:
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(y - 10)}" width="12" height="12" fill="{FILLS[verdict]}"/>'
        )
        parts.append(_text(x + 18, y, verdict.label))
        x += 24 + 7 * len(verdict.label) + 20
    return "\n".join(parts)
