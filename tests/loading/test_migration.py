"""Manifests written before `format:` (issue 24, deliverable 5): a warning naming the readings
that changed for the file (stderr, once per file, not under -q, never in the report), and
`licheck migrate` writing format 2 with the changed constructs, comments and order kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import run

LEGACY = """\
# Chat product, written for an earlier licheck
product: Chat
owner: Acme   # the company
facts:
  commercial: true
  mau: 1M
  monthly_revenue: 240M USD/year
  agreement: []
  ui_attribution: {excludes: [Kimi K2.5]}
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: kimi-k2.5
      steps:
        - fine_tuning
        - {kind: distillation, parents: [llama-3.1-70b]}
"""


def _legacy(tmp_path: Path, text: str = LEGACY, name: str = "chat.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_manifest_without_format_is_warned_once_naming_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _legacy(tmp_path)
    code, out, err = run(capsys, "evaluate", str(path), str(path), "--format", "json")
    assert code in (0, 1), err
    json.loads(out)  # the report is untouched
    assert err.count(f"{path}:1:1: warning: no `format:`") == 1
    flat = " ".join(err.split())
    for reading in (
        "line 7: yearly figures",
        "line 8: agreement: []",
        "line 18: distillation parents",
        "line 3: owners",
        "new duties",
        "serving a model",
    ):
        assert reading in flat, reading
    assert f"licheck migrate {path}" in flat


@pytest.mark.parametrize("command", ["validate", "check", "whatif", "timeline"])
def test_every_command_that_reads_manifests_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = _legacy(tmp_path)
    target = str(tmp_path) if command == "check" else str(path)
    _, _, err = run(capsys, command, target)
    assert err.count("warning: no `format:`") == 1


def test_quiet_and_format_2_get_no_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _legacy(tmp_path)
    _, _, err = run(capsys, "-q", "evaluate", str(path), "--format", "json")
    assert "warning: no `format:`" not in err
    versioned = _legacy(tmp_path, "format: 2\n" + LEGACY, "v2.yaml")
    _, _, err = run(capsys, "evaluate", str(versioned))
    assert "warning" not in err


def test_migrate_writes_format_2_keeping_comments_and_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _legacy(tmp_path)
    before = run(capsys, "evaluate", str(path), "--format", "json")[1]
    code, out, err = run(capsys, "migrate", str(path))
    assert code == 0, err and "migrated to format 2" in out
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# Chat product, written for an earlier licheck"
    assert lines[1] == "format: 2"
    assert lines[2].startswith("agreements: none")
    assert "  agreement: []" not in lines
    assert "owner: Acme   # the company" in lines
    assert "# licheck migrate: distillation parents" in text
    # the original lines, in order, with nothing else changed
    kept = [ln for ln in lines if not ln.lstrip().startswith("# licheck migrate:")][3:]
    assert kept == [ln for ln in LEGACY.splitlines()[1:] if ln != "  agreement: []"]
    code, _, err = run(capsys, "validate", str(path))
    assert code == 0 and "warning" not in err
    after = run(capsys, "evaluate", str(path), "--format", "json")[1]
    verdicts = [
        [
            (f["license"], f["clause"], f["verdict"])
            for f in json.loads(report)["products"][0]["findings"]
        ]
        for report in (before, after)
    ]
    assert verdicts[0] == verdicts[1]  # the same readings: format 2 is what was read already


def test_migrate_dry_run_and_check_print_the_diff_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _legacy(tmp_path)
    code, out, _ = run(capsys, "migrate", "--dry-run", str(path))
    assert code == 0 and "+format: 2" in out and "-  agreement: []" in out
    code, out, _ = run(capsys, "migrate", "--check", str(path))
    assert code == 1 and "+format: 2" in out
    assert path.read_text(encoding="utf-8") == LEGACY
    run(capsys, "migrate", str(path))
    code, out, _ = run(capsys, "migrate", "--check", str(path))
    assert code == 0 and "already format 2" in out


def test_migrate_refuses_a_manifest_that_cannot_be_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _legacy(tmp_path, LEGACY.replace("product: Chat", "prodct: Chat"))
    code, _, err = run(capsys, "migrate", str(path))
    assert code == 2 and f"{path}:2:1:" in err
    assert "prodct" in path.read_text(encoding="utf-8")
