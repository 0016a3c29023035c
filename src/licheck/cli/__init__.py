"""The command line: a thin layer over the core.

Only this package touches argv, the terminal, output files and exit codes.  Exit codes: 0 nothing at
or above the `--fail-on` policy; 1 findings at or above it (or drifted rules, for `licenses
verify`, or a reader of standard output that went away); 2 bad input or usage; 130 Ctrl-C.
Bad input never shows a traceback (`--debug` shows one for bugs).

Commands are loaded lazily: `licheck --version` and `licheck --help` import click and nothing of the
core, and each command imports only its own module.  To add a command, add a loader and one line
to COMMANDS.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import click

from licheck._version import __version__
from licheck.cli.common import PathParam, run_guarded
from licheck.cli.state import run_state

# name -> a function that imports the command: each runs only when its command runs or `--help`
# lists it.  To add a command, write its loader below and add one line to COMMANDS.  Imports are
# written out (no import by name: nothing here turns a string into code), and command modules stay
# light at the top, importing the core inside the command function (tests/cli/test_lazy.py checks
# that `--help` imports no core).


def _check() -> click.Command:
    from licheck.cli.check import check

    return check


def _audit_cards() -> click.Command:
    from licheck.cli.auditcards import audit_cards

    return audit_cards


def _discover() -> click.Command:
    from licheck.cli.discover import discover

    return discover


def _config() -> click.Command:
    from licheck.cli.config import config

    return config


def _evaluate() -> click.Command:
    from licheck.cli.evaluate import evaluate

    return evaluate


def _facts() -> click.Command:
    from licheck.cli.facts import facts

    return facts


def _import() -> click.Command:
    from licheck.cli.importing import import_

    return import_


def _licenses() -> click.Command:
    from licheck.cli.licenses import licenses

    return licenses


def _migrate() -> click.Command:
    from licheck.cli.migrate import migrate

    return migrate


def _notices() -> click.Command:
    from licheck.cli.notices import notices

    return notices


def _schema() -> click.Command:
    from licheck.cli.schema import schema

    return schema


def _timeline() -> click.Command:
    from licheck.cli.timeline import timeline

    return timeline


def _validate() -> click.Command:
    from licheck.cli.schema import validate

    return validate


def _whatif() -> click.Command:
    from licheck.cli.whatif import whatif

    return whatif


COMMANDS: dict[str, Callable[[], click.Command]] = {
    "audit-cards": _audit_cards,
    "check": _check,
    "config": _config,
    "discover": _discover,
    "evaluate": _evaluate,
    "facts": _facts,
    "import": _import,
    "licenses": _licenses,
    "migrate": _migrate,
    "notices": _notices,
    "schema": _schema,
    "timeline": _timeline,
    "validate": _validate,
    "whatif": _whatif,
}

EPILOG = """\b
Exit codes:
  0  nothing at or above the --fail-on policy
  1  findings at or above it (licenses verify: rules
     that drifted from their texts)
  2  bad input or usage
  130  interrupted (Ctrl-C)

