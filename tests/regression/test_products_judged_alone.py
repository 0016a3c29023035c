"""The gate's isolation cases, kept as data (`tests/data/isolation/cases.yaml`): products checked
alone and together, in both orders, get the same findings, and the gate's exit code is the one
the products alone give (issue 21, deliverables 1 and 9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import run

DATA = Path(__file__).resolve().parents[1] / "data" / "isolation" / "cases.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))["cases"]


def _check(capsys: pytest.CaptureFixture[str], paths: list[Path], fail_on: str) -> tuple[int, Any]:
    code, out, err = run(
        capsys, "check", *map(str, paths), "--format", "json", "--fail-on", fail_on
    )
    assert code in (0, 1), err
    return code, {p["file"]: p for p in json.loads(out)["products"]}


def _verdicts(product: dict[str, Any]) -> dict[str, str]:
    return {
        f"{f['component']} {f['model']} {f['license']}/{f['clause']}": f["verdict"]
        for f in product["findings"]
    }


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_product_is_judged_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: dict[str, Any]
) -> None:
    fail_on = case.get("fail_on", "violation")
    paths = []
    for number, product in enumerate(case["products"], 1):
        path = tmp_path / f"p{number}.yaml"
        manifest = {"product": f"P{number}", **product["manifest"]}
        path.write_text(yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False), "utf-8")
        paths.append(path)
    alone: dict[str, Any] = {}
    codes = []
    for path, product in zip(paths, case["products"], strict=True):
        code, found = _check(capsys, [path], fail_on)
        codes.append(code)
        alone.update(found)
        verdicts = {
            f"{f['license']}/{f['clause']}": f["verdict"] for f in found[str(path)]["findings"]
        }
        assert {k: verdicts.get(k) for k in product["expect"]} == product["expect"], path.name
    for order in (paths, paths[::-1]):
        code, together = _check(capsys, order, fail_on)
        for file, product in alone.items():
            assert _verdicts(together[file]) == _verdicts(product), file
            assert together[file] == product, file
        assert code == max(codes) == case["exit"]
