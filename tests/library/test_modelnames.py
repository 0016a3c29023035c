"""Safe did-you-mean (issue 15): a misspelt model is never resolved to another one, every model
offered carries its license, and `licenses show` takes a model id or alias as well."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import Library, load_library
from licheck.library.modelnames import MIXED_LICENSES, candidates, hint, license_words
from licheck.vocabulary.factdefs import suggest
from tests.clirun import run
from tests.conftest import PRODUCTS

LIBRARY = load_library()


def _manifest(tmp_path: Path, model: str) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text(
        "format: 2\nproduct: P\nowner: O\ncomponents:\n  - id: c\n    name: C\n"
        f"    lineage:\n      base:\n        model: {json.dumps(model)}\n",
        encoding="utf-8",
    )
    return path


# -- the three complaints -----------------------------------------------------------------------


def test_qwen_7b_is_offered_the_7b_alias_with_its_license_not_the_72b() -> None:
    message = LIBRARY.suggest_model("qwen2.5-7b")
    assert "'Qwen/Qwen2.5-7B' (model qwen2.5, license apache-2.0)" in message
    assert "72b" not in message.lower()
    assert LIBRARY.model("qwen2.5-7b") is None  # offered, never resolved


def test_kimi_k25_instruct_is_offered_kimi_k25_not_kimi_k2(tmp_path: Path) -> None:
    message = LIBRARY.suggest_model("moonshotai/Kimi-K2.5-Instruct")
    assert "'kimi-k2.5' (license kimi-k2.5-modified-mit)" in message
    assert "without its variant suffix" in message
    assert "'kimi-k2'" not in message and "Kimi-K2-Instruct" not in message


def test_evaluate_names_the_candidate_and_its_license_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _manifest(tmp_path, "moonshotai/Kimi-K2.5-Instruct")
    code, out, err = run(capsys, "evaluate", str(path))
    assert code == 2 and out == ""
    assert f"{path}:8:7: error: unknown model 'moonshotai/Kimi-K2.5-Instruct'" in err
    assert "'kimi-k2.5' (license kimi-k2.5-modified-mit)" in err


def test_show_a_model_id_gives_its_license(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "licenses", "show", "kimi-k2.5")
    assert code == 0, err
    assert out.startswith("model kimi-k2.5 is under license kimi-k2.5-modified-mit\n")
    assert "Modified MIT License (Kimi K2.5) (kimi-k2.5-modified-mit" in out
    assert "kimi-k3" not in out + err


# -- licenses show -----------------------------------------------------------------------------


def test_show_an_alias_gives_the_models_license(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "licenses", "show", "Qwen/Qwen2.5-3B-Instruct")
    assert code == 0
    assert out.startswith("model Qwen/Qwen2.5-3B-Instruct is under license qwen-research-license")


def test_show_a_model_with_a_license_history_gives_every_text_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "licenses", "show", "gemma-2", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["model"] == "gemma-2"
    assert [d["id"] for d in document["licenses"]] == [
        d.license for d in _model("gemma-2").license_history
    ]


def test_show_a_license_id_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "licenses", "show", "kimi-k2.5-modified-mit", "--format", "json")
    assert code == 0 and json.loads(out)["id"] == "kimi-k2.5-modified-mit"


def test_show_a_model_whose_license_is_not_in_the_library_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "licenses", "show", "qwen2.5-72b")
    assert code == 2 and out == ""
    assert "model 'qwen2.5-72b' is in the catalog, but its license is not in the library" in err


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_show_an_unknown_name_labels_license_and_model_suggestions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "licenses", "show", "kimmi-k2.5")
    assert code == 2
    assert "no license or model 'kimmi-k2.5'" in err
    models = err[err.index("models:") :]
    assert "'kimi-k2.5' (license kimi-k2.5-modified-mit)" in models
    assert "'kimi-k2' (license kimi-k2-modified-mit)" in models
    assert MIXED_LICENSES in models


def test_a_model_named_where_a_license_is_meant_says_its_license(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _manifest(tmp_path, "kimi-k2.5")
    text = path.read_text(encoding="utf-8") + "facts:\n  license_granted: [kimi-k2.5]\n"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2
    assert (
        "'kimi-k2.5' is a model, not a license: it is under license kimi-k2.5-modified-mit" in err
    )


# -- the safe behaviour, generally -------------------------------------------------------------


def _model(model_id: str) -> CatalogModel:
    found = LIBRARY.model(model_id)
    assert found is not None
    return found


def _names(library: Library) -> list[str]:
    return sorted({n for m in library.models for n in (m.id, *m.aliases)})


NAMES = _names(LIBRARY)
BY_NAME = {n.lower(): m for m in LIBRARY.models for n in (m.id, *m.aliases)}
QUOTED = re.compile(r"'([^']+)' \(")


@st.composite
def misspelt(draw: st.DrawFn) -> str:
    """A catalog name changed the ways people change them: case, an organisation prefix taken
    off or put on, a variant suffix, a character dropped, doubled or replaced."""
    name = draw(st.sampled_from(NAMES))
    edits = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3))
    for edit in edits:
        at = draw(st.integers(0, max(0, len(name) - 1)))
        if edit == 0:
            name = name.upper()
        elif edit == 1:
            name = name.rpartition("/")[2]
        elif edit == 2:
            name = draw(st.sampled_from(["moonshotai/", "Qwen/", "meta-llama/"])) + name
        elif edit == 3:
            name += draw(st.sampled_from(["-Instruct", "-Base", "-Chat"]))
        elif edit == 4 and len(name) > 1:
            name = name[:at] + name[at + 1 :]
        else:
            name = name[:at] + draw(st.sampled_from("0123456789.-abk")) + name[at:]
    return name


@settings(max_examples=300, deadline=None)
@given(misspelt())
def test_every_model_offered_carries_its_license(name: str) -> None:
    message = hint(name, LIBRARY.models)
    offered = [n for n in QUOTED.findall(message) if n.lower() in BY_NAME]
    assert len(offered) == len(candidates(name, LIBRARY.models))
    for quoted in offered:
        model = BY_NAME[quoted.lower()]
        after = message[message.index(f"'{quoted}' (") :]
        assert after.startswith(
            f"'{quoted}' ("
            + ("" if quoted == model.id else f"model {model.id}, ")
            + license_words(model)
        )
        for dated in model.license_history:
            assert dated.license in after
    licenses = {license_words(c.model) for c in candidates(name, LIBRARY.models)}
    assert (MIXED_LICENSES in message) == (len(licenses) > 1)


@settings(max_examples=200, deadline=None)
@given(misspelt())
def test_a_misspelt_name_is_never_resolved_to_another_model(name: str) -> None:
    found = LIBRARY.model(name)
    assert found is None or name.strip().lower() in {n.lower() for n in (found.id, *found.aliases)}


def test_normalised_names_come_before_names_spelt_alike() -> None:
    found = candidates("Meta-Llama/kimi-k2.5", LIBRARY.models)
    assert [c.model.id for c in found] == ["kimi-k2.5"]
    assert all("spelt alike" not in c.why for c in found)


def test_a_name_like_nothing_gets_no_suggestion() -> None:
    assert hint("zzzzzzzzzz", LIBRARY.models) == ""


def test_a_name_is_never_suggested_for_itself() -> None:
    assert suggest("model", {"model", "models"}) == " (did you mean 'models'?)"
    assert suggest("model", {"model"}) == ""


def test_a_key_of_another_part_of_the_format_is_called_misplaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        "format: 2\nproduct: P\nowner: O\ncomponents:\n  - id: c\n    name: C\n"
        "    model: kimi-k2.5\n    lineage:\n      base:\n        model: kimi-k2.5\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2
    assert f"{path}:7:5: error: key 'model' does not belong here" in err
    assert "did you mean 'model'" not in err


def test_a_by_model_scope_offers_the_lineage_models_with_their_license(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        "format: 2\nproduct: P\nowner: O\ncomponents:\n  - id: c\n    name: C\n"
        "    lineage: {base: moonshotai/Kimi-K2.5, steps: [fine_tuning]}\n"
        "    facts:\n      derivative: {by_model: {Kimi-K2.5-Instruct: true}}\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2
    assert "model 'Kimi-K2.5-Instruct' is not in this component's lineage" in err
    assert "'kimi-k2.5' (license kimi-k2.5-modified-mit)" in err


def test_a_swapped_base_offers_candidates_with_their_license(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(
        capsys, "whatif", str(PRODUCTS / "composer2.yaml"), "--swap-base", "kimi-k2.5=qwen2.5-7b"
    )
    assert code == 2
    assert "unknown model 'qwen2.5-7b'" in err
    assert "'Qwen/Qwen2.5-7B' (model qwen2.5, license apache-2.0)" in err
    assert "72b" not in err.lower()


def test_a_license_id_that_is_also_a_model_name_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from licheck.files.safeio import default_directory

    folder = tmp_path / "licenses"
    shutil.copytree(default_directory(), folder)
    catalog = folder / "catalog.yaml"
    text = catalog.read_text(encoding="utf-8")
    aliases = "aliases: [Qwen/Qwen3-8B,"
    assert aliases in text
    catalog.write_text(text.replace(aliases, "aliases: [mit, Qwen/Qwen3-8B,"), encoding="utf-8")
    code, out, err = run(capsys, "licenses", "show", "mit", "--licenses", str(folder))
    assert code == 0 and "(mit, version" in out  # the license named, as before
    assert "note: this is the license mit; the catalog model qwen3 is under license" in err


def test_show_a_later_checkpoint_of_a_listed_model_offers_no_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`kimi-k2.55` extends `kimi-k2.5`: a later checkpoint may be under another license, so no
    nearest model is offered (audit m30)."""
    code, _, err = run(capsys, "licenses", "show", "kimi-k2.55")
    assert code == 2 and "no license or model 'kimi-k2.55'" in err
    assert "models:" not in err
