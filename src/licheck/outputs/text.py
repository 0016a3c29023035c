"""The terminal report, drawn with rich: a summary table per product, then each finding with its
explanation, the facts it used and the missing facts that would settle it.

rich is imported here only, so machine formats never pay for it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from licheck.core.verdicts import RiskKind, Verdict
from licheck.inputs.rules import Provenance
from licheck.outputs.cards import text_lines
from licheck.outputs.document import Context, Format, Piece, Plain, RenderOptions
from licheck.outputs.summary import (
    baseline_tag,
    layer_lines,
    library_lines,
    relation_words,
    settings_lines,
    summary_text,
    written_figures,
)
from licheck.report.view import FactOut, FindingOut, LibraryOut, MissingFactOut, ProductOut, Report
from licheck.text.escape import markup as escape
from licheck.text.escape import rich as plain
from licheck.text.escape import terminal
from licheck.text.readable import encodable, fit, fit_lines

STYLES = {
    Verdict.VIOLATION: "bold red",
    Verdict.GOVERNANCE_RISK: "bold yellow",
    Verdict.SATISFIED: "green",
    Verdict.NOT_APPLICABLE: "dim",
}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the colour codes rich writes: no width
MINIMUM = 20  # columns: narrower, rich cannot lay a table out

STATUS_STYLES = {
    "established": "green",
    "likely": "yellow",
    "disputed": "magenta",
    "unknown": "red",
}


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.label.upper(), style=STYLES[verdict])


class TextDocument(Plain):
    """The terminal report, product by product, each drawn where it was evaluated; products
    apart by a rule, then the overall verdict and (for `check`, or with waivers) the summary."""

    def __init__(self, context: Context, width: int | None = None) -> None:
        self.context = context
        self.width = width or context.options.width
        self.separator = self._draw(lambda console: console.rule(style="dim"))

    def _draw(self, draw: Callable[[Console], None]) -> str:
        """What `draw` prints, as it will be shown: where the output's encoding lacks some
        characters, their stand-ins (`→` is `->`) may make a line wider, so it is drawn again
        narrower until every line fits."""
        encoding = self.context.options.encoding
        width = self.width
        for _ in range(4):
            drawn = self._drawn(draw, width)
            text = encodable(drawn, encoding)
            if text is drawn:  # UTF-8: every character as drawn
                break
            over = max(len(_ANSI.sub("", line)) for line in text.split("\n")) - self.width
            if over <= 0 or width - over < MINIMUM:
                break
            width -= over
        return text

    def _drawn(self, draw: Callable[[Console], None], width: int) -> str:
        text = drawn(draw, width, self.context.options.color)
        # rich pads lines to the console width; trailing blanks help nobody (and break goldens).
        return "\n".join(line.rstrip() for line in text.split("\n"))

    def piece(self, product: ProductOut) -> Piece:
        context = self.context
        return Piece(
            self._draw(
                lambda console: _product(
                    console,
                    product,
                    context.evidence_policy,
                    context.as_of,
                    context.options.verbose,
                    "-vv" if context.options.summary else "--verbose",
                )
            )
        )

    def overall(self, verdict: Verdict, products: int) -> str:
        """The closing line over several products ("" for one)."""
        if products < 2:
            return ""

        def draw(console: Console) -> None:
            console.print()
            console.print(
                Text.assemble("Overall: ", verdict_text(verdict), f"  ({products} products)")
            )

        return self._draw(draw)

    def tail(self, top: Report, pieces: int) -> str:
        from licheck.outputs.unread import block

        text = (
            self.overall(top.verdict, top.summary.products)
            + _cards_block(top, self.width)
            + block(top)
        )
        text += library_text(top)
        if self.context.options.summary or top.waivers or top.baseline:
            summary = summary_text(top, self.context.options.fail_on)
            summary = encodable(summary, self.context.options.encoding)
            text += "\n".join(fit(line, self.width) for line in summary.split("\n"))
        else:  # no gate line (`evaluate`): the settings that decided the verdicts, still
            text += settings_text(top)
        return text


def drawn(draw: Callable[[Console], None], width: int, color: bool | None) -> str:
    """What `draw` prints on a console `width` columns wide, coloured only when `color` is
    true (plain when None or False)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=bool(color),
        no_color=color is False,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
    )
    draw(console)
    text = buffer.getvalue()
    if color:  # coloured spaces may be a picture's (a what-if map): kept
        return text
    # rich pads a table's cells to the column's width: no line ends in spaces for a pipe or a diff
    return "\n".join(line.rstrip(" ") for line in text.split("\n"))


