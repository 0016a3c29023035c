"""The gate line names the configuration file that set `--fail-on`: user text, escaped by every
format, so a file name cannot start a CI workflow command (`::error::`) or drive the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import run
from tests.config.test_settings import COMPOSER, project

__all__ = ["project"]  # the fixture

NAME = "evil\n::error::\x1b[2J.yaml"


@pytest.mark.parametrize("fmt", ["text", "compact", "github", "markdown", "html"])
def test_a_config_file_name_in_the_gate_line_is_escaped(
    project: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "sub" / NAME).write_text("fail-on: never\n", encoding="utf-8")
    code, out, err = run(capsys, "--config", NAME, "check", str(COMPOSER), "-f", fmt)
    assert code == 0, err
    assert "set at evil" in out  # the gate line names the file
    assert not any(line.startswith("::error::") for line in out.splitlines())
    assert "\x1b" not in out
