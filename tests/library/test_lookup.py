"""`licenselookup.lookup`, called directly: which licenses a name given to `licenses show`
stands for, the notes of the layers that replaced them, and why nothing can be shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.library.compiled import Library, load_library
from licheck.library.layers import load
from licheck.library.lookup import license_ids, lookup, models_under
from licheck.library.source import LibrarySource


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def _layer(tmp_path: Path, catalog: str) -> Library:
    folder = tmp_path / "layer"
    folder.mkdir()
    (folder / "catalog.yaml").write_text(catalog, encoding="utf-8")
    return load(LibrarySource((folder,)))


def test_a_license_id_is_that_license(library: Library) -> None:
    found = lookup(library, "mit")
    assert found.problem is None and found.notes == ()
    assert [e.license.id for e in found.licenses] == ["mit"]
    assert not found.by_model and not found.model_differs
    both = lookup(library, "kimi-k3")  # a license id and a model under that very license
    assert both.model is not None and not both.by_model and not both.model_differs


def test_a_models_alias_is_the_models_license(library: Library) -> None:
    found = lookup(library, "moonshotai/Kimi-K2.5")
    assert found.problem is None and found.by_model
    assert found.model is not None and found.model.id == "kimi-k2.5"
    assert [e.license.id for e in found.licenses] == [found.model.license]


def test_a_model_with_dated_licenses_is_under_each_in_order(library: Library) -> None:
    found = lookup(library, "gemma")
    assert found.model is not None and len(found.model.license_history) > 1
    assert [e.license.id for e in found.licenses] == license_ids(found.model)
    assert license_ids(found.model) == [d.license for d in found.model.license_history]


def test_a_model_whose_license_is_not_in_the_library_shows_nothing(library: Library) -> None:
    found = lookup(library, "kimi-k2-thinking")
    assert found.model is not None and found.model.license is None
    assert license_ids(found.model) == [""]
    assert found.licenses == ()
    assert found.problem is not None
    assert found.problem.startswith(
        "model 'kimi-k2-thinking' is in the catalog, but its license is not in the library: "
    )
    assert found.model.license_note and found.problem.endswith(found.model.license_note)


def test_an_unknown_name_suggests_licenses_and_labelled_models(library: Library) -> None:
    found = lookup(library, "llama-3.1")
    assert found.model is None and found.licenses == ()
    assert found.problem is not None
    parts = found.problem.split("; ")
    assert parts[0] == "no license or model 'llama-3.1' in the library"
    assert parts[1] == "licenses: did you mean 'llama-3.1-community'?"
    assert parts[2].startswith("models: did you mean one of ")
    assert "(license llama-3.1-community)" in parts[2]  # each model with its license
    assert parts[-1] == "see `licheck licenses list` and `licheck licenses models`"


def test_a_name_like_nothing_gets_no_suggestion(library: Library) -> None:
    found = lookup(library, "zzzzqqq")
    assert found.problem == (
        "no license or model 'zzzzqqq' in the library; "
        "see `licheck licenses list` and `licheck licenses models`"
    )


def test_a_replaced_model_is_noted_even_when_its_license_is_unknown(tmp_path: Path) -> None:
    """The note comes with the problem: the layer is what made the license unknown."""
    library = _layer(
        tmp_path,
        "models:\n  - {id: kimi-k2.5, name: Ours, license_note: lost, source: legal}\n",
    )
    found = lookup(library, "kimi-k2.5")
    assert [n.split(" comes from ")[0] for n in found.notes] == ["licheck: note: model kimi-k2.5"]
    assert found.problem is not None and found.problem.endswith("not in the library: lost")


def test_a_license_id_that_is_also_a_model_under_another_license(tmp_path: Path) -> None:
    library = _layer(
        tmp_path,
        "models:\n  - {id: acme-7b, name: Acme, aliases: [mit], license: apache-2.0,"
        " source: legal}\n",
    )
    found = lookup(library, "mit")
    assert [e.license.id for e in found.licenses] == ["mit"]  # the license, not the model's
    assert found.model is not None and found.model.id == "acme-7b"
    assert not found.by_model and found.model_differs


def test_the_models_under_a_license_include_those_under_it_for_some_dates(
    library: Library,
) -> None:
    gemma = library.model("gemma")
    assert gemma is not None
    older = gemma.license_history[0].license
    assert gemma.license != older  # under it only for copies obtained on some dates
    under = models_under(library, older)
    assert "gemma" in under and under == sorted(under)
    assert "gemma" in models_under(library, "gemma-terms-of-use")
    assert "gemma" not in models_under(library, "mit")
    assert models_under(library, "no-such-license") == []