def print_layers(console: Console, library: LibraryOut | None) -> None:
    """`summary.layer_lines` on a console, a replacement's wrapped lines kept under it (for the
    commands whose report is one product's: timeline, what-if)."""
    lines = [plain(line) for line in layer_lines(library)]
    if lines:
        for line in fit_lines("\n".join(lines), console.width).split("\n"):
            console.print(Text(line), soft_wrap=True)  # wrapped already


def library_text(top: Report) -> str:
    """Which rule folders were layered, and each entry they replaced ("" for the built-in
    library alone)."""
    lines = library_lines(top)
    return "\n".join(["", *map(terminal, lines)]) + "\n" if lines else ""


def settings_text(top: Report) -> str:
    """The settings in force that are not the defaults (`summary.settings_line`), or ""."""
    lines = settings_lines(top)
    return "\n".join(["", *map(terminal, lines)]) + "\n" if lines else ""


def render(
    report: Report, *, width: int | None = None, color: bool | None = None, verbose: bool = False
) -> str:
    """The report as terminal text, without the summary; `color` None follows the terminal and
    NO_COLOR."""
    context = Context(
        Format.TEXT,
        RenderOptions(color=color, verbose=verbose),
        report.evidence_policy,
        report.as_of,
    )
    document = TextDocument(context, width)
    return document.separator.join(
        document.piece(p).text for p in report.products
    ) + document.overall(report.verdict, len(report.products))


def _product(
    console: Console,
    product: ProductOut,
    evidence_policy: str,
    as_of: str | None,
    verbose: bool,
    more: str = "--verbose",
) -> None:
    header = Text.assemble(
        (plain(product.product), "bold"),
        f" — {plain(product.owner)}   ",
        (plain(product.file), "dim"),
    )
    console.print(header)
    policy = f"evidence policy: {evidence_policy}"
    if as_of:
        policy += f"; evidence as of {as_of}"
    console.print(Text.assemble("Verdict: ", verdict_text(product.verdict), f"   ({policy})"))
    console.print()
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for column in ("Component", "Model", "License", "Clause", "Verdict"):
        table.add_column(column, overflow="fold")  # an id cut short names nothing
    for f in product.findings:
        table.add_row(
            escape(f.component),
            escape(f.model_name),
            escape(f.license),
            escape(f.clause),
            _verdict_cell(f),
        )
    console.print(table)
    shown = [f for f in product.findings if verbose or f.verdict is not Verdict.NOT_APPLICABLE]
    for finding in shown:
        console.print()
        console.print(_finding(finding))
    quiet = [f for f in product.findings if f not in shown]
    if quiet:
        console.print()
        console.print(Text(f"{len(quiet)} not applicable (use {more} for details):", style="dim"))
        for f in quiet:  # each with its reason, in a line
            reason = f" — {f.reason}" if f.reason else ""
            console.print(
                Padding(Text(plain(f"{f.license}/{f.clause}{reason}"), style="dim"), (0, 0, 0, 2))
            )


def _verdict_cell(f: FindingOut) -> Text:
    """The verdict, marked when a waiver accepts it, and how it compares with the baseline."""
    cell = verdict_text(f.verdict)
    if f.waived:
        cell = Text.assemble(cell, " (waived)")
    if f.risk_kind is RiskKind.ATTESTATION:  # only conduct keeps it open
        cell = Text.assemble(cell, (" (to attest)", "dim"))
    tag = baseline_tag(f)
    if tag:
        cell = Text.assemble(cell, (f" [{tag}]", "dim" if tag == "unchanged" else "bold"))
    return cell


