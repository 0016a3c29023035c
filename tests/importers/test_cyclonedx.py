"""`licheck import cyclonedx|hf`: skeletons that validate, state only what the source says, and
never name a model (or a license) the source does not identify explicitly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck import schemas
from licheck.files import yamlsafe
from licheck.importers import cyclonedx, hf
from licheck.library.compiled import load_library
from licheck.validation import validate_files
from tests.clirun import run
from tests.conftest import REFERENCE, ROOT
from tests.golden_files import assert_golden

DATA = ROOT / "tests" / "data" / "import"
EXAMPLES = REFERENCE / "schemas" / "examples"
needs_examples = pytest.mark.skipif(
    not EXAMPLES.is_dir(), reason="../shared/reference/schemas/examples is absent"
)


def _valid(text: str, tmp_path: Path) -> Any:
    path = tmp_path / "skeleton.yaml"
    path.write_text(text, encoding="utf-8")
    assert validate_files([path]) == [f"ok: {path} (manifest)"]
    data = yamlsafe.parse(text, "skeleton").data
    assert isinstance(data, dict)
    # editors validate with the published schema: the skeleton passes it too
    from jsonschema import Draft202012Validator

    schema = json.loads(schemas.shipped("manifest"))
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    return data


def _cdx(path: Path) -> str:
    return cyclonedx.to_manifest(cyclonedx.read(path, path.name), load_library())


def _hf(path: Path, model_id: str | None = None) -> str:
    return hf.to_manifest(hf.read(path, path.name), load_library(), path.name, model_id)


@needs_examples
@pytest.mark.parametrize("version", ["1.6", "1.7"])
def test_cyclonedx_project_example(tmp_path: Path, update_golden: bool, version: str) -> None:
    text = _cdx(EXAMPLES / f"cyclonedx-valid-machine-learning-{version}.json")
    data = _valid(text, tmp_path)
    (component,) = data["components"]
    # stable-diffusion is not in the catalog: unknown, never guessed
    assert component["lineage"]["base"]["model"] == "unknown"
    assert "CompVis/stable-diffusion" in component["lineage"]["base"]["note"]
    assert data["facts"]["mau"] == {"value": "unknown", "note": "not in the BOM"}
    assert_golden(f"import-cyclonedx-example-{version}.yaml.golden", text, update_golden)


def test_cyclonedx_lineage_facts_and_no_bare_name_lookup(
    tmp_path: Path, update_golden: bool
) -> None:
    text = _cdx(DATA / "bom-kimi-1.6.json")
    data = _valid(text, tmp_path)
    assert (data["product"], data["owner"]) == ("Composer", "Acme Editors")
    facts = data["facts"]
    assert facts["mau"]["value"] == "120M"
    assert facts["commercial"]["value"] is True
    assert facts["ui_attribution"]["value"] == ["Composer", "Acme"]
    assert facts["monthly_revenue"]["value"] == "unknown"
    composer, helper = data["components"]
    assert composer["lineage"]["base"]["model"] == "kimi-k2.5"  # via the Hugging Face purl
    assert composer["facts"]["distributes_weights"]["value"] is False
    # named exactly like a catalog id, but not identified explicitly: not looked up
    assert helper["name"] == "kimi-k2.5"
    assert helper["lineage"]["base"]["model"] == "unknown"
    assert_golden("import-cyclonedx-kimi.yaml.golden", text, update_golden)


def test_hf_license_other_is_not_trusted(tmp_path: Path, update_golden: bool) -> None:
    text = _hf(DATA / "kimi-finetune-README.md", "acme/acme-coder")
    data = _valid(text, tmp_path)
    (component,) = data["components"]
    assert component["lineage"]["base"]["model"] == "kimi-k2.5"  # base_model is a catalog alias
    assert component["lineage"]["steps"][0]["kind"] == "fine_tuning"
    assert "license_name: modified-mit" in component["note"]
    assert "identifies no license by itself" in component["note"]
    assert_golden("import-hf-kimi.yaml.golden", text, update_golden)


def test_hf_same_license_name_other_licensor_stays_unknown(
    tmp_path: Path, update_golden: bool
) -> None:
    text = _hf(DATA / "minimax-quant-README.md")
    data = _valid(text, tmp_path)
    (component,) = data["components"]
    lineage = component["lineage"]
    # The unknown repository stays unknown; the Hugging Face id names the catalog's MiniMax-M2,
    # whose license follows from the catalog, never from the card's license_name.
    assert lineage["base"]["model"] == "unknown"
    assert [p["model"] for p in lineage["steps"][0]["parents"]] == ["minimax-m2"]
    assert "kimi" not in text.lower()
    assert_golden("import-hf-minimax.yaml.golden", text, update_golden)


def test_hf_without_base_model_uses_model_id(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text("---\nlicense: other\nlicense_name: modified-mit\n---\n# Kimi\n", "utf-8")
    data = _valid(_hf(card, "moonshotai/Kimi-K2.5"), tmp_path)
    assert data["components"][0]["lineage"]["base"]["model"] == "kimi-k2.5"
    data = _valid(_hf(card), tmp_path)
    assert data["components"][0]["lineage"]["base"]["model"] == "unknown"


def test_cli_writes_and_output_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(
        capsys,
        "import",
        "hf",
        str(DATA / "kimi-finetune-README.md"),
        "--model-id",
        "acme/acme-coder",
    )
    assert (code, err) == (0, "")
    target = tmp_path / "m.yaml"
    assert run(capsys, "import", "cyclonedx", str(DATA / "bom-kimi-1.6.json"), "-o", str(target))[
        :2
    ] == (0, "")
    assert run(capsys, "validate", str(target))[0] == 0
    assert out.startswith("# Manifest skeleton imported by `licheck import hf`")


BAD_BOMS = [
    (
        '{"bomFormat": "CycloneDX",\n "specVersion": "1.6",\n "components": [,]}',
        "3:17",
        "invalid JSON",
    ),
    ('{"bomFormat": "SPDX"}', "1:1", "not a CycloneDX BOM"),
    ('{"bomFormat": "CycloneDX", "specVersion": "1.4"}', "1:1", "not supported"),
    (
        '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [{"type": "library", '
        '"name": "x"}]}',
        "",
        "no component of type machine-learning-model",
    ),
    (
        '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": {"a": 1}}',
        "",
        "$.components: expected a list",
    ),
    (
        '{"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [{"type": '
        '"machine-learning-model", "name": "m", "properties": [{"name": "licheck:fact:mau", '
        '"value": "lots"}]}]}',
        "",
        "licheck:fact:mau",
    ),
]


@pytest.mark.parametrize(("text", "where", "message"), BAD_BOMS)
def test_bad_boms_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, message: str
) -> None:
    path = tmp_path / "bom.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "cyclonedx", str(path))
    assert (code, out) == (2, "")
    assert message in err
    assert f"bom.json:{where}" in err
    assert "Traceback" not in err


BAD_CARDS = [
    ("# no front matter\n", "1:1", "no YAML front matter"),
    ("---\nlicense: mit\nbase_model: {a: 1}\n---\n", "3:1", "base_model should be"),
    (
        "---\nlicense: mit\nbase_model: x/y\nbase_model_relation: cousin\n---\n",
        "4:22",
        "base_model_relation 'cousin'",
    ),
    ("\n---\nlicense: mit\nlicense: apache-2.0\n---\n", "4:1", "duplicate key 'license'"),
]


@pytest.mark.parametrize(("text", "where", "message"), BAD_CARDS)
def test_bad_cards_exit_2_located_in_the_readme(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, where: str, message: str
) -> None:
    path = tmp_path / "README.md"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "hf", str(path))
    assert (code, out) == (2, "")
    assert message in err
    assert f"README.md:{where}" in err


def test_hf_card_of_a_catalog_model_uses_the_catalog(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text(
        "---\nlicense: other\nlicense_name: modified-mit\n"
        "base_model: moonshotai/Kimi-K2-Base\n---\n",
        "utf-8",
    )
    data = _valid(_hf(card, "moonshotai/Kimi-K2.5"), tmp_path)
    (component,) = data["components"]
    assert component["lineage"] == {"base": component["lineage"]["base"]}
    assert component["lineage"]["base"]["model"] == "kimi-k2.5"
    assert "moonshotai/Kimi-K2-Base" in component["note"]
