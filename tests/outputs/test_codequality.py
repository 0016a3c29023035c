"""`--format codequality`: GitLab Code Quality JSON, what a merge request shows inline.

GitLab requires, for each entry, `description`, `check_name`, `fingerprint`, `severity` (one of
info, minor, major, critical, blocker) and `location.path` with `location.lines.begin`; a path
is resolved against the repository's top folder, and the fingerprint is what the merge-request
widget compares between the two branches."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import report_json, run
from tests.conftest import ROOT
from tests.outputs.test_ci_platforms import WAIVERS, _repo

SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def _valid(entries: Any) -> None:
    """Every entry has exactly what GitLab reads, of the types it reads."""
    assert isinstance(entries, list)
    for entry in entries:
        assert set(entry) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert isinstance(entry["description"], str) and entry["description"]
        assert isinstance(entry["check_name"], str) and entry["check_name"]
        assert entry["severity"] in SEVERITIES
        assert set(entry["location"]) == {"path", "lines"}
        assert isinstance(entry["location"]["path"], str)
        assert not entry["location"]["path"].startswith("/")
        begin = entry["location"]["lines"]["begin"]
        assert isinstance(begin, int) and begin >= 1
    fingerprints = [entry["fingerprint"] for entry in entries]
    assert len(set(fingerprints)) == len(fingerprints)


def test_paths_are_repository_relative_and_severity_says_what_a_finding_is(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo / "apps")  # run below the top folder: paths still from the top
    code, out, err = run(capsys, "check", "products", "-f", "codequality")
    entries = json.loads(out)
    _valid(entries)
    assert code == 1 and err == ""
    assert {e["location"]["path"] for e in entries} == {
        "apps/products/acme.yaml",
        "apps/products/composer2.yaml",
    }
    by_name = {e["check_name"]: e for e in entries}
    violation = next(e for e in entries if e["description"].startswith("violation"))
    assert violation["severity"] == "critical"
    risks = [e for e in entries if e["description"].startswith("governance risk")]
    assert risks and {e["severity"] for e in risks} <= {"major", "minor"}
    assert all(name.count("/") == 1 for name in by_name)  # license/clause


def test_waived_findings_are_info_and_keep_their_fingerprint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    shutil.copy(WAIVERS, repo / ".licheck-waivers.yaml")
    monkeypatch.chdir(repo)
    runs = {}
    for today in ("2026-04-01", "2026-07-01"):  # the waiver applies, then it has expired
        _, out, _ = run(capsys, "check", "apps", "-f", "codequality", "--today", today)
        runs[today] = {e["fingerprint"]: e for e in json.loads(out)}
        _valid(list(runs[today].values()))
    waived = [f for f, e in runs["2026-04-01"].items() if e["severity"] == "info"]
    assert waived
    for fingerprint in waived:  # the same entry, open again once the waiver expired
        assert runs["2026-07-01"][fingerprint]["severity"] in {"major", "minor", "critical"}
        assert "(waived)" in runs["2026-04-01"][fingerprint]["description"]


def test_a_manifest_not_read_is_a_blocker_beside_the_others(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    (repo / "apps" / "products" / "broken.yaml").write_text("product: [unclosed\n", "utf-8")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "check", "apps", "-f", "codequality")
    entries = json.loads(out)
    _valid(entries)
    assert code == 2
    (blocker,) = [e for e in entries if e["severity"] == "blocker"]
    assert blocker["location"] == {"path": "apps/products/broken.yaml", "lines": {"begin": 2}}
    assert blocker["check_name"] == "licheck/manifest-not-read"
    assert len(entries) > 1  # the other manifests were evaluated


def test_an_empty_report_is_an_empty_array(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from licheck.outputs import Format, render
    from licheck.report.view import Report

    monkeypatch.chdir(ROOT)
    _, report, _ = run(capsys, "check", "products/composer2.yaml", "-f", "json")
    full = Report.model_validate(report_json(report))
    empty = full.model_copy(update={"products": [], "errors": []})
    assert render(empty, Format.CODEQUALITY) == "[\n]\n"
    assert json.loads(render(empty, Format.CODEQUALITY)) == []


def test_the_streamed_portfolio_equals_the_report_rendered_at_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from licheck.outputs import Format, RenderOptions, render
    from licheck.report.view import Report

    repo = _repo(tmp_path)
    for n in range(3):
        shutil.copy(ROOT / "products" / "composer2.yaml", repo / "apps" / f"copy{n}.yaml")
    monkeypatch.chdir(repo)
    _, streamed, _ = run(capsys, "check", "apps", "-f", "codequality")
    _, report, _ = run(capsys, "check", "apps", "-f", "json")
    options = RenderOptions(root=repo.as_posix(), cwd=repo.as_posix())
    at_once = render(Report.model_validate(report_json(report)), Format.CODEQUALITY, options)
    assert streamed == at_once
    _valid(json.loads(streamed))
