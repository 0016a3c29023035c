"""The terminal report `licheck check` prints without `-v`: one line per violation or governance
risk, then the summary and the gate; each line wrapped at spaces to the terminal's width (a
word longer than a line is folded, never cut), continued lines indented.

Plain text with ANSI colour when asked: no rich, so a portfolio's thousands of lines cost
nothing to lay out.  User text is shown with controls escaped (`escape.rich`: wrapping must not
start a line with `::`, a CI runner's workflow command).
"""

from __future__ import annotations

from licheck.core.verdicts import RiskKind, Verdict
from licheck.outputs.cards import text_lines
from licheck.outputs.document import Piece, Plain, RenderOptions
from licheck.outputs.summary import (
    baseline_lines,
    baseline_tag,
    counts_line,
    gate_line,
    is_problem,
    library_lines,
    settings_lines,
    waiver_lines,
)
from licheck.outputs.unread import error_lines
from licheck.report.view import FindingOut, ProductOut, Report
from licheck.text.escape import rich as escape
from licheck.text.escape import terminal
from licheck.text.readable import encodable, fit

INDENT = "    "  # before a continued line
STYLES = {Verdict.VIOLATION: "1;31", Verdict.GOVERNANCE_RISK: "1;33", Verdict.SATISFIED: "32"}
BOLD, DIM = "1", "2"
HINT = "Each finding's explanation, facts and what would settle it: licheck check -v PATHS"

Span = tuple[str, str]  # text, and its SGR style ("" for none)


def wrap(spans: list[Span], width: int, indent: str = INDENT) -> list[list[Span]]:
    """The words of `spans` (a styled span, such as "GOVERNANCE RISK", is one word), greedily
    filled into lines of at most `width` columns; a line after the first starts with `indent`;
    a word too long for a line is folded."""
    lines: list[list[Span]] = [[]]
    used = 0
    for text, style in spans:
        for word in [text] if style else text.split():  # a styled span is one word
            gap = 1 if lines[-1] else 0
            if used + gap + len(word) > width and lines[-1]:
                lines.append([(indent, "")])
                used, gap = len(indent), 0
            while used + gap + len(word) > width:  # longer than any line: fold it
                room = max(width - used - gap, 1)
                lines[-1].append((" " * gap + word[:room], style))
                word = word[room:]
                lines.append([(indent, "")])
                used, gap = len(indent), 0
            lines[-1].append((" " * gap + word, style))
            used += gap + len(word)
    return lines


def draw(spans: list[Span], width: int, color: bool, encoding: str = "utf-8") -> str:
    """`spans` wrapped to `width` as text, coloured when `color`; characters `encoding` lacks
    replaced by their stand-ins before wrapping, so that the lines fit as shown."""
    out = []
    spans = [(encodable(text, encoding), style) for text, style in spans]
    for line in wrap(spans, width):
        parts = []
        for text, style in line:
            if color and style:
                lead = text[: len(text) - len(text.lstrip(" "))]
                parts.append(f"{lead}\x1b[{style}m{text.lstrip(' ')}\x1b[0m")
            else:
                parts.append(text)
        out.append("".join(parts))
    return "\n".join(out)


def finding_spans(product: ProductOut, finding: FindingOut) -> list[Span]:
    loc = finding.location
    spans = [
        (escape(f"{loc.file}:{loc.line}:{loc.column}:"), ""),
        (finding.verdict.label.upper(), STYLES.get(finding.verdict, "")),
    ]
    if finding.waived:
        waiver = f"(waived: {finding.waiver.id})" if finding.waiver else "(waived)"
        spans.append((escape(waiver), DIM))
    tag = baseline_tag(finding)
    if tag:
        spans.append((escape(f"[{tag}]"), DIM))
    if finding.risk_kind is RiskKind.ATTESTATION:  # only conduct keeps it open
        spans.append(("(to attest)", DIM))
    spans += [
        (escape(f"{finding.license}/{finding.clause}"), BOLD),
        (escape(f"— {product.product} / {finding.component} ({finding.model_name}):"), ""),
        (escape(finding.title), ""),
    ]
    return spans


class BriefDocument(Plain):
    """The lines, product by product; the summary, the gate and the waivers last."""

    separator = "\n"

    def __init__(self, options: RenderOptions) -> None:
        self.options = options

    def piece(self, product: ProductOut) -> Piece:
        width, color = self.options.width, bool(self.options.color)
        return Piece(
            "\n".join(
                draw(finding_spans(product, f), width, color, self.options.encoding)
                for f in product.findings
                if is_problem(f)
            )
        )

    def tail(self, top: Report, pieces: int) -> str:
        width, color = self.options.width, bool(self.options.color)

        lines = [
            *error_lines(top),
            "Summary: " + counts_line(top),
            *map(escape, baseline_lines(top)),
            escape(gate_line(top, self.options.fail_on)),
            *map(escape, settings_lines(top)),
            *map(escape, waiver_lines(top)),
            *map(terminal, library_lines(top)),
        ]
        if pieces:
            lines.append(HINT)
        encoding = self.options.encoding
        text = "\n".join(draw([(line, "")], width, color, encoding) for line in lines)
        table = "".join(f"{fit(terminal(t), width)}\n" for t in text_lines(top))  # as laid out
        return ("\n\n" if pieces else "") + (table + "\n" if table else "") + text + "\n"
