"""The what-if report in a terminal (rich): the scenario, baseline and scenario verdicts side by
side, what flipped and why, the exact sweep (intervals, or a coloured region map for two facts)
and what to find out next."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from licheck.core.units import format_number
from licheck.core.verdicts import Verdict
from licheck.outputs.text import STYLES, drawn, print_layers, verdict_text
from licheck.outputs.whatif.scale import Scale, exact, grid, locate
from licheck.text.escape import rich as _t
from licheck.whatif.compare import ChangeKind
from licheck.whatif.report import AxisOut, ChangeOut, SweepOut, WhatIfReport

GLYPHS = {
    Verdict.NOT_APPLICABLE: "·",
    Verdict.SATISFIED: "+",
    Verdict.GOVERNANCE_RISK: "?",
    Verdict.VIOLATION: "!",
}
FILLS = {
    Verdict.NOT_APPLICABLE: "black on bright_black",
    Verdict.SATISFIED: "black on green",
    Verdict.GOVERNANCE_RISK: "black on yellow",
    Verdict.VIOLATION: "bright_white on red",
}
KIND_STYLES = {
    ChangeKind.FLIPPED: "bold",
    ChangeKind.CHANGED: "",
    ChangeKind.GONE: "cyan",
    ChangeKind.NEW: "cyan",
    ChangeKind.SAME: "dim",
}
MAP_WIDTH, MAP_HEIGHT, BAR_WIDTH = 60, 16, 60


def render(report: WhatIfReport, *, width: int | None = None, color: bool | None = None) -> str:
    """The report as terminal text; `color` None follows the terminal and NO_COLOR."""
    return drawn(lambda console: _draw(console, report), width or 100, color)


def _draw(console: Console, report: WhatIfReport) -> None:
    _header(console, report)
    _table(console, report)
    _changes(console, report.changes)
    if report.sweep is not None:
        console.print()
        if report.sweep.intervals is not None:
            _intervals(console, report.sweep)
        else:
            _map(console, report.sweep)
    _next(console, report)


def scenario_words(report: WhatIfReport) -> str:
    parts = [f"{s.fact} = {s.means}" for s in report.scenario.sets]
    parts += [f"built on {s.new} in place of {s.old}" for s in report.scenario.swaps]
    if report.scenario.as_of:
        parts.append(f"evidence as of {report.scenario.as_of}")
    return _t("; ".join(parts)) or "no change (the baseline itself)"


def _header(console: Console, report: WhatIfReport) -> None:
    console.print(
        Text.assemble(
            ("What-if: ", "bold"),
            (_t(report.product), "bold"),
            f" — {_t(report.owner)}   ",
            (_t(report.file), "dim"),
        )
    )
    console.print(Text.assemble(("Scenario: ", "bold"), scenario_words(report)))
    basis = f"evidence policy: {report.evidence_policy}"
    if report.as_of:
        basis += f"; baseline evidence as of {report.as_of}"
    console.print(Text(f"({basis}; what-if values count as established)", style="dim"))
    print_layers(console, report.library)  # the layers judge both runs
    console.print(
        Text.assemble(
            "Verdict: ",
            verdict_text(report.baseline.verdict),
            " → ",
            verdict_text(report.result.verdict),
            "   (baseline → scenario)",
        )
    )
    console.print()


def _table(console: Console, report: WhatIfReport) -> None:
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    before = {f.finding: f for f in report.baseline.findings}
    after = {f.finding: f for f in report.result.findings}
    several = len({f.component for f in [*before.values(), *after.values()]}) > 1
    for column in (["Component"] if several else []) + ["Model", "License / clause"]:
        table.add_column(column)
    for column in ("Baseline", "Scenario", "Change"):
        table.add_column(column, no_wrap=True)
    kinds = {c.finding: c.kind for c in report.changes}
    for key in sorted(before.keys() | after.keys()):
        f = after.get(key) or before[key]
        kind = kinds.get(key, ChangeKind.SAME)
        table.add_row(
            *([_t(f.component)] if several else []),
            _t(f.model_name),
            _t(f"{f.license} / {f.clause}"),
            verdict_text(before[key].verdict) if key in before else Text("—", style="dim"),
            verdict_text(after[key].verdict) if key in after else Text("—", style="dim"),
            Text(kind.value if kind is not ChangeKind.SAME else "", style=KIND_STYLES[kind]),
        )
    console.print(table)


def _changes(console: Console, changes: list[ChangeOut]) -> None:
    for change in changes:
        console.print()
        verdicts = Text.assemble(
            verdict_text(change.baseline) if change.baseline else Text("—"),
            " → ",
            verdict_text(change.scenario) if change.scenario else Text("—"),
        )
        console.print(
            Text.assemble(
                (change.kind.value.upper(), KIND_STYLES[change.kind]),
                "  ",
                (_t(f"{change.license} / {change.clause}"), "bold"),
                ": ",
                verdicts,
            )
        )
        for fact in change.facts:
            console.print(
                Padding(
                    Text.assemble(
                        (_t(fact.fact), "bold"), _t(f": {fact.baseline} → {fact.scenario}")
                    ),
                    (0, 0, 0, 2),
                )
            )
            for line in fact.evidence:
                console.print(Padding(Text(_t(line), style="dim"), (0, 0, 0, 4)))
        if change.settled:
            console.print(Text(_t(f"  no longer missing: {', '.join(change.settled)}")))
        if change.opened:
            console.print(Text(_t(f"  now missing: {', '.join(change.opened)}")))
        console.print(
            Padding(Text.assemble(("Why: ", "bold"), _t(change.explanation)), (0, 0, 0, 2))
        )


def _axis_words(axis: AxisOut, scale: Scale) -> str:
    unit = " USD/month" if axis.unit == "USD/month" else ""
    return _t(
        f"{axis.fact} from {_short(scale.lower)} to {_short(scale.upper)}{unit}; "
        f"{len(axis.thresholds) or 'no'} threshold(s) in the range"
    )


def _thresholds(console: Console, axis: AxisOut) -> None:
    for t in axis.thresholds:
        note = "" if t.changes_verdict else "  (no verdict changes here in this scenario)"
        clauses = f"  [{', '.join(t.clauses)}]" if t.clauses else ""
        console.print(
            Text.assemble(
                _t(f"  {t.label}: "), _t("; ".join(t.tests)), (_t(clauses), "dim"), (note, "dim")
            )
        )


def _intervals(console: Console, sweep: SweepOut) -> None:
    assert sweep.intervals is not None and sweep.boundaries is not None
    (axis,) = sweep.axes
    scale = Scale.over(sweep.intervals)
    console.print(Text.assemble(("Sweep: ", "bold"), _axis_words(axis, scale)))
    _thresholds(console, axis)
    console.print()
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column(_t(axis.fact))
    table.add_column("Product")
    findings = sweep.intervals[0].findings
    varying = [
        i
        for i in range(len(findings))
        if len({iv.findings[i].verdict for iv in sweep.intervals}) > 1
    ]
    for i in varying:
        table.add_column(_t(findings[i].finding.rsplit("/", 2)[-1]))
    for interval in sweep.intervals:
        table.add_row(
            _t(interval.label),
            verdict_text(interval.verdict),
            *(verdict_text(interval.findings[i].verdict) for i in varying),
        )
    console.print(table)
    constant = len(findings) - len(varying)
    if constant:
        console.print(
            Text(f"{constant} finding(s) keep their verdict over the whole range.", style="dim")
        )
    for b in sweep.boundaries:
        side = "upper" if b.side == "above" else "lower"
        line = Text.assemble(
            f"Boundary at {_t(b.label)} (itself in the {side} interval): product ",
            verdict_text(b.below),
            " → ",
            verdict_text(b.above),
        )
        console.print(line)
        for step in b.changes:
            console.print(
                Text.assemble(
                    _t(f"    {'/'.join(step.finding.split('/')[-2:])}: "),
                    verdict_text(step.below),
                    " → ",
                    verdict_text(step.above),
                )
            )
    console.print()
    bar = Text("  ")
    for column in range(BAR_WIDTH):
        value = scale.value((column + 0.5) / BAR_WIDTH)
        verdict = sweep.intervals[locate(sweep.intervals, value)].verdict
        bar.append(GLYPHS[verdict], style=FILLS[verdict])
    console.print(bar)
    console.print(_x_labels(axis, scale, BAR_WIDTH, "  "))
    _legend(console, scale)


def _x_labels(axis: AxisOut, scale: Scale, width: int, margin: str) -> Text:
    """Tick marks and labels under a bar or map: the range's ends and each threshold."""
    ticks = [" "] * width
    labels = [" "] * (width + 12)
    marks = [(0, _short(scale.lower))]
    marks += [
        (min(width - 1, int(scale.position(exact(t.exact)) * width)), _t(t.label.split(" ")[0]))
        for t in axis.thresholds
    ]
    marks.append((width - 1, _short(scale.upper)))
    for column, label in marks:
        ticks[column] = "┴" if 0 < column < width - 1 else "╵"
        start = max(0, min(column - len(label) // 2, len(labels) - len(label)))
        if column == width - 1:
            start = max(0, width - len(label))
        if all(c == " " for c in labels[max(0, start - 1) : start + len(label) + 1]):
            labels[start : start + len(label)] = label
    return Text(margin + "".join(ticks).rstrip() + "\n" + margin + "".join(labels).rstrip())


def _short(value: Fraction) -> str:
    return format_number(value)


def _legend(console: Console, *scales: Scale) -> None:
    legend = Text("  ")
    for verdict in (
        Verdict.NOT_APPLICABLE,
        Verdict.SATISFIED,
        Verdict.GOVERNANCE_RISK,
        Verdict.VIOLATION,
    ):
        legend.append(GLYPHS[verdict], style=FILLS[verdict])
        legend.append(f" {verdict.label}   ", style=STYLES[verdict])
    names = [s.name for s in scales]
    axes = names if len(names) == 1 else [f"x: {names[0]}", f"y: {names[1]}"]
    legend.append("(" + ", ".join(axes) + ")", style="dim")
    console.print(legend)


def _map(console: Console, sweep: SweepOut) -> None:
    assert sweep.regions is not None
    x_axis, y_axis = sweep.axes
    xs, ys, rows = grid(sweep.regions)
    sx, sy = Scale.over(xs), Scale.over(ys)
    console.print(
        Text.assemble(("Region map: ", "bold"), f"{y_axis.fact} (up) × {x_axis.fact} (across)")
    )
    console.print(Text.assemble("  x: ", _axis_words(x_axis, sx)))
    _thresholds(console, x_axis)
    console.print(Text.assemble("  y: ", _axis_words(y_axis, sy)))
    _thresholds(console, y_axis)
    console.print()
    columns = [locate(xs, sx.value((c + 0.5) / MAP_WIDTH)) for c in range(MAP_WIDTH)]
    y_labels = {MAP_HEIGHT - 1: _short(sy.lower), 0: _short(sy.upper)}
    for t in y_axis.thresholds:
        row = MAP_HEIGHT - 1 - min(MAP_HEIGHT - 1, int(sy.position(exact(t.exact)) * MAP_HEIGHT))
        y_labels.setdefault(row, _t(t.label.split(" ")[0]) + " ─")
    margin = max(len(v) for v in y_labels.values()) + 1
    for row in range(MAP_HEIGHT):
        j = locate(ys, sy.value(1 - (row + 0.5) / MAP_HEIGHT))
        line = Text(y_labels.get(row, "").rjust(margin - 1) + "│")
        for i in columns:
            verdict = rows[j][i].verdict
            line.append(GLYPHS[verdict], style=FILLS[verdict])
        console.print(line)
    console.print(_x_labels(x_axis, sx, MAP_WIDTH, " " * margin))
    _legend(console, sx, sy)
    console.print()
    table = Table(
        show_edge=False,
        pad_edge=False,
        header_style="bold",
        title="Exact regions",
        title_justify="left",
        title_style="bold",
    )
    table.add_column(_t(x_axis.fact))
    table.add_column(_t(y_axis.fact))
    table.add_column("Product")
    for region in sweep.regions:
        table.add_row(_t(region.x.label), _t(region.y.label), verdict_text(region.verdict))
    console.print(table)


def _next(console: Console, report: WhatIfReport) -> None:
    if not report.next_facts:
        return
    console.print()
    console.print(
        Text(
            "What to find out next (the scenario's governance risks, most decisive first)",
            style="bold",
        )
    )
    for rank, item in enumerate(report.next_facts, 1):
        status = (
            f"likely {item.likely}, not established"
            if item.likely and item.status == "likely"
            else item.status
        )
        total = len(item.findings)
        alone = "" if item.may_settle else " (none alone: other facts are open too)"
        # a grid, so that a line that wraps continues under the fact, not under the rank
        heading = Table.grid()
        heading.add_column(no_wrap=True)
        heading.add_column()
        heading.add_row(
            f"{rank}. ",
            Text.assemble(
                (_t(item.fact), "bold"),
                _t(f" ({status}) — of ")
                + f"{total} finding(s): settles {item.settles} whatever its "
                f"value, may settle {item.may_settle}{alone}",
            ),
        )
        console.print(heading)
        for settling in item.findings:
            line = Text(_t("/".join(settling.finding.split("/")[-2:])) + ": ")
            for k, outcome in enumerate(settling.outcomes):
                if k:
                    line.append("; ")
                line.append(_t(f"if {outcome.when}: "))
                line.append(verdict_text(outcome.verdict))
            console.print(Padding(line, (0, 0, 0, 5)))
