"""The runner of the data-driven regression cases (tests/data/<class>/*.yaml).

A case writes its `files` into a temporary folder (a name ending in `/` is a folder; a value
`{from: PATH, replace: [[OLD, NEW], ...]}` copies the project's file PATH with each OLD, which
must be there, replaced), changes into `cwd` (in that folder) when it names one, unsets the
environment variables `unset` names, and runs each of its `commands` through the CLI. In every
argument and expected fragment `{tmp}` is the temporary folder and `{root}` the project's.

A command is an argument list, checked against the case's expectations, or a mapping with
`argv` and expectations of its own. Expectations: `exit` (a code, or a list of the codes
allowed), `stdout_is` (the whole of stdout), `stdout` and `stderr` (fragments, as written),
`stderr_words` (fragments found in stderr with its whitespace unwrapped), `stderr_counts` (how
often a fragment appears), `json` (dotted paths into the JSON on stdout, and their values) and
`verdicts` (license-id/clause-id of the JSON report's findings, and their verdicts). No run may
show a traceback.

COLUMNS is 1000 for every run, so no message wraps and no case depends on the terminal's width
or the temporary path's length."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml

from tests.clirun import run
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"
T = TypeVar("T")


def load(kind: str) -> list[dict[str, Any]]:
    """Every case of the class `kind`, from each YAML file of tests/data/`kind`/ in name order."""
    cases: list[dict[str, Any]] = []
    for path in sorted((DATA / kind).glob("*.yaml")):
        cases.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["cases"])
    names = [case["name"] for case in cases]
    assert len(names) == len(set(names)), "two cases share a name"
    return cases


def rooted(value: Any, types: dict[str, type] | None = None) -> Any:
    """`value` with `{root}` in its strings (keys too) the project's folder, a mapping with a
    `type` that `types` names as that dataclass (a file that is a symlink, a FIFO...), and
    `{join: [TEXT or [TEXT, TIMES], ...]}` as the text those pieces make (a huge input)."""
    if isinstance(value, str):
        return value.replace("{root}", str(ROOT))
    if isinstance(value, list):
        return [rooted(item, types) for item in value]
    if isinstance(value, dict) and value.keys() == {"join"}:  # a long text, written short
        return "".join(rooted(p) if isinstance(p, str) else p[0] * p[1] for p in value["join"])
    if isinstance(value, dict):
        if types and value.get("type") in types:
            fields = {k: rooted(v, types) for k, v in value.items() if k != "type"}
            return types[value["type"]](**fields)
        return {rooted(key): rooted(item, types) for key, item in value.items()}
    return value


def as_case(kind: type[T], row: dict[str, Any], *types: type) -> T:
    """The dataclass case a data row describes: its fields, `{root}` placed, a field's list as a
    tuple (a table's fields are tuples; lists inside them stay lists), mappings with a `type`
    among `types` as those dataclasses."""
    named = {t.__name__: t for t in types}
    fields = {key: rooted(value, named) for key, value in row.items()}
    return kind(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


def table(kind: type[T], name: str, *types: type) -> list[T]:
    """The cases of tests/data/`name`/, as `kind` dataclasses."""
    return [as_case(kind, row, *types) for row in load(name)]


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case["name"] for case in cases]


def _unwrapped(text: str) -> str:
    return " ".join(text.split())


def _content(value: str | dict[str, Any]) -> str:
    if isinstance(value, str):
        return value
    text: str = (ROOT / value["from"]).read_text(encoding="utf-8")
    for old, new in value.get("replace", []):
        assert old in text, f"{value['from']} no longer holds {old!r}"
        text = text.replace(old, new, 1)
    return text


def _write(tmp_path: Path, files: dict[str, Any]) -> None:
    for name, value in files.items():
        path = tmp_path / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_content(value), encoding="utf-8")


def runs(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: dict[str, Any],
) -> Iterator[tuple[dict[str, Any], int, str, str]]:
    """For each of the case's commands: its expectations, and (exit code, stdout, stderr)."""
    monkeypatch.setenv("COLUMNS", "1000")
    for variable in case.get("unset", []):
        monkeypatch.delenv(variable, raising=False)
    _write(tmp_path, case["files"])
    if "cwd" in case:
        monkeypatch.chdir(tmp_path / case["cwd"])
    for command in case["commands"]:
        expected = command if isinstance(command, dict) else case
        argv = command["argv"] if isinstance(command, dict) else command
        yield (expected, *run(capsys, *(_placed(arg, tmp_path) for arg in argv)))


def _placed(text: str, tmp_path: Path) -> str:
    return text.replace("{tmp}", str(tmp_path)).replace("{root}", str(ROOT))


def _at(data: Any, path: str) -> Any:
    for step in path.split("."):
        data = data[int(step)] if isinstance(data, list) else data[step]
    return data


def _verdicts(out: str) -> dict[str, str]:
    return {
        f"{f['license']}/{f['clause']}": f["verdict"]
        for product in json.loads(out)["products"]
        for f in product["findings"]
    }


def check(expected: dict[str, Any], tmp_path: Path, code: int, out: str, err: str) -> None:
    """What `expected` says of one run."""
    allowed = expected["exit"] if isinstance(expected["exit"], list) else [expected["exit"]]
    assert code in allowed, out + err
    assert "Traceback" not in err
    if "stdout_is" in expected:
        assert out == expected["stdout_is"], err
    for fragment in expected.get("stdout", []):
        assert _placed(fragment, tmp_path) in out, out
    for fragment in expected.get("stderr", []):
        assert _placed(fragment, tmp_path) in err, err
    for fragment in expected.get("stderr_words", []):
        assert _unwrapped(_placed(fragment, tmp_path)) in _unwrapped(err), err
    for fragment, count in expected.get("stderr_counts", {}).items():
        assert err.count(fragment) == count, err
    for path, value in expected.get("json", {}).items():
        assert _at(json.loads(out), path) == value, path
    if "verdicts" in expected:
        found = _verdicts(out)
        assert {key: found.get(key) for key in expected["verdicts"]} == expected["verdicts"]
