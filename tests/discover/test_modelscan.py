"""`licheck discover`: the models a small code base names, and which no manifest declares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck.discover.modelscan import MAX_SCAN_BYTES, hub_index
from licheck.library.compiled import load_library
from tests.clirun import run

APP = """from transformers import AutoModelForCausalLM
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B-Instruct")
helper = AutoModelForCausalLM.from_pretrained("acme/secret-model")
weights = "checkpoints/run1.bin"
# see https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/README.md
"""
MANIFEST = """format: 2
product: Helper
owner: Example Corp
components:
  - id: helper
    name: Helper
    delivery: [hosted_service]
    lineage:
      base: {model: llama-3.1-8b}
"""
BOM = {
    "bomFormat": "CycloneDX",
    "specVersion": "1.6",
    "components": [
        {
            "type": "machine-learning-model",
            "name": "Qwen2.5-7B",
            "group": "Qwen",
            "purl": "pkg:huggingface/Qwen/Qwen2.5-7B@abc",
        }
    ],
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A code base: code, a .env, a model card, a BOM, a manifest, and what is skipped."""
    for folder in ("src", "products", "cards", ".venv", "node_modules/x", ".git"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / ".env").write_text("MODEL_ID=acme/env-model\n", encoding="utf-8")
    (tmp_path / "cards" / "README.md").write_text(
        "---\nbase_model: meta-llama/Llama-3.1-8B\nlicense: llama3.1\n---\n# A card\n",
        encoding="utf-8",
    )
    (tmp_path / "bom.json").write_text(json.dumps(BOM, indent=1), encoding="utf-8")
    (tmp_path / "products" / "helper.yaml").write_text(MANIFEST, encoding="utf-8")
    skipped = 'm = from_pretrained("deepseek-ai/DeepSeek-R1")\n'
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    (tmp_path / ".venv" / "lib.py").write_text(skipped, encoding="utf-8")
    (tmp_path / "node_modules" / "x" / "a.js").write_text(skipped, encoding="utf-8")
    (tmp_path / ".git" / "config.py").write_text(skipped, encoding="utf-8")
    return tmp_path


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run(capsys, "discover", *argv, "-f", "json")
    assert code in (0, 1), err
    data: dict[str, Any] = json.loads(out)
    return code, data


