"""No setting weakens the gate in silence: configuration files as an attacker or a careless
hand writes them, each with the setting that must be in force (and named beside the gate line,
with where it came from), or the located error (exit 2) it must give.

One table (tests/data/settings_in_force/cases.yaml), one test.  Every case runs `licheck check
m.yaml` (m.yaml: Composer 2, a governance risk: it fails `--fail-on risk`, passes the default
and `never`) from `repo/sub`, a folder of a repository (`repo/.git`), unless it says otherwise;
`repo/.licheck.yaml` is a team file a folder up, and a parent of the repository (`.`) may hold
files no run in it should read."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS
from tests.regression.cases import table


@dataclass(frozen=True)
class Huge:
    """A sparse file of `size` bytes that starts with `head`: never to be read whole."""

    head: str
    size: int = 2 * 1024 * 1024 * 1024


@dataclass(frozen=True)
class Baseline:
    """A JSON report of m.yaml, as a previous run wrote it."""


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str | Huge | Baseline]  # path (from the test's folder) -> text
    code: int  # the exit code of `licheck check m.yaml`
    # the setting in force: key, value, and where it came from (a path from the resolved folder)
    setting: tuple[str, object, str] | None = None
    out: tuple[str, ...] = ()  # in the text report (the gate line and the settings line)
    err: tuple[str, ...] = ()  # on stderr (a located error)
    links: dict[str, str] = field(default_factory=dict)  # link -> target (from the folder)
    git: str = "folder"  # repo/.git: folder, file (a worktree's), dangling (a link), none
    cwd: str = "repo/sub"  # the folder as the user reached it ($PWD)
    pwd: str | None = None  # $PWD when the shell's is stale (default: `cwd`)
    argv: tuple[str, ...] = ()  # more options for `check`


CASES = table(Case, "settings_in_force", Huge, Baseline)


def _build(root: Path, case: Case) -> Path:
    """The case's folders under `root`; the working folder as the user reached it."""
    (root / "repo" / "sub").mkdir(parents=True)
    git = root / "repo" / ".git"
    if case.git == "folder":
        git.mkdir()
    elif case.git == "file":
        git.write_text("gitdir: /nowhere/.git/worktrees/repo\n", encoding="utf-8")
    elif case.git == "dangling":
        git.symlink_to(root / "no-such-git-dir")
    for link, target in case.links.items():
        (root / target).mkdir(parents=True, exist_ok=True)
        shutil.rmtree(root / link, ignore_errors=True)
        (root / link).symlink_to(root / target)
    for name, text in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, Baseline):
            continue  # written by the test, once m.yaml is there
        if isinstance(text, Huge):
            with path.open("wb") as stream:
                stream.write(text.head.encode("utf-8"))
                stream.truncate(text.size)
        else:
            path.write_bytes(text.encode("utf-8"))
    here = root / case.cwd
    shutil.copy(PRODUCTS / "composer2.yaml", here / "m.yaml")
    return here


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_setting_is_in_force_and_named_or_the_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: Case
) -> None:
    here = _build(tmp_path, case)
    monkeypatch.chdir(here)  # the resolved folder
    pwd = tmp_path / case.pwd if case.pwd else here
    pwd.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("PWD", str(pwd))  # as the shell keeps it, links and all
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    monkeypatch.setenv("COLUMNS", "1000")  # no message wraps, however long the folder's path
    for name, text in case.files.items():
        if isinstance(text, Baseline):
            written = run(capsys, "--no-config", "check", "m.yaml", "-f", "json")[1]
            (tmp_path / name).write_text(written, encoding="utf-8")
    code, out, err = run(capsys, "check", "m.yaml", *case.argv)
    assert code == case.code, err
    assert "Traceback" not in err
    for words in case.out:
        assert words in " ".join(out.split()), out  # the text wraps at the terminal's width
    for words in case.err:
        assert words in err, err
    if case.setting is None:
        return
    key, value, source = case.setting
    for fmt in ("json", "sarif"):
        code, out, err = run(capsys, "check", "m.yaml", *case.argv, "-f", fmt)
        assert code == case.code, err
        document = json.loads(out)
        listed = (
            document["gate_settings"]
            if fmt == "json"
            else document["runs"][0]["properties"]["gateSettings"]
        )
        setting = next(s for s in listed if s["key"] == key)
        assert setting["value"] == value, fmt
        assert setting["source"] == source, (fmt, setting)
