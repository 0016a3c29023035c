"""What one run of the command line carries from the group and its options to the command: one
typed object on the root context (`ctx.obj`, made by `run_state`), never string keys in
`ctx.meta`.

Light: it imports click alone, so `licheck --version` stays free of the core."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from licheck.config.settings import Config


class RunState:
    """The run's state, set as click processes the command line (each field by one place)."""

    __slots__ = ("command_args", "config", "debug", "no_builtin_licenses", "policy_files", "quiet")

    def __init__(self) -> None:
        self.debug = False  # --debug (`run_guarded` reads argv itself: it runs before click)
        self.quiet = False  # -q/--quiet: no progress line, no informational notes
        # the configuration file read (`configuring.configure`)
        self.config: Config | None = None
        # the arguments after the command's name, for the group's callback, which runs before
        # the command parses them (`LazyGroup.resolve_command`)
        self.command_args: tuple[str, ...] = ()
        # the command's eager options, processed before --licenses builds its `LibrarySource`
        self.no_builtin_licenses = False  # --no-builtin-licenses
        self.policy_files: tuple[Path, ...] = ()  # --policy FILE...


def run_state(ctx: click.Context | None = None) -> RunState:
    """The state of the run `ctx` belongs to (default: the current context's run), made on
    first use; outside any run, a fresh default one (nothing set)."""
    ctx = ctx if ctx is not None else click.get_current_context(silent=True)
    if ctx is None:
        return RunState()
    root = ctx.find_root()
    if not isinstance(root.obj, RunState):
        root.obj = RunState()
    return root.obj
