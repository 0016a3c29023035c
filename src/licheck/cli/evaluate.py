"""`licheck evaluate MANIFEST...`: the findings for each product."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    INPUT_PATH,
    evidence_options,
    library_option,
    policy_option,
    refuse_outputs,
)
from licheck.cli.gating import (
    baseline_option,
    compare_baseline,
    emit,
    load_baseline,
    load_waivers,
    report_options,
)

if TYPE_CHECKING:
    from licheck.librarysource import LibrarySource


@click.command()
@click.argument("manifests", nargs=-1, required=True, type=INPUT_PATH)
@report_options
@evidence_options
@click.option("--verbose", "-v", is_flag=True, help="Detail not-applicable findings too.")
@library_option
@baseline_option
@policy_option
def evaluate(
    manifests: tuple[Path, ...],
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
    baseline_file: Path | None,
) -> None:
    """Evaluate product MANIFESTS against the licenses of the models they are built on.

    Each clause that could bind a component is reported as satisfied, violation, not
    applicable, or governance risk (the verdict depends on missing or weakly evidenced facts;
    the report names them and what each would change).

    \b
    Example:
      licheck evaluate products/composer2.yaml
      licheck evaluate products/*.yaml --format json --as-of 2026-03-19
    """
    from licheck.api import evaluate_files, resolve_policy

    policy = resolve_policy(evidence)
    waivers = load_waivers(waivers_file, no_waivers)
    inputs = (*manifests, waivers_file, *licenses_dir.inputs, baseline_file)
    refuse_outputs([("--output", output)], inputs)
    baseline = load_baseline(baseline_file)
    report = evaluate_files(list(manifests), policy, as_of, licenses_dir, waivers, today)
    report = compare_baseline(report, baseline)
    inputs = (*inputs, Path(waivers.file) if waivers else None)
    emit(
        report,
        fmt,
        fail_on,
        output,
        verbose=verbose,
        inputs=inputs,
        root=root,
        annotations=annotations,
    )
