"""Run the CLI in-process, as the console script does, capturing its output."""

from __future__ import annotations

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_guarded(cli, list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