A reader of standard output that goes away (| head) makes the run exit 1, never 0.
"""


def load_command(name: str) -> click.Command:
    """Import the command registered as `name`."""
    return COMMANDS[name]()


# The group's options that may also follow the command's name (`licheck check --config FILE
# products/`, as conftest, trivy and checkov take them): the flags, and the options that take a
# value.  `_hoisted` moves them before the name; no command has an option of these names.
GROUP_FLAGS = frozenset({"--no-config", "-q", "--quiet", "--debug"})
GROUP_VALUED = frozenset({"--config"})


def _hoisted(args: list[str]) -> list[str]:
    """`args` with the group's options that follow the command's name moved before it, in
    their order; nothing after a `--` is touched (there every word is an argument)."""
    at = 0
    while at < len(args) and args[at].startswith("-") and args[at] != "--":
        at += 2 if args[at] in GROUP_VALUED else 1  # a value is never the command's name
    if at >= len(args) or args[at] == "--":
        return args
    moved: list[str] = []
    kept: list[str] = []
    rest = iter(args[at + 1 :])
    for word in rest:
        if word == "--":
            kept += [word, *rest]
        elif word in GROUP_FLAGS or (word.partition("=")[0] in GROUP_VALUED and "=" in word):
            moved.append(word)
        elif word in GROUP_VALUED:
            value = next(rest, None)
            if value is None:  # moved before the name, it would take the name for its value
                raise click.BadOptionUsage(word, f"Option '{word}' requires an argument.")
            moved += [word, value]
        else:
            kept.append(word)
    return [*args[:at], *moved, args[at], *kept]


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            hoisted = _hoisted(args)
        except click.UsageError as exc:
            exc.ctx = ctx
            raise
        return super().parse_args(ctx, hoisted)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return self.commands.get(cmd_name)
        return load_command(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        # the command's arguments, for the group's callback (which runs after this): a
        # command's --help is shown even when the configuration file is broken
        run_state(ctx).command_args = tuple(args[1:])
        return super().resolve_command(ctx, args)


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="licheck")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Print only the report, warnings and errors: no progress line, no informational "
    "notes on stderr (docs/terminal.md).",
)
@click.option(
    "--config",
    "config_file",
    type=PathParam(dir_okay=False, path_type=Path),
    envvar="LICHECK_CONFIG",
    metavar="FILE",
    help="Read the settings from FILE (.licheck.yaml, or a .toml file's [tool.licheck]) "
    "instead of searching from here up to the repository root (env: LICHECK_CONFIG).",
)
@click.option("--no-config", is_flag=True, help="Read no configuration file.")
@click.pass_context
def cli(
    ctx: click.Context, debug: bool, quiet: bool, config_file: Path | None, no_config: bool
) -> None:
    """Check AI products against the licenses of the models they are built on.

    Settings in `[tool.licheck]` of pyproject.toml or in .licheck.yaml, found from here up to
    the repository root, are the commands' defaults; options typed here win (licheck config
    shows each setting and where it came from).  The options below may also follow the
    command's name (`licheck check --config FILE products/`).  A manifest named `-` is read
    from standard input (`<stdin>` in messages).

    \b
    Example:
      licheck evaluate products/composer2.yaml
      licheck check products/ --fail-on risk
      licheck facts monthly_revenue
      licheck config
      licheck COMMAND --help   (every command has examples)
    """
    from licheck.cli.configuring import configure

    state = run_state(ctx)
    state.debug, state.quiet = debug, quiet
    configure(ctx, config_file, no_config)


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point."""
    quiet_plugins()
    tune_collector()
    exit_now(run_guarded(cli, argv))


def quiet_plugins() -> None:
    """Run pydantic without third-party validation plugins, unless the user says otherwise.

    pydantic scans every installed package's entry points for plugins the first time a validator
    is built (about 10 ms of a short run), and a plugin could observe or change validation: a
    compliance tool's verdicts should not depend on what else is installed.  A value the user
    set for `PYDANTIC_DISABLE_PLUGINS` (pydantic's documented switch) wins.  Only the command
    line does this; a program importing licheck keeps its own pydantic settings."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def tune_collector() -> None:
    """Collect cyclic garbage less often than Python's default.

    A run builds many long-lived objects (the rule library, pydantic's schemas, the engine's
    tables) and little cyclic garbage: collecting the young generation every 700 allocations,
    and everything again and again as the heap grows, was about a tenth of `evaluate`'s start."""
    gc.set_threshold(100_000, 50, 50)


def exit_now(code: int) -> NoReturn:
    """Exit as `sys.exit` does, with less teardown.

    Freezing the heap first spares the interpreter's last full collection over every object of
    the run (the rule library, pydantic's schemas): about a fifth of a short run.  Everything
    else of an ordinary exit happens: `atexit` handlers run and output is flushed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            # a reader that went away, or a closed stream: nothing more can be said there, and
            # the interpreter's own flush at exit must not fail again (it would exit 120)
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    gc.freeze()
    sys.exit(code)
