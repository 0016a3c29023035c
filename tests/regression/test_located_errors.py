"""Inputs that were once read wrongly (a traceback, or false comfort) and are now located errors
(FILE:LINE:COL, exit 2): one case per input, kept as data in tests/data/located_errors/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.regression.cases import check, ids, load, runs

CASES = load("located_errors")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_the_input_is_a_located_error(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: dict[str, Any],
) -> None:
    first = case["commands"][0]
    assert (first if isinstance(first, dict) else case)["exit"] == 2, "the input is refused first"
    for expected, code, out, err in runs(capsys, monkeypatch, tmp_path, case):
        check(expected, tmp_path, code, out, err)
