"""`licheck evaluate` given several manifests keeps going as `licheck check` does: every readable
manifest is evaluated, each broken one is reported at file:line:column on stderr and listed as
not read in every format, and the run exits 2.  One manifest named and broken: as before, its
problems on stderr and no report.  The broken manifests here sit between the valid ones."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from licheck.api import check, evaluate
from licheck.outputs import Format
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS
from tests.portfolio.test_keep_going import (
    BROKEN,
    SARIF_SCHEMA,
    VALID,
    _break,
    _broken_located,
    _findings_kept,
    _valid,
)

UNMATCHED_WAIVER = (
    "waivers:\n  - id: for-broken\n    product: Bad Schema\n"
    "    license: kimi-k2.5-modified-mit\n    clause: ui-attribution\n"
    "    reason: facts_pending\n    comment: x\n    owner: legal@example.com\n"
    "    expires: 2099-06-30\n"
)


def _middle(tmp_path: Path) -> list[str]:
    """The two valid manifests with the two broken ones between them, as `mixed/NAME`."""
    folder = _break(_valid(tmp_path))
    first, last = VALID
    return [f"{folder.name}/{name}" for name in (first, "a-syntax.yaml", "b-schema.yaml", last)]


def _evaluate(
    capsys: pytest.CaptureFixture[str], paths: list[str], fmt: str, *more: str
) -> tuple[int, str, str]:
    return run(capsys, "evaluate", "--no-waivers", "--format", fmt, *more, *paths)


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    paths = _middle(tmp_path)
    monkeypatch.chdir(tmp_path)
    return paths


@pytest.mark.parametrize("fmt", [f.value for f in Format])
def test_every_valid_manifest_is_evaluated_and_every_broken_one_located(
    capsys: pytest.CaptureFixture[str], mixed: list[str], fmt: str
) -> None:
    valid_code, valid_out, _ = _evaluate(capsys, [mixed[0], mixed[-1]], fmt)
    assert valid_code == 0
    code, out, err = _evaluate(capsys, mixed, fmt)
    assert code == 2
    assert "2 manifests could not be read; every other manifest was evaluated" in err
    assert "Traceback" not in err
    for name, line, column in BROKEN:
        assert f"mixed/{name}:{line}:{column}: error:" in err
    _findings_kept(fmt, out, valid_out)
    _broken_located(fmt, out)


@pytest.mark.parametrize("with_waivers", [False, True], ids=["no-waivers", "waivers"])
def test_the_report_is_the_one_check_gives(tmp_path: Path, with_waivers: bool) -> None:
    """The same report, `errors` and waiver notes included, as `check` over the same files: one
    way to list what could not be read, whatever the command."""
    paths = [tmp_path / name for name in _middle(tmp_path)]
    waivers = None
    if with_waivers:
        waivers = tmp_path / "waivers.yaml"
        waivers.write_text(UNMATCHED_WAIVER, encoding="utf-8")
    evaluated = evaluate(paths, waivers=waivers, keep_going=True)
    assert {(Path(e.file).name, e.line, e.column) for e in evaluated.errors} == BROKEN
    assert [p.product for p in evaluated.products] == ["Composer 2", "SWE-1.5"]
    assert evaluated == check(paths, waivers=waivers)
    if with_waivers:
        (status,) = evaluated.waivers
        assert "a manifest that could not be read" in status.message


@pytest.mark.parametrize("fail_on", ["risk", "violation", "never"])
def test_exit_2_wins_over_the_gate(
    capsys: pytest.CaptureFixture[str], mixed: list[str], fail_on: str
) -> None:
    alone = _evaluate(capsys, [mixed[0], mixed[-1]], "compact", "--fail-on", fail_on)[0]
    assert alone == (1 if fail_on == "risk" else 0)  # the valid ones fail only at risk
    code, out, _ = _evaluate(capsys, mixed, "compact", "--fail-on", fail_on)
    assert code == 2
    assert f"Gate (--fail-on {fail_on}): FAILS: 2 manifests could not be read, exit 2" in out


def test_the_json_report_stays_valid(capsys: pytest.CaptureFixture[str], mixed: list[str]) -> None:
    import jsonschema

    from licheck.schemas import shipped

    report = json.loads(_evaluate(capsys, mixed, "json")[1])
    validator = jsonschema.Draft202012Validator(json.loads(shipped("report")))
    assert list(validator.iter_errors(report)) == []
    assert report["errors"] and report["products"]


@pytest.mark.skipif(not SARIF_SCHEMA.is_file(), reason="../shared/reference/schemas is absent")
def test_the_sarif_log_stays_valid(capsys: pytest.CaptureFixture[str], mixed: list[str]) -> None:
    import jsonschema

    sarif = report_json(_evaluate(capsys, mixed, "sarif")[1])
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    assert list(jsonschema.Draft4Validator(schema).iter_errors(sarif)) == []


def test_a_file_report_lists_them_and_stderr_says_where(
    capsys: pytest.CaptureFixture[str], mixed: list[str], tmp_path: Path
) -> None:
    code, out, err = _evaluate(capsys, mixed, "json", "-o", "report.json")
    assert (code, out) == (2, "")
    for name, line, column in BROKEN:
        assert f"mixed/{name}:{line}:{column}: error:" in err
    _broken_located("json", (tmp_path / "report.json").read_text(encoding="utf-8"))


def test_several_manifests_all_broken_still_give_a_report(
    capsys: pytest.CaptureFixture[str], mixed: list[str]
) -> None:
    for fmt in ("json", "sarif", "junit"):
        code, out, _ = _evaluate(capsys, mixed[1:-1], fmt)
        assert code == 2
        _broken_located(fmt, out)
    assert report_json(_evaluate(capsys, mixed[1:-1], "json")[1])["products"] == []


@pytest.mark.usefixtures("unwrapped")
def test_one_broken_manifest_named_alone_is_refused_as_before(
    capsys: pytest.CaptureFixture[str], mixed: list[str]
) -> None:
    """No report of no product: the located problem, and nothing on standard output."""
    code, out, err = _evaluate(capsys, [mixed[1]], "json")
    assert (code, out) == (2, "")
    assert "mixed/a-syntax.yaml:3:1: error:" in err
    assert "licheck: 1 problem in the input; nothing was evaluated" in err


NASTY: dict[str, bytes] = {
    "empty.yaml": b"",
    "binary.yaml": bytes(range(256)),
    "latin1.yaml": "product: Café\n".encode("latin-1"),
    "utf16.yaml": "product: X\n".encode("utf-16"),
    "list.yaml": b"- product: X\n- owner: Y\n",
    "scalar.yaml": b"just text\n",
    "locked.yaml": b"product: Locked\n",
}
WHY = {
    "empty.yaml": "the file is empty",
    "binary.yaml": "binary data",
    "latin1.yaml": "not valid UTF-8",
    "utf16.yaml": "UTF-16 or UTF-32",
    "list.yaml": "got a list",
    "scalar.yaml": "expected a mapping",
    "locked.yaml": "permission denied",
    "folder.yaml": "is a directory",
    "absent.yaml": "no such file",
}


def test_nasty_inputs_among_valid_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Empty, binary, Latin-1, UTF-16, a YAML list, a scalar, an unreadable file, a folder and
    a missing file, between two valid manifests: each located and listed, the two evaluated,
    exit 2."""
    for name, data in NASTY.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "folder.yaml").mkdir()
    real_open = os.open

    def deny_locked(path: object, *args: object, **kwargs: object) -> int:
        if str(path).endswith("locked.yaml"):  # as for an unreadable file, even run as root
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", deny_locked)  # licheck.files.safeio opens with os.open
    monkeypatch.chdir(tmp_path)
    first, last = (str(PRODUCTS / name) for name in VALID)
    code, out, err = _evaluate(capsys, [first, *WHY, last], "json")
    assert code == 2, err
    report = report_json(out)
    assert [p["product"] for p in report["products"]] == ["Composer 2", "SWE-1.5"]
    messages = {e["file"]: e["message"] for e in report["errors"]}
    assert sorted(messages) == sorted(WHY)
    for name, why in WHY.items():
        assert why in messages[name], (name, messages[name])
        assert f"{name}" in err
    assert f"{len(WHY)} manifests could not be read" in err


@pytest.mark.usefixtures("unwrapped")
@pytest.mark.parametrize("bad", ["waivers", "licenses"])
def test_a_bad_input_of_the_whole_run_still_stops_it(
    capsys: pytest.CaptureFixture[str], mixed: list[str], tmp_path: Path, bad: str
) -> None:
    """A broken waiver file or rule library is no manifest's problem: nothing is evaluated."""
    if bad == "waivers":
        (tmp_path / "w.yaml").write_text("waivers: [\n", encoding="utf-8")
        option = ("--waivers", "w.yaml")
    else:
        (tmp_path / "lib").mkdir()
        (tmp_path / "lib" / "x.yaml").write_text("id: [\n", encoding="utf-8")
        option = ("--licenses", "lib")
    code, out, err = run(capsys, "evaluate", "-f", "json", *option, *mixed)
    assert (code, out) == (2, "")
    assert "nothing was evaluated" in err
    assert "a-syntax.yaml" not in err  # the run stopped before any manifest was read
