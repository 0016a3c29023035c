"""Markdown for a pull-request comment: the verdict and the gate first, one table row per
violation or governance risk (waived ones marked), waiver warnings, and the explanations folded
away in <details> — a reviewer reads the top in one screen.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass

from licheck.core.verdicts import Verdict
from licheck.outputs.cards import TITLE, table_rows
from licheck.outputs.document import Piece, Plain, written
from licheck.outputs.summary import (
    baseline_lines,
    baseline_tag,
    blocks,
    counts_line,
    gate_line,
    is_problem,
    library_lines,
    plural,
    settings_lines,
    unread,
    written_figures,
)
from licheck.outputs.unread import message, where
from licheck.report.view import FailOn, FindingOut, ProductOut, Report, gate_fails
from licheck.text import escape

MAX_ROWS = 20  # beyond this the comment stops being one screen; the rest are counted
ICONS = {
    Verdict.VIOLATION: "🛑",
    Verdict.GOVERNANCE_RISK: "⚠️",
    Verdict.SATISFIED: "✅",
    Verdict.NOT_APPLICABLE: "✅",
}


cell = escape.markdown  # user text as inline Markdown: cannot open or close a block
code = escape.markdown_code  # the same inside a `code span`


def _settle(f: FindingOut) -> str:
    written = written_figures(f)
    parts = [f"`{code(m.fact)}`" + _likely(m.likely, written.get(m.fact)) for m in f.missing_facts]
    return ", ".join(parts) or "—"


def _likely(likely: str | None, written: str | None) -> str:
    """A likely figure, and as the user wrote it (the normalised one may read unlike it)."""
    if not likely:
        return ""
    return f" (likely {cell(likely)}" + (f"; as written: {cell(written)})" if written else ")")


def _icon(f: FindingOut) -> str:
    return "🔕" if f.waived else ICONS[f.verdict]


def _row(p: ProductOut, f: FindingOut, fail_on: FailOn) -> str:
    status = f.verdict.label + (" (waived)" if f.waived else "")
    if blocks(f, fail_on):
        status = f"**{status}**"
    tag = baseline_tag(f)
    if tag:
        status += f" ({cell(tag)})"
    who = cell(p.product)
    if len({g.component for g in p.findings}) > 1:  # name the component where it is ambiguous
        who += f" · `{code(f.component)}`"
    return (
        f"| {_icon(f)} | {who} | {status} | `{code(f.license)}/{code(f.clause)}`"
        f" {cell(f.title)} | `{code(f.location.file)}:{f.location.line}` | {_settle(f)} |"
    )


def _details(p: ProductOut, f: FindingOut) -> list[str]:
    lines = [f"#### {_icon(f)} {cell(p.product)} — `{code(f.license)}/{code(f.clause)}`", ""]
    if f.quote:
        lines += [f"> {cell(f.quote)}", ""]
    lines.append(f"**Why:** {cell(f.explanation)}")
    for m in f.missing_facts:
        if m.decides_alone:
            outcomes = "; ".join(f"if {cell(o.when)}: {o.verdict.label}" for o in m.outcomes)
        else:
            outcomes = (
                "settles nothing on its own (" + ", ".join(cell(o.when) for o in m.outcomes) + ")"
            )
        lines.append(f"- `{code(m.fact)}` — {outcomes}")
    if f.settled_by:
        lines += ["", "**What would make it firm:**"]
        lines += [
            f"- **{s.verdict.label}** if "
            + " and ".join(f"`{code(c.fact)}` {cell(c.value)}" for c in s.when)
            for s in f.settled_by
        ]
    if f.waiver is not None:
        lines.append(f"- waiver: {cell(f.waiver.message)}")
    lines.append("")
    return lines


@dataclass(frozen=True, slots=True)
class Row:
    """A problem as the comment may show it; rows sort as the comment lists them."""

    # waived, accepted (not failing the gate: below --fail-on, or not new nor worse than the
    # baseline), -severity, then product and finding order: what fails the gate comes first, so
    # that the rows cut by MAX_ROWS are never the ones that fail it while others are shown
    key: tuple[bool, bool, int, int, int]
    row: str
    details: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Extra:
    product: str
    problems: int
    rows: tuple[Row, ...]  # the product's first MAX_ROWS in the comment's order (no more can
    # be shown)


class MarkdownDocument(Plain):
    """Everything is in the head: the first rows, counted totals, the first clean products."""

    def __init__(self, fail_on: FailOn) -> None:
        self.fail_on = fail_on
        self._rows: list[Row] = []  # the first MAX_ROWS over the products taken so far
        self._problems = 0
        self._clean: list[tuple[int, str]] = []  # the first 10 products with no problem
        self._clean_count = 0

    def piece(self, product: ProductOut) -> Piece:
        problems = [(i, f) for i, f in enumerate(product.findings) if is_problem(f)]
        rows = sorted(
            ((f.waived, not blocks(f, self.fail_on), -f.verdict.severity, 0, i), f)
            for i, f in problems
        )
        return Piece(
            "",
            Extra(
                product.product,
                len(problems),
                tuple(
                    Row(key, _row(product, f, self.fail_on), tuple(_details(product, f)))
                    for key, f in rows[:MAX_ROWS]
                ),
            ),
        )

    def take(self, index: int, extra: Extra) -> None:
        self._problems += extra.problems
        if not extra.problems:
            self._clean_count += 1
            insort(self._clean, (index, extra.product))
            del self._clean[10:]
        for row in extra.rows:
            waived, accepted, severity, _, finding = row.key
            insort(
                self._rows,
                Row((waived, accepted, severity, index, finding), row.row, row.details),
                key=lambda r: r.key,
            )
        del self._rows[MAX_ROWS:]

    def head(self, top: Report, pieces: int) -> str:
        title = "fails" if gate_fails(top.summary, self.fail_on) or top.errors else "passes"
        heading = f"❌ {cell(unread(top))}" if top.errors else _verdict(top)
        out = [
            f"### licheck: {heading} — gate {title}",
            "",
            f"{counts_line(top)}.  ",
            f"{cell(gate_line(top, self.fail_on))}.",
            *(said for text in settings_lines(top) for said in ("", f"{cell(text)}.")),
            "",
        ]
        out += _unread_section(top)
        out += _listed(library_lines(top)) + _listed(baseline_lines(top))
        if self._problems:
            out += [
                "| | Product | Verdict | Clause | Where | What would settle it |",
                "|---|---|---|---|---|---|",
            ]
            out += [row.row for row in self._rows]
            if self._problems > MAX_ROWS:
                out.append(
                    f"\n… and {plural(self._problems - MAX_ROWS, 'more finding')} "
                    "(every one is in the full report, `--format html` or `json`; the GitHub "
                    "Action keeps both as an artifact, linked at the end of this summary)."
                )
            out.append("")
        if self._clean_count:
            clean = [name for _, name in self._clean]
            shown = ", ".join(clean) + (
                f" and {self._clean_count - 10} more" if self._clean_count > 10 else ""
            )
            out += [f"✅ No violations or risks: {cell(shown)}.", ""]
        out += _cards_table(top)
        notes = [s for s in top.waivers if s.status != "applied"]
        if notes:
            out.append("**Waivers that need attention:**")
            out += [f"- `{code(s.file)}:{s.line}` {cell(s.message)}" for s in notes]
            out.append("")
        if self._problems:
            out += ["<details><summary>Explanations</summary>", ""]
            for row in self._rows:
                out += row.details
            out += ["</details>", ""]
        policy = f"evidence policy `{top.evidence_policy}`"
        if top.as_of:
            policy += f", evidence as of {top.as_of}"
        out.append(f"<sub>licheck {top.tool_version} · {policy}</sub>")
        return "\n".join(out) + "\n"


def _verdict(top: Report) -> str:
    """The report's verdict (the worst finding), and the worst that counts toward the gate when
    waivers or the baseline accept worse: a waived violation never heads the comment as ✅."""
    verdict, gate = top.verdict, top.summary.gate_verdict
    text = f"{ICONS[verdict]} {verdict.label}"
    if gate is not verdict:
        accepted = "waived or no worse than in the baseline" if top.baseline else "waived"
        text += f" ({accepted}; counted toward the gate: {gate.label})"
    return text


def _listed(lines: list[str]) -> list[str]:
    """A heading line, then the indented lines under it as a list (user text)."""
    if not lines:
        return []
    out = [cell(lines[0]), ""]
    out += [f"- {cell(text.strip())}" for text in lines[1:]]
    return out + ([""] if len(lines) > 1 else [])


def _unread_section(top: Report) -> list[str]:
    """The manifests that could not be read, each at its file:line:column."""
    if not top.errors:
        return []
    out = [f"**❌ {cell(unread(top))}** (the others were evaluated):"]
    out += [f"- `{code(where(e))}` {cell(message(e))}" for e in top.errors]
    return [*out, ""]


def _cards_table(top: Report) -> list[str]:
    """audit-cards' summary, after the findings ([] in other reports)."""
    rows = table_rows(top)
    if not rows:
        return []
    out = [f"**{TITLE}:**", "", "| Table | Name | Cards |", "|---|---|---:|"]
    out += [f"| {cell(t)} | {cell(n)} | {c} |" for t, n, c in rows]
    return [*out, ""]


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION) -> str:
    return written(MarkdownDocument(fail_on), report)