def _finding(f: FindingOut) -> Group:
    loc = f.location
    parts: list[object] = [
        Text.assemble(_verdict_cell(f), "  ", (f"{f.license} / {f.clause}", "bold")),
        Padding(Text(plain(f"{f.title} — {f.kind}")), (0, 0, 0, 2)),
        Padding(
            Text(
                plain(f"{loc.file}:{loc.line}:{loc.column} · {f.component} {relation_words(f)}"),
                style="dim",
            ),
            (0, 0, 0, 2),
        ),
    ]
    if f.waiver is not None:
        parts.append(
            Text(plain(f"  {f.waiver.message}"), style="cyan" if f.waived else "bold yellow")
        )
    if f.quote:
        parts.append(Padding(Text(plain(f"“{f.quote}”"), style="italic"), (0, 0, 0, 2)))
    caveat = Provenance(f.provenance).caveat
    if caveat:
        parts.append(Padding(Text(f"({caveat})", style="yellow"), (0, 0, 0, 2)))
    parts.append(Padding(Text.assemble(("Why: ", "bold"), plain(f.explanation)), (0, 0, 0, 2)))
    if f.facts:
        parts.append(Padding(_facts_table(f.facts), (0, 0, 0, 2)))
    if f.missing_facts:
        written = written_figures(f)
        parts.append(Padding(_missing_table(f.missing_facts, written), (0, 0, 0, 2)))
    if f.settled_by:
        parts.append(Padding(_settlements(f), (0, 0, 0, 2)))
    return Group(*parts)  # type: ignore[arg-type]


def _settlements(f: FindingOut) -> Group:
    table = Table(show_edge=False, pad_edge=False, box=None, show_header=False)
    table.add_column("verdict", no_wrap=True)
    table.add_column("when", overflow="fold")
    for settlement in f.settled_by:
        table.add_row(
            verdict_text(settlement.verdict),
            escape(
                "if " + " and ".join(f"{c.fact} {_as_condition(c.value)}" for c in settlement.when)
            ),
        )
    # A table's title wraps to the table's width: a heading of its own reads better.
    return Group(
        Text("What would make it firm (smallest sets of facts, supplied together)", style="bold"),
        table,
    )


def _as_condition(value: str) -> str:
    if value in ("true", "false"):
        return f"is {value}"
    return value


def _missing_table(missing: list[MissingFactOut], written: dict[str, str]) -> Group:
    """Each missing fact and what it would change; a likely figure also as written."""
    table = Table(show_edge=False, pad_edge=False, box=None, show_header=False)
    table.add_column("fact", style="bold", overflow="fold")
    table.add_column("outcomes", overflow="fold")
    for m in missing:
        outcome = Text()
        if m.likely:
            as_written = f" (as written: {written[m.fact]})" if m.fact in written else ""
            outcome.append(plain(f"likely {m.likely}{as_written}. "), style="yellow")
        if m.decides_alone:
            for index, branch in enumerate(m.outcomes):
                if index:
                    outcome.append(" · ")
                outcome.append(plain(f"if {branch.when} → "))
                outcome.append(verdict_text(branch.verdict))
        else:
            cuts = plain(", ".join(b.when for b in m.outcomes))
            outcome.append(
                f"settles nothing on its own (cells: {cuts}); it matters together with the others",
                style="dim",
            )
        table.add_row(escape(m.fact), outcome)
    return Group(
        Text("What would settle it (each fact alone, the others as they are)", style="bold"), table
    )


def _facts_table(facts: list[FactOut]) -> Table:
    table = Table(
        show_edge=False,
        pad_edge=False,
        box=None,
        header_style="bold",
        title="Facts used",
        title_justify="left",
        title_style="bold",
    )
    table.add_column("fact", overflow="fold")
    table.add_column("status", overflow="fold")
    table.add_column("value", overflow="fold")  # a member name cut short says nothing
    table.add_column("evidence", overflow="fold")
    for fact in facts:
        value = fact.stated if fact.status != "established" else fact.value
        if fact.likely and fact.status != "likely":
            value += f" (likely {fact.likely})"
        if fact.written:
            value += f" (as written: {fact.written})"
        evidence = (
            "; ".join(
                f"{e.kind.replace('_', ' ')}"
                + (f" {e.date}" if e.date else "")
                + f": {escape(e.source)}"
                + ("" if e.counted in ("establishes", "suggests") else escape(f" [{e.counted}]"))
                for e in fact.evidence
            )
            or "—"
        )
        if fact.note and "attestation" in fact.note:  # attested, set aside, or expired
            evidence += f" ({escape(fact.note)})"
        table.add_row(
            escape(fact.name),
            Text(fact.status, style=STATUS_STYLES[fact.status]),
            escape(value),
            evidence,
        )
    return table


def _cards_block(top: Report, width: int) -> str:
    """audit-cards' summary table, after the products ('' in other reports)."""
    lines = text_lines(top)
    return "\n" + "".join(f"{fit(terminal(t), width)}\n" for t in lines) if lines else ""
