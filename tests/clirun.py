"""Run the CLI in-process through the same guard as the console script, capturing output."""

from __future__ import annotations

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `licheck ARGV...`."""
    code = run_guarded(cli, list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
