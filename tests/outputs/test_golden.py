"""Golden files for every output format, on the shipped Composer 2 manifest: plain, with an
applying waiver (and an unmatched one), and with the waiver expired."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from licheck.cli.request import FORMAT_CHOICES
from tests.clirun import run
from tests.conftest import REFERENCE, ROOT
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
def test_golden(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    update_golden: bool,
    case: str,
    fmt: str,
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(
        capsys,
        "check",
        "products/composer2.yaml",
        "--fail-on",
        "risk",
        "-f",
        fmt,
        *CASES[case],
        *DETAILED.get(fmt, ()),
    )
    assert (code, err) == (EXPECTED_EXIT[case], "")
    assert_golden(f"{case}.{fmt}", out, update_golden)
    if fmt == "json":  # the deprecated shape, byte for byte as licheck wrote it before 2.0
        args = ("--fail-on", "risk", "-f", fmt, "--json-schema", "1.0", *CASES[case])
        code, out, err = run(capsys, "check", "products/composer2.yaml", *args)
        assert (code, err) == (EXPECTED_EXIT[case], "")
        assert_golden(f"{case}.v1.json", out, update_golden)


# The text goldens hold the detailed report (`-v`, what `check` printed by default before it
# printed a line a finding); the brief one has goldens of its own (`.brief`).
DETAILED = {"text": ("-v",)}


@pytest.mark.parametrize("case", CASES)
def test_golden_brief(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    update_golden: bool,
    case: str,
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(
        capsys, "check", "products/composer2.yaml", "--fail-on", "risk", *CASES[case]
    )
    assert (code, err) == (EXPECTED_EXIT[case], "")
    assert_golden(f"{case}.brief", out, update_golden)


ACME = """\
# A product with a violation (distributed weights without the MIT notice) and an undisclosed
# base, checked next to Composer 2.
product: Acme Local
owner: Acme
components:
  - id: local
    name: Acme Local Model
    delivery: [weights]
    lineage:
      base: zai-org/GLM-4.6
      steps: [quantization]
    facts:
      notice_included: false
  - id: mystery
    name: Mystery
    lineage:
      base: unknown
"""


@pytest.mark.parametrize("fmt", FORMAT_CHOICES)
def test_golden_portfolio(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    update_golden: bool,
    fmt: str,
) -> None:
    (tmp_path / "portfolio").mkdir()
    # format: 2 last, so that the golden locations of the lines above stay as they were
    (tmp_path / "portfolio" / "acme.yaml").write_text(ACME + "format: 2\n", encoding="utf-8")
    shutil.copy(ROOT / "products" / "composer2.yaml", tmp_path / "portfolio")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "portfolio", "-f", fmt, *DETAILED.get(fmt, ()))
    assert (code, err) == (1, "")
    assert_golden(f"portfolio.{fmt}", out, update_golden)
    if fmt == "json":
        code, out, err = run(capsys, "check", "portfolio", "-f", fmt, "--json-schema", "1.0")
        assert (code, err) == (1, "")
        assert_golden("portfolio.v1.json", out, update_golden)
    if fmt == "text":
        code, out, err = run(capsys, "check", "portfolio")
        assert (code, err) == (1, "")
        assert_golden("portfolio.brief", out, update_golden)
    schema = REFERENCE / "schemas" / "sarif-schema-2.1.0.json"
    if fmt == "sarif" and schema.is_file():
        from jsonschema import Draft4Validator

        validator = Draft4Validator(json.loads(schema.read_text("utf-8")))
        assert list(validator.iter_errors(json.loads(out))) == []


# `licheck audit-cards`: three real cards and one that cannot be read, laid out as the Hub's
# ORG/NAME folders; the summary table (cards by base family, by verdict, the most common
# findings, the card not read) in every format, the manifests kept at a relative path so that
# the report names them the same on every machine.
AUDITED = ("hermes-3-llama-3.1-8b", "llama-3.1-apache", "gemma-2-9b-it-simpo")


def _audit(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> tuple[int, str]:
    for name in AUDITED:
        (tmp_path / "hub" / "org" / name).mkdir(parents=True)
        shutil.copy(CARDS / f"{name}.md", tmp_path / "hub" / "org" / name / "README.md")
    (tmp_path / "hub" / "org" / "broken").mkdir()
    (tmp_path / "hub" / "org" / "broken" / "README.md").write_text("# no front matter\n")
    code, out, err = run(capsys, "audit-cards", "hub", "--manifests", "manifests", *args)
    assert "hub/org/broken/README.md:1:1: error: card not read" in " ".join(err.split())
    return code, out


CARDS = ROOT / "tests" / "data" / "import" / "cards"


@pytest.mark.parametrize("fmt", FORMAT_CHOICES)
def test_golden_audit_cards(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    update_golden: bool,
    fmt: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _audit(capsys, tmp_path, "-f", fmt, *DETAILED.get(fmt, ()))
    assert code == 2  # a card not read: never passes, never stops the others
    assert_golden(f"audit-cards.{fmt}", out, update_golden)
    if fmt == "json":
        shutil.rmtree(tmp_path / "hub")
        shutil.rmtree(tmp_path / "manifests", ignore_errors=True)
        code, out = _audit(capsys, tmp_path, "-f", fmt, "--json-schema", "1.0")
        assert code == 2
        assert_golden("audit-cards.v1.json", out, update_golden)
    if fmt == "text":
        code, out = _audit_again(capsys, tmp_path)
        assert code == 2
        assert_golden("audit-cards.brief", out, update_golden)


def _audit_again(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[int, str]:
    code, out, _ = run(capsys, "audit-cards", "hub", "--manifests", "manifests")
    return code, out
