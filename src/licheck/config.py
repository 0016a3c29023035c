"""The configuration file: defaults for the commands' options, found from the working folder up.

A project keeps its settings in `[tool.licheck]` of `pyproject.toml` or in `.licheck.yaml`; the
first folder, from the working folder up to the repository root (a folder holding `.git`) or the
file system's root, that holds one is the project's.  A folder holding both is refused: two
sources of one setting would make a gate depend on which one a reader looks at.  Options on the
command line win; `licheck config` shows each setting, its value and where it came from.

This module finds the file and knows the settings; it imports nothing heavy, so a run without a
configuration file pays only for a few `stat`s.  Reading and checking a file found is
`licheck.configfile`'s job.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from licheck.diagnostics import Diagnostic, InputError, path_text

YAML_FILE = ".licheck.yaml"
PYPROJECT = "pyproject.toml"
TOML_TABLE = "tool.licheck"

# The commands that read a rule library (`--licenses`, `--no-builtin-licenses`), by their path
# (tests/test_config.py checks that every command with the options is listed).
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
    ("licenses", "models"),
    ("licenses", "verify"),
    ("licenses", "coverage"),
    ("import", "cyclonedx"),
    ("import", "hf"),
    ("config",),
)
REPORTING = (("evaluate",), ("check",), ("config",))


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
    Setting("fail-on", "fail_on", REPORTING, "--fail-on: violation, risk or never"),
    Setting(
        "evidence",
        "evidence",
        (*REPORTING, ("whatif",), ("timeline",), ("notices",)),
        "--evidence: which evidence kinds establish a fact",
    ),
    Setting("waivers", "waivers_file", REPORTING, "--waivers: the waiver file", True),
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
    """The configuration file for `start`: the nearest folder at or above it that holds one,
    not above the repository root; None when there is none.  `InputError` when a folder holds
    both kinds."""
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
        if (folder / ".git").exists():
            return None
    return None


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


# A TOML file can set `tool.licheck` only through a `tool` key at the start of a line: a table
# header (`[tool.licheck]`, `[tool]`, `[[tool.licheck]]`), a dotted key (`tool.licheck.x = `) or
# an inline table (`tool = {licheck = {...}}`), after a byte-order mark on the first line.  A
# file with none of them (one that merely lists licheck as a dependency) is not parsed; one
# with any of them is, so that no way of writing the table is skipped (the search would go on
# above it and read another file's settings, or none).
_MAY_HAVE_TABLE = re.compile(r"""^[\s\ufeff]*(\[\[?\s*)?["']?tool["']?\s*[.\]=]""", re.M)


def _is_config(path: Path) -> bool:
    """`.licheck.yaml`, or a `pyproject.toml` with a `[tool.licheck]` table (parsed only when
    its text names licheck: most projects' pyproject.toml do not).  A pyproject.toml that names
    licheck but is not valid TOML, or cannot be read, counts, so that its error is reported,
    not skipped."""
    if path.name == YAML_FILE:
        # present in any form: a link to nothing or a folder is an error, not a file to skip
        # (the search would go on above it and read another file's settings)
        return os.path.lexists(path)
    if not path.is_file():
        return False
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True  # it may configure licheck: reading it says why it cannot be read
    if "licheck" not in text or not _MAY_HAVE_TABLE.search(text):
        return False
    import tomllib

    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:
        return True
    return isinstance(tool, dict) and "licheck" in tool
