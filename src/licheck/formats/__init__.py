"""Output formats: each renders the same `Report` to a string; the CLI writes it.

`render` dispatches by name and imports each format lazily, so a machine format never pays for
rich.  `fail_on` matters to formats that mark what fails the gate (text summary, junit, markdown,
github).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import assert_never

from licheck.report import FailOn, Report


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    JUNIT = "junit"
    MARKDOWN = "markdown"
    GITHUB = "github"


FORMATS = tuple(f.value for f in Format)


@dataclass(frozen=True, slots=True)
class RenderOptions:
    fail_on: FailOn = FailOn.VIOLATION
    color: bool | None = False
    verbose: bool = False
    summary: bool = False  # text: append the gate summary (licheck check)


def render(report: Report, fmt: Format, options: RenderOptions = RenderOptions()) -> str:
    """The report in one format."""
    if fmt is Format.TEXT:
        from licheck.formats import text
        from licheck.formats.summary import summary_text

        body = text.render(report, color=options.color, verbose=options.verbose)
        if options.summary or report.waivers:
            body += summary_text(report, options.fail_on)
        return body
    if fmt is Format.JSON:
        from licheck.report import to_json

        return to_json(report)
    if fmt is Format.SARIF:
        from licheck.formats import sarif

        return sarif.render(report)
    if fmt is Format.JUNIT:
        from licheck.formats import junit

        return junit.render(report, options.fail_on)
    if fmt is Format.MARKDOWN:
        from licheck.formats import markdown

        return markdown.render(report, options.fail_on)
    if fmt is Format.GITHUB:
        from licheck.formats import github

        return github.render(report, options.fail_on)
    assert_never(fmt)
