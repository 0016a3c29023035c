"""Run the CLI in-process through the same guard as the console script, capturing output."""

from __future__ import annotations

import json
from typing import Any

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded
from licheck.report.leaner import expanded


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `licheck ARGV...`."""
    code = run_guarded(cli, list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def report_json(text: str | bytes) -> Any:
    """A JSON document as a test reads it: a report of schema 2.0 expanded to the 1.0 shape
    (`report.leaner.expanded`, proved lossless by tests/report/test_leaner.py), so that a test
    reads each finding's facts and texts where it is; any other document as it is."""
    data = json.loads(text)
    if isinstance(data, dict) and data.get("schema_version") == "2.0" and "clauses" in data:
        return expanded(data)
    return data
