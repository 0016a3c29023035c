"""`licheck check` keeps going (issue 15): every valid manifest is evaluated even when others are
broken; the broken ones are reported at file:line:column in every format, and the run exits 2
(over the gate's 1)."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from licheck.outputs import Format, RenderOptions, render
from licheck.portfolio import workers as portfolio
from licheck.portfolio.runs import check_report, check_stream, evidence_policy
from licheck.report.view import FailOn
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS, REFERENCE

SARIF_SCHEMA = REFERENCE / "schemas" / "sarif-schema-2.1.0.json"
VALID = ("composer2.yaml", "swe-1.5.yaml")
SYNTAX = "product: Broken\nowner: [unclosed\n"
SCHEMA = (
    "format: 2\nproduct: Bad Schema\nowner: O\ncomponents:\n  - id: c\n    name: C\n"
    "    delivery: hosted\n    lineage:\n      base:\n        model: kimi-k2.5\n    colour: red\n"
)
# Where each broken manifest's problems are (file, line, column).
BROKEN = {
    ("a-syntax.yaml", 3, 1),
    ("b-schema.yaml", 7, 15),
    ("b-schema.yaml", 11, 5),
}


def _valid(tmp_path: Path) -> Path:
    """A folder with the two valid manifests."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    for name in VALID:
        shutil.copy(PRODUCTS / name, folder / name)
    return folder


def _break(folder: Path) -> Path:
    """The folder with the two broken manifests added."""
    (folder / "a-syntax.yaml").write_text(SYNTAX, encoding="utf-8")
    (folder / "b-schema.yaml").write_text(SCHEMA, encoding="utf-8")
    return folder


def _check(
    capsys: pytest.CaptureFixture[str], folder: Path, fmt: str, *more: str
) -> tuple[int, str, str]:
    return run(capsys, "check", "--no-waivers", "--format", fmt, *more, folder.name)


# Lines that speak of the whole run (totals, the gate), not of one product's findings.
RUN_LINES = ("Gate (", "### licheck:", "<testsuites", "Overall:", "licheck: Gate", "Summary:")


def _findings_kept(fmt: str, mixed: str, valid: str) -> None:
    """Everything the valid manifests alone give is in the mixed run's output."""
    if fmt == "json":
        assert report_json(mixed)["products"] == report_json(valid)["products"]
        return
    if fmt == "sarif":
        kept = report_json(mixed)["runs"][0]["results"]
        for result in report_json(valid)["runs"][0]["results"]:
            assert result in kept
        return
    lines = set(mixed.splitlines())
    missing = [
        line
        for line in valid.splitlines()
        if line not in lines and not any(word in line for word in RUN_LINES)
    ]
    assert not missing, missing


def _broken_located(fmt: str, out: str) -> None:
    """Each problem of the broken manifests is in the output with its file, line and column."""
    if fmt == "json":
        found = {(Path(e["file"]).name, e["line"], e["column"]) for e in report_json(out)["errors"]}
        assert found == BROKEN
        return
    if fmt == "sarif":
        run_ = report_json(out)["runs"][0]
        results = [r for r in run_["results"] if r["ruleId"] == "licheck/manifest-not-read"]
        rules = run_["tool"]["driver"]["rules"]
        assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run_["results"])
        notes = run_["invocations"][0]["toolExecutionNotifications"]
        for located in (results, notes):
            found = set()
            for item in located:
                place = item["locations"][0]["physicalLocation"]
                name = place["artifactLocation"]["uri"].rpartition("/")[2]
                found.add((name, place["region"]["startLine"], place["region"]["startColumn"]))
            assert found == BROKEN
        return
    if fmt == "junit":
        root = ET.fromstring(out)
        errors = root.findall(".//testcase/error")
        text = "\n".join(e.text or "" for e in errors)
        assert len(errors) == 2 and root.get("errors") == "2"
    elif fmt == "github":
        for name, line, column in BROKEN:
            assert f"::error file=mixed/{name},line={line},col={column}," in out
        return
    else:
        text = out
    for name, line, column in BROKEN:
        assert f"mixed/{name}:{line}:{column}" in text, (name, line, column)


