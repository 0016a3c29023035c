"""The manifest format version: `format: 2`, or absent (the same), is read; any other value is
refused at its line and column (exit 2), naming the docs section on what changed, since a
format-1 manifest read as format 2 could silently mean something else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from licheck.inputs.manifest import FORMAT_DOC, FORMAT_SECTION, Manifest
from tests.clirun import run
from tests.conftest import ROOT

BODY = """\
product: Tiny
owner: Acme
components:
  - id: tiny
    name: Tiny
    lineage: {base: glm-4.6}
"""


def _write(tmp_path: Path, head: str, tail: str = "") -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(head + BODY + tail, encoding="utf-8")
    return path


def test_absent_format_is_format_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    component = {"id": "c", "name": "C", "lineage": {"base": "glm-4.6"}}
    data = {"product": "p", "owner": "o", "components": [component]}
    assert Manifest.model_validate(data).format == 2
    assert Manifest.model_validate({**data, "format": 2}).format == 2
    absent = run(capsys, "evaluate", str(_write(tmp_path, "")), "--format", "json")
    # at the end, so that every other line keeps its number in the report
    stated = run(capsys, "evaluate", str(_write(tmp_path, "", "format: 2\n")), "--format", "json")
    assert absent[0] == stated[0] == 0, absent[2] + stated[2]
    assert json.loads(absent[1]) == json.loads(stated[1])


@pytest.mark.parametrize(
    ("head", "shown"),
    [
        ("format: 1\n", "got format 1 at format"),
        ("format: 3\n", "got format 3 at format"),
        ('format: "2"\n', "got format '2' at format"),
        ("format: 2.0\n", "got format 2.0 at format"),
        ("format: true\n", "got format true at format"),
        ("format: null\n", "got format none at format"),
    ],
)
@pytest.mark.parametrize("command", ["evaluate", "check", "validate"])
def test_another_format_is_refused_where_it_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], head: str, shown: str, command: str
) -> None:
    path = _write(tmp_path, "# a comment first\n" + head)
    code, out, err = run(capsys, command, str(path))
    assert code == 2, out + err
    first = err.splitlines()[0]
    assert first.startswith(f"{path}:2:9: error: expected manifest format 2"), err
    assert shown in first and "changed meaning" in first, err
    assert f'hint: the section "{FORMAT_SECTION}" of {FORMAT_DOC}' in err
    assert (ROOT / FORMAT_DOC).read_text(encoding="utf-8").count(f"## {FORMAT_SECTION}\n") == 1
    assert "Traceback" not in err


def test_the_examples_state_format_2() -> None:
    for path in sorted((ROOT / "products").glob("*.yaml")):
        assert "\nformat: 2 " in path.read_text(encoding="utf-8"), path.name


def test_the_schema_says_format_2() -> None:
    schema = json.loads(
        (ROOT / "src" / "licheck" / "schemas" / "manifest.schema.json").read_text(encoding="utf-8")
    )
    assert "format 2" in schema["title"] and "format 2" in schema["description"]
    assert schema["properties"]["format"]["const"] == 2
    assert "format" not in schema.get("required", [])
