"""Reading the configuration file into click: the group's `--config` and `--no-config`, and each
command's option defaults (click's `default_map`), so that options typed on the command line win.

Light at the top: a run with no configuration file imports nothing here beyond what `licheck
--version` loads (click, `cli.common`, `core.diagnostics`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import DEFAULT_WAIVERS, loaded
from licheck.cli.state import run_state
from licheck.core.diagnostics import InputError, path_text

if TYPE_CHECKING:
    from licheck.report.view import ConfigOut, FailOn, GateSettingOut, Report

CONFIG_ENV = "LICHECK_CONFIG"


def configure(ctx: click.Context, config_file: Path | None, no_config: bool) -> None:
    """Find and read the configuration (unless `no_config`), keep it in the run's state
    (`RunState.config`) and make its settings the defaults of every command's options."""
    source = ctx.get_parameter_source("config_file")
    if no_config and config_file is not None and source is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--config and --no-config exclude each other")
    state = run_state(ctx)
    state.config = None
    if no_config:
        return
    from licheck.config.settings import find, search_start

    try:
        here = search_start(Path.cwd(), os.environ.get("PWD"))
        path = config_file if config_file is not None else find(here)
    except FileNotFoundError:  # the working folder was deleted under the shell: nothing to find
        path = None
    if path is None:
        return
    from licheck.config.configfile import read

    try:
        config = read(path)
    except InputError:
        if _asks_for_help(ctx):  # a command's help needs no settings: show it anyway
            return
        raise
    state.config = config
    ctx.default_map = config.default_map()


def _asks_for_help(ctx: click.Context) -> bool:
    """Whether the command line asks a command for its help (`licheck check --help`)."""
    args = run_state(ctx).command_args
    return any(arg in ctx.help_option_names for arg in args)


def with_config(report: Report) -> Report:
    """`report` with the configuration settings the running command used (`Report.config`),
    and every setting that decides its verdicts or gate with where it came from
    (`Report.gate_settings`), so that the report says where a setting such as `fail-on: never`
    came from."""
    ctx = click.get_current_context(silent=True)
    update: dict[str, object] = {}
    if report.config is None and (used := applied(ctx)) is not None:
        update["config"] = used
    if not report.gate_settings and ctx is not None and (settings := gate_settings(ctx)):
        update["gate_settings"] = settings
    return report.model_copy(update=update) if update else report


# Each gate setting's parameter, in the commands that report (`evaluate`, `check`).
_GATE_PARAMS = {
    "fail-on": "fail_on",
    "evidence": "evidence",
    "as-of": "as_of",
    "licenses": "licenses_dir",
    "builtin-licenses": "no_builtin_licenses",
    "policy": "policy_files",
    "waivers": "waivers_file",
    "attestations": "attestations_file",
    "baseline": "baseline_file",
    "today": "today",
}


def gate_settings(ctx: click.Context) -> list[GateSettingOut]:
    """The settings in force for the running command (`licheck.report.gatesettings.in_force`): their
    values as the command received them, each with where it came from; [] for a command that
    has no gate."""
    params = ctx.params
    if "fail_on" not in params or "licenses_dir" not in params:
        return []
    from licheck.report.gatesettings import in_force

    def day(value: object) -> str | None:
        return value.isoformat() if hasattr(value, "isoformat") else None

    library = params["licenses_dir"]
    waivers: str | bool | None = None
    sources = {key: _source(ctx, key, param) for key, param in _GATE_PARAMS.items()}
    found = (Path.cwd() / DEFAULT_WAIVERS).is_file()  # what `load_waivers` reads by default
    if params.get("no_waivers"):  # a change only where it leaves a waiver file unread
        waivers = False if found else None
        sources["waivers"] = _source(ctx, "waivers", "no_waivers")
    elif params.get("waivers_file") is not None:
        waivers = path_text(str(params["waivers_file"]))
    elif found:
        waivers, sources["waivers"] = DEFAULT_WAIVERS, "found in the working folder"
    values = {
        "fail-on": params["fail_on"],
        "evidence": params.get("evidence", "default"),
        "as-of": day(params.get("as_of")),
        "licenses": [path_text(str(p)) for p in library.folders],
        "builtin-licenses": library.builtin,
        "policy": [path_text(str(p)) for p in library.policies],
        "waivers": waivers,
        "attestations": path_text(str(a)) if (a := params.get("attestations_file")) else None,
        "baseline": path_text(str(b)) if (b := params.get("baseline_file")) else None,
        "today": day(params.get("today")),
    }
    return in_force(values, sources)


def _source(ctx: click.Context, key: str, param: str) -> str:
    """Where the parameter's value came from: the command line, the environment, the
    configuration file's FILE:LINE:COLUMN, or "default"."""
    from click.core import ParameterSource

    source = ctx.get_parameter_source(param)
    if source is ParameterSource.COMMANDLINE:
        return "command line"
    if source is ParameterSource.ENVIRONMENT:
        return "environment"
    config = loaded(ctx)
    if source is ParameterSource.DEFAULT_MAP and config is not None and key in config.values:
        return config.where(key)
    return "default"


def applied(ctx: click.Context | None) -> ConfigOut | None:
    """The configuration file read, and each of its settings that is the default of one of the
    command's options that the command line did not give; None without a file."""
    config = loaded(ctx) if ctx is not None else None
    if ctx is None or config is None:
        return None
    from click.core import ParameterSource

    from licheck.config.settings import SETTINGS, shown
    from licheck.report.view import ConfigOut, ConfigSettingOut

    used = [
        ConfigSettingOut(
            key=setting.key, value=config.values[setting.key], at=config.where(setting.key)
        )
        for setting in SETTINGS
        if setting.key in config.values
        and ctx.get_parameter_source(setting.param) is ParameterSource.DEFAULT_MAP
    ]
    return ConfigOut(file=shown(config.file), settings=used)


def say_weakened(report: Report, fail_on: FailOn) -> None:
    """On stderr, when the gate passes only because the configuration file set `fail-on`
    (a `fail-on: never` a folder or two up): every format and command, `evaluate`'s text too,
    which has no gate line."""
    from licheck.report.view import FailOn, fails, gate_fails

    settings = report.config.settings if report.config is not None else []
    at = next((s.at for s in settings if s.key == "fail-on"), None)
    gate = report.summary.gate_verdict
    if at is None or report.errors or gate_fails(report.summary, fail_on):
        return
    if fails(gate, FailOn.VIOLATION):
        from licheck.text.escape import terminal  # the file's path is user text

        click.echo(
            f"licheck: note: the gate passes because of fail-on: {fail_on.value}, set at "
            f"{terminal(at)} (worst finding not waived: {gate.label}; --fail-on violation "
            "would fail)",
            err=True,
        )
