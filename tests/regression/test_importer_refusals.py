"""Importers refuse what they cannot read: bad CycloneDX BOMs are located errors (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import run

BOMS = {
    "huge-int": (
        '{"bomFormat": "CycloneDX", "specVersion": "1.6", "x": ' + "9" * 5000 + "}",
        2,
        "invalid JSON",
    ),
    "deep": ("[" * 100_000 + "]" * 100_000, 2, ""),
    "not-bom": ('{"a": 1}', 2, "not a CycloneDX BOM"),
    "empty": ("", 2, ""),
}


@pytest.mark.parametrize("case", BOMS)
def test_bad_boms(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str) -> None:
    text, expected, message = BOMS[case]
    bom = tmp_path / "bom.json"
    bom.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "cyclonedx", str(bom))
    assert (code, out) == (expected, "")
    assert message in err and "internal error" not in err
