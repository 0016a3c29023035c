"""The command line: a thin layer over the core.

Only this package touches argv, the terminal, output files and exit codes.  Exit codes: 0 nothing at
or above the `--fail-on` policy; 1 findings at or above it (or drifted rules, for `licenses
verify`); 2 bad input or usage.  Bad input never shows a traceback (`--debug` shows one for bugs).

Commands are loaded lazily: `licheck --version` and `licheck --help` import click and nothing of the
core, and each command imports only its own module.  To add a command, add one line to COMMANDS.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from licheck import __version__
from licheck.cli.common import run_guarded

# name -> "module:attribute" of its click command, imported only when the command runs or `--help`
# lists it.  Keep one line per command, and keep command modules light at the top: import the core
# inside the command function (tests/test_lazy_cli.py checks that `--help` imports no core).
COMMANDS: dict[str, str] = {
    "check": "licheck.cli.check:check",
    "evaluate": "licheck.cli.evaluate:evaluate",
    "import": "licheck.cli.importing:import_",
    "licenses": "licheck.cli.licenses:licenses",
    "schema": "licheck.cli.schema:schema",
    "validate": "licheck.cli.schema:validate",
}

EPILOG = """\b
Exit codes:
  0  nothing at or above the --fail-on policy
  1  findings at or above it (licenses verify: rules that drifted from their texts)
  2  bad input or usage
"""


def load_command(name: str) -> click.Command:
    """Import the command registered as `name`."""
    module_name, _, attribute = COMMANDS[name].partition(":")
    command = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(command, click.Command):  # pragma: no cover - a registration mistake
        raise TypeError(f"{COMMANDS[name]} is not a click command")
    return command


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return self.commands.get(cmd_name)
        return load_command(cmd_name)


@click.group(cls=LazyGroup, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="licheck")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Check AI products against the licenses of the models they are built on."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main(argv: list[str] | None = None) -> Any:
    """Console-script entry point."""
    sys.exit(run_guarded(cli, argv))
