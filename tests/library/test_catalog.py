"""The catalog covers the models the reference names, says why a license is unknown, and keeps
its license histories in order; docs/facts.md documents every fact of the vocabulary."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.core.diagnostics import InputError
from licheck.files.safeio import default_directory
from licheck.inputs.rules import Provenance
from licheck.library.compiled import load_library
from licheck.vocabulary.names import FACTS
from tests.conftest import ROOT


def test_every_family_the_reference_names_is_in_the_catalog() -> None:
    families = {m.family for m in load_library().models}
    assert {
        "kimi",
        "glm",
        "qwen",
        "deepseek",
        "gemma",
        "phi",
        "minimax",
        "yi",
        "mistral",
    } <= families


@pytest.mark.parametrize(
    "model_id",
    [
        "kimi-k2-thinking",
        "kimi-dev-72b",
        "qwen2.5-72b",
    ],
)
def test_models_whose_text_was_not_found_have_no_license_and_say_why(model_id: str) -> None:
    model = load_library().model(model_id)
    assert model is not None
    assert model.license is None and not model.license_history
    assert model.license_note


@pytest.mark.parametrize(
    ("name", "license_id"),
    [
        ("Qwen/Qwen-72B-Chat", "tongyi-qianwen"),
        ("Qwen/Qwen-1_8B", "tongyi-qianwen-research"),
        ("Qwen/Qwen2.5-7B-Instruct", "apache-2.0"),
        ("deepseek-ai/DeepSeek-V2", "deepseek-license-v1.0"),
        ("deepseek-ai/DeepSeek-R1", "deepseek-r1-mit"),
        ("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "apache-2.0"),
        ("google/gemma-2-9b-it", "gemma-terms-of-use"),
        ("microsoft/phi-4", "mit"),
        ("MiniMaxAI/MiniMax-Text-01", "minimax-model-license-01"),
        ("MiniMaxAI/MiniMax-M1-80k", "minimax-m1-apache-2.0"),
        ("THUDM/glm-4-9b", "glm-4-9b-license"),
        ("THUDM/glm-4-voice-9b", "glm-4"),
        ("zai-org/GLM-4.7", "mit"),
        ("mistralai/Mixtral-8x7B-v0.1", "apache-2.0"),
        ("moonshotai/Kimi-K3", "kimi-k3"),
        ("moonshotai/Moonlight-16B-A3B", "moonlight-mit"),
    ],
)
def test_aliases_lead_to_the_right_license(name: str, license_id: str) -> None:
    model = load_library().model(name)
    assert model is not None and model.license == license_id


def test_unverified_licenses_are_copies_and_copies_are_flagged() -> None:
    library = load_library()
    for entry in library.licenses.values():
        if entry.license.unverified:
            assert entry.license.text.provenance is not Provenance.VERBATIM
    assert library.licenses["kimi-k3"].license.text.provenance is Provenance.SECONDARY_COPY
    assert library.licenses["kimi-k3"].license.unverified


def test_overlapping_history_is_refused_with_its_location(tmp_path: Path) -> None:
    (tmp_path / "mit.yaml").write_text((ROOT / "licenses" / "mit.yaml").read_text())
    (tmp_path / "catalog.yaml").write_text(
        "models:\n  - id: m\n    name: M\n    license: mit\n    license_history:\n"
        "      - {license: mit, until: 2025-11-13}\n      - {license: mit, from: 2025-11-13}\n"
        "    source: test\n"
    )
    with pytest.raises(InputError) as caught:
        load_library(tmp_path)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.line == 2 and "overlaps" in diagnostic.message


def test_a_license_id_defined_twice_is_refused_at_the_later_file(tmp_path: Path) -> None:
    text = (default_directory() / "mit.yaml").read_text(encoding="utf-8")
    (tmp_path / "a.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_library(tmp_path)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == str(tmp_path / "b.yaml")
    assert (diagnostic.line, diagnostic.column) == (1, 1)
    assert diagnostic.message == f"license id 'mit' is also defined in {tmp_path / 'a.yaml'}"


def test_docs_fact_table_lists_every_fact() -> None:
    readme = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    table = readme.split("<!-- facts:begin")[1].split("<!-- facts:end -->")[0]
    for name in FACTS:
        assert f"| `{name}` |" in table, name
