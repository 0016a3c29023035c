"""Adversarial cases for manifest discovery (issue 21, "every manifest found"), kept as data
(tests/data/manifest_discovery/cases.yaml).

Each case is a file (its path in a scanned folder, and its bytes) beside a clean manifest, and
what `check DIR`, `notices DIR` and `discover DIR` must all make of it (docs/check.md, "Which
files are manifests"):

- "violation": found and evaluated: `check` reports the product with that verdict (exit 1),
  `notices` lists it, `discover` counts it among the manifests;
- "unread": handed to the loader and listed as not read at its location: exit 2 from all three
  (an emptied manifest, one that may be a manifest but cannot be read);
- "ignored": not a manifest: the run is the clean manifest's alone (exit 0).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import run
from tests.conftest import ROOT
from tests.regression.cases import rooted

VIOLATION = """\
product: Open Bound
owner: Test Co
release_date: 2026-03-19
facts:
  commercial: true
  mau: 200M
  monthly_revenue: 1M USD/month
  ui_attribution: []
  agreement_waives: []
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {model: kimi-k2.5}
"""
CLEAN = VIOLATION.replace("Open Bound", "Small Clean").replace("200M", "1M")
DATA = ROOT / "tests" / "data" / "manifest_discovery" / "cases.yaml"


def _case(row: dict[str, Any]) -> tuple[str, str, bytes, str]:
    """(name, path in the scanned folder, bytes, expected) of a data row."""
    where = rooted(row["path"])
    if "from" in row:
        data = (ROOT / row["from"]).read_bytes()
    else:
        data = row["bytes"] if "bytes" in row else row["text"].encode("utf-8")
    return row["name"], where, data, row["expected"]


CASES = [_case(row) for row in yaml.safe_load(DATA.read_text(encoding="utf-8"))["cases"]]


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("where", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_discovery_case(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    data: bytes,
    expected: str,
) -> None:
    root = tmp_path / "repo"
    (root / "products").mkdir(parents=True)
    (root / "products" / "clean.yaml").write_text(CLEAN, encoding="utf-8")
    case = root / "products" / where
    folder = root / "products"
    for part in Path(where).parent.parts:  # (Path.mkdir(parents=True) recurses per level)
        folder = folder / part
        folder.mkdir(exist_ok=True)
    case.write_bytes(data)
    monkeypatch.chdir(tmp_path)
    try:
        _judged_alike(capsys, f"repo/products/{where}", expected)
    finally:  # a tree deeper than the recursion limit, removed level by level (rmtree recurses)
        case.unlink()
        while folder != root / "products":
            folder.rmdir()
            folder = folder.parent


def _judged_alike(capsys: pytest.CaptureFixture[str], shown: str, expected: str) -> None:
    """What check, notices and discover make of the case at `shown`, beside the clean one."""
    code, out, _ = run(capsys, "check", "repo", "--no-waivers", "-f", "json")
    report = json.loads(out)
    products = {p["file"]: p["verdict"] for p in report["products"]}
    unread = {e["file"] for e in report["errors"]}
    if expected == "violation":
        assert (code, products, unread) == (1, {shown: "violation", **_clean()}, set())
        # the verdict `evaluate` gives the same file alone
        code, out, _ = run(capsys, "evaluate", shown, "--no-waivers", "-f", "json")
        assert (code, json.loads(out)["products"][0]["verdict"]) == (1, "violation")
    elif expected == "unread":
        assert (code, products, unread) == (2, _clean(), {shown})
        assert all(e["line"] >= 0 for e in report["errors"])
    else:
        assert (code, products, unread) == (0, _clean(), set())

    code, out, _ = run(capsys, "notices", "repo", "-f", "json")
    notices = json.loads(out)
    listed = {p["file"] for p in notices["products"]}
    not_read = {e["file"] for e in notices["errors"]}
    found = {shown} if expected == "violation" else set()
    assert (code, listed, not_read) == (
        2 if expected == "unread" else 0,
        {"repo/products/clean.yaml", *found},
        {shown} if expected == "unread" else set(),
    )

    code, out, _ = run(capsys, "discover", "repo", "-f", "json")
    discovered = json.loads(out)
    manifests = set(discovered["manifests"]) | {e["file"] for e in discovered["manifest_errors"]}
    assert code == (2 if expected == "unread" else 0)
    assert manifests == {
        "repo/products/clean.yaml",
        *found,
        *({shown} if expected == "unread" else ()),
    }


def _clean() -> dict[str, str]:
    return {"repo/products/clean.yaml": "not_applicable"}


def test_the_table_is_large_and_names_are_unique() -> None:
    assert len(CASES) >= 20 and len({c[0] for c in CASES}) == len(CASES)
    assert {c[3] for c in CASES} == {"violation", "unread", "ignored"}


def _hook_argv(args: list[str] | None = None) -> list[str]:
    """The command line the pre-commit hook runs (`.pre-commit-hooks.yaml`), without `licheck`."""
    import shlex

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    entry = shlex.split(hook["entry"])
    assert entry[:2] == ["licheck", "check"]
    return [*entry[1:], *(hook["args"] if args is None else args)]


@pytest.mark.parametrize("emptied", [b"", b"\n\n", b"# product: gone\n", b"---\n", b"{}\n"])
@pytest.mark.parametrize("args", [None, ["products/"]])
def test_the_pre_commit_hook_fails_when_the_only_manifest_is_emptied(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    emptied: bytes,
    args: list[str] | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "products").mkdir()
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    only = tmp_path / "products" / "only.yaml"
    only.write_text(CLEAN, encoding="utf-8")
    assert run(capsys, *_hook_argv(args), "--no-waivers")[0] == 0
    only.write_bytes(emptied)
    code, out, err = run(capsys, *_hook_argv(args), "--no-waivers")
    assert code == 2
    assert "products/only.yaml:" in out and "could not be read" in err


def test_the_pre_commit_hook_runs_for_any_yaml_name() -> None:
    import re

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    files = re.compile(hook["files"])  # pre-commit: re.search on each staged path
    assert all(files.search(p) for p in ("products/a.yaml", "m.YAML", "x/m.Yml", "ci.yml"))
    assert not files.search("notes.txt")


def test_a_virtual_environment_at_the_scanned_root_is_scanned(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `pyvenv.cfg` at the root named made `discover` read nothing and pass
    `--fail-on-undeclared`; one in a subfolder still skips that folder, and says so."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / "src" / "load.py").write_text('from_pretrained("acme/secret-model")\n', "utf-8")
    (root / "env" / "lib").mkdir(parents=True)
    (root / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / "env" / "lib" / "x.py").write_text('from_pretrained("acme/vendored")\n', "utf-8")
    code, out, _ = run(capsys, "discover", "app", "--fail-on-undeclared", "-f", "json")
    found = json.loads(out)
    assert code == 1
    assert [m["id"] for m in found["models"]] == ["acme/secret-model"]
    assert found["skipped_folders"] == [
        {"folder": "app/env", "why": "a virtual environment (it holds a pyvenv.cfg)"}
    ]
    code, out, _ = run(capsys, "discover", "app")
    assert "Folders not scanned" in out and "app/env: a virtual environment" in out


def test_check_v_lists_what_it_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "repo" / ".github").mkdir(parents=True)
    # format: 2 stated, so the only lines on stderr are the skipped files'
    (tmp_path / "repo" / "m.yaml").write_text(CLEAN + "format: 2\n", encoding="utf-8")
    (tmp_path / "repo" / "ci.yml").write_bytes(b"on: [push]\njobs: {}\n")
    (tmp_path / "repo" / "values.YAML").write_bytes(b"release:\n  product: X\n")
    code, _, err = run(capsys, "check", "repo", "-v", "--no-waivers")
    assert code == 0
    assert err.splitlines() == [
        "licheck: skipped repo/.github: hidden (its name starts with '.')",
        "licheck: skipped repo/ci.yml: not a manifest: no `product` key anywhere in it",
        "licheck: skipped repo/values.YAML: not a manifest: no top-level `product` key (nor "
        "both `owner` and `components`)",
    ]
    assert run(capsys, "check", "repo", "--no-waivers")[2] == ""  # without -v: nothing
