"""`licheck facts [NAME]`: the vocabulary from `vocabulary.names`, fitted to the width, one fact
in full with the clauses of the library that read it, and examples a manifest accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.library.factinfo import DEFAULTS
from licheck.vocabulary.names import FACTS
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS, ROOT

STATEABLE = [name for name, d in FACTS.items() if not d.implicit]
WRAPPER = (
    "product: Example\nowner: Acme\ncomponents:\n  - {id: c, name: C, lineage: {base: glm-4.6}}\n"
)


def test_the_list_names_every_fact_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, err = run(capsys, "facts")
    assert code == 0, err
    first_words = [line.split(" ")[0] for line in out.splitlines()]
    for name in FACTS:
        assert first_words.count(name) == 1, name
    # off a terminal, without COLUMNS, every meaning is there in full (for grep)
    for definition in FACTS.values():
        assert definition.meaning in out, definition.name


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_list_fits_the_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run(capsys, "facts")
    assert code == 0
    lines = out.splitlines()
    assert all(len(line) <= columns for line in lines), max(lines, key=len)
    assert sum(line.split(":")[0].split(" ")[0] == "mau" for line in lines) == 1
    assert "monthly active users of" in out  # the meaning is cut, not dropped


def test_json_list_follows_the_vocabulary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facts", "--format", "json")
    assert code == 0
    rows = report_json(out)
    assert [row["name"] for row in rows] == list(FACTS)
    for row in rows:
        definition = FACTS[row["name"]]
        assert row["type"] == definition.type.value and row["unit"] == definition.unit
        assert row["supplied_by_licheck"] is definition.implicit
        assert (row["scope"] == "licheck") is definition.implicit
        assert row["default"] == DEFAULTS.get(row["name"], ("unknown", ""))[0]
        listed = sorted(definition.members or ()) + [f"{p}..." for p in definition.prefixes]
        assert row["values"] == (listed or None)


def test_markdown_is_the_table_of_docs_facts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facts", "--format", "markdown")
    assert code == 0
    text = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    start = text.index("\n", text.index("<!-- facts:begin")) + 1
    assert text[start : text.index("<!-- facts:end -->")] == out


def test_one_fact_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "facts", "mau")
    assert code == 0, err
    assert out.startswith("mau\n  monthly active users of the product or service: the whole")
    for label in ("type", "written", "scope", "default", "bounds", "read by", "example"):
        assert f"\n  {label} " in out or f"\n  {label}\n" in out, label
    # the seed case: Kimi K2.5's display duty reads monthly active users
    assert "kimi-k2.5-modified-mit: ui-attribution" in out
    assert "never more than licensee_own_mau" in out


def test_one_fact_as_json_names_its_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facts", "restricted_uses", "--format", "json")
    assert code == 0
    detail = report_json(out)
    assert detail["name"] == "restricted_uses"
    assert "military" in detail["values"] and "policy:..." in detail["values"]
    assert "prohibited-uses" in detail["read_by"]["llama-3.1-acceptable-use-policy"]
    code, out, _ = run(capsys, "facts", "derivative", "--format", "json")
    detail = report_json(out)
    assert detail["default"] == "true" and detail["scope"] == "by model"
    assert "kimi-k2.5-modified-mit" in detail["decides_binding_of"]


def test_a_fact_read_by_no_rule_file_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    library = tmp_path / "lib"
    library.mkdir()
    (library / "catalog.yaml").write_text("models: []\n", encoding="utf-8")
    code, out, err = run(
        capsys, "facts", "mau", "--no-builtin-licenses", "--licenses", str(library)
    )
    assert code == 0, err
    assert "read by  no clause of the library" in out


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@pytest.mark.parametrize(
    ("name", "hint"),
    [("revenue", "did you mean 'monthly_revenue'?"), ("MAU", "did you mean 'mau'?"), ("zzz", "")],
)
def test_an_unknown_fact_exits_2_with_a_hint(
    capsys: pytest.CaptureFixture[str], name: str, hint: str
) -> None:
    code, out, err = run(capsys, "facts", name)
    assert code == 2 and out == ""
    assert f"no fact {name!r} in the vocabulary" in err and hint in err
    assert "run `licheck facts` for the list" in err and "Traceback" not in err


def test_markdown_of_one_fact_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "facts", "mau", "--format", "markdown")
    assert code == 2 and "leave NAME out" in err


@pytest.mark.parametrize("name", STATEABLE)
def test_each_example_is_a_manifest_licheck_accepts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    code, out, _ = run(capsys, "facts", name, "--format", "json")
    example = report_json(out)["example"]
    path = tmp_path / "example.yaml"
    path.write_text(WRAPPER + example + "\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 0, f"{example}\n{out}{err}"


def _licheck_supplied(capsys: pytest.CaptureFixture[str], *paths: str) -> set[tuple[str, str]]:
    code, out, err = run(capsys, "evaluate", *paths, "--format", "json", "--verbose")
    assert code in (0, 1), err
    return {
        (fact["name"].split("@")[0], fact["value"])
        for product in report_json(out)["products"]
        for finding in product["findings"]
        for fact in finding["facts"]
        if fact["scope"] == "licheck" and fact["status"] != "unknown"
    }


DELIVERED = """\
product: Delivered
owner: {name: Acme, id: acme}
components:
  - id: tuned
    name: Tuned
    delivery: [weights, api]
    lineage: {base: llama-3.1-8b, steps: [fine_tuning]}
  - id: hosted
    name: Hosted
    delivery: [hosted_service]
    lineage: {base: gemma-3}
"""


def test_the_documented_defaults_are_what_an_evaluation_supplies(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "delivered.yaml"
    manifest.write_text(DELIVERED, encoding="utf-8")
    supplied = _licheck_supplied(capsys, str(manifest), *map(str, sorted(PRODUCTS.glob("*.yaml"))))
    assert len({name for name, _ in supplied}) >= 5  # enough of them exercised
    for name, value in supplied:
        assert name in DEFAULTS, f"{name} = {value} is supplied by licheck but documented unknown"
        short = DEFAULTS[name][0]
        if short in ("true", "false"):
            assert value == short, name
