"""A date is in the future only once its whole period is: a month or a year that has begun is
not (today's date decides, so this case stays code rather than data)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.clirun import run

SERIES = """\
product: Demo
owner: Acme
components:
  - id: demo
    name: Demo
    lineage: {base: llama-3.1-8b}
    facts:
      COMPONENT
facts:
  PRODUCT
"""


def test_a_month_or_year_that_has_begun_is_not_in_the_future(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `2026` was read as its last day (2026-12-31) and refused as a future date all year long
    today = dt.date.today()
    year, month = f"{today.year:04d}", f"{today.year:04d}-{today.month:02d}"
    product = (
        f"commercial: {{value: true, evidence: [{{source: Doc, kind: observed, date: {month}}}]}}"
    )
    component = (
        f"derivative: {{value: true, evidence: [{{source: Doc, kind: observed, date: {year}}}]}}"
    )
    text = (
        SERIES.replace("PRODUCT", product)
        .replace("COMPONENT", component)
        .replace(
            "lineage: {base: llama-3.1-8b}",
            f"lineage: {{base: {{model: mistral-7b, obtained: {year}}}}}",
        )
    )
    path = tmp_path / "m.yaml"
    path.write_text(text, "utf-8")
    code, _out, err = run(capsys, "validate", str(path))
    assert code == 0, err
    future = str(today.year + 1)
    path.write_text(text.replace(f"obtained: {year}", f"obtained: {future}"), "utf-8")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2, out + err
    assert "Traceback" not in err
    assert "in the future" in err
