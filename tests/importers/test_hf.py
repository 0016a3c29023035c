"""`licheck import hf` on cards shaped like real public model cards (tests/data/import/cards/):
what each card states reaches the manifest (base, steps, name, attribution, delivery), nothing
else does, and the evaluation tells the cards apart.  Plus: every catalog alias resolves
whatever its case, and a card's size or line ends never refuse it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.files import yamlsafe
from licheck.importers import hf
from licheck.importers.skeleton import ModelIdentity
from licheck.library.compiled import load_library
from licheck.validation import validate_files
from tests.clirun import run
from tests.conftest import ROOT

CARDS = ROOT / "tests" / "data" / "import" / "cards"
CASES: list[dict[str, Any]] = yamlsafe.load(CARDS / "cases.yaml").data
LIBRARY = load_library()


def _import(card: Path, model_id: str | None) -> tuple[str, dict[str, Any]]:
    text = hf.to_manifest(hf.read(card, card.name), LIBRARY, card.name, model_id)
    data = yamlsafe.parse(text, card.name).data
    assert isinstance(data, dict)
    return text, data


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['card']}{'' if c.get('model_id') else '-no-id'}" for c in CASES]
)
def test_card(case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, data = _import(CARDS / case["card"], case.get("model_id"))
    (component,) = data["components"]
    lineage = component["lineage"]
    assert lineage["base"]["model"] == case["base"]
    for expected in case.get("base_note", []):
        assert expected in lineage["base"]["note"]
    steps = lineage.get("steps", [])
    assert [s["kind"] for s in steps] == case["steps"]
    parents = [p["model"] for s in steps if s["kind"] == "merge" for p in s["parents"]]
    assert parents == case.get("parents", parents)
    # the weights are distributed on the Hub; the facts that follow are left to licheck
    assert component["delivery"] == ["weights"]
    for derived in ("made_available", "model_offered", "distributes_weights"):
        assert derived not in data["facts"]
    facts = data["facts"]
    name = facts["model_name"]
    if "model_name" in case:
        assert name["value"] == case["model_name"]
    else:
        assert name == {"value": "unknown", "note": "not in the model card"}
    attribution = facts["attribution_elsewhere"]
    assert attribution.get("includes") == case.get("attribution")
    # what the card states has the card as its evidence; nothing else is claimed
    for fact in (name, attribution):
        if fact.get("value") not in (None, "unknown"):
            assert fact["evidence"][0]["source"].startswith("Hugging Face model card")
    assert facts["added_terms_conflict"].get("includes") == case.get("conflicts")
    stated = {k for k, v in facts.items() if v.get("value") != "unknown"}
    assert stated <= {"model_name", "attribution_elsewhere", "added_terms_conflict"}
    assert sorted(component.get("facts", {})) == sorted(case.get("unknown_facts", []))
    notes = component["note"] + " " + name.get("note", "")
    for expected in case.get("note", []):
        assert expected in notes
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text, encoding="utf-8")
    assert validate_files([manifest]) == [f"ok: {manifest} (manifest)"]
    code, out, err = run(capsys, "evaluate", str(manifest), "--format", "json")
    assert code in (0, 1), err
    (product,) = json.loads(out)["products"]
    assert product["verdict"] == case["verdict"]
    found = {f"{f['license']}/{f['clause']}": f["verdict"] for f in product["findings"]}
    for clause, verdict in case.get("clauses", {}).items():
        assert found.get(clause) == verdict, clause


ALIASES = sorted({(name, m.id) for m in LIBRARY.models for name in (m.id, *m.aliases)})


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALIASES), st.randoms(use_true_random=False))
def test_every_catalog_alias_resolves_in_any_case(alias: tuple[str, str], rnd: Any) -> None:
    name, model = alias
    cased = "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in name)
    found = ModelIdentity([cased], cased).resolve(LIBRARY).model
    assert found is not None and found.id == model


@pytest.mark.slow
def test_every_hub_alias_is_a_cards_base(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    for name, model in ALIASES:
        if "/" in name:
            card.write_text(f"---\nbase_model: {name.upper()}\n---\n", encoding="utf-8")
            _, data = _import(card, "someone/derived")
            assert data["components"][0]["lineage"]["base"]["model"] == model, name


def test_a_huge_model_index_is_read(tmp_path: Path) -> None:
    """Evaluation results (8,000 metrics, over a million YAML values counted as the reader counts
    them) are not read: they never refuse the card."""
    metric = "    - {type: acc, value: 1.5, name: accuracy}\n"
    card = tmp_path / "README.md"
    card.write_text(
        "---\nlicense: apache-2.0\nbase_model: Qwen/Qwen3-8B\nmodel-index:\n- name: Big\n"
        "  results:\n  - task: {type: text-generation}\n    metrics:\n"
        + metric * 8_000
        + "license_name: apache\n---\n",
        encoding="utf-8",
    )
    _, data = _import(card, None)
    assert data["facts"]["model_name"]["value"] == "Big"
    assert data["components"][0]["lineage"]["base"]["model"] == "qwen3"
    assert "license_name: apache" in data["components"][0]["note"]


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r", "\r\r\n"])
def test_any_line_end(end: str, tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    lines = ["---", "license: [mit, apache-2.0]", "base_model: Qwen/Qwen3-8B", "---", "hi"]
    card.write_bytes(end.join(lines).encode())
    _, data = _import(card, "a/b")
    assert data["components"][0]["lineage"]["base"]["model"] == "qwen3"
    assert "license: mit, apache-2.0" in data["components"][0]["note"]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("# Title\n\n---\n\nSome: prose\n\n---\n", "1:1", "no YAML front matter"),
        ("---\nlicense: mit\nwidget: x\nlicense: apache-2.0\n---\n", "4:1", "duplicate key"),
        ("---\nlicense: {a: 1}\n---\n", "2:1", "license should be a string or a list"),
        ("\n---\nlicense: mit\nbase_model: x/y\n", "2:1", "no closing '---' line"),
    ],
)
def test_refused_where_a_read_field_is_wrong(
    text: str, where: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = tmp_path / "README.md"
    card.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "hf", str(card))
    assert (code, out) == (2, "")
    assert f"README.md:{where}" in err and message in err, err


def test_a_base_named_by_its_hub_address(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text(
        "---\nbase_model: https://huggingface.co/Qwen/Qwen3-8B/\n---\n", encoding="utf-8"
    )
    _, data = _import(card, None)
    assert data["components"][0]["lineage"]["base"]["model"] == "qwen3"


def test_an_alias_to_an_unread_key_is_read_whole(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text("---\nwidget: &b Qwen/Qwen3-8B\nbase_model: *b\n---\n", encoding="utf-8")
    _, data = _import(card, None)
    assert data["components"][0]["lineage"]["base"]["model"] == "qwen3"


def test_an_unread_field_never_refuses(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text(
        "---\nwidget: 1\nwidget: 2\nextra_gated_fields: {a: !!python/name:os.system }\n"
        "base_model: Qwen/Qwen3-8B\n---\n",
        encoding="utf-8",
    )
    _, data = _import(card, None)
    assert data["components"][0]["lineage"]["base"]["model"] == "qwen3"


_SCALARS = st.one_of(
    st.text(alphabet="abc xyz-/:#'\"\n", max_size=12), st.integers(-5, 5), st.booleans()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("pqr"), inner),
    max_leaves=8,
)


def _as_text(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    return str(value)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "license",
                "base_model",
                "tags",
                "model_name",
                "widget",
                "datasets",
                "model-index",
                "language",
                "inference",
            ]
        ),
        _VALUES,
        max_size=6,
    ),
    st.sampled_from([False, None]),
    st.sampled_from([None, '"', "'", "|"]),
    st.sampled_from(["\n", "\r\n"]),
)
def test_skipping_unread_keys_keeps_the_read_ones(
    data: dict[str, Any], flow: bool | None, style: str | None, end: str
) -> None:
    """The card's read keys are exactly what the whole front matter gives, whatever the others
    hold and however YAML writes them (block or flow, block scalars, quotes; a mapping in flow
    style is read whole)."""
    import yaml

    from licheck.importers import hfcard

    if style is not None:  # a quoted non-string carries an explicit tag, which licheck refuses
        data = _as_text(data)
    body = "{}\n"
    if data:
        body = yaml.safe_dump(
            data, default_flow_style=flow, default_style=style, allow_unicode=True
        )
    card = hfcard.parse(("---\n" + body + "---\n").replace("\n", end), "README.md")
    read = {k: v for k, v in card.document.data.items() if k in hfcard.READ}
    assert read == {k: v for k, v in data.items() if k in hfcard.READ}
