"""The published waivers schema: shipped, in step with the model, and it accepts the example of
docs/waivers.md (which the loader accepts too)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from licheck import schemas
from licheck.report.waivers import load
from tests.clirun import run
from tests.conftest import ROOT


@pytest.mark.parametrize("name", ["waivers", "report"])
def test_shipped_schema_matches_the_model(name: str) -> None:
    assert name in schemas.NAMES
    assert schemas.shipped(name) == schemas.dumps(schemas.generate(name)), (
        "run python -m licheck.schemas"
    )


def test_schema_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "waivers")
    assert code == 0
    assert json.loads(out)["$id"] == "urn:licheck:schema:waivers"


def test_docs_example_is_valid(tmp_path: Path) -> None:
    from jsonschema import Draft202012Validator

    readme = (ROOT / "docs" / "waivers.md").read_text(encoding="utf-8")
    match = re.search(r"```yaml\n(waivers:\n.*?)```", readme, re.S)
    assert match is not None
    path = tmp_path / "w.yaml"
    path.write_text(match.group(1), encoding="utf-8")
    loaded = load(path)
    assert [e.waiver.id for e in loaded.entries] == ["composer2-kimi-attribution"]
    assert loaded.entries[0].pins == {
        "derivative": "unknown",
        "ui_attribution": "excludes 'Kimi K2.5'",
    }
    from licheck.files import yamlsafe

    data = yamlsafe.parse(match.group(1), "docs/waivers.md").data
    validator = Draft202012Validator(json.loads(schemas.shipped("waivers")))
    assert list(validator.iter_errors(json.loads(json.dumps(data, default=str)))) == []