def _models(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """By catalog id, else by id as named."""
    return {m["model"] or m["id"]: m for m in data["models"]}


def test_the_models_a_code_base_names(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _report(capsys, str(tree))
    models = _models(data)
    assert set(models) == {
        "llama-3.1-8b",
        "kimi-k2",
        "qwen2.5",
        "acme/secret-model",
        "acme/env-model",
    }
    llama = models["llama-3.1-8b"]
    assert (llama["model"], llama["license"], llama["confidence"]) == (
        "llama-3.1-8b",
        "llama-3.1-community",
        "catalog",
    )
    places = {(Path(m["file"]).name, m["line"], m["how"], m["id"]) for m in llama["mentions"]}
    assert places == {
        ("app.py", 2, "hub id", "meta-llama/Llama-3.1-8B-Instruct"),
        ("README.md", 2, "model card base_model", "meta-llama/Llama-3.1-8B"),
    }
    assert llama["covered_by"] == [str(tree / "products" / "helper.yaml")]
    assert models["qwen2.5"]["mentions"][0]["how"] == "CycloneDX BOM"
    assert models["kimi-k2"]["mentions"][0]["line"] == 5  # in a URL
    for low in ("acme/secret-model", "acme/env-model"):
        assert models[low]["confidence"] == "low" and models[low]["model"] is None
    assert data["undeclared"] == 4
    assert code == 0  # without --fail-on-undeclared


def test_fail_on_undeclared(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discover", str(tree), "--fail-on-undeclared")
    assert code == 1 and "NOT DECLARED" in out
    # declare the rest: the gate passes
    (tree / "src" / "app.py").write_text(APP.splitlines()[1] + "\n", encoding="utf-8")
    for name in (".env", "bom.json"):
        (tree / name).unlink()
    code, out, _ = run(capsys, "discover", str(tree), "--fail-on-undeclared")
    assert code == 0, out
    assert "1 model named; 0 not declared by any manifest" in out


def test_manifests_elsewhere(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tree.parent / "manifests"
    elsewhere.mkdir()
    (tree / "products" / "helper.yaml").rename(elsewhere / "helper.yaml")
    _, data = _report(capsys, str(tree / "src"))
    assert _models(data)["llama-3.1-8b"]["covered_by"] == []
    assert data["manifests"] == []
    _, data = _report(capsys, str(tree / "src"), "--manifests", str(elsewhere))
    assert _models(data)["llama-3.1-8b"]["covered_by"] == [str(elsewhere / "helper.yaml")]


def test_an_uncatalogued_model_a_manifest_names_is_declared(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "products" / "secret.yaml").write_text(
        MANIFEST.replace("llama-3.1-8b", "acme/secret-model"), encoding="utf-8"
    )
    _, data = _report(capsys, str(tree))
    assert _models(data)["acme/secret-model"]["covered_by"] == [
        str(tree / "products" / "secret.yaml")
    ]


def test_files_named(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A source file named is scanned, not read as a manifest; a manifest named declares."""
    app, manifest = str(tree / "src" / "app.py"), str(tree / "products" / "helper.yaml")
    _, data = _report(capsys, app)
    assert _models(data)["llama-3.1-8b"]["covered_by"] == []
    _, data = _report(capsys, app, manifest)
    assert _models(data)["llama-3.1-8b"]["covered_by"] == [manifest]


def test_what_cannot_be_read_is_listed(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "big.json").write_bytes(b" " * (MAX_SCAN_BYTES + 1))
    (tree / "blob.py").write_bytes(b"\x00\x01meta-llama/Llama-3.1-8B")
    broken = dict(BOM, components=[{"type": "machine-learning-model", "purl": 5}])
    (tree / "broken-bom.json").write_text(json.dumps(broken), encoding="utf-8")
    code, out, err = run(capsys, "discover", str(tree), "-f", "json")
    unread = {Path(u["file"].split(":")[0]).name: u["why"] for u in json.loads(out)["unread"]}
    assert "too large" in unread["big.json"]
    assert "binary" in unread["blob.py"]
    assert "purl" in unread["broken-bom.json"]
    assert code == 0 and "3 file(s) not read" in err
    # a gate on undeclared models cannot pass over files it did not read: they may name one
    code, _, err = run(capsys, "discover", str(tree / "big.json"), "--fail-on-undeclared")
    assert code == 1 and "files not read may name a model" in err


def test_bad_input(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "discover", str(tree / "nowhere"))
    assert code == 2 and "no such file" in err


def test_a_broken_manifest_is_listed_with_what_was_found(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As `check` goes on past a broken manifest: the models are listed, the broken manifest is
    reported (located, on stderr and in the output), a model no manifest read declares is not
    called undeclared outright, and the exit is 2 whatever --fail-on-undeclared says."""
    (tree / "products" / "broken.yaml").write_text("product: X\nowner: [\n", encoding="utf-8")
    code, out, err = run(capsys, "discover", str(tree))
    assert code == 2 and "broken.yaml:" in err and "Traceback" not in err
    assert "could not be read" in err
    assert "acme/secret-model" in out and "Manifests not read" in out and "broken.yaml" in out
    assert "NOT DECLARED by any manifest read (some could not be read)" in out
    code, out, _ = run(capsys, "discover", str(tree), "-f", "json", "--fail-on-undeclared")
    data = json.loads(out)
    assert code == 2 and [Path(e["file"]).name for e in data["manifest_errors"]] == ["broken.yaml"]
    assert _models(data)["llama-3.1-8b"]["covered_by"]  # helper.yaml was read


def test_the_catalog_index_holds_only_hub_ids() -> None:
    index = hub_index(load_library())
    assert index and all(key.count("/") == 1 and key == key.lower() for key in index)
    assert index["meta-llama/llama-3.1-8b"].id == "llama-3.1-8b"


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discover", "--help")
    assert code == 0 and "Example:" in out and "licheck discover ." in out


def test_calls_over_several_lines_other_languages_and_text_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A loading call formatted over several lines (a formatter does it), in a notebook's cell
    too; code in a language whose suffix licheck does not list; a .txt file. Binary files of
    no listed kind are counted, not read."""
    (tmp_path / "app.py").write_text(
        'm = AutoModel.from_pretrained(\n    "acme/split-model",\n    dtype="auto",\n)\n',
        encoding="utf-8",
    )
    cell = ["m = AutoModel.from_pretrained(\n", '    "acme/notebook-model"\n', ")\n"]
    notebook = {"cells": [{"cell_type": "code", "source": cell}], "nbformat": 4}
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    (tmp_path / "Main.java").write_text('load_model("acme/java-model");\n', encoding="utf-8")
    (tmp_path / "models.txt").write_text("model: acme/txt-model\n", encoding="utf-8")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\x00\x00 acme/not-text")
    _, data = _report(capsys, str(tmp_path))
    where = {m["id"]: (Path(m["mentions"][0]["file"]).name, m["mentions"][0]["line"])
             for m in data["models"]}  # fmt: skip
    assert where == {
        "acme/split-model": ("app.py", 2),
        "acme/notebook-model": ("nb.ipynb", where["acme/notebook-model"][1]),
        "acme/java-model": ("Main.java", 1),
        "acme/txt-model": ("models.txt", 1),
    }
    assert data["binary_not_read"] == 1


def test_a_symlinked_folder_is_listed_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "a.py").write_text('from_pretrained("acme/x")\n', encoding="utf-8")
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    code, out, err = run(capsys, "discover", str(tmp_path / "code"), "-f", "json")
    data = json.loads(out)
    unread = {Path(u["file"]).name: u["why"] for u in data["unread"]}
    assert code == 0 and "symlinked folder" in unread["linked"] and data["models"] == []
    assert "1 file(s) not read" in err


def test_a_bom_model_without_a_hub_id_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A machine-learning-model component with a name only (no purl, group or property) is a
    model the BOM names: listed, not dropped."""
    bom = dict(BOM, components=[{"type": "machine-learning-model", "name": "in-house-7b"}])
    (tmp_path / "bom.json").write_text(json.dumps(bom, indent=1), encoding="utf-8")
    code, data = _report(capsys, str(tmp_path), "--fail-on-undeclared")
    (model,) = data["models"]
    assert model["id"] == "in-house-7b" and model["confidence"] == "low"
    assert code == 1


def test_a_folder_that_cannot_be_searched_for_manifests_does_not_hide_the_list(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A symlink loop and a broken link stop `check` (it judges nothing), but discover still
    writes what it found, lists them among the manifests not read, and exits 2."""
    (tree / "src" / "loop").symlink_to(tree / "src", target_is_directory=True)
    (tree / "src" / "gone.yaml").symlink_to(tree / "nowhere.yaml")
    code, out, err = run(capsys, "discover", str(tree), "-f", "json")
    assert code == 2 and "Traceback" not in err
    data = json.loads(out)
    assert {Path(e["file"]).name for e in data["manifest_errors"]} == {"loop", "gone.yaml"}
    assert "acme/secret-model" in {m["id"] for m in data["models"]}
    assert _models(data)["llama-3.1-8b"]["covered_by"]  # helper.yaml was still read
    code, _, err = run(capsys, "check", str(tree))
    assert code == 2 and "symlink loop" in err  # check judges nothing over a partial search
