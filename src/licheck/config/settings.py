"""The configuration file: defaults for the commands' options, found from the working folder up.

A project keeps its settings in `[tool.licheck]` of `pyproject.toml` or in `.licheck.yaml`; the
first folder, from the working folder up to the repository root (a folder holding `.git`, in
any form) or the file system's root, that holds one is the project's (`search_start`: which
working folder, when the user reached it through a link).  A folder holding both is refused: two
sources of one setting would make a gate depend on which one a reader looks at.  Options on the
command line win; `licheck config` shows each setting, its value and where it came from.

This module finds the file and knows the settings; it imports nothing heavy, so a run without a
configuration file pays only for a few `stat`s.  Reading and checking a file found is
`licheck.config.configfile`'s job.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from licheck.core.diagnostics import Diagnostic, InputError, path_text
from licheck.files.safeio import read_bytes  # never blocks on a FIFO swapped in meanwhile

YAML_FILE = ".licheck.yaml"
PYPROJECT = "pyproject.toml"
TOML_TABLE = "tool.licheck"
# A configuration file is read whole and kept: one larger than this is refused, not read (a
# pyproject.toml is a few kilobytes; a file of gigabytes on the way up would cost its size in
# memory).  Above the repository root nothing is looked at.
MAX_CONFIG_BYTES = 1024 * 1024

# The commands that read a rule library (`--licenses`, `--no-builtin-licenses`), by their path
# (tests/config/test_settings.py checks that every command with the options is listed).
LIBRARY_COMMANDS = (
    ("evaluate",),
    ("check",),
    ("whatif",),
    ("timeline",),
    ("notices",),
    ("discover",),
    ("facts",),
    ("licenses", "list"),
    ("licenses", "show"),
    ("licenses", "reach"),
    ("licenses", "models"),
    ("licenses", "verify"),
    ("licenses", "coverage"),
    ("import", "cyclonedx"),
    ("import", "hf"),
    ("config",),
    ("validate",),
    ("audit-cards",),
)
REPORTING = (("evaluate",), ("check",), ("audit-cards",), ("config",))


@dataclass(frozen=True, slots=True)
class Setting:
    """One key of the configuration: the option it gives a default to, in which commands."""

    key: str  # as written in the file
    param: str  # the commands' parameter name
    commands: tuple[tuple[str, ...], ...]
    meaning: str
    path: bool = False  # a path (or list of paths): relative to the configuration file's folder


SETTINGS = (
    Setting("paths", "paths", (("check",), ("config",)), "what `licheck check` checks", True),
    Setting("fail-on", "fail_on", REPORTING, "--fail-on: violation, evidence-risk, risk or never"),
    Setting(
        "evidence",
        "evidence",
        (*REPORTING, ("whatif",), ("timeline",), ("notices",)),
        "--evidence: which evidence kinds establish a fact",
    ),
    Setting("waivers", "waivers_file", REPORTING, "--waivers: the waiver file", True),
    Setting(
        "attestations",
        "attestations_file",
        (*REPORTING, ("whatif",), ("timeline",), ("notices",)),
        "--attestations: the conduct facts the organisation attests",
        True,
    ),
    Setting("licenses", "licenses_dir", LIBRARY_COMMANDS, "--licenses: library layers", True),
    Setting(
        "builtin-licenses",
        "no_builtin_licenses",
        LIBRARY_COMMANDS,
        "false: --no-builtin-licenses",
    ),
    Setting(
        "policy",
        "policy_files",
        (*REPORTING, ("whatif",), ("timeline",)),
        "--policy: organisation policy files",
        True,
    ),
    Setting("format", "fmt", REPORTING[:2], "--format of evaluate and check"),
    Setting(
        "verbose",
        "verbose",
        REPORTING,
        "--verbose: check details each finding, evaluate not-applicable ones too",
    ),
    Setting("annotations", "annotations", REPORTING, "--annotations: github annotations"),
    Setting(
        "json-schema",
        "json_schema",
        REPORTING,
        "--json-schema: the JSON report's schema_version (1.0 deprecated)",
    ),
    Setting("root", "root", REPORTING, "--root: SARIF URIs relative to this folder", True),
)
BY_KEY = {setting.key: setting for setting in SETTINGS}


@dataclass(frozen=True, slots=True)
class Config:
    """A configuration file read and checked: each key's value (paths already relative to the
    working folder) and the (line, column) where the file sets it."""

    file: Path
    values: dict[str, Any]
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)

    def where(self, key: str) -> str:
        """`FILE:LINE:COLUMN` of a key the file sets."""
        line, column = self.positions.get(key, (0, 0))
        return f"{shown(self.file)}:{line}:{column}" if line else shown(self.file)

    def default_map(self) -> dict[str, Any]:
        """click's `default_map`: for each command (by its path), its options' defaults."""
        tree: dict[str, Any] = {}
        for key, value in self.values.items():
            setting = BY_KEY[key]
            param_value = not value if key == "builtin-licenses" else value
            for command in setting.commands:
                node = tree
                for name in command:
                    node = node.setdefault(name, {})
                node[setting.param] = param_value
        return tree


def shown(path: Path) -> str:
    """A path as the user would type it from here: relative to the working folder."""
    try:
        return path_text(os.path.relpath(path))
    except ValueError:  # pragma: no cover - another drive, on Windows
        return path_text(str(path))


def find(start: Path) -> Path | None:
    """The configuration file for `start`: the nearest folder at or above it (its parents as
    written, links kept) that holds one, not above the repository root; None when there is
    none.  `InputError` when a folder holds both kinds."""
    for folder in (start, *start.parents):
        _refuse_misnamed(folder)
        found = [path for path in (folder / YAML_FILE, folder / PYPROJECT) if _is_config(path)]
        if len(found) > 1:
            raise InputError(
                [
                    Diagnostic(
                        shown(found[0]),
                        0,
                        0,
                        f"both {YAML_FILE} and [{TOML_TABLE}] in {PYPROJECT} configure licheck "
                        "here: which one wins would be a guess",
                        "keep the settings in one of them (or name one with --config)",
                    )
                ]
            )
        if found:
            return found[0]
        if is_repository_root(folder):
            return None
    return None


def is_repository_root(folder: Path) -> bool:
    """Whether `folder` holds `.git` in any form: a folder, a worktree's or submodule's file
    (`gitdir: ...`), or a link, even one to nothing (it still says where the project ends)."""
    return os.path.lexists(folder / ".git")


def repository_of(start: Path) -> Path | None:
    """The nearest folder at or above `start` that is a repository root; None outside one."""
    return next((f for f in (start, *start.parents) if is_repository_root(f)), None)


def search_start(cwd: Path, pwd: str | None) -> Path:
    """Where the search for the configuration starts: the working folder as the user reached
    it (`pwd`, the shell's $PWD, links kept) when it names `cwd` and is inside a repository,
    or when `cwd` (the resolved folder) is not; else `cwd`.  From `repo/products`, a link to a
    folder elsewhere, the repository the user is in is `repo`, and its settings apply; from a
    link outside any repository into one, the repository the files are in."""
    logical = Path(pwd) if pwd and os.path.isabs(pwd) else None
    if logical is None or logical == cwd or os.path.normpath(pwd or "") != pwd:
        return cwd
    try:
        if not os.path.samefile(logical, cwd):
            return cwd  # a stale $PWD (the shell's folder was moved or replaced)
    except OSError:
        return cwd
    if repository_of(logical) is not None or repository_of(cwd) is None:
        return logical
    return cwd


MISNAMED = ".licheck.yml"


def _refuse_misnamed(folder: Path) -> None:
    """A `.licheck.yml` is the settings file misnamed: skipping it would drop its settings (a
    stricter `fail-on`) in silence, and read a file further up instead."""
    misnamed = folder / MISNAMED
    if os.path.lexists(misnamed):
        raise InputError(
            [
                Diagnostic(
                    shown(misnamed),
                    0,
                    0,
                    f"licheck reads its settings from {YAML_FILE}, not {MISNAMED}",
                    f"rename it to {YAML_FILE} (or name it with --config)",
                )
            ]
        )


def _is_config(path: Path) -> bool:
    """`.licheck.yaml`, or a `pyproject.toml` that sets `tool.licheck` in any way TOML allows
    (`tomllib` decides; a file whose text has neither "licheck" nor a backslash, the only way
    to write it otherwise, is not parsed: most projects' pyproject.toml are not licheck's).  A
    pyproject.toml that may configure licheck but is not valid TOML, cannot be read (not a
    regular file, a link to nothing) or is over `MAX_CONFIG_BYTES` counts, so that its error is
    reported, not skipped."""
    if path.name == YAML_FILE:
        # present in any form: a link to nothing or a folder is an error, not a file to skip
        # (the search would go on above it and read another file's settings)
        return os.path.lexists(path)
    if not os.path.lexists(path):
        return False  # no pyproject.toml here
    try:
        info = path.stat()
    except (OSError, ValueError):
        # a link to nothing, or a loop: it may be the project's settings, unreadable here (a
        # checkout without its target); skipped, a parent's file would apply in its place
        return True
    if not stat.S_ISREG(info.st_mode):
        return True  # a FIFO, a device or a folder: reading it says why it cannot be read
    if info.st_size > MAX_CONFIG_BYTES:
        return True  # not read: reading it refuses it, located

    try:
        text = read_bytes(path, PYPROJECT, MAX_CONFIG_BYTES).decode("utf-8")
    except (InputError, UnicodeDecodeError):
        return True  # it may configure licheck: reading it says why it cannot be read
    if "licheck" not in text and "\\" not in text:
        return False
    import tomllib

    try:
        tool = tomllib.loads(text.removeprefix("\ufeff")).get("tool")
    except (ValueError, RecursionError):  # not TOML, or an integer too long to convert
        return True
    tables = tool if isinstance(tool, list) else [tool]  # `[[tool]]`: an error to report
    return any(isinstance(table, dict) and "licheck" in table for table in tables)
