"""A skeleton's YAML is written by building PyYAML's nodes directly (`skeleton.yaml_text`): the
text is byte for byte what the representer (`yaml.dump`, `skeleton.represented_text`) made, over
generated data and over every real card's and BOM's skeleton; values that are not plain data
still go through the representer."""

from __future__ import annotations

import enum
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.importers import cyclonedx, hf, skeleton
from licheck.inputs.manifest import FORMAT
from licheck.library.compiled import load_library
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "import"

# text as skeletons hold it: notes, ids, unicode, the workflow-command and line-break characters
# `_UNSAFE` quotes, YAML's indicators, strings that read as numbers, booleans or null
_TEXT = st.one_of(
    st.text(max_size=140),
    st.sampled_from(
        ["unknown", "yes", "null", "1e3", "0x1F", "2024-01-01", "- a", "a: b", "::", "##[x", "~"]
    ),
    st.lists(st.sampled_from(["word", " ", ":", "#", "'", '"', "\n", "\u2028", "é", "-"])).map(
        "".join
    ),
)
_SCALAR = st.one_of(_TEXT, st.booleans(), st.integers(), st.none())
_DATA = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(_TEXT, inner, max_size=6)),
    max_leaves=40,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_TEXT, _DATA, max_size=8))
def test_the_text_is_the_representers(data: dict[str, Any]) -> None:
    assert skeleton.yaml_text(data) == skeleton.represented_text(data)


_KEY = st.one_of(st.sampled_from(["facts", "mau", "note", "a1_b"]), _TEXT)
# skeletons' shape: top-level mappings of entries, some alike across skeletons, long notes
_SKELETON = st.dictionaries(
    _KEY,
    st.one_of(
        _DATA,
        st.dictionaries(
            _KEY,
            st.one_of(
                _DATA, st.fixed_dictionaries({"value": _TEXT, "note": st.text(max_size=200)})
            ),
            max_size=6,
        ),
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_SKELETON, min_size=1, max_size=4))
def test_a_runs_memo_writes_the_same_text(documents: list[dict[str, Any]]) -> None:
    """One memo over several documents (entries met again are taken from it): each text is
    `yaml_text`'s, and so the representer's."""
    written = skeleton.Written()
    for data in [*documents, *documents]:
        assert written.text(data) == skeleton.represented_text(data)


def test_every_real_skeleton_is_written_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The data of each real card's and BOM's skeleton, as the importers build it, is written
    as `yaml.dump` wrote it."""
    written: list[dict[str, Any]] = []

    def dump(manifest: dict[str, Any], header: list[str], memo: Any = None) -> str:
        written.append({"format": FORMAT, **manifest})
        return skeleton.dump(manifest, header, memo)

    monkeypatch.setattr(hf, "dump", dump)
    monkeypatch.setattr(cyclonedx, "dump", dump)
    library = load_library()
    for card in [*sorted((DATA / "cards").glob("*.md")), *sorted(DATA.glob("*-README.md"))]:
        hf.to_manifest(hf.read(card, card.name), library, card.name, f"org/{card.stem}")
    bom = DATA / "bom-kimi-1.6.json"
    cyclonedx.to_manifest(cyclonedx.read(bom, bom.name), library)
    assert len(written) > 25
    memo = skeleton.Written()
    for data in written:
        assert skeleton.yaml_text(data) == skeleton.represented_text(data)
        assert memo.text(data) == skeleton.represented_text(data)


class _Kind(enum.StrEnum):
    A = "a"


@pytest.mark.parametrize("value", [1.5, _Kind.A, (1, 2)])
def test_what_is_not_plain_data_goes_to_the_representer(value: Any) -> None:
    try:
        expected: str | type[Exception] = skeleton.represented_text({"k": value})
    except yaml.YAMLError as exc:
        expected = type(exc)
    if isinstance(expected, str):
        assert skeleton.yaml_text({"k": value}) == expected
    else:
        with pytest.raises(expected):
            skeleton.yaml_text({"k": value})
