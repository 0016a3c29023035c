"""`licheck audit-cards`' summary (outputs/cards.py) in each format: a table where a format
draws tables, a top-level `cards` object in JSON, SARIF's run.properties, a JUnit suite's
properties; none, by choice, in codequality, compact and github (each lists the card not read as
it lists every unread input); and never in `check`'s own reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from licheck.cli.request import FORMAT_CHOICES
from tests.clirun import run
from tests.conftest import ROOT

CARDS = ROOT / "tests" / "data" / "import" / "cards"
NAMES = ("hermes-3-llama-3.1-8b", "llama-3.1-apache")
BROKEN = "hub/org/broken/README.md"


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in NAMES:
        (tmp_path / "hub" / "org" / name).mkdir(parents=True)
        shutil.copy(CARDS / f"{name}.md", tmp_path / "hub" / "org" / name / "README.md")
    (tmp_path / "hub" / "org" / "broken").mkdir()
    (tmp_path / BROKEN).write_text("no front matter\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "hub"


def _audit(capsys: pytest.CaptureFixture[str], fmt: str) -> str:
    code, out, _ = run(capsys, "audit-cards", "hub", "--manifests", "m", "-f", fmt)
    assert code == 2  # the card not read
    return out


def test_json_carries_the_summary_and_lists_the_card_not_read(
    capsys: pytest.CaptureFixture[str], hub: Path
) -> None:
    data = json.loads(_audit(capsys, "json"))
    cards = data["cards"]
    assert (cards["cards"], cards["judged"]) == (3, 2)
    assert [e["file"] for e in cards["not_read"]] == [BROKEN]
    assert BROKEN in {e["file"] for e in data["errors"]}
    verdicts = {p["verdict"] for p in data["products"]}
    assert {row["name"] for row in cards["by_verdict"]} == verdicts
    assert sum(row["cards"] for row in cards["by_verdict"]) == 2
    licenses = {f["license"] for p in data["products"] for f in p["findings"]}
    assert {row["name"] for row in cards["by_base_family"]} == licenses
    top = cards["most_common_findings"]
    assert top and all(1 <= row["cards"] <= 2 for row in top)
    assert [row["cards"] for row in top] == sorted((row["cards"] for row in top), reverse=True)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_formats_that_draw_tables_draw_it(
    capsys: pytest.CaptureFixture[str], hub: Path, fmt: str
) -> None:
    out = _audit(capsys, fmt)
    assert "Cards audited" in out and "by base family" in out and "llama-3.1-community" in out
    assert BROKEN in out


def test_sarif_and_junit_carry_it_as_properties(
    capsys: pytest.CaptureFixture[str], hub: Path
) -> None:
    (run_,) = json.loads(_audit(capsys, "sarif"))["runs"]
    assert run_["properties"]["cards"]["judged"] == 2
    junit = _audit(capsys, "junit")
    assert '<testsuite name="cards audited"' in junit
    assert '<property name="cards.not read" value="1"' in junit
    assert BROKEN in junit


@pytest.mark.parametrize("fmt", ["codequality", "compact", "github"])
def test_line_formats_show_no_table_but_the_card_not_read(
    capsys: pytest.CaptureFixture[str], hub: Path, fmt: str
) -> None:
    out = _audit(capsys, fmt)
    assert "Cards audited" not in out and "by base family" not in out
    assert BROKEN in out


@pytest.mark.parametrize("fmt", FORMAT_CHOICES)
def test_check_reports_have_no_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(ROOT)
    _, out, _ = run(capsys, "check", "products/composer2.yaml", "-f", fmt)
    assert "Cards audited" not in out and '"cards"' not in out and "cards audited" not in out
