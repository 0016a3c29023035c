"""The runner of the data-driven regression cases (tests/data/<class>/*.yaml): each case writes
its `files` into a temporary folder, runs each of its `commands` through the CLI (`{tmp}` is that
folder) and checks what the case expects. COLUMNS is 1000 for every run, so no message wraps
and no case depends on the terminal's width or the temporary path's length."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import run

DATA = Path(__file__).resolve().parents[1] / "data"


def load(kind: str) -> list[dict[str, Any]]:
    """Every case of the class `kind`, from each YAML file of tests/data/`kind`/ in name order."""
    cases: list[dict[str, Any]] = []
    for path in sorted((DATA / kind).glob("*.yaml")):
        cases.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["cases"])
    names = [case["name"] for case in cases]
    assert len(names) == len(set(names)), "two cases share a name"
    return cases


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case["name"] for case in cases]


def _unwrapped(text: str) -> str:
    return " ".join(text.split())


def runs(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: dict[str, Any],
) -> Iterator[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of each of the case's commands, run on its files."""
    monkeypatch.setenv("COLUMNS", "1000")
    for name, text in case["files"].items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for command in case["commands"]:
        yield run(capsys, *(arg.replace("{tmp}", str(tmp_path)) for arg in command))


def check(case: dict[str, Any], code: int, out: str, err: str) -> None:
    """What the case expects of one run."""
    allowed = case["exit"] if isinstance(case["exit"], list) else [case["exit"]]
    assert code in allowed, out + err
    assert "Traceback" not in err
    for fragment in case.get("stderr", []):
        assert fragment in err, err
    for fragment in case.get("stderr_words", []):
        assert _unwrapped(fragment) in _unwrapped(err), err
    for fragment, count in case.get("stderr_counts", {}).items():
        assert err.count(fragment) == count, err
    for fragment in case.get("stdout", []):
        assert fragment in out, out
    if "verdicts" in case:
        found = {
            f"{f['license']}/{f['clause']}": f["verdict"]
            for product in json.loads(out)["products"]
            for f in product["findings"]
        }
        assert {key: found.get(key) for key in case["verdicts"]} == case["verdicts"]
