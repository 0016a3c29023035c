"""The pictures of the HTML report, as inline SVG: each component's lineage (the models it is built
on or trained from, with their licenses, through its training steps to the component) and the
evidence on a timeline (each source at its date, each retraction).

Hand-written SVG from the report alone, every piece of user text escaped; byte-identical for the
same report.  Colours come from CSS classes the page defines, so the pictures follow its light or
dark scheme and print well.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from licheck.core.verdicts import Verdict, worst
from licheck.report.view import ComponentOut, EvidenceOut, FindingOut, LineageModelOut, ProductOut
from licheck.text.escape import xml_text as esc

BOX_W, BOX_H, STEP_W, GAP_X, GAP_Y, PAD = 250.0, 58.0, 180.0, 40.0, 14.0, 10.0
STEP_WORDS = {
    "continued_pretraining": "continued pretraining",
    "fine_tuning": "fine-tuning",
    "rl": "reinforcement learning",
    "distillation": "distillation",
    "quantization": "quantization",
    "merge": "merge",
}


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _cut(text: str, limit: int) -> str:
    """Text that fits a box: cut with an ellipsis (the whole text is in the box's title)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(x: float, y: float, text: str, css: str = "", anchor: str = "start") -> str:
    cls = f' class="{css}"' if css else ""
    end = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{_n(x)}" y="{_n(y)}"{cls}{end}>{esc(text)}</text>'


def _box(x: float, y: float, w: float, lines: list[tuple[str, str]], css: str, tip: str) -> str:
    """A rounded box with up to three lines of text (each: text, CSS class)."""
    parts = [
        f'<g class="{css}"><title>{esc(tip)}</title>',
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{BOX_H}" rx="6"/>',
    ]
    for index, (line, line_css) in enumerate(lines[:3]):
        limit = int((w - 20) / (7.2 if line_css == "name" else 6.6))  # bold is wider
        parts.append(_text(x + 10, y + 18 + index * 16, _cut(line, limit), line_css))
    parts.append("</g>")
    return "".join(parts)


def _arrow(x1: float, y1: float, x2: float, y2: float, dashed: bool) -> str:
    css = "edge dashed" if dashed else "edge"
    bend = x1 + min(x2 - x1, 2 * GAP_X) / 2  # the curve stays in the gap after the models
    path = f"M{_n(x1)} {_n(y1)} C{_n(bend)} {_n(y1)} {_n(bend)} {_n(y2)} {_n(x2 - 2)} {_n(y2)}"
    return f'<path class="{css}" d="{path}" marker-end="url(#arrow)"/>'


def _licenses(
    component: ComponentOut, model: LineageModelOut, findings: list[FindingOut]
) -> tuple[str, Verdict | None]:
    """(label, worst verdict) of the licenses found for one model of a component."""
    mine = [f for f in findings if f.component == component.id and f.model == model.model]
    names = sorted({f.license for f in mine if f.license != "unknown"})
    label = ", ".join(names) if names else "license unknown"
    return label, worst([f.verdict for f in mine]) if mine else None


def lineage_svg(product: ProductOut) -> str:
    """Every component's lineage, one band per component."""
    bands = [_component_band(c, product.findings) for c in product.components]
    if not bands:
        return ""
    width = max(w for w, _, _ in bands) + 2 * PAD
    height = sum(h for _, h, _ in bands) + PAD * (len(bands) + 1)
    parts = [
        f'<svg class="lineage" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}">',
        f"<title>{esc('Lineage of ' + product.product)}</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path class="arrowhead" '
        'd="M0 0 L10 5 L0 10 z"/></marker></defs>',
    ]
    y = PAD
    for _, h, body in bands:
        parts.append(f'<g transform="translate({PAD} {_n(y)})">{body}</g>')
        y += h + PAD
    parts.append("</svg>")
    return "".join(parts)


def _component_band(
    component: ComponentOut, findings: list[FindingOut]
) -> tuple[float, float, str]:
    """(width, height, SVG body) of one component: models, then steps, then the component."""
    models = component.models
    rows = max(len(models), 1)
    height = rows * BOX_H + (rows - 1) * GAP_Y
    center = height / 2 - BOX_H / 2
    parts: list[str] = []
    for index, model in enumerate(models):
        y = index * (BOX_H + GAP_Y)
        label, verdict = _licenses(component, model, findings)
        css = f"node model v-{verdict.value if verdict else 'none'}"
        if model.status != "established":
            css += " unconfirmed"
        relation = f"{model.role} · {model.status}"
        tip = f"{model.name} ({model.model}) — {relation}; license: {label}"
        lines = [(model.name, "name"), (label, "license"), (relation, "meta")]
        parts.append(_box(0, y, BOX_W, lines, css, tip))
    x = BOX_W + GAP_X
    for step in component.steps:
        words = STEP_WORDS.get(step, step)
        parts.append(
            _box(x, center, STEP_W, [(words, "name"), ("step", "meta")], "node step", words)
        )
        x += STEP_W + GAP_X
    for index, model in enumerate(models):
        y = index * (BOX_H + GAP_Y) + BOX_H / 2
        # not established, one of several candidates, or only its outputs: a dashed arrow
        dashed = model.status != "established" or model.role.startswith(
            ("candidate", "trained on outputs")
        )
        enters = model.step if model.step is not None and model.step < len(component.steps) else 0
        target = BOX_W + GAP_X + enters * (STEP_W + GAP_X) if component.steps else x
        parts.append(_arrow(BOX_W, y, target, center + BOX_H / 2, dashed))
    step_x = BOX_W + GAP_X
    for _ in component.steps:
        parts.append(
            _arrow(
                step_x + STEP_W,
                center + BOX_H / 2,
                step_x + STEP_W + GAP_X,
                center + BOX_H / 2,
                False,
            )
        )
        step_x += STEP_W + GAP_X
    delivery = ", ".join(d.replace("_", " ") for d in component.delivery) or "delivery not stated"
    lines = [(component.name, "name"), (component.id, "license"), (delivery, "meta")]
    tip = f"{component.name} ({component.id}): {delivery}"
    parts.append(_box(x, center, BOX_W, lines, "node component", tip))
    return x + BOX_W, height, "".join(parts)


_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")


def _span(text: str | None) -> tuple[dt.date, dt.date] | None:
    """The first and last day a date as written may be (`2026-03`: the whole month)."""
    match = _DATE.match(text or "")
    if not match:
        return None
    year, month, day = int(match[1]), int(match[2] or 0), int(match[3] or 0)
    try:
        if day:
            one = dt.date(year, month, day)
            return one, one
        if month:
            following = dt.date(year + month // 12, month % 12 + 1, 1)
            return dt.date(year, month, 1), following - dt.timedelta(days=1)
        return dt.date(year, 1, 1), dt.date(year, 12, 31)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Dated:
    evidence: EvidenceOut
    span: tuple[dt.date, dt.date]
    retracted: tuple[dt.date, dt.date] | None


def evidence_of(product: ProductOut) -> tuple[list[Dated], list[EvidenceOut]]:
    """The product's evidence, each piece once: dated (by date, then source), and undated."""
    seen: dict[tuple[str, str, str | None, str | None], EvidenceOut] = {}
    for finding in product.findings:
        for fact in finding.facts:
            for piece in fact.evidence:
                seen.setdefault((piece.source, piece.kind, piece.date, piece.retracted_on), piece)
    dated, undated = [], []
    for piece in seen.values():
        span = _span(piece.date)
        if span is None:
            undated.append(piece)
        else:
            dated.append(Dated(piece, span, _span(piece.retracted_on)))
    dated.sort(key=lambda d: (d.span, d.evidence.source, d.evidence.kind))
    return dated, undated


LABEL_W, PLOT_W, ROW_H, TOP = 400.0, 560.0, 24.0, 34.0
MARGIN = 50.0  # room for a date label either side of the plot
Scale = Callable[[dt.date], float]


def timeline_svg(dated: list[Dated]) -> str:
    """Each piece of dated evidence on a shared time axis; a retraction ends its bar with a
    cross.  Empty when nothing is dated."""
    if not dated:
        return ""
    days: list[dt.date] = [d for item in dated for d in (*item.span, *(item.retracted or ()))]
    first, last = min(days), max(days)
    if first == last:
        first, last = first - dt.timedelta(days=1), last + dt.timedelta(days=1)
    total = (last - first).days

    def x(day: dt.date) -> float:
        return LABEL_W + MARGIN + float((day - first).days) / total * (PLOT_W - 2 * MARGIN)

    width = LABEL_W + PLOT_W + PAD
    height = TOP + len(dated) * ROW_H + PAD
    parts = [
        f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        "<title>Evidence by date</title>",
    ]
    parts += _ticks(sorted(set(days)), x, height)
    for index, item in enumerate(dated):
        parts.append(_row(item, TOP + index * ROW_H, x))
    parts.append("</svg>")
    return "".join(parts)


def _ticks(days: list[dt.date], x: Scale, height: float) -> list[str]:
    """A labelled line at each date (at most eight, spread over the range)."""
    if len(days) > 8:
        step = (len(days) - 1) / 7
        days = [days[round(i * step)] for i in range(8)]
    parts = []
    last_label = -1e9
    for day in days:
        at = x(day)
        parts.append(
            f'<line class="tick" x1="{_n(at)}" y1="{TOP - 8}" x2="{_n(at)}" y2="{height}"/>'
        )
        if at - last_label >= 74:  # labels do not overlap
            parts.append(_text(at, TOP - 14, day.isoformat(), "tick-label", "middle"))
            last_label = at
    return parts


def _row(item: Dated, y: float, x: Scale) -> str:
    piece = item.evidence
    counted = piece.counted.split(":")[0]
    css = f"ev {counted}"
    kind = piece.kind.replace("_", " ")
    when = piece.date or ""
    if piece.retracted_on:
        when += f", retracted {piece.retracted_on}"
    tip = f"{piece.source} — {kind}, {when}: {piece.counted}"
    mid = y + ROW_H / 2
    parts = [f'<g class="{css}"><title>{esc(tip)}</title>']
    parts.append(_text(LABEL_W - 8, mid + 4, _cut(piece.source, 58), "ev-label", "end"))
    start, end = x(item.span[0]), x(item.span[1])
    if item.retracted:
        gone = x(item.retracted[0])
        parts.append(f'<line class="ev-life" x1="{_n(start)}" y1="{_n(mid)}" x2="{_n(gone)}" ')
        parts.append(f'y2="{_n(mid)}"/>')
        parts.append(
            f'<path class="ev-retracted" d="M{_n(gone - 5)} {_n(mid - 5)} L{_n(gone + 5)} '
            f'{_n(mid + 5)} M{_n(gone - 5)} {_n(mid + 5)} L{_n(gone + 5)} {_n(mid - 5)}"/>'
        )
    if end - start >= 2:  # a month or a year: the days it may be
        parts.append(f'<rect class="ev-span" x="{_n(start)}" y="{_n(mid - 5)}" ')
        parts.append(f'width="{_n(end - start)}" height="10" rx="5"/>')
    else:
        parts.append(f'<circle class="ev-dot" cx="{_n(start)}" cy="{_n(mid)}" r="6"/>')
    parts.append("</g>")
    return "".join(parts)
