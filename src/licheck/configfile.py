"""Reading a configuration file: `.licheck.yaml` or `[tool.licheck]` of a TOML file, checked by
one pydantic model (`Settings`), every problem located at file:line:column.

TOML is read with the standard library's `tomllib`, which keeps no positions: the line of a key
is found in the text of its table (a key it cannot find is located at the table's header).
Paths in the file are relative to the file's folder; they are turned into paths relative to the
working folder, as if the user had typed them here.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from licheck import yamlsafe
from licheck.config import BY_KEY, TOML_TABLE, Config, shown
from licheck.diagnostics import Diagnostic, InputError
from licheck.formats import FORMATS
from licheck.loading import validate

PathText = Annotated[StrictStr, Field(min_length=1)]
Paths = list[PathText] | PathText  # one path, or a list of them


class Settings(BaseModel):
    """The keys of a configuration file (see `licheck config`); each optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paths: Paths | None = None
    fail_on: Literal["violation", "risk", "never"] | None = Field(None, alias="fail-on")
    evidence: StrictStr | None = None
    waivers: PathText | None = None
    licenses: Paths | None = None
    builtin_licenses: StrictBool | None = Field(None, alias="builtin-licenses")
    policy: Paths | None = None
    format: Literal[FORMATS] | None = None  # type: ignore[valid-type]
    verbose: StrictBool | None = None
    annotations: Annotated[StrictInt, Field(ge=0)] | None = None
    root: PathText | None = None

    @field_validator("paths", "licenses", "policy")
    @classmethod
    def _as_list(cls, value: list[str] | str | None) -> list[str] | None:
        if value == []:  # `paths: []` would leave check nothing to check: a mistake to point at
            raise ValueError("an empty list: name at least one path, or remove the key")
        return [value] if isinstance(value, str) else value

    @field_validator("evidence")
    @classmethod
    def _known_policy(cls, value: str | None) -> str | None:
        from licheck.facts import policy_named

        if value is not None:
            policy_named(value)  # ValueError: located by the loader
        return value


def read(path: Path) -> Config:
    """The configuration in `path` (TOML when it ends in .toml, else YAML), checked."""
    document = _toml(path) if path.suffix == ".toml" else yamlsafe.load(path, shown(path))
    settings = validate(document, Settings)
    values: dict[str, Any] = settings.model_dump(by_alias=True, exclude_none=True)
    positions = {
        key: document.key_positions.get((key,)) or document.locate((key,)) for key in values
    }
    folder = path.parent
    missing = [
        Diagnostic(
            shown(path),
            *positions[key],
            f"{key}: {item} does not exist (paths in the file are relative to its folder)",
            "fix the path, or remove the setting",
        )
        for key, value in values.items()
        if BY_KEY[key].path
        for item in (value if isinstance(value, list) else [value])
        if not (folder / item).exists()
    ]
    if missing:  # said here, at the setting, not later as a path the user never typed
        raise InputError(missing)
    for key, value in values.items():
        if BY_KEY[key].path:
            values[key] = _relative(folder, value)
    return Config(path, values, positions)


def _relative(folder: Path, value: str | list[str]) -> str | list[str]:
    """A path of the file (relative to its folder) as a path from the working folder."""
    if isinstance(value, list):
        return [str(_relative(folder, item)) for item in value]
    path = Path(value)
    return value if path.is_absolute() else os.path.relpath(folder / path)


_ERROR_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")
_HEADER = re.compile(r"^\s*\[\s*tool\s*\.\s*licheck\s*\]\s*(#.*)?$")
_ANY_HEADER = re.compile(r"^\s*\[")
_KEY = re.compile(r"^(\s*)([\"']?)([A-Za-z0-9_-]+)\2\s*=")


def _toml(path: Path) -> yamlsafe.Document:
    """The `[tool.licheck]` table of a TOML file as a located document."""
    display = shown(path)
    text = yamlsafe.read_text(path, display)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = _ERROR_AT.search(str(exc))
        line, column = (int(at[1]), int(at[2])) if at else (1, 1)
        message = _ERROR_AT.sub("", str(exc)).strip()
        invalid = Diagnostic(display, line, column, f"not valid TOML: {message}")
        raise InputError([invalid]) from None
    tool = data.get("tool")
    table = tool.get("licheck") if isinstance(tool, dict) else None
    if table is None:
        hint = f"add a [{TOML_TABLE}] table, or name a .licheck.yaml"
        problem = f"no [{TOML_TABLE}] table in {path.name}"
        raise InputError([Diagnostic(display, 1, 1, problem, hint)])
    header, keys = _toml_positions(text)
    positions: dict[tuple[str | int, ...], tuple[int, int]] = {(): (header, 1)}
    positions.update({(key,): at for key, at in keys.items()})
    return yamlsafe.Document(display, table, positions, dict(positions))


def _toml_positions(text: str) -> tuple[int, dict[str, tuple[int, int]]]:
    """The line of the `[tool.licheck]` header (1 when there is none, e.g. dotted keys) and the
    (line, column) of each key in that table."""
    header = 1
    keys: dict[str, tuple[int, int]] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            header, inside = number, True
        elif _ANY_HEADER.match(line):
            inside = False
        elif inside and (found := _KEY.match(line)):
            keys.setdefault(found[3], (number, len(found[1]) + 1))
    return header, keys
