"""One line per violation or governance risk, `file:line:col: level: what`, then the waiver
warnings and the gate: what a pre-commit hook or an editor's problem matcher wants to show.

The level follows the gate: `error` when the finding fails it at `--fail-on`, `warning` for a
problem below it, `note` for a waived one.  Every line is shown with control characters
escaped, so no input can start a line of its own.
"""

from __future__ import annotations

from licheck.outputs.document import Piece, Plain
from licheck.outputs.summary import (
    baseline_lines,
    baseline_tag,
    blocks,
    counts_line,
    gate_line,
    is_problem,
    library_lines,
    settings_lines,
    waiver_line,
)
from licheck.outputs.unread import error_lines
from licheck.report.view import FailOn, FindingOut, ProductOut, Report
from licheck.text.escape import terminal


def level(finding: FindingOut, fail_on: FailOn) -> str:
    """error (fails the gate), warning (a problem below it) or note (waived)."""
    return "note" if finding.waived else "error" if blocks(finding, fail_on) else "warning"


def line(product: ProductOut, finding: FindingOut, fail_on: FailOn) -> str:
    loc = finding.location
    verdict = finding.verdict.label + (" (waived)" if finding.waived else "")
    tag = baseline_tag(finding)
    if tag:
        verdict += f" [{tag}]"
    return terminal(
        f"{loc.file}:{loc.line}:{loc.column}: {level(finding, fail_on)}: {verdict}: "
        f"{finding.license}/{finding.clause}: {product.product} / {finding.component} "
        f"({finding.model_name}): {finding.title}"
    )


class CompactDocument(Plain):
    """The lines, product by product; the waiver lines and the gate last."""

    separator = "\n"

    def __init__(self, fail_on: FailOn) -> None:
        self.fail_on = fail_on

    def piece(self, product: ProductOut) -> Piece:
        return Piece(
            "\n".join(line(product, f, self.fail_on) for f in product.findings if is_problem(f))
        )

    def tail(self, top: Report, pieces: int) -> str:
        lines = [terminal(waiver_line(s)) for s in top.waivers if s.status != "applied"]
        lines += error_lines(top)
        lines += [counts_line(top), *(terminal(b) for b in baseline_lines(top))]
        lines.append(terminal(gate_line(top, self.fail_on)))
        lines += [terminal(text) for text in settings_lines(top)]
        # a layer that replaced an entry may be why the gate passes: say so beside it
        lines += [terminal(text) for text in library_lines(top)]
        return ("\n" if pieces else "") + "\n".join(lines) + "\n"
