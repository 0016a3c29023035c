"""`licheck evaluate MANIFEST...`: the findings for each product."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from licheck.cli.common import (
    INPUT_PATH,
    evidence_options,
    library_option,
    use_color,
    write_output,
)


@click.command()
@click.argument("manifests", nargs=-1, required=True,
                type=INPUT_PATH)
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@evidence_options
@click.option("--fail-on", type=click.Choice(["violation", "risk", "never"]),
              default="violation", show_default=True,
              help="Exit 1 when any finding is at or above this verdict.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report to FILE (atomically) instead of standard output.")
@click.option("--verbose", "-v", is_flag=True, help="Detail not-applicable findings too.")
@library_option
def evaluate(manifests: tuple[Path, ...], fmt: str, evidence: str, as_of: dt.date | None,
             fail_on: str, output: Path | None, verbose: bool,
             licenses_dir: Path | None) -> None:
    """Evaluate product MANIFESTS against the licenses of the models they are built on.

    Each clause that could bind a component is reported as satisfied, violation, not
    applicable, or governance risk (the verdict depends on missing or weakly evidenced facts;
    the report names them and what each would change).
    """
    from licheck.api import evaluate_files, resolve_policy
    from licheck.report import FailOn, exit_code, to_json

    policy = resolve_policy(evidence)
    report = evaluate_files(list(manifests), policy, as_of, licenses_dir)
    if fmt == "json":
        text = to_json(report)
    else:
        from licheck.formats.text import render

        text = render(report, color=use_color() if output is None else False, verbose=verbose)
    write_output(text, output, manifests)
    raise click.exceptions.Exit(exit_code(report, FailOn(fail_on)))
