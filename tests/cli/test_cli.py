"""The command line as a user meets it: exit codes, formats, errors, the installed entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from licheck import __version__
from licheck.vocabulary.names import FACTS
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

COMPOSER2 = str(PRODUCTS / "composer2.yaml")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and __version__ in out


@pytest.mark.parametrize(("fail_on", "expected"), [("violation", 0), ("risk", 1), ("never", 0)])
def test_fail_on(capsys: pytest.CaptureFixture[str], fail_on: str, expected: int) -> None:
    code, _, _ = run(capsys, "evaluate", COMPOSER2, "--fail-on", fail_on, "-f", "json")
    assert code == expected


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate"],
        ["evaluate", COMPOSER2, "--format", "pdf"],
        ["nosuchcommand"],
        ["evaluate", COMPOSER2, "--as-of", "yesterday"],
        ["evaluate", COMPOSER2, "--evidence", "gossip"],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert "Traceback" not in err


def test_bad_manifest_is_located(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "product: X\nowner: Y\ncomponents:\n  - id: c\n    name: C\n"
        "    lineage: {base: kimi-k2.6-typo}\nfacts:\n  muu: 5M\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "evaluate", str(bad))
    assert code == 2 and out == ""
    assert f"{bad}:8:" in err and "'mau'" in err  # did you mean
    assert f"{bad}:6:" in err and "unknown model" in err
    assert "Traceback" not in err


def test_all_problems_in_all_files_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("product: A\n", encoding="utf-8")
    two.write_text("product: B\nproduct: C\n", encoding="utf-8")
    code, _, err = run(capsys, "evaluate", str(one), str(two))
    assert code == 2
    assert str(one) in err and str(two) in err


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, "evaluate", COMPOSER2, "-f", "json", "-o", str(target))
    assert code == 0 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["verdict"] == "governance_risk"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary left


def test_licenses_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "licenses", "list", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and {"kimi-k2.5-modified-mit", "mit", "apache-2.0"} <= {r["id"] for r in rows}


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_licenses_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "licenses", "show", "kimi-k2.5-modified-mit")
    assert code == 0 and "ui-attribution" in out and "monthly_revenue > 20M USD/month" in out
    code, _, err = run(capsys, "licenses", "show", "kimi-k2.5-modifed-mit")
    assert code == 2 and "did you mean 'kimi-k2.5-modified-mit'" in err


def test_validate(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted(PRODUCTS.glob("*.yaml"))]
    code, out, err = run(capsys, "validate", *files, str(ROOT / "licenses" / "mit.yaml"))
    assert code == 0, err
    assert out.count("ok:") == len(files) + 1


def test_docs_fact_table_matches_the_vocabulary() -> None:
    readme = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    table = readme.split("<!-- facts:begin")[1].split("<!-- facts:end -->")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(FACTS)


@pytest.mark.slow
def test_python_dash_m_from_another_directory(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "licheck", "evaluate", COMPOSER2, "-f", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["products"][0]["verdict"] == "governance_risk"
