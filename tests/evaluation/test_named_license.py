"""A base the catalog does not list, under a license named in the manifest (issue 24,
deliverable 3): `license: acme-open-license-v1` is a "license unknown" governance risk that names
it; a license the library has is judged; a key misspelt beside `model:` is located at its own
line and column, with no suggestion of a key that does not belong there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck.vocabulary.factdefs import suggest_id
from tests.clirun import run

MANIFEST = """format: 2
product: Acme app
owner: Acme
components:
  - id: acme
    name: Acme model
    delivery: [api]
    lineage:
      base:
        model: {model}
        {key}: {license}
"""


def _write(tmp_path: Path, license_id: str, key: str = "license", model: str = "acme-7b") -> Path:
    path = tmp_path / "acme.yaml"
    text = MANIFEST.format(model=model, key=key, license=license_id)
    path.write_text(text, encoding="utf-8")
    return path


def _findings(capsys: pytest.CaptureFixture[str], path: Path) -> list[dict[str, Any]]:
    code, out, err = run(capsys, "evaluate", str(path), "--format", "json")
    assert code in (0, 1), err
    (product,) = json.loads(out)["products"]
    found: list[dict[str, Any]] = product["findings"]
    return found


def test_an_unknown_license_named_is_a_risk_that_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (finding,) = _findings(capsys, _write(tmp_path, "acme-open-license-v1"))
    assert finding["clause"] == "license-unknown"
    assert finding["verdict"] == "governance_risk"
    assert "'acme-open-license-v1'" in finding["explanation"]
    assert finding["model"] == "acme-7b"


def test_a_license_the_library_has_is_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = _findings(capsys, _write(tmp_path, "apache-2.0"))
    assert {f["license"] for f in found} == {"apache-2.0"}
    assert "attribution-notices" in {f["clause"] for f in found}


def test_without_a_license_an_unlisted_model_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "a note", key="note")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2 and "unknown model 'acme-7b'" in err
    assert "(`license: ID`)" in err  # the hint says how to name an unlisted model


def test_a_catalog_models_license_is_the_catalogs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "apache-2.0", model="kimi-k2.5")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert f"{path}:11:18: error: Kimi K2.5 is in the catalog under kimi-k2.5-modified-mit" in err
    same = _write(tmp_path, "kimi-k2.5-modified-mit", model="kimi-k2.5")
    assert run(capsys, "validate", str(same))[0] == 0


def test_a_misspelt_key_is_located_at_itself_and_suggests_only_keys_of_its_mapping(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "acme-open-license-v1", key="licnse")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2
    assert f"{path}:11:9: error: unknown key 'licnse' (did you mean 'license'?)" in err
    path = _write(tmp_path, "acme-open-license-v1", key="lisence_of")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and f"{path}:11:9:" in err
    assert "by_license" not in err  # a fact's key, not a lineage entry's


def test_an_error_under_a_lineage_entry_is_located_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "[{source: x, kind: bogus, date: 2026-01-01}]", key="evidence")
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and f"{path}:11:" in err  # not the `model:` line above it


def test_a_layers_catalog_naming_an_unknown_license_gets_no_bogus_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "catalog.yaml").write_text(
        "models:\n  - id: acme-7b\n    name: Acme 7B\n    license: acme-open-license-v1\n"
        "    source: the model card\n",
        encoding="utf-8",
    )
    code, _, err = run(
        capsys, "validate", str(_write(tmp_path, "x", key="note")), "--licenses", str(layer)
    )
    assert code == 2
    assert "names license 'acme-open-license-v1', which is not in the library" in err
    assert "did you mean" not in err
    assert "license_note" in err  # how to state a license licheck has no text of


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("acme-open-license-v1", ""),
        ("mit-license", ""),
        ("llama-3.1-comunity", " (did you mean 'llama-3.1-community'?)"),
        ("lama-3.1-community", " (did you mean 'llama-3.1-community'?)"),
        ("deepseek-licence-v1.0", " (did you mean 'deepseek-license-v1.0'?)"),
    ],
)
def test_license_ids_are_suggested_only_for_the_same_vendor(name: str, expected: str) -> None:
    ids = ["llama-3.1-community", "deepseek-license-v1.0", "yi-community-license-v2.1", "mit"]
    assert suggest_id(name, ids) == expected
