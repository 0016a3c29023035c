"""Golden files for every output format, on the shipped Composer 2 manifest: plain, with an
applying waiver (and an unmatched one), and with the waiver expired."""

from __future__ import annotations

import pytest

from licheck.cli.gating import FORMAT_CHOICES
from tests.clirun import run
from tests.conftest import ROOT
from tests.golden_files import assert_golden

WAIVERS = "tests/data/waivers/composer2.yaml"
CASES = {
    "composer2": ("--no-waivers",),
    "composer2-waived": ("--waivers", WAIVERS, "--today", "2026-04-01"),
    "composer2-expired": ("--waivers", WAIVERS, "--today", "2026-07-01"),
}
EXPECTED_EXIT = {"composer2": 1, "composer2-waived": 0, "composer2-expired": 1}


@pytest.mark.parametrize("fmt", FORMAT_CHOICES)
@pytest.mark.parametrize("case", CASES)
def test_golden(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                update_golden: bool, case: str, fmt: str) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "check", "products/composer2.yaml", "--fail-on", "risk",
                         "-f", fmt, *CASES[case])
    assert (code, err) == (EXPECTED_EXIT[case], "")
    assert_golden(f"{case}.{fmt}", out, update_golden)
