"""GitHub Actions workflow commands: one annotation per violation or governance risk, at the
manifest line that decides it, then a plain summary.

A finding that fails the gate at `--fail-on` is an `::error`; a governance risk below the gate is
a `::warning`; a waived finding is a `::notice` naming the waiver; waivers that expired, changed or
matched nothing are `::warning`s at their line in the waiver file.  Values are escaped as
actions/toolkit's `command.ts` does: data `%`, CR, LF; properties also `:` and `,`.
"""

from __future__ import annotations

from licheck.formats.summary import blocks, counts_line, gate_line, is_problem
from licheck.report import FailOn, Report


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: str | int) -> str:
    params = ",".join(f"{key}={escape_property(str(value))}"
                      for key, value in properties.items())
    return f"::{kind} {params}::{escape_data(message)}"


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION) -> str:
    lines = []
    for product in report.products:
        for f in product.findings:
            if not is_problem(f):
                continue
            kind = "notice" if f.waived else "error" if blocks(f, fail_on) else "warning"
            title = f"licheck {f.verdict.label}{' (waived)' if f.waived else ''}: " \
                    f"{f.license}/{f.clause}"
            message = f"{product.product} / {f.component} ({f.model_name}): {f.title}. " \
                      f"{f.explanation}"
            if f.missing_facts:
                message += "\nWould settle it: " + ", ".join(m.fact for m in f.missing_facts)
            if f.waiver is not None:
                message += "\n" + f.waiver.message
            lines.append(command(kind, message, file=f.location.file, line=f.location.line,
                                 col=f.location.column, title=title))
    lines.extend(command("warning", status.message, file=status.file, line=status.line,
                         col=status.column,
                         title=f"licheck waiver {status.status.replace('_', ' ')}")
                 for status in report.waivers if status.status != "applied")
    lines.append(f"licheck: {counts_line(report)}")
    lines.append(f"licheck: {gate_line(report, fail_on)}")
    return "\n".join(lines) + "\n"
