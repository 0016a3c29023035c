"""The process around the command: odd environments (encodings, TERM, COLUMNS, HOME) give output
and no traceback, a closed stdout or pipe keeps the gate's exit code (never 0 for a failing
gate), Ctrl-C exits 130 for every command, a full disk on stdout is a clear error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


TIMEOUT = 60


def _licheck(
    *argv: str, env: dict[str, str] | None = None, **kw: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "licheck", *argv],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        **kw,
    )


ENVIRONMENTS = {
    "cp1252": {"PYTHONIOENCODING": "cp1252"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin1-strict": {"PYTHONIOENCODING": "latin-1:strict"},
    "term-dumb": {"TERM": "dumb"},
    "columns-10": {"COLUMNS": "10"},
    "no-home": {"HOME": ""},
}


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_environment_gives_output_not_traceback(name: str, fmt: str) -> None:
    env = dict(ENVIRONMENTS[name])
    result = _licheck("check", "products/composer2.yaml", "-f", fmt, "--fail-on", "risk", env=env)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    assert "Composer 2" in result.stdout


@pytest.mark.parametrize("fail_on", [("violation", 0), ("risk", 1)], ids=["passes", "fails"])
def test_closed_stdout_keeps_the_gate(fail_on: tuple[str, int]) -> None:
    flag, expected = fail_on
    result = subprocess.run(
        [
            "sh",
            "-c",
            f'"{sys.executable}" -m licheck check products/composer2.yaml --fail-on {flag} >&-',
        ],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
    )
    assert result.returncode == expected
    assert "standard output is closed" in result.stderr
    assert "Traceback" not in result.stderr


COMPOSER = ROOT / "products" / "composer2.yaml"


COMMANDS = {
    "evaluate": ["evaluate", str(COMPOSER), "--no-waivers"],
    "whatif": ["whatif", str(COMPOSER)],
    "licenses-list": ["licenses", "list"],
    "licenses-show": ["licenses", "show", "apache-2.0"],
    "licenses-models": ["licenses", "models"],
    "schema": ["schema", "report"],
    "validate": ["validate", str(COMPOSER)],
    "import-hf": [
        "import",
        "hf",
        str(ROOT / "tests" / "data" / "import" / "kimi-finetune-README.md"),
    ],
    "import-bom": [
        "import",
        "cyclonedx",
        str(ROOT / "tests" / "data" / "import" / "bom-kimi-1.6.json"),
    ],
}


def _leaf(argv: list[str]) -> object:
    """The click command that `argv` runs."""
    from licheck.cli import load_command

    command = load_command(argv[0])
    if argv[0] in ("licenses", "import"):
        group = command
        assert hasattr(group, "commands")
        command = group.commands[argv[1]]
    return command


@pytest.mark.parametrize("name", COMMANDS)
def test_ctrl_c_exits_130_for_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_leaf(COMMANDS[name]), "callback", interrupted)
    code, out, err = run(capsys, *COMMANDS[name])
    assert (code, out, err.strip()) == (130, "", "Interrupted.")


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize("name", [*COMMANDS, "evaluate-failing", "check"])
def test_closed_pipe_never_exits_0(name: str) -> None:
    import os
    import subprocess
    import sys

    argv = {
        "evaluate-failing": ["evaluate", str(COMPOSER), "--no-waivers", "--fail-on", "risk"],
        "check": ["check", str(COMPOSER), "--no-waivers"],
    }.get(name) or COMMANDS[name]
    process = subprocess.Popen(
        [sys.executable, "-m", "licheck", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader goes away before anything is written
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert b"Traceback" not in err


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(COMPOSER), "--no-waivers"],
        ["check", str(COMPOSER), "--no-waivers", "-f", "json"],
        ["evaluate", str(COMPOSER), "--no-waivers"],
        ["whatif", str(COMPOSER)],
        ["licenses", "list"],
    ],
    ids=["check", "check-json", "evaluate", "whatif", "licenses"],
)
def test_full_disk_on_stdout_is_a_clear_error(argv: list[str]) -> None:
    import os
    import subprocess
    import sys

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "licheck", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
    assert result.returncode == 2
    assert result.stderr == (
        "licheck: error: cannot write standard output: No space left on device\n"
    )
