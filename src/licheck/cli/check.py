"""`licheck check PATHS...`: the pipeline gate over manifest files and folders."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    CONFIG_NAMED,
    INPUT_PATH,
    config_inputs,
    quiet,
    refuse_outputs,
    say,
    stdin_once,
    write_output,
)
from licheck.cli.configuring import with_config
from licheck.cli.emit import emit_stream
from licheck.cli.request import (
    FORMAT_CHOICES,
    ReportRequest,
    compare_baseline,
    load_baseline,
    request_options,
)
from licheck.core.diagnostics import LicheckError
from licheck.files.safeio import append_regular, refuse_overwrite

if TYPE_CHECKING:
    from licheck.outputs import RenderOptions

EPILOG = """\b
Exit codes:
  0  no finding that is not waived is at or above
     --fail-on
  1  at least one is
  2  bad input or usage; a manifest that cannot be
     read is reported at file:line:column and every
     other one is evaluated (2 wins over 1)
  130  interrupted (Ctrl-C)
"""
STEP_SUMMARY_LIMIT = 1_000_000  # bytes: GitHub takes at most 1 MiB of step summary per step


def parse_also(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[str, Path]]:
    pairs = []
    for value in values:
        fmt, sep, file = value.partition("=")
        if not sep or fmt not in FORMAT_CHOICES or not file:
            raise click.BadParameter(
                f"{value!r}: expected FORMAT=FILE, FORMAT one of {', '.join(FORMAT_CHOICES)}"
            )
        pairs.append((fmt, Path(file)))
    return pairs


@click.command(epilog=EPILOG)
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH, callback=stdin_once)
@click.option(
    "--also",
    multiple=True,
    metavar="FORMAT=FILE",
    callback=parse_also,
    help="Also write the report in FORMAT to FILE, from the same evaluation (repeatable; "
    "e.g. --format github --also sarif=licheck.sarif).",
)
@click.option(
    "--allow-no-manifests",
    is_flag=True,
    help="Pass (exit 0, with a note) when PATHS hold no manifest at all, as in a repository "
    "that has none yet; a manifest that cannot be read still fails.",
)
@request_options(
    "Text: detail each finding (its explanation, facts and what would settle it); -vv "
    "details not-applicable findings too.  Without it, one line per finding and the summary.",
    count=True,
)
def check(
    paths: tuple[Path, ...],
    request: ReportRequest,
    also: list[tuple[str, Path]],
    allow_no_manifests: bool,
) -> None:
    """Gate a release: evaluate every product manifest in PATHS (files, and folders searched
    recursively) and fail by policy.

    In folders, a manifest is a .yaml/.yml file (any case) whose top-level mapping has a
    `product` key, as YAML reads it; an empty YAML file, or one that may be a manifest but
    cannot be read, fails the run.  Hidden files and folders are skipped; -v lists every
    YAML file skipped, and why.  Waived findings are shown as waived and never fail the gate.

    With --format github and GITHUB_STEP_SUMMARY set (in a GitHub Actions step), the Markdown
    report is also appended to the step summary.

    \b
    Example:
      licheck check products/ --fail-on risk
      licheck check . --format sarif -o licheck.sarif
    """
    from licheck.cli.migrate import warn_unversioned
    from licheck.files.discovery import NoManifests, survey

    warn_unversioned(survey(paths).found)
    if request.verbose:
        say_skipped(paths)
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY") if request.fmt == "github" else None
    try:
        if also or summary_file or request.baseline_file:  # (a baseline compares the whole report)
            _check_once(paths, request, also, Path(summary_file) if summary_file else None)
        else:
            _check_streamed(paths, request)
    except NoManifests as exc:
        if not allow_no_manifests:
            raise
        where = ", ".join(d.file for d in exc.diagnostics)
        say(f"licheck: note: no manifests found in {where}: nothing to check")


def say_skipped(paths: tuple[Path, ...]) -> None:
    """`-v`: each YAML file and hidden entry the folder search passed over, and why, on stderr
    (a file named on the command line is always read)."""
    from licheck.files.discovery import survey
    from licheck.text.escape import line, terminal

    for skipped in survey(paths).skipped:
        say(f"licheck: skipped {line(skipped.path)}: {terminal(skipped.why)}")


def _check_streamed(paths: tuple[Path, ...], request: ReportRequest) -> None:
    """One format, streamed: the report is never held."""
    from licheck.cli.progress import for_terminal
    from licheck.outputs import Format
    from licheck.portfolio.runs import check_stream

    waivers = request.waivers()
    inputs = request.inputs(paths, waivers)
    refuse_outputs([("--output", request.output)], inputs)  # before any work, as _check_once
    options = request.render_options(summary=True)
    with check_stream(
        list(paths),
        request.policy(),
        Format(request.fmt),
        options,
        **request.keywords(waivers),
        progress=None if quiet() else for_terminal(),
    ) as streamed:
        emit_stream(streamed, request.output, inputs=inputs)


def _check_once(
    paths: tuple[Path, ...],
    request: ReportRequest,
    also: list[tuple[str, Path]],
    step_summary: Path | None,
) -> None:
    """Several formats from one evaluation (the report is held in memory): each --also file,
    the step summary, then the main format and the gate's exit code."""
    from licheck.cli.emit import warn_sarif_cap
    from licheck.outputs import Format, render
    from licheck.portfolio.runs import check_report

    waivers = request.waivers()
    inputs = request.inputs(paths, waivers)
    outputs = [("--output", request.output), *(("--also", file) for _, file in also)]
    refuse_outputs(outputs, inputs)
    baseline = load_baseline(request.baseline_file)
    report = check_report(
        list(paths),
        request.policy(),
        **request.keywords(waivers),
    )
    report = with_config(compare_baseline(report, baseline))
    for extra_fmt, file in also:
        options = request.render_options(summary=True, fmt=extra_fmt, output=file)
        warn_sarif_cap(report, [extra_fmt])
        write_output(render(report, Format(extra_fmt), options), file, inputs)
    if step_summary is not None:
        markdown = render(report, Format.MARKDOWN, options_for(request.fail_on))
        _append_step_summary(step_summary, markdown, inputs)
    request.emit(report, inputs, summary=True)


def options_for(fail_on: str) -> RenderOptions:
    from licheck.outputs import RenderOptions
    from licheck.report.view import FailOn

    return RenderOptions(fail_on=FailOn(fail_on))


def _append_step_summary(path: Path, markdown: str, inputs: Sequence[Path | None]) -> None:
    """Append to GitHub's step summary: the Markdown report, or a note when it is over the
    1 MiB a step may write there.  A path that names an input of the run (a manifest, the
    waiver file, the configuration...) or that is no regular file (a FIFO would hang the run)
    is not written, with a warning: the step summary is a courtesy, the gate's exit code and
    the log stay what they are."""
    if len(markdown.encode("utf-8")) > STEP_SUMMARY_LIMIT:
        markdown = (
            "**licheck**: the Markdown report is over GitHub's 1 MiB step-summary limit; "
            "every finding is in the step's log.\n"
        )
    try:
        refuse_overwrite([("GITHUB_STEP_SUMMARY", path)], inputs)
        refuse_overwrite([("GITHUB_STEP_SUMMARY", path)], config_inputs(), CONFIG_NAMED)
        append_regular(path, markdown)
    except (LicheckError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        say(f"licheck: warning: the step summary is not written: {reason}")
