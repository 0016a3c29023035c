"""GitHub Actions workflow commands: one annotation per violation or governance risk, at the
manifest line that decides it, then a plain summary.

A finding that fails the gate at `--fail-on` is an `::error`; a governance risk below the gate is
a `::warning`; a waived finding is a `::notice` naming the waiver; waivers that expired, changed or
matched nothing are `::warning`s at their line in the waiver file.  Values are escaped as
actions/toolkit's `command.ts` does: data `%`, CR, LF; properties also `:` and `,`.
"""

from __future__ import annotations

from licheck.escape import terminal
from licheck.formats import Piece, Plain
from licheck.formats.summary import blocks, counts_line, gate_line, is_problem
from licheck.report import FailOn, FindingOut, ProductOut, Report


def escape_data(text: str) -> str:
    # then no escape sequence reaches the log: other control characters are shown escaped
    return terminal(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: str | int) -> str:
    params = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{kind} {params}::{escape_data(message)}"


class GithubDocument(Plain):
    """The annotations, product by product; the waiver warnings and the summary last."""

    separator = "\n"

    def __init__(self, fail_on: FailOn) -> None:
        self.fail_on = fail_on

    def piece(self, product: ProductOut) -> Piece:
        return Piece(
            "\n".join(self._annotation(product, f) for f in product.findings if is_problem(f))
        )

    def _annotation(self, product: ProductOut, f: FindingOut) -> str:
        kind = "notice" if f.waived else "error" if blocks(f, self.fail_on) else "warning"
        title = (
            f"licheck {f.verdict.label}{' (waived)' if f.waived else ''}: {f.license}/{f.clause}"
        )
        message = f"{product.product} / {f.component} ({f.model_name}): {f.title}. {f.explanation}"
        if f.missing_facts:
            message += "\nWould settle it: " + ", ".join(m.fact for m in f.missing_facts)
        if f.waiver is not None:
            message += "\n" + f.waiver.message
        return command(
            kind,
            message,
            file=f.location.file,
            line=f.location.line,
            col=f.location.column,
            title=title,
        )

    def tail(self, top: Report, pieces: int) -> str:
        lines = [
            command(
                "warning",
                status.message,
                file=status.file,
                line=status.line,
                col=status.column,
                title=f"licheck waiver {status.status.replace('_', ' ')}",
            )
            for status in top.waivers
            if status.status != "applied"
        ]
        lines.append(f"licheck: {counts_line(top)}")
        lines.append(f"licheck: {gate_line(top, self.fail_on)}")
        return ("\n" if pieces else "") + "\n".join(lines) + "\n"


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION) -> str:
    from licheck.formats import Format, RenderOptions
    from licheck.formats import render as render_format

    return render_format(report, Format.GITHUB, RenderOptions(fail_on=fail_on))
