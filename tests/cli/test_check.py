"""`licheck check`: discovery of manifests in folders, the --fail-on gate and its exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from licheck.files.discovery import discover
from licheck.report.view import FailOn, exit_code
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # relative paths in output, and no stray default waiver file


@pytest.mark.parametrize(("fail_on", "expected"), [("risk", 1), ("violation", 0), ("never", 0)])
def test_shipped_products_gate(
    capsys: pytest.CaptureFixture[str], fail_on: str, expected: int
) -> None:
    code, out, _ = run(capsys, "check", "products/", "--fail-on", fail_on, "--no-waivers")
    assert code == expected
    verdict = "FAILS" if expected else "passes"
    assert f"Gate (--fail-on {fail_on}): {verdict}" in out


def test_summary_counts_every_product(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "products/", "--no-waivers", "-f", "json")
    assert code == 0
    import json

    report = json.loads(out)
    manifests = sorted(PRODUCTS.glob("*.yaml"))
    assert report["summary"]["products"] == len(manifests)
    assert report["summary"]["findings"] == sum(len(p["findings"]) for p in report["products"])


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "a" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    shutil.copy(PRODUCTS / "composer2.yaml", root / "a" / "deep" / "one.yaml")
    shutil.copy(PRODUCTS / "composer2.yaml", root / "two.yml")
    shutil.copy(PRODUCTS / "composer2.yaml", root / ".hidden" / "three.yaml")
    shutil.copy(PRODUCTS / "composer2.yaml", root / ".four.yaml")
    shutil.copy(ROOT / "licenses" / "mit.yaml", root / "a" / "rule.yaml")
    (root / "ci.yaml").write_text("on: [push]\njobs: {}\n", encoding="utf-8")
    (root / "notes.txt").write_text("product: not yaml\n", encoding="utf-8")
    (root / "broken-but-not-a-manifest.yaml").write_text("{{ helm }}: [\n", encoding="utf-8")
    return root


def test_discovery_in_folders(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    found = [p.relative_to(root).as_posix() for p in discover([root])]
    assert found == ["two.yml", "a/deep/one.yaml"]


def test_named_files_are_always_manifests_and_deduplicated(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    found = discover([root / "ci.yaml", root, root / "two.yml"])
    assert [p.name for p in found] == ["ci.yaml", "two.yml", "one.yaml"]


def test_a_symlink_to_a_manifest_is_checked_once(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "link.yaml").symlink_to(root / "two.yml")
    found = discover([root, root / "two.yml"])
    assert [p.name for p in found] == ["link.yaml", "one.yaml"]


def test_product_key_after_a_long_header_is_found(tmp_path: Path) -> None:
    """The sniff reads the whole file (up to the loader's size limit): a key after a long
    header is found wherever it is."""
    manifest = (PRODUCTS / "composer2.yaml").read_text(encoding="utf-8")
    for name, padding in (
        ("after.yaml", 70_000),
        ("straddle.yaml", (1 << 16) - 4),
        ("beyond.yaml", (1 << 20) + 10),
    ):
        (tmp_path / name).write_text("#" * (padding - 1) + "\n" + manifest, encoding="utf-8")
    assert sorted(p.name for p in discover([tmp_path])) == [
        "after.yaml",
        "beyond.yaml",
        "straddle.yaml",
    ]


def test_named_non_manifest_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    root = _tree(tmp_path)
    code, out, err = run(capsys, "check", str(root / "ci.yaml"))
    assert code == 2
    assert "ci.yaml:1:1: error: missing required key 'product'" in out  # in the report
    assert "1 manifest could not be read" in err
    assert "Traceback" not in out + err


def test_broken_manifest_in_folder_exits_2_with_location(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    root = _tree(tmp_path)
    (root / "bad.yaml").write_text("product: Bad\nowner: x\ncomponents: []\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(root), "--fail-on", "never")
    assert code == 2  # whatever --fail-on: what was not read cannot pass
    assert "bad.yaml:3:" in out and "1 manifest could not be read" in err
    assert "Composer 2" in out  # the others were evaluated


def test_empty_folder_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2
    assert "no manifests found" in err


def test_missing_path_and_bad_format_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "no/such/folder")[0] == 2
    assert run(capsys, "check", "products/", "--format", "yaml")[0] == 2
    assert run(capsys, "check", "products/", "--fail-on", "sometimes")[0] == 2
    assert run(capsys, "check", "products/", "--waivers", "x.yaml", "--no-waivers")[0] == 2


def test_output_file_is_written_and_stdout_stays_empty(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "out.sarif"
    code, out, _ = run(
        capsys,
        "check",
        "products/",
        "-f",
        "sarif",
        "-o",
        str(target),
        "--fail-on",
        "risk",
        "--no-waivers",
    )
    assert code == 1
    assert out == ""
    assert target.read_text(encoding="utf-8").startswith("{")
    assert [p.name for p in tmp_path.iterdir()] == ["out.sarif"]  # no temporary left behind


def test_evaluate_gate_uses_the_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "evaluate", "products/composer2.yaml", "--fail-on", "risk")[0] == 1
    assert run(capsys, "evaluate", "products/composer2.yaml")[0] == 0


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0
    for line in ("0  no finding", "1  at least one", "2  bad input"):
        assert line in out
    docs = (ROOT / "docs" / "check.md").read_text(encoding="utf-8")
    assert "licheck check" in docs and "| `2` | bad input or usage" in docs


def test_exit_code_ignores_waived_findings() -> None:
    from licheck.api import check

    report = check(PRODUCTS / "composer2.yaml")
    assert exit_code(report, FailOn.RISK) == 1
    products = [
        p.model_copy(
            update={"findings": [f.model_copy(update={"waived": True}) for f in p.findings]}
        )
        for p in report.products
    ]
    from licheck.report.view import summarize

    waived = report.model_copy(update={"products": products, "summary": summarize(products)})
    assert exit_code(waived, FailOn.RISK) == 0
    assert waived.verdict == report.verdict  # the raw verdict still shows the risk
