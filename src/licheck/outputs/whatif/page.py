"""The what-if report as one self-contained HTML page: the scenario, the baseline's and the
scenario's verdicts side by side, what changed and why, the sweep's picture inline (the same SVG
`--plot` writes) and what to find out next.  Every piece of manifest text is escaped."""

from __future__ import annotations

from licheck.core.verdicts import Verdict
from licheck.outputs.html import badge, page
from licheck.outputs.summary import layer_lines
from licheck.outputs.whatif.svg import render as render_svg
from licheck.outputs.whatif.text import scenario_words
from licheck.text.escape import xml_text as esc
from licheck.whatif.report import ChangeOut, NextFactOut, WhatIfReport


def render(report: WhatIfReport) -> str:
    """The page for a what-if report (with its sweep drawn, where it has one)."""
    body = [
        '<header class="top">',
        f"<h1>What if — {esc(report.product)} {badge(report.result.verdict)}</h1>",
        f'<p class="meta">{esc(report.owner)} · <code>{esc(report.file)}</code></p>',
        f"<p>Scenario: {esc(scenario_words(report))}</p>",
        f'<p class="meta">baseline {badge(report.baseline.verdict)} → scenario '
        f"{badge(report.result.verdict)} · evidence policy {esc(report.evidence_policy)}"
        f"{' · baseline evidence as of ' + esc(report.as_of) if report.as_of else ''}"
        f" · licheck {esc(report.tool_version)}</p>",
        *(f'<p class="library">{esc(line)}</p>' for line in layer_lines(report.library)),
        "</header>\n<main>",
        _verdicts(report),
    ]
    if report.changes:
        body.append("<h3>What changed, and why</h3>")
        body += [_change(c) for c in report.changes]
    if report.sweep is not None:
        body.append("<h3>Sweep</h3>")
        body.append(f'<figure class="picture sweep">{_inline(render_svg(report))}</figure>')
    if report.next_facts:
        body.append("<h3>What to find out next</h3><ul>")
        body += [_next(n) for n in report.next_facts]
        body.append("</ul>")
    body.append("</main>\n")
    return page(f"licheck what-if — {report.product}", "\n".join(body))


def _inline(svg: str) -> str:
    """The plot's SVG document as an element of the page (it has no XML declaration to drop)."""
    return svg.strip()


def _verdicts(report: WhatIfReport) -> str:
    baseline = {f.finding: f.verdict for f in report.baseline.findings}
    rows = []
    for finding in report.result.findings:
        before = baseline.get(finding.finding)
        rows.append(
            f"<tr><td>{esc(finding.component)}</td><td>{esc(finding.license)} / "
            f"{esc(finding.clause)}</td><td>{esc(finding.title)}</td>"
            f"<td>{badge(before) if before else '—'}</td><td>{badge(finding.verdict)}</td></tr>"
        )
    return (
        '<table class="summary"><thead><tr><th>Component</th><th>Clause</th><th>What it asks'
        "</th><th>Baseline</th><th>Scenario</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _verdict(verdict: Verdict | None) -> str:
    return badge(verdict) if verdict else "none"


def _change(change: ChangeOut) -> str:
    out = [
        f'<article class="finding v-{(change.scenario or Verdict.NOT_APPLICABLE).value}">',
        f"<h4>{esc(change.license)} / {esc(change.clause)}: {_verdict(change.baseline)} → "
        f"{_verdict(change.scenario)}</h4>",
        f'<p class="title">{esc(change.title)}</p>',
        f'<p class="why">{esc(change.explanation)}</p>',
    ]
    if change.facts:
        out.append("<ul>")
        out += [
            f"<li><code>{esc(f.fact)}</code>: {esc(f.baseline)} → {esc(f.scenario)}</li>"
            for f in change.facts
        ]
        out.append("</ul>")
    out.append("</article>")
    return "\n".join(out)


def _next(fact: NextFactOut) -> str:
    likely = f" (likely {esc(fact.likely)})" if fact.likely else ""
    return (
        f"<li><code>{esc(fact.fact)}</code> — {esc(fact.status)}{likely}: settles "
        f"{fact.settles}, may settle {fact.may_settle} governance risk(s)</li>"
    )
