"""GitHub Actions workflow commands: one annotation per violation or governance risk, at the
manifest line that decides it, then a plain summary.

A finding that fails the gate at `--fail-on` is an `::error`; a governance risk below the gate is
a `::warning`; a waived finding is a `::notice` naming the waiver; waivers that expired, changed or
matched nothing are `::warning`s at their line in the waiver file.  Values are escaped as
actions/toolkit's `command.ts` does: data `%`, CR, LF; properties also `:` and `,`.

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step (actions/toolkit,
docs/problem-matchers.md) and drops the rest silently; so at most `limit` commands of each kind
are written (in product order) and every finding beyond them is listed in the summary, one
`licheck: file:line:col: level: ...` line each (the CLI also writes the Markdown report to the
step summary).  The annotations are written after every product is in (they are few): a
product's piece is empty and its commands travel in its extra.
"""

from __future__ import annotations

from licheck.outputs.compact import level
from licheck.outputs.compact import line as compact_line
from licheck.outputs.document import Piece, Plain, written
from licheck.outputs.summary import (
    baseline_lines,
    baseline_tag,
    counts_line,
    gate_line,
    is_problem,
    library_lines,
    plural,
    replacement_line,
    settings_lines,
    waiver_line,
)
from licheck.outputs.unread import TITLE, message
from licheck.report.view import ErrorOut, FailOn, FindingOut, ProductOut, Report
from licheck.text.escape import controls, github_data, github_property, terminal

DEFAULT_LIMIT = 10  # annotations of one kind GitHub shows per step
KINDS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    # then no escape sequence reaches the log: other control characters are shown escaped.  A
    # `::` or `##[` inside stays: the runner reads a line that is a `::` command as that
    # command only (actions/runner `ActionCommandManager`), and the file must stay exact
    return controls(github_data(text))


def escape_property(text: str) -> str:
    return controls(github_property(text))


def command(kind: str, message: str, **properties: str | int) -> str:
    params = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{kind} {params}::{escape_data(message)}"


Annotation = tuple[str, str, str]  # (kind, the command, the same as a summary line)


class GithubDocument(Plain):
    """The annotations, gathered product by product and written at the end: at most `limit` of
    each kind, the rest as summary lines; then the counts and the gate."""

    separator = "\n"

    def __init__(self, fail_on: FailOn, limit: int = DEFAULT_LIMIT) -> None:
        self.fail_on = fail_on
        self.limit = limit
        self._taken: dict[int, list[Annotation]] = {}

    def piece(self, product: ProductOut) -> Piece:
        return Piece("", [self._annotation(product, f) for f in product.findings if is_problem(f)])

    def take(self, index: int, extra: list[Annotation]) -> None:
        if extra:
            self._taken[index] = extra

    def _annotation(self, product: ProductOut, f: FindingOut) -> Annotation:
        kind = KINDS[level(f, self.fail_on)]
        title = (
            f"licheck {f.verdict.label}{' (waived)' if f.waived else ''}: {f.license}/{f.clause}"
        )
        tag = baseline_tag(f)
        if tag:
            title += f" [{tag}]"
        message = f"{product.product} / {f.component} ({f.model_name}): {f.title}. {f.explanation}"
        if f.missing_facts:
            message += "\nWould settle it: " + ", ".join(m.fact for m in f.missing_facts)
        if f.waiver is not None:
            message += "\n" + f.waiver.message
        text = command(
            kind,
            message,
            file=f.location.file,
            line=f.location.line,
            col=f.location.column,
            title=title,
        )
        return kind, text, compact_line(product, f, self.fail_on)

    def tail(self, top: Report, pieces: int) -> str:
        annotations = [a for index in sorted(self._taken) for a in self._taken[index]]
        for status in top.waivers:
            if status.status != "applied":
                text = command(
                    "warning",
                    status.message,
                    file=status.file,
                    line=status.line,
                    col=status.column,
                    title=f"licheck waiver {status.status.replace('_', ' ')}",
                )
                annotations.append(("warning", text, terminal(waiver_line(status))))
        # first, and never cut: what could not be read (errors) and what a layer replaced
        # (warnings); they use GitHub's shares too, or the findings past the shares would be
        # dropped by GitHub unsaid
        unread, replacements = [_unread(e) for e in top.errors], _replacements(top)
        shown = {"error": len(unread), "warning": len(replacements), "notice": 0}
        lines, rest = unread + replacements, []
        for kind, text, summary in annotations:
            if shown[kind] < self.limit:
                shown[kind] += 1
                lines.append(text)
            else:
                rest.append(f"licheck: {summary}")
        if rest:
            lines.append(
                f"licheck: {plural(len(rest), 'more finding')} not annotated (GitHub shows "
                f"{DEFAULT_LIMIT} annotations of each kind per step; this run wrote at most "
                f"{self.limit}, see --annotations):"
            )
            lines += rest
        lines.append(f"licheck: {counts_line(top)}")
        lines += [f"licheck: {terminal(b.strip())}" for b in baseline_lines(top)]
        lines.append(f"licheck: {terminal(gate_line(top, self.fail_on))}")
        lines += [f"licheck: {terminal(text)}" for text in settings_lines(top)]
        lines += [f"licheck: {terminal(text)}" for text in library_lines(top)]
        return "\n".join(lines) + "\n"


def _replacements(top: Report) -> list[str]:
    """A warning at the layer's file for each entry it replaced: the replaced license or model
    changes verdicts, and may be why the gate passes."""
    replaced = top.library.replaced if top.library is not None else []
    title = "licheck rule library: entry replaced"
    return [command("warning", replacement_line(r), file=r.file, title=title) for r in replaced]


def _unread(error: ErrorOut) -> str:
    """A manifest that could not be read: an error at its file, line and column."""
    place: dict[str, str | int] = {"file": error.file}
    if error.line:
        place |= {"line": error.line, "col": error.column}
    return command("error", message(error), **place, title=TITLE)


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION, limit: int = DEFAULT_LIMIT) -> str:
    return written(GithubDocument(fail_on, limit), report)
