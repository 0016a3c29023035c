"""The command-line conventions of conftest, trivy, checkov, reuse and pip-audit, kept as data:
`-V` for `--version`; `--config FILE` / `--no-config` (and `-q`, `--debug`) after the command's
name as well as before it; `-q/--quiet` (no progress line, no `licheck: note:` line; the report,
warnings and errors as ever); `-` for a manifest on standard input, named `<stdin>` in messages
and reports and read within the same size bound as a file.

Each case runs `licheck ARGV` in a folder whose `.licheck.yaml` says `fail-on: risk` (so that a
configuration read or not read shows in the exit code: Composer 2 is a governance risk), with
`stdin` as standard input."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from licheck.files.yamlsafe import MAX_FILE_BYTES
from tests.clirun import run
from tests.conftest import LICENSES, PRODUCTS

COMPOSER = (PRODUCTS / "composer2.yaml").read_bytes()


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]  # {composer}: products/composer2.yaml; {strict}: a config file
    code: int
    out: tuple[str, ...] = ()  # each in stdout
    err: tuple[str, ...] = ()  # each in stderr
    err_is_empty: bool = False
    stdin: bytes | None = None


CASES = [
    # -V is --version
    Case("-V", ("-V",), 0, out=("licheck, version ",)),
    Case("--version", ("--version",), 0, out=("licheck, version ",)),
    # the configuration file's options after the command's name
    Case("config found", ("check", "{composer}"), 1, out=("set at .licheck.yaml:1:1",)),
    Case("--no-config before", ("--no-config", "check", "{composer}"), 0),
    Case("--no-config after", ("check", "{composer}", "--no-config"), 0),
    Case("--no-config after evaluate", ("evaluate", "--no-config", "{composer}"), 0),
    Case("--config before", ("--config", "{lenient}", "check", "{composer}"), 0),
    Case("--config after", ("check", "--config", "{lenient}", "{composer}"), 0),
    Case("--config= after", ("check", "{composer}", "--config={lenient}"), 0),
    Case("--config after evaluate", ("evaluate", "{composer}", "--config", "{lenient}"), 0),
    Case(
        "--config and --no-config after",
        ("check", "{composer}", "--config", "{lenient}", "--no-config"),
        2,
        err=("--config and --no-config exclude each other",),
    ),
    Case(
        "--config without its value",
        ("check", "{composer}", "--config"),
        2,
        err=("Option '--config' requires an argument",),
    ),
    Case(
        "after -- a word is a path",
        ("check", "--", "--no-config"),
        2,
        err=("--no-config: error: no such file or folder",),
    ),
    Case("--debug after", ("evaluate", "{composer}", "--debug"), 1),
    # -q/--quiet: notes go, the report, warnings and errors stay
    Case(
        "a note without -q",
        ("check", "{empty}", "--allow-no-manifests"),
        0,
        err=("licheck: note: no manifests found in",),
    ),
    Case(
        "-q drops the note",
        ("-q", "check", "{empty}", "--allow-no-manifests"),
        0,
        err_is_empty=True,
    ),
    Case(
        "--quiet after the command",
        ("check", "{empty}", "--allow-no-manifests", "--quiet"),
        0,
        err_is_empty=True,
    ),
    Case(
        "-q keeps the report",
        ("-q", "check", "{composer}"),
        1,
        out=("Composer 2", "Gate (--fail-on risk"),
        err_is_empty=True,
    ),
    Case(
        "-q keeps the gate line that names the configuration",
        ("-q", "check", "{composer}", "--config", "{never}"),
        0,
        out=("Gate (--fail-on never, set at never.yaml:1:1): passes",),
    ),
    Case(
        "-q keeps errors",
        ("-q", "evaluate", "{missing}"),
        2,
        err=("missing.yaml: error: no such file", "1 problem in the input"),
    ),
    # `-`: a manifest on standard input
    Case("evaluate -", ("evaluate", "-", "--no-config"), 0, out=("<stdin>",), stdin=COMPOSER),
    Case(
        "check - names <stdin> in the report",
        ("check", "-", "-f", "json"),
        1,
        out=('"file": "<stdin>"',),
        stdin=COMPOSER,
    ),
    Case(
        "- beside a file",
        ("evaluate", "--no-config", "-", "{composer}", "-f", "json"),
        0,
        out=('"file": "<stdin>"', "composer2.yaml"),
        stdin=COMPOSER,
    ),
    Case("validate -", ("validate", "-"), 0, out=("ok: <stdin> (manifest)",), stdin=COMPOSER),
    Case(
        "notices -",
        ("notices", "-"),
        0,
        out=("# What the licenses ask the products to carry",),
        stdin=COMPOSER,
    ),
    Case(
        "a located error names <stdin>",
        ("evaluate", "-"),
        2,
        err=("<stdin>:1:1: error: missing required key 'components'",),
        stdin=b"product: X\nowner: Y\n",
    ),
    Case(
        "check - with an error",
        ("check", "-"),
        2,
        err=("<stdin>:1:1: error: missing required key",),
        stdin=b"product: X\n",
    ),
    Case(
        "empty stdin",
        ("evaluate", "-"),
        2,
        err=("<stdin>:1:1: error: the file is empty",),
        stdin=b"",
    ),
    Case(
        "stdin not UTF-8",
        ("validate", "-"),
        2,
        err=("<stdin>:1:", "not valid UTF-8"),
        stdin=b"product: caf\xe9\n",
    ),
    Case(
        "stdin over the file size bound",
        ("evaluate", "-"),
        2,
        err=(f"<stdin>: error: standard input is too large (the limit is {MAX_FILE_BYTES:,}",),
        stdin=b"#" * (MAX_FILE_BYTES + 1),
    ),
    Case(
        "stdin at the bound is read",
        ("validate", "-"),
        0,
        out=("ok: <stdin> (manifest)",),
        stdin=COMPOSER + b"#" * (MAX_FILE_BYTES - len(COMPOSER)),
    ),
    Case(
        "- named twice",
        ("evaluate", "-", "-"),
        2,
        err=("'-' (standard input) can be named once",),
        stdin=COMPOSER,
    ),
    Case(
        "a license file on stdin is not validated as a manifest",
        ("validate", "-"),
        2,
        err=("<stdin>: error: standard input holds a license file",),
        stdin=(LICENSES / "mit.yaml").read_bytes(),
    ),
    Case(
        "closed stdin",
        ("evaluate", "-"),
        2,
        err=("<stdin>: error: standard input is closed",),
        stdin=None,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_cli_convention(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    unwrapped: None,
    case: Case,
) -> None:
    (tmp_path / ".licheck.yaml").write_text("fail-on: risk\n", encoding="utf-8")
    (tmp_path / "lenient.yaml").write_text("fail-on: violation\n", encoding="utf-8")
    (tmp_path / "never.yaml").write_text("fail-on: never\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "composer2.yaml").write_bytes(COMPOSER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    places = {"composer": "composer2.yaml", "lenient": "lenient.yaml", "never": "never.yaml"}
    places |= {"empty": "empty", "missing": "missing.yaml"}
    argv = [word.format(**places) for word in case.argv]
    stdin = io.TextIOWrapper(io.BytesIO(case.stdin)) if case.stdin is not None else None
    if case.stdin is not None or "-" in argv:
        monkeypatch.setattr(sys, "stdin", stdin)
    code, out, err = run(capsys, *argv)
    assert code == case.code, out + err
    for part in case.out:
        assert part in out, out
    for part in case.err:
        assert part in err, err
    if case.err_is_empty:
        assert err == ""
