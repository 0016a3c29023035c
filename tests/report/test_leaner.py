"""Schema 2.0 loses nothing: `expanded(report 2.0)` encoded is, byte for byte, the report the
same run writes at 1.0 — over every golden JSON report (whose 1.0 files are the bytes licheck
wrote before 2.0) and over generated portfolios; `--baseline` reads either version."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from licheck.files.jsontext import dumps
from licheck.report.baseline import load
from licheck.report.leaner import ClauseConflict, expanded, leaner_product, merge
from tests.clirun import run
from tests.conftest import GOLDEN, ROOT

GOLDEN_PAIRS = sorted(p.name.removesuffix(".v1.json") for p in GOLDEN.glob("*.v1.json"))


def _encoded(data: dict[str, object]) -> str:
    return dumps(data).text + "\n"


def test_there_are_golden_pairs() -> None:
    assert {"composer2", "portfolio", "audit-cards"} <= set(GOLDEN_PAIRS)


@pytest.mark.parametrize("name", GOLDEN_PAIRS)
def test_expanded_golden_is_the_1_0_golden(name: str) -> None:
    new = (GOLDEN / f"{name}.json").read_text("utf-8")
    old = (GOLDEN / f"{name}.v1.json").read_text("utf-8")
    assert json.loads(new)["schema_version"] == "2.0"
    assert _encoded(expanded(json.loads(new))) == old
    assert len(new) < len(old)


def _generate(folder: Path, count: int, seed: int) -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_portfolio", ROOT / "bench" / "gen_portfolio.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(folder, count, seed)


@pytest.mark.parametrize(("count", "seed"), [(30, 3), (12, 11)])
def test_expanded_generated_portfolio_is_its_1_0_report(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    count: int,
    seed: int,
) -> None:
    if not (ROOT / "licenses" / "catalog.yaml").is_file():
        pytest.skip("bench/gen_portfolio.py reads licenses/catalog.yaml of a checkout")
    _generate(tmp_path / "p", count, seed)
    (tmp_path / "p" / "zz-broken.yaml").write_text("format: 2\nproduct: [x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ("check", "p", "-f", "json", "--fail-on", "never", "--no-waivers")
    code_new, new, _ = run(capsys, *args)
    code_old, old, _ = run(capsys, *args, "--json-schema", "1.0")
    assert code_new == code_old == 2  # the broken manifest
    data = json.loads(new)
    assert data["schema_version"] == "2.0" and data["products"]
    assert list(data)[list(data).index("products") + 1] == "clauses"
    assert _encoded(expanded(data)) == old
    # each distinct fact once per component: no table holds one fact twice
    for product in data["products"]:
        for table in product["facts"].values():
            texts = [json.dumps(fact, sort_keys=True) for fact in table.values()]
            assert len(texts) == len(set(texts))
    # and a 2.0 report is a baseline as its 1.0 twin is: the same entries
    (tmp_path / "new.json").write_text(new, encoding="utf-8")
    (tmp_path / "old.json").write_text(old, encoding="utf-8")
    assert load(tmp_path / "new.json").entries == load(tmp_path / "old.json").entries
    assert load(tmp_path / "new.json").entries


def _finding(component: str, name: str, value: str, quote: str = "q") -> dict[str, object]:
    fact = {"name": name, "status": "established", "value": value, "evidence": []}
    fields = ("model", "model_name", "license_name", "title", "kind", "provenance")
    finding: dict[str, object] = {key: key for key in fields}
    return finding | {
        "component": component, "license": "lic", "clause": "c", "quote": quote,
        "facts": [fact],
    }  # fmt: skip


def test_one_name_two_values_are_two_facts() -> None:
    product = {
        "product": "P",
        "findings": [
            _finding("a", "commercial", "true"),
            _finding("a", "commercial", "false"),
            _finding("a", "commercial", "true"),
            _finding("b", "commercial", "false"),
        ],
    }
    leaner, clauses = leaner_product(product)
    assert [f["facts"] for f in leaner["findings"]] == [
        ["commercial"], ["commercial#2"], ["commercial"], ["commercial"],
    ]  # fmt: skip
    assert leaner["facts"]["a"]["commercial#2"]["value"] == "false"
    assert leaner["facts"]["b"]["commercial"]["value"] == "false"
    assert clauses == {"lic": {"c": {key: product["findings"][0][key] for key in (  # type: ignore[index]
        "license_name", "kind", "quote")}}}  # fmt: skip


def test_one_clause_two_texts_is_refused() -> None:
    _, one = leaner_product({"findings": [_finding("a", "x", "1", quote="one")]})
    _, two = leaner_product({"findings": [_finding("a", "x", "1", quote="two")]})
    merge(one, one)
    with pytest.raises(ClauseConflict):
        merge(one, two)


def test_a_baseline_2_0_without_a_clause_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    report = json.loads((GOLDEN / "composer2.json").read_text("utf-8"))
    report["clauses"] = {}
    (tmp_path / "b.json").write_text(json.dumps(report), encoding="utf-8")
    code, _, err = run(
        capsys,
        "check",
        "products/composer2.yaml",
        "--no-waivers",
        "--baseline",
        str(tmp_path / "b.json"),
    )
    assert code == 2
    assert "its clause is not in the report's `clauses`" in " ".join(err.split())
    assert "Traceback" not in err


def test_a_baseline_2_0_edited_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    report = json.loads((GOLDEN / "composer2.json").read_text("utf-8"))
    for entries in report["clauses"].values():
        for entry in entries.values():
            entry["quote"] = "another text"
    (tmp_path / "b.json").write_text(json.dumps(report), encoding="utf-8")
    code, _, err = run(
        capsys,
        "check",
        "products/composer2.yaml",
        "--no-waivers",
        "--baseline",
        str(tmp_path / "b.json"),
    )
    assert code == 2
    assert "the digest does not match" in " ".join(err.split())


@pytest.mark.parametrize(
    ("written", "version"), [('"1.0"', "1.0"), ("1.0", "1.0"), ('"2.0"', "2.0")]
)
def test_the_json_schema_setting(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    written: str,
    version: str,
) -> None:
    (tmp_path / ".licheck.yaml").write_text(f"json-schema: {written}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    manifest = str(ROOT / "products" / "composer2.yaml")
    code, out, err = run(capsys, "evaluate", manifest, "-f", "json", "--no-waivers")
    assert code in (0, 1), err
    assert json.loads(out)["schema_version"] == version
    code, out, _ = run(capsys, "evaluate", manifest, "-f", "json", "--json-schema", "2.0")
    assert json.loads(out)["schema_version"] == "2.0"  # the command line over the file


def test_an_unknown_json_schema_is_a_located_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".licheck.yaml").write_text('json-schema: "3.0"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "evaluate", str(ROOT / "products" / "composer2.yaml"), "-f", "json")
    assert code == 2 and ".licheck.yaml:1:14:" in err and "Traceback" not in err


def test_a_2_0_baseline_compares_the_quotes_of_its_clauses_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A 2.0 baseline whose table gives a clause another text (and whose digest says so, as a
    licheck with another rule library would write it): the comparison reads that quote."""
    from licheck.report.digest import product_digest, report_digest

    monkeypatch.chdir(ROOT)
    report = json.loads((GOLDEN / "composer2.json").read_text("utf-8"))
    for entries in report["clauses"].values():
        for entry in entries.values():
            entry["quote"] = "another text"
    products = expanded(report)["products"]
    report["digest"] = report_digest(report, (product_digest(p) for p in products))
    (tmp_path / "b.json").write_text(json.dumps(report), encoding="utf-8")
    code, _, err = run(
        capsys, "check", "products/composer2.yaml", "--no-waivers", "--fail-on", "never",
        "--baseline", str(tmp_path / "b.json"),
    )  # fmt: skip
    assert code == 0, err
    assert "the clause text of 2 finding(s) differs from the baseline's" in " ".join(err.split())
