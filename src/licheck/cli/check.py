"""`licheck check PATHS...`: the pipeline gate over manifest files and folders."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    INPUT_PATH,
    evidence_options,
    library_option,
    policy_option,
    refuse_outputs,
    say,
)
from licheck.cli.gating import (
    FORMAT_CHOICES,
    baseline_option,
    emit,
    emit_stream,
    load_waivers,
    render_options,
    report_options,
)

if TYPE_CHECKING:
    from licheck.formats import RenderOptions
    from licheck.librarysource import LibrarySource

EPILOG = """\b
Exit codes:
  0  no finding that is not waived is at or above --fail-on
  1  at least one is
  2  bad input or usage; a manifest that cannot be read is reported
     at file:line:column and every other one is evaluated (2 wins over 1)
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
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@report_options
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
@evidence_options
@click.option("--verbose", "-v", is_flag=True, help="Text: detail not-applicable findings too.")
@library_option
@baseline_option
@policy_option
def check(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str,
    waivers_file: Path | None,
    no_waivers: bool,
    today: dt.date | None,
    root: Path | None,
    annotations: int,
    also: list[tuple[str, Path]],
    allow_no_manifests: bool,
    evidence: str,
    as_of: dt.date | None,
    verbose: bool,
    licenses_dir: LibrarySource,
    baseline_file: Path | None,
) -> None:
    """Gate a release: evaluate every product manifest in PATHS (files, and folders searched
    recursively) and fail by policy.

    In folders, a manifest is a .yaml/.yml file with a top-level `product:` key; hidden files
    and folders are skipped.  Waived findings are shown as waived and never fail the gate.

    With --format github and GITHUB_STEP_SUMMARY set (in a GitHub Actions step), the Markdown
    report is also appended to the step summary.

    \b
    Example:
      licheck check products/ --fail-on risk
      licheck check . --format sarif -o licheck.sarif
    """
    from licheck.discovery import NoManifests

    summary_file = os.environ.get("GITHUB_STEP_SUMMARY") if fmt == "github" else None
    try:
        if also or summary_file or baseline_file:  # (a baseline compares the whole report)
            _check_once(
                paths, fmt, output, fail_on, waivers_file, no_waivers, today, root, annotations,
                also, Path(summary_file) if summary_file else None, evidence, as_of, verbose,
                licenses_dir, baseline_file,
            )  # fmt: skip
        else:
            _check_streamed(
                paths, fmt, output, fail_on, waivers_file, no_waivers, today, root, annotations,
                evidence, as_of, verbose, licenses_dir,
            )  # fmt: skip
    except NoManifests as exc:
        if not allow_no_manifests:
            raise
        where = ", ".join(d.file for d in exc.diagnostics)
        say(f"licheck: note: no manifests found in {where}: nothing to check")
    except KeyboardInterrupt:
        # Here, not in click: without standalone mode click turns it into `Abort` (exit 2).  The
        # workers were stopped on the way out of `check_stream`.
        click.echo("Interrupted.", err=True)
        raise click.exceptions.Exit(130) from None


def _check_streamed(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str,
    waivers_file: Path | None,
    no_waivers: bool,
    today: dt.date | None,
    root: Path | None,
    annotations: int,
    evidence: str,
    as_of: dt.date | None,
    verbose: bool,
    licenses_dir: LibrarySource,
) -> None:
    """One format, streamed: the report is never held."""
    from licheck.api import check_stream, resolve_policy
    from licheck.cli.progress import for_terminal
    from licheck.formats import Format

    policy = resolve_policy(evidence)
    waivers = load_waivers(waivers_file, no_waivers)
    options = render_options(
        fmt, fail_on, output, verbose=verbose, summary=True, root=root, annotations=annotations
    )
    with check_stream(
        list(paths),
        policy,
        Format(fmt),
        options,
        as_of,
        licenses_dir,
        waivers,
        today,
        progress=for_terminal(),
    ) as streamed:
        emit_stream(streamed, output, inputs=(*paths, waivers_file, *licenses_dir.inputs))


def _check_once(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str,
    waivers_file: Path | None,
    no_waivers: bool,
    today: dt.date | None,
    root: Path | None,
    annotations: int,
    also: list[tuple[str, Path]],
    step_summary: Path | None,
    evidence: str,
    as_of: dt.date | None,
    verbose: bool,
    licenses_dir: LibrarySource,
    baseline_file: Path | None = None,
) -> None:
    """Several formats from one evaluation (the report is held in memory): each --also file,
    the step summary, then the main format and the gate's exit code."""
    from licheck.api import check_files, resolve_policy
    from licheck.cli.common import write_output
    from licheck.cli.gating import compare_baseline, load_baseline, warn_sarif_cap
    from licheck.formats import Format, render

    policy = resolve_policy(evidence)
    waivers = load_waivers(waivers_file, no_waivers)
    inputs = (
        *paths,
        waivers_file,
        *licenses_dir.inputs,
        Path(waivers.file) if waivers else None,
        baseline_file,
    )
    outputs = [("--output", output), *(("--also", file) for _, file in also)]
    refuse_outputs(outputs, inputs)
    baseline = load_baseline(baseline_file)
    report = check_files(list(paths), policy, as_of, licenses_dir, waivers, today)
    report = compare_baseline(report, baseline)
    for extra_fmt, file in also:
        options = render_options(
            extra_fmt, fail_on, file, verbose=verbose, summary=True, root=root,
            annotations=annotations,
        )  # fmt: skip
        warn_sarif_cap(report, [extra_fmt])
        write_output(render(report, Format(extra_fmt), options), file, inputs)
    if step_summary is not None:
        _append_step_summary(step_summary, render(report, Format.MARKDOWN, options_for(fail_on)))
    emit(
        report, fmt, fail_on, output, verbose=verbose, summary=True, inputs=inputs, root=root,
        annotations=annotations,
    )  # fmt: skip


def options_for(fail_on: str) -> RenderOptions:
    from licheck.formats import RenderOptions
    from licheck.report import FailOn

    return RenderOptions(fail_on=FailOn(fail_on))


def _append_step_summary(path: Path, markdown: str) -> None:
    """Append to GitHub's step summary: the Markdown report, or a note when it is over the
    1 MiB a step may write there."""
    if len(markdown.encode("utf-8")) > STEP_SUMMARY_LIMIT:
        markdown = (
            "**licheck**: the Markdown report is over GitHub's 1 MiB step-summary limit; "
            "every finding is in the step's log.\n"
        )
    try:
        with path.open("a", encoding="utf-8") as out:
            out.write(markdown)
    except OSError as exc:
        say(f"licheck: warning: cannot write the step summary {path}: {exc.strerror or exc}")
