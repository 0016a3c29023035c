"""`licheck config`: the effective settings, and where each came from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from licheck.cli import configuring
from licheck.cli.common import (
    INPUT_PATH,
    PathParam,
    json_output,
    library_option,
    policy_option,
    terminal_width,
)
from licheck.cli.common import loaded as config_loaded
from licheck.core.diagnostics import LicheckError

if TYPE_CHECKING:
    from licheck.config.settings import Config, Setting
    from licheck.library.source import LibrarySource

SAME = "As for evaluate and check."
ABOUT = "the configuration file read: --config, LICHECK_CONFIG, or found from here up"
EXAMPLE = """\b
Example:
  licheck config   # the settings a run here would use
  licheck config --fail-on risk -f json
  licheck --config ci/licheck.yaml config
"""


@click.command(epilog=EXAMPLE)
@click.argument("paths", nargs=-1, type=INPUT_PATH)
@click.option(
    "--fail-on",
    type=click.Choice(["violation", "evidence-risk", "risk", "never"]),
    default="violation",
    help=SAME,
)
@click.option("--evidence", default="default", metavar="POLICY", help=SAME)
@click.option(
    "--waivers", "waivers_file", type=PathParam(dir_okay=False, path_type=Path), help=SAME
)
@click.option(
    "--attestations", "attestations_file", type=PathParam(dir_okay=False, path_type=Path), help=SAME
)
@click.option("--verbose", "-v", count=True, help=SAME)
@click.option("--annotations", type=click.IntRange(min=0), default=10, metavar="N", help=SAME)
@click.option("--json-schema", type=click.Choice(["2.0", "1.0"]), default="2.0", help=SAME)
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), help=SAME)
@library_option
@policy_option
@click.option(
    "--format",
    "-f",
    "out_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How to show the settings (the report format setting comes from the file).",
)
@click.pass_context
def config(ctx: click.Context, /, out_format: str, **_settings: Any) -> None:
    """Show the effective settings: each one's value, and whether it came from the default,
    the configuration file (FILE:LINE:COLUMN), the command line or the environment.

    The options are those of evaluate and check that a setting sets, so that `licheck config
    OPTIONS` shows what a run with OPTIONS would use.
    """
    from licheck.config.settings import SETTINGS
    from licheck.facts.evidencepolicy import policy_named

    try:  # shown as in force only if a run would accept it (`check --evidence ,` is exit 2)
        policy_named(_settings["evidence"])
    except ValueError as exc:
        raise LicheckError(f"--evidence: {exc}") from None
    loaded = config_loaded(ctx)
    rows = [_file_row(ctx, loaded)] + [_row(ctx, setting, loaded) for setting in SETTINGS]
    if out_format == "json":
        click.echo(json_output({"settings": rows}))
        return
    from licheck.text.escape import terminal
    from licheck.text.readable import fit

    width = max(len(row["key"]) for row in rows)
    columns = terminal_width()
    for row in rows:
        shown = (
            f"{row['key']:<{width}}  {terminal(_text(row['value']))}  ({terminal(row['source'])})"
        )
        click.echo(fit(shown, columns, " " * (width + 4)))  # continued under the value


def _file_row(ctx: click.Context, loaded: Config | None) -> dict[str, Any]:
    """Which configuration file was read, and why that one."""
    from licheck.config.settings import shown

    parent = ctx.find_root()
    source = parent.get_parameter_source("config_file")
    if loaded is None:
        nowhere = "none found from here up to the repository root"
        why = "--no-config" if parent.params.get("no_config") else nowhere
        return {"key": "config", "value": None, "source": why, "about": ABOUT}
    if source is ParameterSource.ENVIRONMENT:
        why = f"environment ({configuring.CONFIG_ENV})"
    elif source is ParameterSource.COMMANDLINE:
        why = "command line (--config)"
    else:
        why = "found from the working folder up"
    return {"key": "config", "value": shown(loaded.file), "source": why, "about": ABOUT}


def _row(ctx: click.Context, setting: Setting, loaded: Config | None) -> dict[str, Any]:
    if setting.key == "format":  # the report format: not an option of this command
        in_file = loaded is not None and "format" in loaded.values
        fmt = loaded.values["format"] if loaded is not None and in_file else "text"
        where = _where(loaded, "format", in_file)
        return {"key": "format", "value": fmt, "source": where, "about": setting.meaning}
    library: LibrarySource = ctx.params["licenses_dir"]
    if setting.key == "builtin-licenses":
        value: Any = library.builtin
    elif setting.key == "licenses":
        value = [str(folder) for folder in library.folders]
    elif setting.key == "policy":
        value = [str(path) for path in library.policies]
    else:
        value = ctx.params[setting.param]
        if isinstance(value, tuple):
            value = [str(item) for item in value]
        elif isinstance(value, Path):
            value = str(value)
    source = ctx.get_parameter_source(setting.param)
    where = _source(source, loaded, setting.key)
    return {"key": setting.key, "value": value, "source": where, "about": setting.meaning}


def _source(source: ParameterSource | None, loaded: Config | None, key: str) -> str:
    if source is ParameterSource.COMMANDLINE:
        return "command line"
    if source is ParameterSource.ENVIRONMENT:
        return "environment"
    return _where(loaded, key, source is ParameterSource.DEFAULT_MAP)


def _where(loaded: Config | None, key: str, in_file: bool) -> str:
    return loaded.where(key) if loaded is not None and in_file else "default"


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(value) if value else "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
