"""`licheck check PATHS...`: the pipeline gate over manifest files and folders."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from licheck.cli.common import INPUT_PATH, evidence_options, library_option
from licheck.cli.gating import emit_stream, load_waivers, render_options, report_options

EPILOG = """\b
Exit codes:
  0  no finding that is not waived is at or above --fail-on
  1  at least one is
  2  bad input or usage (nothing is evaluated when any manifest is broken)
  130  interrupted (Ctrl-C)
"""


@click.command(epilog=EPILOG)
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@report_options
@evidence_options
@click.option("--verbose", "-v", is_flag=True, help="Text: detail not-applicable findings too.")
@library_option
def check(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str,
    waivers_file: Path | None,
    no_waivers: bool,
    today: dt.date | None,
    evidence: str,
    as_of: dt.date | None,
    verbose: bool,
    licenses_dir: Path | None,
) -> None:
    """Gate a release: evaluate every product manifest in PATHS (files, and folders searched
    recursively) and fail by policy.

    In folders, a manifest is a .yaml/.yml file with a top-level `product:` key; hidden files
    and folders are skipped.  Waived findings are shown as waived and never fail the gate.
    """
    from licheck.api import check_stream, resolve_policy
    from licheck.cli.progress import for_terminal
    from licheck.formats import Format

    policy = resolve_policy(evidence)
    waivers = load_waivers(waivers_file, no_waivers)
    options = render_options(fmt, fail_on, output, verbose=verbose, summary=True)
    try:
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
            emit_stream(streamed, output, inputs=(*paths, waivers_file, licenses_dir))
    except KeyboardInterrupt:
        # Here, not in click: without standalone mode click turns it into `Abort` (exit 2).  The
        # workers were stopped on the way out of `check_stream`.
        click.echo("Interrupted.", err=True)
        raise click.exceptions.Exit(130) from None
