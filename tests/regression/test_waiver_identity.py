"""Which finding a waiver names, and until when: expiry dates are days (not months, not a year's
last day), and a product name several manifests share is ambiguous (by name; by path it is not),
even where only one of them has the waived finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


COMPOSER = ROOT / "products" / "composer2.yaml"


def _waiver(tmp_path: Path, **fields: str) -> Path:
    entry = {
        "id": "w1",
        "product": "Composer 2",
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": "c",
        "owner": "o",
        "expires": "2026-06-30",
        **fields,
    }
    path = tmp_path / "w.yaml"
    path.write_text(
        "waivers:\n  - " + "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in entry.items()) + "\n",
        encoding="utf-8",
    )
    return path


WAIVER_CASES = {
    "granted-after-expiry": ({"granted": "2026-07-01"}, 2, "after it expires"),
    "granted-in-future": ({"granted": "2026-05-01"}, 2, "a grant cannot be in the future"),
    "granted-ok": ({"granted": "2026-03-01"}, 0, ""),
    "no-grant": ({}, 0, ""),
    "expired": ({"expires": "2026-03-31"}, 1, ""),
    "injected-comment": ({"comment": "x\n::error::forged\x1b[2J"}, 0, ""),
}


@pytest.mark.parametrize("case", WAIVER_CASES)
def test_waiver_dates(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str) -> None:
    fields, expected, message = WAIVER_CASES[case]
    waivers = _waiver(tmp_path, **fields)
    code, out, err = run(
        capsys,
        "check",
        str(COMPOSER),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
        "-f",
        "github",
    )
    assert code == expected, err
    assert message in err
    assert not any(line.startswith("::") for line in err.splitlines())
    assert all(line.startswith(("::", "licheck: ")) for line in out.splitlines() if line)


@pytest.mark.parametrize("by_path", [False, True], ids=["by-name", "by-path"])
def test_waiver_for_a_shared_product_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, by_path: bool
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    shutil.copy(COMPOSER, folder / "b.yaml")
    product = str(folder / "a.yaml") if by_path else "Composer 2"
    waivers = _waiver(tmp_path, product=product)
    code, _, err = run(
        capsys,
        "check",
        str(folder),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
    )
    if by_path:
        assert (code, err) == (1, "")  # b.yaml still fails: the waiver names a.yaml only
    else:
        assert code == 2
        assert "which 2 manifests of this run share" in err


def _waiver_file(tmp_path: Path, product: str) -> Path:
    path = tmp_path / "w.yaml"
    entry = {
        "id": "w1",
        "product": product,
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": "c",
        "owner": "o",
        "expires": "2026-06-30",
    }
    body = "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in entry.items())
    path.write_text(f"waivers:\n  - {body}\n", encoding="utf-8")
    return path


SHARED = {
    # (the waiver's product, exit code, message)
    "by-name": ("Composer 2", 2, "which 2 manifests of this run share"),
    "by-path": ("{d}/a.yaml", 1, ""),  # b.yaml's own risks still fail the gate
    "by-dotted-path": ("{d}/./a.yaml", 1, ""),
}


@pytest.mark.parametrize("case", SHARED)
def test_shared_name_is_ambiguous_even_where_only_one_matches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    """b.yaml shares the name but has no finding the waiver matches (another base model):
    the name is still ambiguous, since b's findings may change."""
    import shutil

    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    other = (ROOT / "products" / "composer1.yaml").read_text(encoding="utf-8")
    (folder / "b.yaml").write_text(
        other.replace("product: Composer 1", "product: Composer 2"), encoding="utf-8"
    )
    named, expected, message = SHARED[case]
    waivers = _waiver_file(tmp_path, named.replace("{d}", str(folder)))
    code, out, err = run(
        capsys,
        "check",
        str(folder),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
        "--format",
        "json",
    )
    assert code == expected, err
    assert message in err
    if out:
        report = json.loads(out)
        waived = {p["file"]: sum(f["waived"] for f in p["findings"]) for p in report["products"]}
        assert waived == {str(folder / "a.yaml"): 1, str(folder / "b.yaml"): 0}


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("expires", "2026-06", 2),
        ("expires", "'2026-06'", 2),
        ("granted", "2026-03", 2),
        ("expires", "2026-06-30", 0),
        ("granted", "2026-03-01", 0),
    ],
)
def test_waiver_dates_are_days_not_months(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: str, expected: int
) -> None:
    waivers = _waiver_file(tmp_path, "Composer 2")
    text = waivers.read_text(encoding="utf-8")
    if field == "expires":
        text = text.replace('expires: "2026-06-30"', f"expires: {value}")
    else:
        text += f"    granted: {value}\n"
    waivers.write_text(text, encoding="utf-8")
    code, _, err = run(
        capsys, "check", str(COMPOSER), "--waivers", str(waivers), "--today", "2026-04-01"
    )
    assert code == expected, err
    if expected:
        assert "expected a day as YYYY-MM-DD, got the month" in err
