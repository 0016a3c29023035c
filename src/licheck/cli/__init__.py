"""The command line: a thin layer over the core.

Only this package touches argv, the terminal, output files and exit codes.  Exit codes: 0 nothing at
or above the `--fail-on` policy; 1 findings at or above it (or drifted rules, for `licenses
verify`); 2 bad input or usage.  Bad input never shows a traceback (`--debug` shows one for bugs).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from licheck import __version__
from licheck.cli.check import check
from licheck.cli.common import run_guarded
from licheck.cli.evaluate import evaluate
from licheck.cli.importing import import_
from licheck.cli.licenses import licenses
from licheck.cli.schema import schema, validate
from licheck.cli.whatif import whatif

EPILOG = """\b
Exit codes:
  0  nothing at or above the --fail-on policy
  1  findings at or above it (licenses verify: rules that drifted from their texts)
  2  bad input or usage
"""


@click.group(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="licheck")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Check AI products against the licenses of the models they are built on."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


cli.add_command(check)
cli.add_command(evaluate)
cli.add_command(import_)
cli.add_command(licenses)
cli.add_command(schema)
cli.add_command(validate)
cli.add_command(whatif)


def main(argv: list[str] | None = None) -> Any:
    """Console-script entry point."""
    sys.exit(run_guarded(cli, argv))
