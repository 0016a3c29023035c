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
    # the card's own license is its model's, the component's: never the product's
    assert "declared_license" not in facts
    own = dict(component["facts"])
    _check_declared(own.pop("declared_license"), case)
    assert sorted(own) == sorted(case.get("unknown_facts", []))
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


def _check_declared(declared: dict[str, Any], case: dict[str, Any]) -> None:
    """`declared_license` as the card states it: its `license:` ids (a list: all of them; a
    mapping: known in part), with the card as the evidence."""
    assert declared["evidence"][0]["source"].startswith("Hugging Face model card")
    for words in case.get("declared_note", []):
        assert words in declared["note"]
    expected = case.get("declared")
    if isinstance(expected, dict):
        assert "value" not in declared
        assert declared["includes"] == expected["includes"]
    elif expected is not None:
        assert declared["value"] == expected


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


# The official Hub ids real cards name as base_model (issue 28): each resolves to its family's
# catalog model, so a card naming one is never "base undisclosed" nor another family's.
OFFICIAL_IDS = {
    **{
        f"meta-llama/{p}Llama-3.1-{s}{i}": f"llama-3.1-{s.lower()}"
        for p in ("Meta-", "")
        for s in ("8B", "70B", "405B")
        for i in ("", "-Instruct")
    },
    **{f"mistralai/Mistral-7B-Instruct-v0.{v}": "mistral-7b" for v in (1, 2, 3)},
    **{f"google/gemma-2-{s}{i}": "gemma-2" for s in ("2b", "9b", "27b") for i in ("", "-it")},
    **{
        f"Qwen/Qwen2.5-{s}{i}": "qwen2.5"
        for s in ("0.5B", "1.5B", "7B", "14B", "32B")
        for i in ("", "-Instruct")
    },
    "Qwen/Qwen2.5-3B-Instruct": "qwen2.5-3b",
    "Qwen/Qwen2.5-72B-Instruct": "qwen2.5-72b",
    **{
        f"Qwen/Qwen3-{s}{i}": "qwen3"
        for s in ("0.6B", "1.7B", "4B", "8B", "14B", "30B-A3B")
        for i in ("", "-Base")
    },
    "Qwen/Qwen3-32B": "qwen3",
    "Qwen/Qwen3-235B-A22B": "qwen3",
    **{
        f"deepseek-ai/DeepSeek-Coder-V2-{s}": "deepseek-coder-v2"
        for s in ("Base", "Instruct", "Lite-Base", "Lite-Instruct")
    },
    "mistral-community/Mixtral-8x22B-v0.1": "mixtral",
    "mistralai/Mixtral-8x22B-Instruct-v0.1": "mixtral",
    "meta-llama/Llama-2-7b": "llama-2-7b",
    "meta-llama/Llama-2-7b-chat-hf": "llama-2-7b",
    "codellama/CodeLlama-34b-Instruct-hf": "code-llama",
    "Qwen/Qwen1.5-7B-Chat": "qwen1.5",
    "Qwen/Qwen2-7B-Instruct": "qwen2",
    "Qwen/Qwen2-72B-Instruct": "qwen2-72b",
    "tiiuae/falcon-180B-chat": "falcon-180b",
    "mistralai/Mistral-Nemo-Instruct-2407": "mistral-nemo",
    "mistralai/Mistral-Small-Instruct-2409": "mistral-small-2409",
}


@pytest.mark.parametrize("hub_id", sorted(OFFICIAL_IDS))
def test_an_official_hub_id_resolves(hub_id: str) -> None:
    for name in (hub_id, hub_id.lower(), hub_id.upper()):
        found = LIBRARY.model(name)
        assert found is not None and found.id == OFFICIAL_IDS[hub_id], name


def test_code_llama_is_under_llama_2s_license_and_the_others_are_unknown_with_a_reason() -> None:
    code_llama = LIBRARY.model("code-llama")
    assert code_llama is not None and code_llama.license == "llama-2-community"
    for model_id in ("qwen1.5", "qwen2", "qwen2-72b", "falcon-180b", "mistral-nemo"):
        model = LIBRARY.model(model_id)
        assert model is not None and model.license is None
        assert model.license_note, model_id
    small = LIBRARY.model("mistral-small-2409")  # the MRL, encoded since (issue 26, group A)
    assert small is not None and small.license == "mistral-ai-research-license-mrl-0.1"
    assert "Research License" in (small.license_note or "")


def _declared(tmp_path: Path, front: str, body: str = "") -> dict[str, Any]:
    card = tmp_path / "README.md"
    card.write_text(f"---\n{front}base_model: meta-llama/Llama-3.1-8B\n---\n{body}", "utf-8")
    _, data = _import(card, "someone/derived")
    declared: dict[str, Any] = data["components"][0]["facts"]["declared_license"]
    return declared


def test_the_declared_license_as_the_card_states_it(tmp_path: Path) -> None:
    assert _declared(tmp_path, "")["value"] == []  # no license: none of its own
    assert _declared(tmp_path, "license: [Apache-2.0, llama3.1]\n")["value"] == [
        "apache-2.0",
        "llama3.1",
    ]
    # `other` with a name licheck knows counts as that license ...
    named = _declared(tmp_path, "license: other\nlicense_name: llama3.1\n")
    assert named["value"] == ["llama3.1"]
    # ... and with any other name, or none, is known only in part: never satisfied
    free = _declared(tmp_path, "license: other\nlicense_name: my-license\n")
    assert free["includes"] == ["other", "my-license"] and "value" not in free
    assert _declared(tmp_path, "license: other\n")["includes"] == ["other"]
    # a body that names the base's license beside another `license:` leaves it open
    both = _declared(tmp_path, "license: mit\n", "Base weights: Llama 3.1 Community License.")
    assert both["includes"] == ["mit"] and "Llama 3.1 Community License" in both["note"]
    # as DeepSeek's Llama distills word it
    worded = _declared(tmp_path, "license: mit\n", "originally licensed under llama3.1 license.")
    assert worded["includes"] == ["mit"]
    # another version's name is not this one's
    other = _declared(tmp_path, "license: mit\n", "see the Llama 3.2 license")
    assert other["value"] == ["mit"]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "markdown", "github", "compact",
                                 "html", "codequality"])  # fmt: skip
def test_a_relicensed_derivative_in_every_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """apache-2.0 on a Llama 3.1 fine-tune: the relicensed-derivative violation, with the
    base license's §1.b.i quote wherever the format carries quotes."""
    text, _ = _import(CARDS / "llama-3.1-apache.md", None)
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(manifest), "--format", fmt)
    assert code == 1, err
    assert "relicensed-derivative" in out
    if fmt not in ("github", "compact", "codequality"):  # one line a finding: no quote
        assert "provide a copy of this Agreement" in " ".join(out.split())


def test_declaring_the_base_license_too_settles_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fix a reviewer would suggest: offer the model under the base's license as well."""
    text, _ = _import(CARDS / "llama-3.1-apache.md", None)
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text, encoding="utf-8")
    fixed = "declared_license=[llama3.1, apache-2.0]"
    code, out, err = run(capsys, "whatif", str(manifest), "--set", fixed)
    assert code in (0, 1), err
    assert "relicensed-derivative: VIOLATION → SATISFIED" in " ".join(out.split())
