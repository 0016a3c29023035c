"""`licheck whatif MANIFEST`: a scenario against the product as it stands."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    PathParam,
    color_for,
    color_option,
    evidence_options,
    format_option,
    library_option,
    output_option,
    parse_as_of,
    policy_option,
    refuse_outputs,
    say,
    terminal_width,
    write_output,
)
from licheck.cli.request import attestations_at, attestations_option

if TYPE_CHECKING:
    from licheck.library.source import LibrarySource
    from licheck.report.view import LibraryOut
    from licheck.whatif.report import WhatIfReport

SET_HELP = (
    "Suppose FACT has VALUE (repeatable): 150M, '25M USD/month', '300M USD/year', "
    "50M..150M, true, false, unknown, '[Kimi K2.5, Cursor]', 'includes [Kimi K2.5]'. "
    "Counts as established whatever the evidence policy."
)


@click.command()
@click.argument("manifest", type=PathParam(dir_okay=False, path_type=Path))
@click.option("--set", "sets", multiple=True, metavar="FACT=VALUE", help=SET_HELP)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="FACT=FROM..TO",
    help="Sweep a quantity fact over a range (once or twice: a 2-D map); the "
    "verdicts change only at the clauses' thresholds, which are found exactly.",
)
@click.option(
    "--swap-base",
    "swaps",
    multiple=True,
    metavar="OLD=NEW",
    help="Evaluate as if built on catalog model NEW wherever the lineage has OLD.",
)
@evidence_options
@click.option(
    "--scenario-as-of",
    "scenario_as_of",
    metavar="DATE",
    callback=parse_as_of,
    help="Time travel: the scenario counts only evidence as of DATE (the baseline "
    "keeps --as-of, or all evidence).",
)
@format_option(
    ["text", "json", "csv", "html"],
    "Output format (html: one self-contained page, the sweep drawn in it).",
)
@click.option(
    "--plot",
    type=PathParam(dir_okay=False, path_type=Path),
    metavar="FILE.svg",
    help="Also draw the sweep (intervals, or the 2-D region map) as an SVG file.",
)
@output_option("the report")
@color_option
@library_option
@policy_option
@attestations_option
def whatif(
    manifest: Path,
    sets: tuple[str, ...],
    sweeps: tuple[str, ...],
    swaps: tuple[str, ...],
    evidence: str,
    as_of: dt.date | None,
    scenario_as_of: dt.date | None,
    fmt: str,
    plot: Path | None,
    output: Path | None,
    color: str,
    licenses_dir: LibrarySource,
    attestations_file: Path | None,
) -> None:
    """Ask what-if questions of MANIFEST: set facts, sweep them, swap a base model, go back in
    time. Shows the baseline's verdicts beside the scenario's, which findings flip and why,
    and what to find out next. The manifest is never modified. Exit 0, or 2 on bad input.

    \b
    Example:
      licheck whatif products/composer2.yaml --set mau=50M \\
        --sweep monthly_revenue=1M..100M
      licheck whatif products/composer2.yaml \\
        --swap-base kimi-k2.5=glm-5
    """
    from licheck.cli.migrate import warn_loaded
    from licheck.evaluation.evaluate import Options
    from licheck.library.layers import load as load_library
    from licheck.loading.documents import load_manifest
    from licheck.portfolio.runs import evidence_policy
    from licheck.report.attestations import attested
    from licheck.report.layering import described
    from licheck.whatif import Scenario, ScenarioError, Subject, analyse
    from licheck.whatif.report import build
    from licheck.whatif.spec import parse_assignment, parse_swap, parse_sweep

    if plot is not None and not sweeps:
        raise ScenarioError("--plot draws a sweep: give --sweep FACT=FROM..TO too")
    inputs = (manifest, *licenses_dir.inputs, attestations_file)
    refuse_outputs([("--plot", plot), ("--output", output)], inputs)
    if plot is not None and not plot.resolve().parent.is_dir():
        raise click.BadParameter(
            f"folder {plot.resolve().parent} does not exist", param_hint="--plot"
        )
    scenario = Scenario(
        tuple(parse_assignment(s) for s in sets),
        tuple(parse_swap(s) for s in swaps),
        scenario_as_of,
    )
    loaded, document = load_manifest(manifest, str(manifest))
    warn_loaded(manifest, loaded, document)
    library = load_library(licenses_dir)
    loaded = attested(loaded, document.file, attestations_at(attestations_file, as_of, library))
    subject = Subject(loaded, document, library, Options(evidence_policy(evidence), as_of))
    ranges = [parse_sweep(s, subject.rates()) for s in sweeps]
    report = build(analyse(subject, scenario, ranges))
    report = report.model_copy(update={"library": described(library)})
    if fmt == "csv" or plot is not None:  # a table and a picture have no place to say it
        _say_layers(report.library)
    if plot is not None:
        from licheck.outputs.whatif.svg import render as render_svg

        write_output(render_svg(report), plot, inputs)
    text = _render(report, fmt, color_for(color, output))
    write_output(text, output, (*inputs, plot))


def _say_layers(library: LibraryOut | None) -> None:
    """The layers in force, on stderr, for an output with no place for them (CSV, the SVG)."""
    from licheck.outputs.summary import layer_lines
    from licheck.text.escape import terminal

    for line in layer_lines(library):
        say(f"licheck: note: {terminal(line.strip())}", trust=True)  # kept under -q


def _render(report: WhatIfReport, fmt: str, color: bool) -> str:
    from licheck.whatif.report import to_json

    if fmt == "json":
        return to_json(report)
    if fmt == "csv":
        from licheck.outputs.whatif.csvtable import render as render_csv

        return render_csv(report)
    if fmt == "html":
        from licheck.outputs.whatif.page import render as render_html

        return render_html(report)
    from licheck.outputs.whatif.text import render

    return render(report, width=terminal_width(), color=color)
