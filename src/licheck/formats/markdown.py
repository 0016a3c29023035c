"""Markdown for a pull-request comment: the verdict and the gate first, one table row per
violation or governance risk (waived ones marked), waiver warnings, and the explanations folded
away in <details> — a reviewer reads the top in one screen.
"""

from __future__ import annotations

from licheck.engine import Verdict
from licheck.formats.summary import blocks, counts_line, gate_line, is_problem, plural
from licheck.report import FailOn, FindingOut, ProductOut, Report

MAX_ROWS = 20  # beyond this the comment stops being one screen; the rest are counted
ICONS = {Verdict.VIOLATION: "🛑", Verdict.GOVERNANCE_RISK: "⚠️", Verdict.SATISFIED: "✅",
         Verdict.NOT_APPLICABLE: "✅"}


def cell(text: str) -> str:
    """Text safe inside a table cell: no pipes, no line breaks, no HTML."""
    return (text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")
            .replace(">", "&gt;").replace("\r", " ").replace("\n", " "))


def _settle(f: FindingOut) -> str:
    parts = [f"`{m.fact}`" + (f" (likely {cell(m.likely)})" if m.likely else "")
             for m in f.missing_facts]
    return ", ".join(parts) or "—"


def _icon(f: FindingOut) -> str:
    return "🔕" if f.waived else ICONS[f.verdict]


def _row(p: ProductOut, f: FindingOut, fail_on: FailOn) -> str:
    status = f.verdict.label + (" (waived)" if f.waived else "")
    if blocks(f, fail_on):
        status = f"**{status}**"
    who = cell(p.product)
    if len({g.component for g in p.findings}) > 1:  # name the component where it is ambiguous
        who += f" · `{cell(f.component)}`"
    return (f"| {_icon(f)} | {who} | {status} | `{cell(f.license)}/{cell(f.clause)}`"
            f" {cell(f.title)} | `{cell(f.location.file)}:{f.location.line}` | {_settle(f)} |")


def _details(p: ProductOut, f: FindingOut) -> list[str]:
    lines = [f"#### {_icon(f)} {p.product} — `{f.license}/{f.clause}`", ""]
    if f.quote:
        lines += [f"> {f.quote}", ""]
    lines.append(f"**Why:** {f.explanation}")
    for m in f.missing_facts:
        if m.decides_alone:
            outcomes = "; ".join(f"if {o.when}: {o.verdict.label}" for o in m.outcomes)
        else:
            outcomes = "settles nothing on its own (" + ", ".join(o.when for o in m.outcomes) + ")"
        lines.append(f"- `{m.fact}` — {outcomes}")
    if f.settled_by:
        lines += ["", "**What would make it firm:**"]
        lines += [f"- **{s.verdict.label}** if "
                  + " and ".join(f"`{c.fact}` {c.value}" for c in s.when) for s in f.settled_by]
    if f.waiver is not None:
        lines.append(f"- waiver: {f.waiver.message}")
    lines.append("")
    return lines


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION) -> str:
    gate = report.summary.gate_verdict
    title = "passes" if not blocks_any(report, fail_on) else "fails"
    out = [f"### licheck: {ICONS[gate]} {gate.label} — gate {title}", "",
           f"{counts_line(report)}.  ", f"{gate_line(report, fail_on)}.", ""]
    problems = [(p, f) for p in report.products for f in p.findings if is_problem(f)]
    problems.sort(key=lambda pf: (pf[1].waived, -pf[1].verdict.severity))  # stable otherwise
    if problems:
        out += ["| | Product | Verdict | Clause | Where | What would settle it |",
                "|---|---|---|---|---|---|"]
        out += [_row(p, f, fail_on) for p, f in problems[:MAX_ROWS]]
        if len(problems) > MAX_ROWS:
            out.append(f"\n… and {plural(len(problems) - MAX_ROWS, 'more finding')} "
                       "(see the full report).")
        out.append("")
    clean = [p.product for p in report.products
             if not any(is_problem(f) for f in p.findings)]
    if clean:
        shown = ", ".join(clean[:10]) + (f" and {len(clean) - 10} more" if len(clean) > 10
                                        else "")
        out += [f"✅ No violations or risks: {cell(shown)}.", ""]
    notes = [s for s in report.waivers if s.status != "applied"]
    if notes:
        out.append("**Waivers that need attention:**")
        out += [f"- `{cell(s.file)}:{s.line}` {cell(s.message)}" for s in notes]
        out.append("")
    if problems:
        out += ["<details><summary>Explanations</summary>", ""]
        for p, f in problems[:MAX_ROWS]:
            out += _details(p, f)
        out += ["</details>", ""]
    policy = f"evidence policy `{report.evidence_policy}`"
    if report.as_of:
        policy += f", evidence as of {report.as_of}"
    out.append(f"<sub>licheck {report.tool_version} · {policy}</sub>")
    return "\n".join(out) + "\n"


def blocks_any(report: Report, fail_on: FailOn) -> bool:
    return any(blocks(f, fail_on) for p in report.products for f in p.findings)
