"""Inputs beside the refused ones that are read, and the answer they get (exit code, output,
verdicts): one case per input, kept as data in tests/data/accepted/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.regression.cases import check, ids, load, runs

CASES = load("accepted")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_the_input_is_read(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: dict[str, Any],
) -> None:
    for expected, code, out, err in runs(capsys, monkeypatch, tmp_path, case):
        check(expected, tmp_path, code, out, err)
