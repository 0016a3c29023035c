"""Crashes, noise and false passes: hostile bytes, option values, paths and environments given to
every command, each with the answer it must get — an exit code and, for a bad input, the located
message (file:line:column where a file is involved) on stderr; never a traceback, never exit 3
(an internal error), and never a pass (exit 0) for a gate whose input could not be read.

One table (tests/data/no_internal_errors/cases.yaml), one test.  Every case runs `licheck ARGV`
in a fresh folder (a repository: `.git`) holding `m.yaml` (Composer 2: a governance risk, passes
the default gate) and `v.yaml` (a violation: fails it) and the case's own files.  A case with
`env` runs the console script in a subprocess (the environment and the interpreter's own
standard streams are then the real ones)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS
from tests.regression.cases import table

VIOLATION = """\
format: 2
product: Vee
owner: Acme
release_date: 2026-03-19
sources:
  s: {title: Our own statement, kind: declared, date: 2026-03-19}
facts:
  commercial: {value: true, evidence: [{source: s}]}
  mau: {value: 200M, evidence: [{source: s}]}
  monthly_revenue: {value: 1M USD/month, evidence: [{source: s}]}
  ui_attribution: {value: [], evidence: [{source: s}]}
agreements: none
components:
  - id: vee
    name: Vee
    delivery: [hosted_service]
    lineage:
      base:
        model: kimi-k2.5
        evidence: [{source: s}]
"""


@dataclass(frozen=True)
class Link:
    """A symlink to `target` (a path from the case's folder, or an absolute one)."""

    target: str


@dataclass(frozen=True)
class Fifo:
    """A named pipe: no writer ever opens it, so reading it would hang the run."""


@dataclass(frozen=True)
class Folder:
    """An empty folder."""


File = str | bytes | Link | Fifo | Folder


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    code: int
    err: tuple[str, ...] = ()  # each on stderr
    out: tuple[str, ...] = ()  # each on standard output
    files: dict[str, File] = field(default_factory=dict)
    env: dict[str, str] | None = None  # run the console script in a subprocess with these set
    cwd: str = "."  # the folder the run starts in (from the case's folder)


CASES = table(Case, "no_internal_errors", Link, Fifo, Folder)


def _build(folder: Path, files: dict[str, File]) -> None:
    (folder / ".git").mkdir()
    (folder / "m.yaml").write_text((PRODUCTS / "composer2.yaml").read_text("utf-8"), "utf-8")
    (folder / "v.yaml").write_text(VIOLATION, "utf-8")
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            path.symlink_to(content.target)
        elif isinstance(content, Fifo):
            os.mkfifo(path)
        elif isinstance(content, Folder):
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")


def _subprocess(argv: tuple[str, ...], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LICHECK", "GITHUB"))}
    done = subprocess.run(
        [sys.executable, "-m", "licheck", *argv],
        cwd=cwd,
        env=environment | env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8")


def _name(c: Case | object) -> str:
    return c.name if isinstance(c, Case) else c.values[0].name  # type: ignore[attr-defined]


@pytest.mark.parametrize("c", CASES, ids=[_name(c) for c in CASES])
def test_hostile_input_gets_a_clean_answer(
    c: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(tmp_path, c.files)
    monkeypatch.chdir(tmp_path / c.cwd)
    monkeypatch.setenv("PWD", str(tmp_path / c.cwd))
    monkeypatch.setenv("COLUMNS", "1000")  # a long message on one line
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    if c.env is None:
        code, out, err = run(capsys, *c.argv)
    else:
        code, out, err = _subprocess(c.argv, c.env, tmp_path / c.cwd)
    assert "Traceback" not in out + err
    assert "internal error" not in err
    assert code == c.code, f"exit {code}, not {c.code}:\n{err}\n{out[-2000:]}"
    for text in c.err:
        assert text in err, err
    for text in c.out:
        assert text in out, out
    if c.code == 2:
        assert "error" in err.lower(), err
