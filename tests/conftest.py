"""Shared fixtures and the --update-golden switch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTS = ROOT / "products"
LICENSES = ROOT / "licenses"
# The project's reference texts and schemas, beside the clone (CI has them; a fresh clone does
# not). Setting HIDE_REFERENCE (any non-empty value) makes the tests behave as on a fresh clone:
# every test that reads the folder skips (`needs_reference`, or its own `is_dir`/`is_file`), and
# .ci/run runs those tests so once.
HIDE_REFERENCE = "LICHECK_TESTS_NO_REFERENCE"
REFERENCE = (
    ROOT / "tests" / f"no-reference ({HIDE_REFERENCE} is set)"
    if os.environ.get(HIDE_REFERENCE)
    else ROOT.parent / "shared" / "reference"
)
REFERENCE_TEXTS = REFERENCE / "licenses"
GOLDEN = Path(__file__).resolve().parent / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite tests/golden/ from the current output.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def needs_reference() -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        not REFERENCE_TEXTS.is_dir(),
        reason=f"../shared/reference/licenses is absent (CI has it), or hidden by {HIDE_REFERENCE}",
    )


@pytest.fixture
def unwrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS=1000, for a test that reads a long message on stderr (or a long line) whole:
    at the default 100 columns it would be wrapped (tests/outputs/test_terminal_fits.py checks that
    it is)."""
    monkeypatch.setenv("COLUMNS", "1000")


@pytest.fixture(autouse=True)
def _no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)  # set when CI runs the tests
    monkeypatch.setenv("COLUMNS", "100")  # whatever the width of the terminal running the tests
