"""Waivers: applied, expired, pinned facts changed, unmatched, not needed; shown in every format;
bad waiver files are located errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from licheck.cli.common import DEFAULT_WAIVERS
from licheck.cli.request import FORMAT_CHOICES
from licheck.report.waivers import DEFAULT_FILE
from tests.clirun import run
from tests.conftest import ROOT

WAIVERS = ROOT / "tests" / "data" / "waivers" / "composer2.yaml"
COMPOSER = "products/composer2.yaml"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def gate(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    """`check` with the detailed text (-v), which shows each finding's waiver."""
    return run(capsys, "check", COMPOSER, "--fail-on", "risk", "-v", *extra)


def waiver_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "waivers.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


BASE = """\
waivers:
  - id: w1
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: legal_opinion
    comment: Counsel reviewed the partnership.
    owner: legal@example.com
    expires: {expires}
{extra}"""


def test_waiver_makes_the_risk_gate_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = gate(capsys, "--waivers", str(WAIVERS), "--today", "2026-04-01")
    assert code == 0
    assert "GOVERNANCE RISK (waived)" in out
    assert "waived by composer2-kimi-attribution until 2026-06-30" in out
    assert "Gate (--fail-on risk): passes" in out


def test_expired_waiver_fails_again_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = gate(capsys, "--waivers", str(WAIVERS), "--today", "2026-07-01")
    assert code == 1
    assert "waiver composer2-kimi-attribution expired on 2026-06-30" in out
    assert "(waived)" not in out


def test_last_day_still_applies(capsys: pytest.CaptureFixture[str]) -> None:
    assert gate(capsys, "--waivers", str(WAIVERS), "--today", "2026-06-30")[0] == 0


def test_changed_pin_stops_the_waiver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = waiver_file(
        tmp_path,
        BASE.format(
            expires="2026-12-31",
            extra="""\
    pins:
      mau: 150M
      monthly_revenue: 2B USD ARR
""",
        ),
    )
    code, out, _ = gate(capsys, "--waivers", path, "--today", "2026-04-01")
    assert code == 1
    assert "mau was 150M, is now unknown" in out
    assert "monthly_revenue" not in out.split("granted on changed")[1].split(")")[0]


def test_pins_that_hold_keep_the_waiver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = waiver_file(
        tmp_path,
        BASE.format(
            expires="2026-12-31",
            extra="""\
    pins:
      monthly_revenue: 2000M USD ARR   # written differently, same value
      mau: unknown
      ui_attribution: {excludes: [Kimi K2.5]}
""",
        ),
    )
    assert gate(capsys, "--waivers", path, "--today", "2026-04-01")[0] == 0


def test_pin_on_a_fact_the_finding_does_not_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = waiver_file(
        tmp_path,
        BASE.format(
            expires="2026-12-31",
            extra="""\
    pins:
      territories: [US]
""",
        ),
    )
    code, out, _ = gate(capsys, "--waivers", path, "--today", "2026-04-01")
    assert code == 1
    # (the waiver's line is wrapped to the width: compare the words)
    assert "territories is pinned but this finding does not use it" in " ".join(out.split())


def test_unmatched_and_unneeded_waivers_are_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (
        BASE.format(expires="2026-12-31", extra="")
        + """\
  - id: typo
    product: Composer 3
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: risk_accepted
    comment: x
    owner: y
    expires: 2026-12-31
  - id: stale
    product: products/composer2.yaml
    license: kimi-k2.5-modified-mit
    clause: copyright-notice
    reason: risk_accepted
    comment: x
    owner: y
    expires: 2026-12-31
"""
    )
    code, out, _ = run(
        capsys,
        "check",
        COMPOSER,
        "--fail-on",
        "risk",
        "-f",
        "json",
        "--waivers",
        waiver_file(tmp_path, text),
        "--today",
        "2026-04-01",
    )
    assert code == 0
    statuses = {w["id"]: w["status"] for w in json.loads(out)["waivers"]}
    assert statuses == {"w1": "applied", "typo": "unmatched", "stale": "not_needed"}


