"""Reading a configuration file: `.licheck.yaml` or `[tool.licheck]` of a TOML file, checked by
one pydantic model (`Settings`), every problem located at file:line:column.

TOML means what the standard library's `tomllib` reads (any way of writing `tool.licheck`:
quoted or escaped keys, dotted keys, inline tables); `licheck.files.tomlpositions` only finds where
each key is written, to locate an error.  A file is read within `MAX_CONFIG_BYTES`.
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

from licheck.config.settings import BY_KEY, MAX_CONFIG_BYTES, TOML_TABLE, Config, shown
from licheck.core.diagnostics import Diagnostic, InputError
from licheck.facts.evidencepolicy import policy_named
from licheck.files import tomlpositions, yamlsafe
from licheck.files.safeio import read_bytes
from licheck.loading.documents import validate
from licheck.outputs import FORMATS

PathText = Annotated[StrictStr, Field(min_length=1)]
Paths = list[PathText] | PathText  # one path, or a list of them


class Settings(BaseModel):
    """The keys of a configuration file (see `licheck config`); each optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paths: Paths | None = None
    fail_on: Literal["violation", "evidence-risk", "risk", "never"] | None = Field(
        None, alias="fail-on"
    )
    evidence: StrictStr | None = None
    waivers: PathText | None = None
    attestations: PathText | None = None
    licenses: Paths | None = None
    builtin_licenses: StrictBool | None = Field(None, alias="builtin-licenses")
    policy: Paths | None = None
    format: Literal[FORMATS] | None = None  # type: ignore[valid-type]
    verbose: StrictBool | None = None
    annotations: Annotated[StrictInt, Field(ge=0)] | None = None
    # the JSON report's schema_version (1.0: deprecated, for one release)
    json_schema: Literal["2.0", "1.0"] | None = Field(None, alias="json-schema")
    root: PathText | None = None

    @field_validator("json_schema", mode="before")
    @classmethod
    def _version_text(cls, value: object) -> object:
        # `json-schema: 1.0` unquoted is a number in YAML and TOML: the version it spells
        if isinstance(value, float) and value in (1.0, 2.0):
            return f"{value:.1f}"
        return value

    @field_validator("paths", "licenses", "policy")
    @classmethod
    def _as_list(cls, value: list[str] | str | None) -> list[str] | None:
        if value == []:  # `paths: []` would leave check nothing to check: a mistake to point at
            raise ValueError("an empty list: name at least one path, or remove the key")
        return [value] if isinstance(value, str) else value

    @field_validator("evidence")
    @classmethod
    def _known_policy(cls, value: str | None) -> str | None:
        if value is not None:
            policy_named(value)  # ValueError: located by the loader
        return value


def read(path: Path) -> Config:
    """The configuration in `path` (TOML when it ends in .toml, else YAML), checked."""
    display = shown(path)
    if path.suffix == ".toml":
        document = _toml(path)
    else:  # the hardened YAML reader: one document, no duplicate keys, aliases bounded
        text = yamlsafe.decode(read_config_bytes(path, display), display)
        document = yamlsafe.parse(text, display)
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


def _toml(path: Path) -> yamlsafe.Document:
    """The `tool.licheck` table of a TOML file, however TOML writes it, as a located document."""
    display = shown(path)
    data, text = toml_data(path, display)
    tool = data.get("tool")
    table = tool.get("licheck") if isinstance(tool, dict) else None
    if table is None:
        hint = f"add a [{TOML_TABLE}] table, or name a .licheck.yaml"
        problem = f"no [{TOML_TABLE}] table in {path.name}"
        raise InputError([Diagnostic(display, 1, 1, problem, hint)])
    found = tomlpositions.positions(text)
    prefix = ("tool", "licheck")
    # the table's own place: its header, key or inline table; the file's start when unknown
    at = found.keys.get(prefix) or found.keys.get(prefix[:1]) or (1, 1)
    values: dict[tuple[str | int, ...], tuple[int, int]] = {(): at}
    keys: dict[tuple[str | int, ...], tuple[int, int]] = {(): at}
    for source, target in ((found.values, values), (found.keys, keys)):
        target.update(
            {path[2:]: where for path, where in source.items() if path[:2] == prefix and path[2:]}
        )
    return yamlsafe.Document(display, table, values, keys)


def toml_data(path: Path, display: str) -> tuple[dict[str, Any], str]:
    """A TOML file read within `MAX_CONFIG_BYTES` and parsed by `tomllib` (the meaning), with
    its text (for positions); `InputError`, located, for anything else."""
    text = read_config_text(path, display)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        at = _ERROR_AT.search(str(exc))
        line, column = (int(at[1]), int(at[2])) if at else (1, 1)
        message = _ERROR_AT.sub("", str(exc)).strip()
        invalid = Diagnostic(display, line, column, f"not valid TOML: {message}")
        raise InputError([invalid]) from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        nested = Diagnostic(display, 1, 1, "the TOML is nested too deeply to read")
        raise InputError([nested]) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise InputError([_huge_integer(display, text)]) from None


_LONG_DIGITS = re.compile(r"[0-9][0-9_]{4299,}")


def _huge_integer(display: str, text: str) -> Diagnostic:
    """Where the integer tomllib could not convert begins (1:1 when it cannot be found)."""
    found = _LONG_DIGITS.search(text)
    line, column = 1, 1
    if found:
        before = text[: found.start()]
        line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
    return Diagnostic(display, line, column, "an integer of more than 4,300 digits")


def read_config_bytes(path: Path, display: str) -> bytes:
    """A configuration file's bytes, read within `MAX_CONFIG_BYTES`: a larger one is refused
    before it is read."""
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0  # read_bytes words why it cannot be read
    if size > MAX_CONFIG_BYTES:
        raise InputError([_too_large(display, size)])
    return read_bytes(path, display, MAX_CONFIG_BYTES, hint="name a configuration file")


def read_config_text(path: Path, display: str) -> str:
    """A TOML configuration file's UTF-8 text (a leading BOM dropped), within
    `MAX_CONFIG_BYTES`."""
    raw = read_config_bytes(path, display)
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            [Diagnostic(display, line, column, "not valid UTF-8 text", "save the file as UTF-8")]
        ) from None


def _too_large(display: str, size: int) -> Diagnostic:
    return Diagnostic(
        display,
        1,
        1,
        f"{size:,} bytes, over the {MAX_CONFIG_BYTES:,} a configuration file may have: "
        "not read (it may configure licheck)",
        "keep licheck's settings in a small .licheck.yaml, name one with --config, or run "
        "with --no-config",
    )
