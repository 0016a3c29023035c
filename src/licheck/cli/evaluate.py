"""`licheck evaluate MANIFEST...`: the findings for each product."""

from __future__ import annotations

from pathlib import Path

import click

from licheck.cli.common import INPUT_PATH, refuse_outputs, stdin_once
from licheck.cli.request import ReportRequest, compare_baseline, load_baseline, request_options


@click.command()
@click.argument("manifests", nargs=-1, required=True, type=INPUT_PATH, callback=stdin_once)
@request_options("Detail not-applicable findings too.")
def evaluate(manifests: tuple[Path, ...], request: ReportRequest) -> None:
    """Evaluate product MANIFESTS against the licenses of the models they are built on.

    Each clause that could bind a component is reported as satisfied, violation, not
    applicable, or governance risk (the verdict depends on missing or weakly evidenced facts;
    the report names them and what each would change).

    Of several MANIFESTS, one that cannot be read is reported at file:line:column and listed
    in the report, every other one is evaluated, and the run exits 2 (as `licheck check`).

    \b
    Example:
      licheck evaluate products/composer2.yaml
      licheck evaluate products/*.yaml --format json \\
        --as-of 2026-03-19
    """
    from licheck.cli.migrate import warn_unversioned
    from licheck.files.discovery import distinct
    from licheck.portfolio.runs import evaluate_report

    manifests = tuple(distinct(manifests))  # a file named twice is one product
    warn_unversioned(manifests)
    waivers = request.waivers()
    inputs = request.inputs(manifests, waivers)
    refuse_outputs([("--output", request.output)], inputs)
    baseline = load_baseline(request.baseline_file)
    # One manifest named: its located problems are the whole answer, as they always were (a
    # report of no product would add nothing).  Several: the others are evaluated, as by check.
    report = evaluate_report(
        list(manifests),
        request.policy(),
        **request.keywords(waivers),
        keep_going=len(manifests) > 1,
    )
    report = compare_baseline(report, baseline)
    request.emit(report, inputs)