def test_default_waiver_file_is_read_from_the_current_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DEFAULT_FILE == DEFAULT_WAIVERS
    (tmp_path / DEFAULT_FILE).write_text(WAIVERS.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = str(ROOT / COMPOSER)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check", manifest, "--fail-on", "risk", "--today", "2026-04-01")[0] == 0
    assert run(capsys, "check", manifest, "--fail-on", "risk", "--no-waivers")[0] == 1


@pytest.mark.parametrize("fmt", FORMAT_CHOICES)
def test_waived_findings_show_as_waived_in_every_format(
    capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    code, out, _ = gate(capsys, "--waivers", str(WAIVERS), "--today", "2026-04-01", "-f", fmt)
    assert code == 0
    if fmt == "json":
        findings = [f for p in json.loads(out)["products"] for f in p["findings"]]
        assert [f["clause"] for f in findings if f["waived"]] == ["ui-attribution"]
    elif fmt == "sarif":
        # a result with its suppression: code scanning shows it dismissed, not fixed
        (sarif_run,) = json.loads(out)["runs"]
        (result,) = sarif_run["results"]
        assert [s["status"] for s in result["suppressions"]] == ["accepted"]
        assert sarif_run["properties"]["waivedResults"] == 1
    elif fmt == "junit":
        skipped = ET.fromstring(out).findall(".//testcase/skipped")
        assert len(skipped) == 1 and "waived by" in skipped[0].get("message", "")
        assert not ET.fromstring(out).findall(".//failure")
    elif fmt == "github":
        assert out.startswith("::notice file=products/composer2.yaml,line=79,")
        assert "(waived)" in out
    else:
        assert "waived" in out


BAD = [
    ("reason: because", "expected one of license_acquired", 9),
    ("expires: someday", "expected a date", 9),
    ("pins: {usres: 5}", "cannot pin 'usres'", 10),
    ("pins: {mau: lots}", "pin mau", 10),
    ("colour: red", "unknown key 'colour'", 10),
]


@pytest.mark.parametrize(("line", "message", "at"), BAD)
def test_bad_waiver_files_are_located_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, message: str, at: int
) -> None:
    text = BASE.format(expires="2026-12-31", extra="")
    key = line.split(":")[0]
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith(key + ":")]
    lines.append(f"    {line}")
    path = waiver_file(tmp_path, "\n".join(lines) + "\n")
    code, out, err = gate(capsys, "--waivers", path)
    assert code == 2
    assert out == ""
    assert message in err
    assert f"waivers.yaml:{at}:" in err
    assert "Traceback" not in err


def test_duplicate_waiver_ids_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = BASE.format(expires="2026-12-31", extra="")
    text = one + one.split("waivers:\n")[1]
    code, _, err = gate(capsys, "--waivers", waiver_file(tmp_path, text))
    assert code == 2
    assert "waiver id 'w1' appears twice" in err


def test_missing_waiver_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = gate(capsys, "--waivers", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "no such file" in err


def test_an_applying_waiver_wins_over_an_expired_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    old = BASE.format(expires="2026-01-31", extra="")
    renewed = (
        BASE.format(expires="2026-12-31", extra="")
        .split("waivers:\n")[1]
        .replace("id: w1", "id: w2")
    )
    path = waiver_file(tmp_path, old + renewed)
    code, out, _ = run(
        capsys,
        "check",
        COMPOSER,
        "--fail-on",
        "risk",
        "-f",
        "json",
        "--waivers",
        path,
        "--today",
        "2026-04-01",
    )
    assert code == 0
    report = json.loads(out)
    assert {w["id"]: w["status"] for w in report["waivers"]} == {"w1": "expired", "w2": "applied"}
    (waived,) = [f for f in report["products"][0]["findings"] if f["waived"]]
    assert waived["waiver"]["id"] == "w2"


def test_validate_recognises_waiver_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = sorted((ROOT / "tests" / "data" / "waivers").glob("*.yaml"))[0]
    code, out, err = run(capsys, "validate", str(good))
    assert code == 0, err
    assert "(waivers)" in out
    bad = tmp_path / "waivers.yaml"
    bad.write_text(
        good.read_text(encoding="utf-8").replace("reason:", "reasn:", 1), encoding="utf-8"
    )
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2 and "did you mean 'reason'" in err
