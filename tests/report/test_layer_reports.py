"""A layer that replaces a built-in entry changes verdicts, so every report format a gate or a
reviewer reads says so: not only text, JSON, markdown and HTML, but SARIF (run properties and a
configuration notification), JUnit (a skipped testcase per replacement), GitHub (a warning
annotation) and compact (the library lines beside the gate)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from tests.clirun import run
from tests.library.test_layers import KIMI, _catalog_layer, _kimi_layer, _product
from tests.outputs.test_ci_platforms import SARIF_SCHEMA, _xunit_problems


def _replacing_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> tuple[Path, str]:
    layer = _kimi_layer(tmp_path)
    product = _product(tmp_path, "kimi-k2.5")
    code, out, err = run(capsys, "check", str(product), "--licenses", str(layer), "-f", fmt)
    assert code == 0, err  # the weaker license lets the gate pass: all the more reason to say so
    return layer, out


def test_sarif_names_the_replacement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layer, out = _replacing_run(tmp_path, capsys, "sarif")
    run_ = json.loads(out)["runs"][0]
    replaced = run_["properties"]["library"]["replaced"]
    assert [(r["kind"], r["id"], r["file"]) for r in replaced] == [
        ("license", "kimi-k2.5-modified-mit", str(layer / KIMI))
    ]
    if SARIF_SCHEMA.is_file():  # ../shared/reference: absent outside the project's machines
        jsonschema.validate(json.loads(out), json.loads(SARIF_SCHEMA.read_text("utf-8")))
    notes = run_["invocations"][0]["toolConfigurationNotifications"]
    texts = [n["message"]["text"] for n in notes if n["descriptor"]["id"] == "library-replaced"]
    assert texts == [
        f"{layer / KIMI} replaces license kimi-k2.5-modified-mit (from built-in {KIMI})"
    ]


def test_junit_names_the_replacement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layer, out = _replacing_run(tmp_path, capsys, "junit")
    root = ET.fromstring(out)
    suites = [s for s in root.iter("testsuite") if s.get("name") == "rule library"]
    assert len(suites) == 1
    skipped = [s.get("message") for s in suites[0].iter("skipped")]
    assert skipped == [
        f"{layer / KIMI} replaces license kimi-k2.5-modified-mit (from built-in {KIMI})"
    ]
    tests = sum(int(s.get("tests", "0")) for s in root.iter("testsuite"))
    assert root.get("tests") == str(tests)  # the totals count the library's testcase
    assert _xunit_problems(root) == []  # Jenkins' xUnit schema


def test_github_warns_of_the_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer, out = _replacing_run(tmp_path, capsys, "github")
    warnings = [line for line in out.splitlines() if line.startswith("::warning ")]
    assert any(
        f"file={layer / KIMI}" in w and "replaces license kimi-k2.5-modified-mit" in w
        for w in warnings
    ), out
    assert f"licheck: Rule library: built-in + {layer}" in out


def test_compact_names_the_replacement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layer, out = _replacing_run(tmp_path, capsys, "compact")
    assert f"Rule library: built-in + {layer}" in out
    assert f"{layer / KIMI} replaces license kimi-k2.5-modified-mit (from built-in {KIMI})" in out


RELICENSED_KIMI = """\
models:
  - id: kimi-k2.5
    name: Kimi K2.5
    aliases: [moonshotai/Kimi-K2.5, kimi-k2p5]
    family: kimi
    licensor: moonshot
    license: mit
    source: "our reading"
"""


def test_a_model_moved_to_a_weaker_license_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A catalog entry that puts a built-in model under MIT drops Kimi's attribution clause:
    the report names the change of license, not only that the entry was replaced."""
    layer = _catalog_layer(tmp_path, RELICENSED_KIMI)
    product = _product(tmp_path, "kimi-k2.5")
    code, out, err = run(capsys, "check", str(product), "--licenses", str(layer), "-f", "json")
    assert code == 0, err
    assert json.loads(out)["library"]["replaced"] == [
        {
            "kind": "model",
            "id": "kimi-k2.5",
            "file": str(layer / "catalog.yaml"),
            "replaced": "built-in catalog.yaml",
            "license_before": "kimi-k2.5-modified-mit",
            "license_after": "mit",
        }
    ]
    code, out, err = run(capsys, "check", str(product), "--licenses", str(layer), "-f", "compact")
    assert code == 0, err
    assert (
        f"{layer / 'catalog.yaml'} replaces model kimi-k2.5 (from built-in catalog.yaml): its "
        "license was kimi-k2.5-modified-mit, now mit"
    ) in out


def test_licenses_show_says_the_entry_is_a_layers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Auditing a license with `licenses show` over layers: the replaced license, or the
    replaced model, is named as the layer's on stderr (the output stays the entry itself)."""
    layer = _kimi_layer(tmp_path)
    for name in ("kimi-k2.5-modified-mit", "moonshotai/Kimi-K2.5"):
        code, _, err = run(capsys, "licenses", "show", name, "--licenses", str(layer))
        assert code == 0, err
        assert (
            f"licheck: note: license kimi-k2.5-modified-mit comes from {layer / KIMI}, which "
            f"replaces built-in {KIMI}"
        ) in err, name
    catalog = _catalog_layer(tmp_path, RELICENSED_KIMI)
    code, _, err = run(capsys, "licenses", "show", "kimi-k2.5", "--licenses", str(catalog))
    assert code == 0, err
    assert f"note: model kimi-k2.5 comes from {catalog / 'catalog.yaml'}" in err
    code, _, err = run(capsys, "licenses", "show", "kimi-k2.5")
    assert code == 0 and "note:" not in err