@pytest.mark.parametrize("fmt", [f.value for f in Format])
@pytest.mark.parametrize("workers", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_every_valid_manifest_is_evaluated_and_every_broken_one_located(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fmt: str,
    workers: bool,
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    folder = _valid(tmp_path)
    monkeypatch.chdir(tmp_path)
    if workers:  # worker processes for a handful of files, one path per task
        monkeypatch.setattr(portfolio, "PARALLEL_MIN", 1)
        monkeypatch.setattr(portfolio, "CHUNK", 1)
    valid_code, valid_out, _ = _check(capsys, folder, fmt)
    assert valid_code == 0
    code, out, err = _check(capsys, _break(folder), fmt)
    assert code == 2
    assert "2 manifests could not be read" in err and "Traceback" not in err
    _findings_kept(fmt, out, valid_out)
    _broken_located(fmt, out)


def test_workers_in_a_quick_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The worker processes' path, in the quick loop too (JSON)."""
    folder = _valid(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(portfolio, "PARALLEL_MIN", 1)
    monkeypatch.setattr(portfolio, "CHUNK", 1)
    valid = _check(capsys, folder, "json")[1]
    code, out, _ = _check(capsys, _break(folder), "json")
    assert code == 2
    _findings_kept("json", out, valid)
    _broken_located("json", out)


def test_output_file_and_also_files_all_list_the_broken_manifests(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    mixed = _break(_valid(tmp_path))
    monkeypatch.chdir(tmp_path)
    extras = {fmt: tmp_path / f"report.{fmt}" for fmt in ("sarif", "junit", "markdown", "text")}
    also = [arg for fmt, path in extras.items() for arg in ("--also", f"{fmt}={path}")]
    code, out, err = _check(capsys, mixed, "json", "-o", "report.json", *also)
    assert (code, out) == (2, "")
    for name, line, column in BROKEN:  # the report is in files: the problems are said on stderr
        assert f"mixed/{name}:{line}:{column}: error:" in err
    _broken_located("json", (tmp_path / "report.json").read_text(encoding="utf-8"))
    for fmt, path in extras.items():
        _broken_located(fmt, path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fail_on", ["risk", "violation", "never"])
def test_exit_2_wins_over_the_gate(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fail_on: str,
) -> None:
    folder = _valid(tmp_path)
    monkeypatch.chdir(tmp_path)
    alone = _check(capsys, folder, "compact", "--fail-on", fail_on)[0]
    assert alone == (1 if fail_on == "risk" else 0)  # the valid ones fail only at risk
    code, out, _ = _check(capsys, _break(folder), "compact", "--fail-on", fail_on)
    assert code == 2
    assert f"Gate (--fail-on {fail_on}): FAILS: 2 manifests could not be read, exit 2" in out


def test_only_broken_manifests_still_give_a_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "mixed").mkdir()
    mixed = _break(tmp_path / "mixed")
    monkeypatch.chdir(tmp_path)
    for fmt in ("json", "sarif", "junit"):
        code, out, _ = _check(capsys, mixed, fmt)
        assert code == 2
        _broken_located(fmt, out)


@pytest.mark.parametrize("fmt", list(Format))
def test_streamed_and_held_reports_agree_with_broken_manifests(tmp_path: Path, fmt: Format) -> None:
    paths = sorted(_break(_valid(tmp_path)).iterdir())
    policy = evidence_policy("default")
    options = RenderOptions(fail_on=FailOn.RISK, summary=True)
    report = check_report(paths, policy)
    assert {(Path(e.file).name, e.line, e.column) for e in report.errors} == BROKEN
    out = io.StringIO()
    with check_stream(paths, policy, fmt, options, today=dt.date.today(), jobs=1) as streamed:
        streamed.write_text(out.write)
    assert out.getvalue() == render(report, fmt, options)


@pytest.mark.skipif(not SARIF_SCHEMA.is_file(), reason="../shared/reference/schemas is absent")
def test_the_sarif_log_and_the_json_report_stay_valid(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import jsonschema

    from licheck.schemas import shipped

    folder = _break(_valid(tmp_path))
    monkeypatch.chdir(tmp_path)
    sarif = report_json(_check(capsys, folder, "sarif")[1])
    sarif_schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    assert list(jsonschema.Draft4Validator(sarif_schema).iter_errors(sarif)) == []
    report = json.loads(_check(capsys, folder, "json")[1])
    validator = jsonschema.Draft202012Validator(json.loads(shipped("report")))
    assert list(validator.iter_errors(report)) == []
    assert report["errors"] and report["products"]


@pytest.mark.parametrize("held", [False, True], ids=["streamed", "held"])
def test_an_unmatched_waiver_may_name_a_manifest_not_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, held: bool
) -> None:
    folder = _break(_valid(tmp_path))
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text(
        "waivers:\n  - id: for-broken\n    product: Bad Schema\n"
        "    license: kimi-k2.5-modified-mit\n    clause: ui-attribution\n"
        "    reason: facts_pending\n    comment: x\n    owner: legal@example.com\n"
        "    expires: 2099-06-30\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    also = ("--also", f"text={tmp_path / 'also.txt'}") if held else ()
    code, out, _ = run(capsys, "check", "--waivers", str(waivers), "-f", "json", *also, folder.name)
    assert code == 2
    (status,) = report_json(out)["waivers"]
    assert status["status"] == "unmatched"
    assert "a manifest that could not be read: fix that first" in status["message"]
