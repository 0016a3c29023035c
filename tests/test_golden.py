"""Golden files for the Composer 2 reports: byte-for-byte, rewritten with --update-golden."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.api import evaluate_files, resolve_policy
from licheck.formats.text import render
from licheck.report import to_json
from tests.conftest import GOLDEN, ROOT


def _report(*paths: str) -> object:
    return evaluate_files([Path(p) for p in paths], resolve_policy("default"))


def _check(name: str, text: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest --update-golden"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from the golden file"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # relative paths in reports, as a user types them


def test_composer2_json(update_golden: bool) -> None:
    report = _report("products/composer2.yaml")
    _check("composer2.json", to_json(report), update_golden)  # type: ignore[arg-type]


def test_composer2_text(update_golden: bool) -> None:
    report = _report("products/composer2.yaml")
    _check("composer2.txt", render(report, width=100, color=False), update_golden)  # type: ignore[arg-type]


def test_all_products_json_is_deterministic() -> None:
    paths = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "products").glob("*.yaml"))
    first = to_json(_report(*paths))  # type: ignore[arg-type]
    second = to_json(_report(*paths))  # type: ignore[arg-type]
    assert first == second
